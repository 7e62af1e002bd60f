//! The `slurm` policy: Slurm 22.05's priority/multifactor order (`order/slurm.rs`) and its main
//! and backfill scheduling loops (`rule/slurm.rs`), sharing the plugin's state
//! (`crate::slurm`). Its keys are Slurm's own parameter names, each declared here with Slurm's
//! default; a site's slurm.conf sets them first and a spec's keys override it
//! ([`build_with_site`]). docs/slurm.md gives every rule with its source.

use super::compose::Composed;
use super::order::SlurmPriority;
use super::rule::slurm::SlurmSched;
use super::{KeyInfo, Params, Policy, PolicyInfo, Spec, SpecError, Values};
use crate::slurm::params::SlurmParams;
use crate::slurm::state::{Shared, State};
use crate::slurm::Site;

const fn key(
    name: &'static str,
    default: &'static str,
    values: &'static str,
    help: &'static str,
    example: &'static [&'static str],
) -> KeyInfo {
    KeyInfo {
        name,
        default,
        values: Values::Text(values),
        help,
        presets: &[],
        examples: example,
    }
}

const WEIGHT: &str = "a whole number >= 0";
const MINUTES: &str = "a Slurm time (minutes, D-HH:MM, ...)";

/// The keys, in [`crate::slurm::params::NAMES`] order.
pub static KEYS: &[KeyInfo] = &[
    key("PriorityWeightAge", "0", WEIGHT, "weight of the age factor (seconds waited / PriorityMaxAge, at most 1)", &["1000"]),
    key("PriorityWeightFairshare", "0", WEIGHT, "weight of the fairshare factor (Fair Tree or classic)", &["10000"]),
    key("PriorityWeightJobSize", "0", WEIGHT, "weight of the job size factor", &["1000"]),
    key("PriorityWeightPartition", "0", WEIGHT, "weight of the partition factor (the job's partition's PriorityJobFactor over the largest partition's)", &["1000"]),
    key("PriorityWeightQOS", "0", WEIGHT, "weight of the QOS factor (the job's QOS priority over the largest QOS priority; the priorities from --qos or the qos key)", &["10000"]),
    key("qos", "none", "none, or name:priority, several in parentheses: (high:100,normal:10)", "the QOS priorities (sacctmgr's; in place of a --qos file): a job's QOS is the log's QOS column, normal when it has none; a QOS not given has priority 0 (not a Slurm parameter)", &["(high:100,normal:10)"]),
    key("PriorityWeightTRES", "none", "TRES=weight, several in parentheses: (CPU=1000,Node=500)", "weights of the TRES factors (CPU and Node on a single pool)", &["CPU=1000"]),
    key("PriorityMaxAge", "7-00:00:00", MINUTES, "age at which the age factor reaches 1", &["01:00:00"]),
    key("PriorityDecayHalfLife", "7-00:00:00", MINUTES, "half-life of the usage decay (0: no decay)", &["00:10:00"]),
    key("PriorityCalcPeriod", "00:05:00", MINUTES, "how often usage is decayed and priorities recomputed", &["00:01:00"]),
    key("calc_phase", "0", "seconds, 0 to 86400, with a fraction for late in the second; or read", "where the PriorityCalcPeriod periods fall: this many seconds after time 0, modulo the period (Slurm: from the controller's start, which a log does not record; not a Slurm parameter); 58 runs them before the ends and passes of their second, 58.5 after them; read: a replay reads it from the sacct log's Priority column and limit checks (schedlab replay; 0 where it cannot)", &["53", "58.5", "read"]),
    key("calc_early", "none", "none, or seconds of the log (several in parentheses)", "the periods at these seconds run early in their second, before its ends and passes, every other period after them (none: as calc_phase says); Slurm's decay thread and its background loop race within a second, which a debug log times (scripts/slurm-period-sides.py; not a Slurm parameter)", &["(113,353)"]),
    key("calc_early_bf", "none", "none, or seconds of the log (several in parentheses)", "the periods at these seconds come before their second's backfill cycle, every other period after it (none: as calc_early says for the main scheduler); Slurm's backfill thread wakes at its own fraction of a second, which a debug log times (scripts/slurm-period-sides.py; not a Slurm parameter)", &["(58,178)"]),
    key("PriorityUsageResetPeriod", "NONE", "NONE|NOW|DAILY|WEEKLY|MONTHLY|QUARTERLY|YEARLY", "when usage is set back to zero (from time 0)", &[]),
    key("PriorityFavorSmall", "NO", "YES|NO", "the job size factor favours small jobs", &[]),
    key("PriorityFlags", "none", "flags, several in parentheses: NO_FAIR_TREE, SMALL_RELATIVE_TO_TIME, CALCULATE_RUNNING, ...", "priority flags (NO_FAIR_TREE: the classic fairshare formula)", &["NO_FAIR_TREE", "SMALL_RELATIVE_TO_TIME"]),
    key("FairShareDampeningFactor", "1", "a whole number from 1", "dampens the classic fairshare factor", &["5"]),
    key("PriorityJobFactor", "1", "a whole number, 0 to 65535", "the default partition's PriorityJobFactor (0 turns its factor off); other partitions keep their slurm.conf value", &[]),
    key("AccountingStorageEnforce", "none", "words, several in parentheses: associations, limits, qos, safe, all, ...", "with limits (or safe, all) a job's end adds its usage since the last period; without, that part is never counted", &["limits"]),
    key("bf_interval", "30", "seconds, 1 to 10800", "seconds between backfill cycles", &["5"]),
    key("bf_resolution", "60", "seconds, 1 to 3600", "time resolution of backfill reservations", &["10"]),
    key("bf_window", "1440", "minutes, 1 to 43200", "how far ahead backfill reserves, minutes", &["2"]),
    key("bf_max_job_test", "500", "a whole number from 1", "jobs a backfill cycle tests at most", &["3"]),
    key("bf_node_space_size", "bf_max_job_test", "a whole number from 2 to 2000000, or bf_max_job_test (its value)", "records a backfill cycle's map of the nodes holds at most: a job that would get a reservation past them ends the cycle (on a cluster)", &["20"]),
    key("bf_max_job_user", "0", "a whole number (0: no limit)", "jobs of one user a backfill cycle tests at most", &["1"]),
    key("bf_continue", "no", "yes|no", "backfill continues after yielding its locks (no effect in a simulation)", &[]),
    key("bf_min_prio_reserve", "0", "a whole number", "jobs of a lower priority start only now, never with a reservation", &["1000"]),
    key("bf_phase", "none", "none, or seconds from 0 to 86400", "where the backfill cycles fall from the log's start: the thread's last cycle before it ran bf_interval before this second, modulo bf_interval (Slurm: set by the changes before the log, which it does not record; not a Slurm parameter); none: the first cycle at the first pass with a waiting job. Not given, an sacct log with Flags gives it: its first SchedBackfill start's second (docs/slurm.md, \"The loops' phases\")", &["4"]),
    key("default_queue_depth", "100", "a whole number", "jobs the main scheduler tests at an event", &["2"]),
    key("sched_interval", "60", "seconds, 1 to 86400", "seconds between main scheduler runs on the whole queue", &["10"]),
    key("sched_phase", "0", "seconds, 0 to 86400", "where the full runs every sched_interval fall: this many seconds after time 0, modulo the interval (Slurm: from its background thread's start, which a log does not record; not a Slurm parameter). Not given, a Slurm log gives it: the grid of its jobs ended by the 30-s limit checks, which the same thread runs (docs/slurm.md, \"The loops' phases\")", &["9"]),
    key("batch_sched_delay", "3", "seconds, 0 to 86400", "the main scheduler runs for submissions only this long after its last run (its runs at job ends aside)", &["0", "10"]),
    key("KillWait", "30", "seconds, 0 to 65533", "seconds a job killed at its time limit is given to end: backfill's will-run test guesses a job past its planned end ends that long after it (plus OverTimeLimit)", &["5"]),
    key("OverTimeLimit", "0", "minutes, 0 to 65533, or UNLIMITED", "minutes a job may run past its time limit: added to KillWait in backfill's guess at a late job's end (UNLIMITED: a year from now), and in a replay's whole run to the limit at which a limit check ends a job; elsewhere the run lengths are the input's", &["1"]),
    key("MaxJobsAccrue", "none", "none, or a whole number", "the cluster association's MaxJobsAccrue (sacctmgr's): a user accrues age for at most this many waiting jobs at once, the others' age waiting until one starts; with limits enforced (AccountingStorageEnforce=limits); an --assoc row's own MaxJobsAccrue, or a QOS accrue limit, goes first", &["2"]),
];

