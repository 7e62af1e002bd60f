//! Jobs submitted at one instant: schedules worked out by hand, a short queue and a long one
//! (the engine's waiting list losing jobs from its front and from its back half, conservative's
//! long-queue compression). Job tuples are (submit, runtime, processors, requested time).

use crate::common;
use common::{job_set, run, starts};

/// Six jobs at time 0 on 4 processors (estimates are the requested times).
const SIX: [common::J; 6] = [
    (0, 10, 2, 10), // J1
    (0, 5, 4, 5),   // J2: the whole machine
    (0, 3, 1, 20),  // J3: ends long before its estimate
    (0, 8, 2, 8),   // J4
    (0, 4, 1, 4),   // J5
    (0, 2, 1, 2),   // J6
];

#[test]
fn fcfs_starts_the_jobs_of_one_instant_in_arrival_order() {
    // J1 at 0; J2 waits for J1 (10-15); then J3, J4, J5 fill 4 processors at 15 and J6 waits
    // for the first end, J3's at 18.
    let s = run(&job_set(4, &SIX), "fcfs");
    assert_eq!(starts(&s), vec![0, 10, 15, 15, 15, 18]);
    assert!(s.jobs.iter().all(|r| !r.backfilled));
}

#[test]
fn easy_backfills_among_the_jobs_of_one_instant() {
    // J1 at 0; J2 blocked: shadow 10, no extra processor. J3 (estimate 20) cannot end by 10;
    // J4 (8 s) can: it starts at 0 and the machine is full. At 8 J4 ends: J5 would end at 12,
    // J6 at 10 = the shadow: J6 backfills. At 10 J2 starts; J3 and J5 start when it ends.
    let s = run(&job_set(4, &SIX), "easy");
    assert_eq!(starts(&s), vec![0, 10, 15, 0, 15, 8]);
    let backfilled: Vec<bool> = s.jobs.iter().map(|r| r.backfilled).collect();
    assert_eq!(backfilled, [false, false, false, true, false, true]);
    assert_eq!(s.jobs[1].first_reservation(), Some(10));
}

#[test]
fn conservative_reserves_every_job_of_one_instant() {
    // Placed in arrival order: J1 [0,10) on 2; J2 [10,15) on 4; J3 (20 s) first fits on the
    // one processor free from 15, [15,35); J4 [0,8) beside J1; J5 (4 s) finds no hole before
    // 15 (2 free over [8,10) only) and goes to [15,19); J6 (2 s) fits [8,10).
    let s = run(&job_set(4, &SIX), "conservative");
    assert_eq!(starts(&s), vec![0, 10, 15, 0, 15, 8]);
    let reserved: Vec<Option<i64>> = s.jobs.iter().map(|r| r.first_reservation()).collect();
    assert_eq!(
        reserved,
        [Some(0), Some(10), Some(15), Some(0), Some(15), Some(8)]
    );
}

#[test]
fn a_long_queue_of_one_instant_starts_four_at_a_time() {
    // 2,000 one-processor jobs at time 0 on 4 processors, each running 5 s of its 10 s
    // estimate: every policy starts them in arrival order, four at each end. Conservative
    // plans job k at 10 * (k / 4) and compresses its long queue at each early end, so each
    // group of four starts at the previous group's end all the same: job k at 5 * (k / 4).
    let n = 2000;
    let jobs: Vec<common::J> = (0..n).map(|_| (0, 5, 1, 10)).collect();
    let set = job_set(4, &jobs);
    let expect: Vec<i64> = (0..n).map(|k| 5 * (k / 4)).collect();
    for spec in ["fcfs", "easy", "conservative"] {
        let s = run(&set, spec);
        assert_eq!(starts(&s), expect, "{spec}");
        let planned: Vec<Option<i64>> = s.jobs.iter().map(|r| r.first_reservation()).collect();
        if spec == "conservative" {
            // Job k's first reservation, made at 0, is 10 * (k / 4).
            let first: Vec<Option<i64>> = (0..n).map(|k| Some(10 * (k / 4))).collect();
            assert_eq!(planned, first, "{spec}");
        }
    }
}
