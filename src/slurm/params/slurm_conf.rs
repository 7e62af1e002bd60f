//! The reading of a slurm.conf into the `slurm` policy's parameters: which of its keys, and
//! which `SchedulerParameters` options, name a parameter ([`key_name`], [`option_name`]), and
//! the (Slurm name, value) pairs they set ([`conf_pairs`]), which [`super::SlurmParams::set`]
//! then reads as a spec's keys.

use super::NAMES;

/// The parameters a slurm.conf sets, as (Slurm name, value) pairs in [`NAMES`] spelling:
/// its keys matched without regard to case, `SchedulerParameters` split into its options (a
/// bare `bf_continue` is `yes`), the default partition's `PriorityJobFactor` given by the
/// caller. Keys the model does not read are left out.
pub fn conf_pairs<'a>(
    entries: impl Iterator<Item = (&'a str, &'a str)>,
) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    let mut put = |name: &'static str, v: String| match out.iter_mut().find(|(n, _)| *n == name) {
        Some(slot) => slot.1 = v,
        None => out.push((name, v)),
    };
    for (k, v) in entries {
        if k.eq_ignore_ascii_case("SchedulerParameters") {
            for opt in v.split(',') {
                let (ok, ov) = opt.split_once('=').unwrap_or((opt, "yes"));
                if let Some(n) = option_name(ok) {
                    put(n, ov.trim().to_string());
                }
            }
        } else if let Some(n) = key_name(k) {
            put(n, v.trim().to_string());
        }
    }
    out
}

/// The parameter a `SchedulerParameters` option names (`bf_window`, any case), in [`NAMES`]
/// spelling.
pub(super) fn option_name(option: &str) -> Option<&'static str> {
    let option = option.trim();
    NAMES
        .iter()
        .find(|n| n.eq_ignore_ascii_case(option) && n.starts_with(char::is_lowercase))
        .copied()
}

/// The parameter a slurm.conf key names (`PriorityWeightAge`, any case), in [`NAMES`]
/// spelling; `PriorityJobFactor` is a partition's, not a key of the file.
pub(super) fn key_name(key: &str) -> Option<&'static str> {
    NAMES
        .iter()
        .find(|n| {
            n.eq_ignore_ascii_case(key)
                && n.starts_with(char::is_uppercase)
                && **n != "PriorityJobFactor"
        })
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conf_pairs_split_scheduler_parameters() {
        let conf = [
            (
                "schedulerparameters",
                "bf_interval=5,bf_window=30,bf_continue,sched_interval=10,max_rpc_cnt=9,\
                 batch_sched_delay=7",
            ),
            ("PriorityWeightAge", "1000"),
            ("ClusterName", "lab"),
        ];
        let pairs = conf_pairs(conf.iter().copied());
        assert_eq!(
            pairs,
            vec![
                ("bf_interval", "5".to_string()),
                ("bf_window", "30".to_string()),
                ("bf_continue", "yes".to_string()),
                ("sched_interval", "10".to_string()),
                ("batch_sched_delay", "7".to_string()),
                ("PriorityWeightAge", "1000".to_string()),
            ]
        );
    }

    /// A key given twice keeps its last value, in the place of its first; keys match without
    /// regard to case but options only as options (`bf_window` is no key of its own, and
    /// `PriorityJobFactor` is a partition's, not the file's); an option without a value is
    /// `yes`, spaces around a value are dropped.
    #[test]
    fn a_later_key_wins_and_only_the_models_names_are_read() {
        let conf = [
            ("PRIORITYMAXAGE", "7-0"),
            ("bf_window", "60"),
            ("PriorityJobFactor", "5"),
            ("SchedulerParameters", " bf_continue , bf_window = 30 "),
            ("prioritymaxage", " 1-0 "),
        ];
        assert_eq!(
            conf_pairs(conf.iter().copied()),
            vec![
                ("PriorityMaxAge", "1-0".to_string()),
                ("bf_continue", "yes".to_string()),
                ("bf_window", "30".to_string()),
            ]
        );
        assert_eq!(key_name("overtimelimit"), Some("OverTimeLimit"));
        assert_eq!(key_name("bf_window"), None);
        assert_eq!(key_name("PriorityJobFactor"), None);
        assert_eq!(option_name(" BF_Window "), Some("bf_window"));
        assert_eq!(option_name("KillWait"), None);
    }
}