/// The catalogue's entry.
pub(super) const ENTRY: PolicyInfo = PolicyInfo {
        name: "slurm",
        summary: "Slurm 22.05: multifactor priority (Fair Tree), the main scheduler and backfill, under Slurm's parameter names.",
        description: "Jobs ordered by Slurm's multifactor priority (age, Fair Tree or classic fairshare over decayed usage, job size, partition, TRES), recomputed every PriorityCalcPeriod; the main scheduler starts them in that order until one does not fit, at every job end, for submissions batch_sched_delay (3 s) after its last run, and every sched_interval; every bf_interval a backfill cycle plans each job's earliest start within bf_window (reservations rounded to bf_resolution) and starts those that can start now. Keys are Slurm's names; slurm.conf and sshare files set them with --slurm-conf and --sshare. Full rules: docs/slurm.md.",
        source: "Slurm 22.05 (SchedMD): priority/multifactor (priority_multifactor.c, fair_tree.c), sched/backfill (backfill.c), the main scheduler (job_scheduler.c); doc/html/priority_multifactor.shtml, fair_tree.shtml, sched_config.shtml",
        keys: KEYS,
        alias_of: None,
        build: build_default,
    };

/// Reads every key into the parameters, each recorded in its canonical form.
fn parse(p: &Params) -> Result<SlurmParams, SpecError> {
    let mut out = SlurmParams::default();
    for k in KEYS {
        let raw = p.raw(k.name)?;
        let canon = out
            .set(k.name, raw)
            .map_err(|e| p.error(format!("{}={raw}: {e}", k.name)))?;
        p.record(k.name, canon);
    }
    Ok(out)
}

