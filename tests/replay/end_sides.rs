//! A job's end against the priority period of its own second, as a replay given the
//! controller's debug log tells it (`Logged::end_sides`; docs/slurm.md, "priority/multifactor"),
//! worked by hand on a small log.

use super::read;
use schedlab::policy;
use schedlab::replay::{recorded, Decision, Replay};
use schedlab::Time;

/// The decision at `t` of `slurm` with Fair Tree weight 1000, one-minute periods, no decay and
/// `keys`, on `log` over one node of 4 cores, with the ends' sides `sides` when told.
pub(super) fn fairshare_decision(
    log: &str,
    keys: &str,
    t: Time,
    sides: Option<(Time, Vec<Option<bool>>)>,
) -> Decision {
    let set = read("log.sacct", log, "1/n1:c4:m1/p=batch:ALL:default".into());
    let mut logged = recorded::Logged::from_sacct(log, "log", &set.jobs).unwrap();
    if let Some(sides) = sides {
        logged = logged.with_end_sides(Some(sides));
    }
    let replay = Replay::new(&set, logged).unwrap();
    let base = "PriorityWeightFairshare=1000,PriorityCalcPeriod=1,PriorityDecayHalfLife=0";
    let spec = format!("slurm[{base},{keys}]");
    let (ds, _) = replay
        .decisions(
            || policy::build(&spec).map_err(schedlab::run::Error::from),
            1,
        )
        .unwrap();
    ds.into_iter().find(|d| d.time == t).unwrap()
}

/// One node of 4 cores, ann and bob (one share each under root). Job 1 (ann, 2 cores) ends by
/// itself at 60, the second of a period; job 2 (bob, 1 core) runs 0-70. Jobs 3 (ann) and 4
/// (bob) ask the whole node from 10: at 70 one of them starts.
const END_SIDE_LOG: &str = "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|00:01:00|00:02:00|2|1|n1|COMPLETED
2|bob|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:10|00:01:10|00:02:00|1|1|n1|COMPLETED
3|ann|2024-01-01T00:00:10|2024-01-01T00:02:10|2024-01-01T00:02:20|00:00:10|00:01:00|4|1|n1|COMPLETED
4|bob|2024-01-01T00:00:10|2024-01-01T00:01:10|2024-01-01T00:02:10|00:01:00|00:02:00|4|1|n1|COMPLETED
";

/// Worked by hand (priority_multifactor.c `decay_apply_new_usage`: a period's walk skips a
/// finished job; no decay, Fair Tree weight 1000): the period at 60 counts bob's job 2 (60
/// processor-seconds) and job 1 (ann, 120) only if job 1 still ran at it. Counted: LevelFS
/// ann 0.5 / (120/180) = 0.75, bob 0.5 / (60/180) = 1.5, bob first, and the pass at 70 (after
/// the period either way) starts job 4; not counted: ann has no usage (LevelFS infinite), job
/// 3. Without a told side, job 1's end is on the period's side: after it when the period is
/// early (`calc_phase=0`), before it when late (`0.5`); a side the debug log tells
/// (`Logged::end_sides`) wins over the period's, in a second where the log's periods fall
/// (its decay thread started at second 0; one started at 30 has no period at 60).
#[test]
fn a_logged_end_side_says_whether_its_period_counts_the_job() {
    for (phase, side, decay, started) in [
        ("0", None, 0, 4),
        ("0.5", None, 0, 3),
        ("0.5", Some(true), 0, 4),
        ("0", Some(false), 0, 3),
        ("0", Some(true), 0, 4),
        ("0.5", Some(true), 30, 3),
        ("0", Some(false), 30, 4),
    ] {
        let sides = (decay, vec![side, None, None, None]);
        let at70 = fairshare_decision(
            END_SIDE_LOG,
            &format!("calc_phase={phase}"),
            70,
            Some(sides),
        );
        assert_eq!(at70.recorded, [3], "{phase} {side:?} {decay}");
        assert_eq!(
            at70.model,
            [started - 1],
            "{phase} {side:?} {decay}: {at70:?}"
        );
    }
}
