//! Scheduling policies: each one a trait object that decides; the engine applies its decisions.
//!
//! Policies are named by spec strings (`easy[queue=sjf]`), parsed strictly by [`build`]; the
//! catalogue ([`catalogue`]) lists every policy with its keys, defaults and source, and is what
//! the CLI's `policies` command and the page's policy picker show. A [`Registry`] holds the
//! catalogue plus any policy registered from outside the crate.

pub mod alloc;
pub mod blocks;
mod catalogue;
mod compose;
pub mod estimate;
pub mod external;
mod keys;
pub mod order;
pub mod plan;
pub mod queue;
mod registry;
pub mod rule;
mod samples;
pub mod slurm;

pub use crate::sim::Policy;
pub use crate::spec::{Spec, SpecError};
pub use compose::Composed;
pub use external::{answer_len, Decider, External, PassView, Pick};
pub use keys::{KeyInfo, Params, Values};
pub use registry::{PolicyInfo, Registry};
pub use samples::sample_specs;

/// Every policy schedlab knows.
pub fn catalogue() -> &'static [PolicyInfo] {
    catalogue::CATALOGUE
}

/// Parses a spec string and builds the configured policy of the catalogue.
pub fn build(text: &str) -> Result<Box<dyn Policy>, SpecError> {
    registry::build_from(catalogue(), text).map_err(|e| match slurm::is_slurm(text) {
        true => slurm::later_or_unmodelled(e),
        false => e,
    })
}

/// Checks a spec string and returns its canonical form (non-default keys in catalogue order).
pub fn canonical(text: &str) -> Result<String, SpecError> {
    build(text).map(|p| p.spec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_list_what_is_valid() {
        let e = build("nope").err().unwrap().to_string();
        assert!(
            e.contains("unknown policy \"nope\"")
                && e.contains("easy")
                && e.contains("conservative"),
            "{e}"
        );
        // A typo: the policy it is one letter from, then the list ("esay" said only the list).
        let e = build("esay").err().unwrap().to_string();
        assert!(
            e.contains("unknown policy \"esay\" (did you mean \"easy\"?); valid: fcfs, easy"),
            "{e}"
        );
        assert!(!build("nope")
            .err()
            .unwrap()
            .to_string()
            .contains("did you mean"));
        let e = build("easy[speed=3]").err().unwrap().to_string();
        assert!(
            e.contains("unknown key \"speed\"")
                && e.contains("valid keys: queue, weight, halflife, order"),
            "{e}"
        );
        let e = build("easy[order=ljf]").err().unwrap().to_string();
        assert!(
            e.contains("order=ljf is not valid") && e.contains("fcfs, sjf"),
            "{e}"
        );
        let e = build("historic[order=sjf]").err().unwrap().to_string();
        assert!(e.contains("takes no keys"), "{e}");
    }

    /// A predictor's key written beside it, as the project's design notes spell the PV-EASY
    /// paper's policy (`pv-easy[predictor=virtual,err=0.2]`): the error says where it goes.
    /// The predictor key's values are `user|exact|virtual[err=x]|last|rfactor[r=R,mode=M]`:
    /// `err` is virtual's, `mode` rfactor's; `slp` is none's, and its error stays as it was.
    #[test]
    fn a_key_of_a_value_written_beside_it_is_shown_its_place() {
        let e = build("pv-easy[predictor=virtual,err=0.2]")
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.ends_with(
                "unknown key \"err\" for pv-easy; valid keys: predictor, slp, vb (\"err\" is a key \
                 of predictor=virtual: write predictor=virtual[err=0.2])"
            ),
            "{e}"
        );
        let e = build("easy[predictor=rfactor,mode=rnd]")
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains(
                "(\"mode\" is a key of predictor=rfactor: write predictor=rfactor[mode=rnd])"
            ),
            "{e}"
        );
        // `slp` is none's: the policies it is a key of are named.
        let e = build("easy[slp=off]").err().unwrap().to_string();
        assert!(
            e.ends_with("valid keys: queue, weight, halflife, order, predictor (a key of pv-easy)"),
            "{e}"
        );
        assert!(build("pv-easy[predictor=virtual[err=0.2]]").is_ok());
    }

    /// A `slurm` parameter given to another policy (`easy[bf_window=60]`, as if every policy
    /// had Slurm's backfill): the error names the policy whose key it is (it listed only
    /// easy's keys); a key of no policy gets no such note.
    #[test]
    fn a_key_of_another_policy_is_said_to_be_its() {
        let e = build("easy[bf_window=60]").err().unwrap().to_string();
        assert!(
            e.ends_with("valid keys: queue, weight, halflife, order, predictor (a key of slurm)"),
            "{e}"
        );
        let e = build("fcfs[PriorityWeightAge=1000]")
            .err()
            .unwrap()
            .to_string();
        assert!(e.ends_with("(a key of slurm)"), "{e}");
        let e = build("easy[nosuch=1]").err().unwrap().to_string();
        assert!(e.ends_with("order, predictor"), "{e}");
    }

    #[test]
    fn canonical_drops_defaults() {
        assert_eq!(canonical("easy[order=fcfs]").unwrap(), "easy");
        assert_eq!(canonical("easy[ order = sjf ]").unwrap(), "easy[order=sjf]");
        for p in catalogue() {
            assert_eq!(canonical(p.name).unwrap(), p.name);
        }
    }

    /// Every listed value of every key of every policy builds (alone, the other keys at their
    /// defaults) or fails with a message about the spec, never about the policy's own code; a
    /// value that builds appears in the canonical spec unless it is the default (`slurm` keeps
    /// every key given, which overrides a slurm.conf's value: `Params::canonical_keeping`).
    #[test]
    fn every_listed_value_builds_or_says_why() {
        for p in catalogue() {
            for k in p.keys {
                let text = k.values.text();
                if !text.contains('|') {
                    continue;
                }
                for v in text.split('|') {
                    let spec = format!("{}[{}={v}]", p.name, k.name);
                    match canonical(&spec) {
                        Ok(c) => assert_eq!(
                            c.contains(&format!("{}={v}", k.name)),
                            v != k.default || p.name == slurm::ENTRY.name,
                            "{spec} -> {c}"
                        ),
                        Err(e) => assert!(!e.reason.contains("does not declare"), "{spec}: {e}"),
                    }
                }
            }
        }
    }
}
