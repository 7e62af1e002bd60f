//! The periods' second from the recorded priorities, worked by hand on a made-up log.

use super::*;
use crate::replay::test_log::{fairshare_at, read_log};

/// One node of 8 cores, ann and bob (one share each under root). Job 1 (ann, 2 cores) runs
/// 0-60 and is killed at its limit (a minute) at 60: the checks' second is 0 modulo 30. Job 2
/// (bob, 3 cores) runs 0-45. Job 3 (ann) is submitted at 70 and job 4 (bob) at 75, one core
/// each, started at once; their `Priority` is `P3` and `P4`.
const LOG: &str = "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State|Priority
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|00:01:00|00:01:00|2|1|n1|TIMEOUT|1000
2|bob|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:45|00:00:45|00:10:00|3|1|n1|COMPLETED|1000
3|ann|2024-01-01T00:01:10|2024-01-01T00:01:10|2024-01-01T00:01:20|00:00:10|00:01:00|1|1|n1|COMPLETED|P3
4|bob|2024-01-01T00:01:15|2024-01-01T00:01:15|2024-01-01T00:01:25|00:00:10|00:01:00|1|1|n1|COMPLETED|P4
";

/// The second read from `LOG` with `P3` and `P4` recorded (a minute's periods, no decay, Fair
/// Tree weight 1000, no other weight), among the checks' candidates.
fn read(p3: &str, p4: &str) -> Option<PhaseRead> {
    let text = LOG.replace("P3", p3).replace("P4", p4);
    let (set, logged) = read_log(&text, "1/n1:c8:m1/p=batch:ALL:default");
    let replay = Replay::new(&set, logged).unwrap();
    assert_eq!(candidates(60, 60), [0, 30]);
    assert_eq!(
        candidates(47, 300),
        [17, 47, 77, 107, 137, 167, 197, 227, 257, 287]
    );
    read_phase(&replay, &[(0, false), (30, false)], |s| {
        fairshare_at(&phase_text(s))
    })
    .unwrap()
}

/// Worked by hand. Periods at 0, 60 (calc_phase=0, early in the second): the period at 60
/// counts ann's job 1 (2 cores, 0-60: 120) and not bob's job 2, ended at 45 before it (its
/// last part is never counted): bob (0) ranks first, job 3 (ann) is submitted at 500 and job
/// 4 (bob) at 1000. Periods at 30, 90 (calc_phase=30): the period at 30 counts ann 2 · 30 =
/// 60 and bob 3 · 30 = 90: ann ranks first, job 3 at 1000 and job 4 at 500. Jobs 1 and 2 are
/// submitted before any period's usage (both factors 1: 1000) at either phase.
#[test]
fn the_recorded_priorities_tell_the_half_minute() {
    let at = |p3, p4| read(p3, p4).unwrap();
    assert_eq!(at("500", "1000").second, Some((0, false)));
    assert_eq!(at("500", "1000").agree, [((0, false), 4), ((30, false), 2)]);
    assert_eq!(at("1000", "500").second, Some((30, false)));
    assert_eq!(at("1000", "500").agree, [((0, false), 2), ((30, false), 4)]);
    // Neither pair: a tie, no second told.
    let tie = at("700", "700");
    assert_eq!((tie.second, tie.compared), (None, 4));
    assert!(tie
        .evidence()
        .contains("of its 4 recorded priorities the model gives 2 at 0, 2 at 30"));
}