/// `given`: the keys the user's spec sets (the site's slurm.conf gives the others), kept in the
/// canonical spec even at Slurm's default, which they set in place of the slurm.conf's value.
fn build(p: &Params, site: Site, given: &[&str]) -> Result<Box<dyn Policy>, SpecError> {
    build_shared(p, site, given).map(|(policy, _)| policy)
}

/// [`build`], with the state the order and the rule share.
fn build_shared(
    p: &Params,
    site: Site,
    given: &[&str],
) -> Result<(Box<dyn Policy>, Shared), SpecError> {
    let params = parse(p)?;
    let shared = State::shared(site, params);
    let policy = Box::new(Composed::new(
        p.canonical_keeping(given)?,
        None,
        Some(Box::new(SlurmPriority::new(shared.clone()))),
        Box::new(SlurmSched::new(shared.clone())),
    ));
    Ok((policy, shared))
}

/// The catalogue's builder: no site (Slurm's defaults, every user under root with one share).
fn build_default(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let given: Vec<&str> = KEYS
        .iter()
        .map(|k| k.name)
        .filter(|&k| p.gives(k))
        .collect();
    build(p, Site::default(), &given)
}

/// True when `text` is a `slurm[...]` spec (any other, or no spec, is false).
pub fn is_slurm(text: &str) -> bool {
    Spec::parse(text).is_ok_and(|s| s.name == ENTRY.name)
}

/// Builds `slurm[...]` for a site: its slurm.conf's parameters under the spec's own keys, its
/// sshare tree and its user names. The canonical spec holds every parameter that differs
/// from Slurm's default, from either source, so that it alone gives the same priorities
/// and loops (the sshare tree aside).
pub fn build_with_site(text: &str, site: &Site) -> Result<Box<dyn Policy>, SpecError> {
    if !is_slurm(text) {
        return super::build(text);
    }
    build_sharing(text, site).map(|(policy, _)| policy)
}

/// [`build_with_site`] for a `slurm[...]` spec, with the state its order and rule share: the
/// plugin's priorities as the policy last set them (`State::priority`), which a replay reads
/// ([`crate::replay::Replay::follow_to`]). Any other policy's spec is an error.
pub fn build_sharing(text: &str, site: &Site) -> Result<(Box<dyn Policy>, Shared), SpecError> {
    let mut spec = Spec::parse(text)?;
    if spec.name != ENTRY.name {
        return Err(SpecError {
            spec: text.into(),
            reason: format!("not a {} spec", ENTRY.name),
        });
    }
    // The catalogue's checks first (an unknown key is an error that lists the valid ones).
    super::build(text)?;
    // A slurm.conf value the spec does not replace, which cannot be read: said at its line.
    if let Some((_, reason)) = (site.conf_errors.iter()).find(|(k, _)| spec.get(k).is_none()) {
        return Err(SpecError {
            spec: text.into(),
            reason: reason.clone(),
        });
    }
    let given: Vec<&str> = KEYS
        .iter()
        .map(|k| k.name)
        .filter(|&k| spec.get(k).is_some())
        .collect();
    with_site_conf(&mut spec, site);
    // The loops' phases the spec does not give, read from the log (docs/slurm.md, "The loops'
    // phases"): under the merged parameters (its bf_interval, sched_interval, ...).
    if let Some(clocks) = &site.log_clocks {
        for (k, v) in clocks.phases(&params_of(&spec)) {
            // The spec's own key wins; `calc_phase=read` asks for the one read.
            match spec.params.iter_mut().find(|(n, _)| n == k) {
                None => spec.params.push((k.to_string(), v)),
                Some((_, given)) if given.eq_ignore_ascii_case("read") => *given = v,
                Some(_) => {}
            }
        }
    }
    let merged = spec.to_string();
    build_shared(
        &Params::new(ENTRY.name, KEYS, &spec, &merged),
        site.clone(),
        &given,
    )
}

