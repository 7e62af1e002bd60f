//! The ends' sides from the recorded priorities, worked by hand on a made-up log.

use super::*;
use crate::replay::test_log::{fairshare_at, read_log};

/// One node of 4 cores, ann and bob (one share each under root). Job 1 (ann, 2 cores) runs
/// 0-60 and ends by itself at 60, the second of a period; job 2 (bob, 1 core) runs 0-300.
/// Job 3 (ann) is submitted at 70 and job 4 (bob) at 75, one core each, both started at once;
/// their `Priority` is `P3` and `P4`.
const LOG: &str = "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State|Priority
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|00:01:00|00:02:00|2|1|n1|COMPLETED|1000
2|bob|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:05:00|00:05:00|00:10:00|1|1|n1|COMPLETED|1000
3|ann|2024-01-01T00:01:10|2024-01-01T00:01:10|2024-01-01T00:01:20|00:00:10|00:01:00|1|1|n1|COMPLETED|P3
4|bob|2024-01-01T00:01:15|2024-01-01T00:01:15|2024-01-01T00:01:25|00:00:10|00:01:00|1|1|n1|COMPLETED|P4
";

/// The sides read from `LOG` with `P3` and `P4` recorded (periods every minute from 0, no
/// decay, Fair Tree weight 1000, no other weight).
fn told(p3: &str, p4: &str) -> Option<Told> {
    told_of(&LOG.replace("P3", p3).replace("P4", p4))
}

/// The sides read from the log `text`.
fn told_of(text: &str) -> Option<Told> {
    let (set, logged) = read_log(text, "1/n1:c4:m1/p=batch:ALL:default");
    let replay = Replay::new(&set, logged).unwrap();
    read_sides(&replay, || fairshare_at("0")).unwrap()
}

/// Worked by hand: job 1 running at the period at 60 (it ended after it) adds ann's 2 cores
/// for 60 s (120) to bob's 60: bob ranks first, his factor 1 and ann's 0.5, so job 3 is
/// submitted at 500 and job 4 at 1000. Ended before it, job 1's minute is never counted: ann
/// (0) ranks first, job 3 at 1000 and job 4 at 500. Any other pair tells nothing, and the
/// period at 300 (job 2's end) has no job submitted after it. Without the column: nothing read.
#[test]
fn the_recorded_priorities_after_a_period_tell_its_ends_side() {
    for (p3, p4, side, agree) in [
        ("500", "1000", Some(true), (2, 0)),
        ("1000", "500", Some(false), (2, 0)),
        ("700", "1000", Some(true), (1, 0)),
        ("700", "700", None, (0, 0)),
    ] {
        let t = told(p3, p4).unwrap();
        assert_eq!(t.decay, 0);
        assert_eq!(t.sides, [side, None, None, None], "{p3} {p4}");
        let at60 = &t.periods[0];
        assert_eq!((at60.second, at60.ends, at60.compared), (60, 1, 2));
        assert_eq!(
            (at60.told, at60.agree),
            (usize::from(side.is_some()), agree)
        );
        let at300 = &t.periods[1];
        assert_eq!((at300.second, at300.ends, at300.told), (300, 1, 0));
        assert_eq!(t.counts(), (2, usize::from(side.is_some())));
    }
    let without: Vec<&str> = LOG.lines().map(|l| l.rsplit_once('|').unwrap().0).collect();
    assert_eq!(told_of(&without.join("\n")), None);
}

/// Worked by hand: partitions `batch` (the default, `PriorityJobFactor` 1) and `short`
/// (factor 4, `PriorityTier` 2) on one node; `PriorityWeightPartition=1000` the one weight, so
/// a job's priority is 1000 times its partition's factor over the largest (4): 250 in `batch`,
/// 1000 in `short`. Job 1 (`short,batch`, ran in `short`) may record 1000 or 250, its priority
/// in either partition (Slurm's accounting takes the one its queue entries set last), and
/// nothing else; job 2, of `batch` alone, only 250. Without the lists, job 1's 250 would not be
/// read as its own.
#[test]
fn a_job_of_several_partitions_records_its_priority_in_any_of_them() {
    let log = "\
JobID|User|Partition|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State|Priority
1|ann|short,batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|00:01:00|00:02:00|1|1|n1|COMPLETED|250
2|bob|batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|00:01:00|00:02:00|1|1|n1|COMPLETED|250
";
    let (set, logged) = read_log(log, "1/n1:c4:m1/p=batch:ALL:default/p=short:ALL:j4:r2");
    let replay = Replay::new(&set, logged).unwrap();
    let (mut policy, shared) = crate::policy::slurm::build_sharing(
        "slurm[PriorityWeightPartition=1000]",
        &crate::slurm::Site::default(),
    )
    .unwrap();
    replay.follow_to(0, policy.as_mut(), 1).unwrap();
    let st = shared.borrow();
    assert_eq!(
        (st.submitted_priority(0), st.submitted_priority(1)),
        (1000.0, 250.0)
    );
    let read = |j: usize, v: f64| replay.records_priority(&st, j, v);
    assert!(read(0, 1000.0) && read(0, 250.0));
    assert!(!read(0, 500.0) && !read(0, 251.0));
    assert!(read(1, 250.0) && !read(1, 1000.0));
}
