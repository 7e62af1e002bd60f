//! The invariant checker catches what it promises, on schedules tampered with by hand, and costs
//! nothing per processor of the machine (found by fuzzing: a machine of a billion processors,
//! which the options allow, made it allocate a slot per processor).

use crate::common;
use common::{job_set, run};
use schedlab::sim::check::check;
use schedlab::sim::ProcSet;

/// Two jobs of 2 processors on 4, both running from 0 to 100.
fn two_side_by_side() -> (schedlab::input::JobSet, schedlab::sim::Schedule) {
    let set = job_set(4, &[(0, 100, 2, 100), (0, 100, 2, 100)]);
    let s = run(&set, "fcfs");
    assert_eq!((s.jobs[0].start, s.jobs[1].start), (0, 0));
    (set, s)
}

#[test]
fn overlapping_processors_are_reported() {
    let (set, mut s) = two_side_by_side();
    let (a, b) = (&s.jobs[0].procs, &s.jobs[1].procs);
    assert!(a.intervals() != b.intervals());
    // Job 2 moved onto processors 1 and 2: processor 1 is job 1's.
    s.jobs[1].procs = ProcSet::range(1, 3);
    let errs = check(&set.jobs, &s).unwrap_err();
    assert_eq!(errs, ["processor 1 used by jobs 1 and 2 at t=0"]);
    // After job 1 ends the same processors are free again.
    s.jobs[1].start = 100;
    s.jobs[1].end = 200;
    assert_eq!(check(&set.jobs, &s), Ok(()));
}

#[test]
fn processors_beyond_the_machine_are_reported() {
    let (set, mut s) = two_side_by_side();
    s.jobs[1].procs = ProcSet::range(3, 5);
    let errs = check(&set.jobs, &s).unwrap_err();
    assert!(
        errs[0].contains("uses processor ids beyond the machine (4)"),
        "{errs:?}"
    );
}

#[test]
fn a_billion_processors_check_at_once() {
    let set = job_set(
        1_000_000_000,
        &[
            (0, 100, 999_999_999, 100),
            (0, 50, 1, 60),
            (10, 5, 1_000_000_000, 5),
        ],
    );
    let s = run(&set, "easy");
    assert_eq!(s.jobs[2].start, 100);
}