/// An unknown key of a `slurm` spec that is no typo of a key (no "did you mean") is a Slurm
/// parameter the model does not read, or of a later Slurm than 22.05: the error says where
/// what it models is written.
pub(super) fn later_or_unmodelled(mut e: SpecError) -> SpecError {
    let elsewhere = ["(did you mean", "(a key of", "is a key of"];
    if e.reason.starts_with("unknown key") && !elsewhere.iter().any(|w| e.reason.contains(w)) {
        e.reason.push_str(
            " (not a parameter this model of Slurm 22.05 reads: one of a later Slurm, or one \
             it does not model; docs/slurm.md, \"Parameters\" and \"Later versions\")",
        );
    }
    e
}

/// Adds to `spec` each key of the site's slurm.conf it does not give (a list in parentheses).
fn with_site_conf(spec: &mut Spec, site: &Site) {
    for (k, v) in &site.conf {
        if spec.params.iter().all(|(n, _)| n != k) {
            let v = if v.contains(',') {
                format!("({v})")
            } else {
                v.clone()
            };
            spec.params.push((k.to_string(), v));
        }
    }
}

/// The parameters of a spec's keys as written (a bad value is left at its default: the
/// build reports it).
fn params_of(spec: &Spec) -> SlurmParams {
    let mut p = SlurmParams::default();
    for (k, v) in &spec.params {
        let _ = p.set(k, v);
    }
    p
}

/// What `slurm[...]` spec `text` reads of the loops' phases from the site's log, for a person
/// ([`crate::slurm::phases_from_log::LogClocks::note`], under the spec's keys over the site's
/// slurm.conf); `None` for another policy's spec, or a site without the log's clocks unless
/// the spec asks `calc_phase=read` (the note says why none is read).
pub fn phases_note(text: &str, site: &Site) -> Option<String> {
    let mut spec = Spec::parse(text).ok().filter(|s| s.name == ENTRY.name)?;
    let asks_read = spec
        .get("calc_phase")
        .is_some_and(|v| v.eq_ignore_ascii_case("read"));
    let Some(clocks) = site.log_clocks.as_ref() else {
        return asks_read.then(|| {
            "calc_phase=read read none (the trace is no sacct log showing a backfill start or \
             a job ended at its limit): the periods fall on 0"
                .to_string()
        });
    };
    with_site_conf(&mut spec, site);
    let params = params_of(&spec);
    // A replay reads it, or says why it did not (`replay::prio_phase`); no other front end
    // reads it.
    if asks_read && clocks.calc_phase.is_none() && clocks.calc_unread.is_none() {
        let why = "only schedlab replay reads it, from the log's recorded priorities";
        return Some(clocks.clone().with_calc_unread(why.into()).note(&params));
    }
    Some(clocks.note(&params))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_parameters() {
        let names: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
        assert_eq!(names, crate::slurm::params::NAMES);
        let mut p = SlurmParams::default();
        for k in KEYS {
            assert_eq!(p.set(k.name, k.default).unwrap(), k.default, "{}", k.name);
        }
        assert_eq!(p, SlurmParams::default());
    }

    /// A key the user sets to Slurm's default stays in the canonical spec (beside a
    /// slurm.conf it sets the value in place of the slurm.conf's); a slurm.conf's own value
    /// equal to the default does not, nor does a key nobody gave.
    #[test]
    fn the_canonical_spec_keeps_the_keys_the_user_sets() {
        let spec = |text: &str, site: &Site| build_with_site(text, site).unwrap().spec();
        let none = Site::default();
        assert_eq!(spec("slurm", &none), "slurm");
        let zero = "slurm[PriorityWeightFairshare=0]";
        assert_eq!(spec(zero, &none), zero);
        assert_eq!(super::super::canonical(zero).unwrap(), zero);
        let site = Site {
            conf: vec![
                ("PriorityWeightFairshare", "10000".into()),
                ("bf_interval", "30".into()),
            ],
            ..Site::default()
        };
        // bf_interval=30 is Slurm's default: the slurm.conf's value is not written.
        assert_eq!(spec("slurm", &site), "slurm[PriorityWeightFairshare=10000]");
        assert_eq!(spec(zero, &site), zero);
        let both = "slurm[PriorityWeightFairshare=0,bf_interval=30]";
        assert_eq!(spec(both, &site), both);
    }
}
