//! Hand-made workloads whose schedules were worked out by hand (machine sizes in each test).
//! Job tuples are (submit, runtime, processors, requested time).

use crate::common;
use common::{job_set, metrics, run, starts};

/// J1 holds 6 of 10 processors until 100; J2 (8) must wait: shadow 100, 2 extra processors.
const HOLE: [common::J; 2] = [(0, 100, 6, 100), (1, 50, 8, 50)];

#[test]
fn easy_backfills_a_short_job_into_the_hole() {
    // J3 (4 procs, ends at 52 <= shadow 100) starts at once.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50)]);
    let s = run(&set, "easy");
    assert_eq!(starts(&s), vec![0, 100, 2]);
    assert!(s.jobs[2].backfilled && !s.jobs[1].backfilled);
    assert_eq!(s.jobs[1].first_reservation(), Some(100));
    assert!(s.jobs[1].blocked);
    assert_eq!(metrics(&set, &s).counts.backfilled, 1);
}

#[test]
fn easy_refuses_a_job_that_would_delay_the_head() {
    // J3 (4 procs for 200 s) would still run at 100 and needs more than the 2 extra: refused;
    // it starts when J2 ends at 150.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 200, 4, 200)]);
    let s = run(&set, "easy");
    assert_eq!(starts(&s), vec![0, 100, 150]);
    assert!(!s.jobs[2].backfilled);
}

#[test]
fn easy_uses_the_extra_processors() {
    // J3 (4 procs, short) backfills at 2; when it ends at 52, J4 (2 procs, 200 s) is too long
    // for the shadow time but fits in the 2 extra processors: it starts at 52 and J2 still at 100.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50), (3, 200, 2, 200)]);
    let s = run(&set, "easy");
    assert_eq!(starts(&s), vec![0, 100, 2, 52]);
    assert!(s.jobs[3].backfilled);
}

#[test]
fn easy_extra_is_consumed() {
    // Two 2-processor long jobs: only one fits in the 2 extra processors.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 300, 2, 300), (3, 300, 2, 300)]);
    let s = run(&set, "easy");
    assert_eq!(starts(&s), vec![0, 100, 2, 150]);
}

#[test]
fn easy_sjf_backfills_shortest_estimate_first() {
    // 4 free until 100. J3 (4 procs, est 90) and J4 (4 procs, est 20) arrive together and both
    // end by the shadow; arrival order takes J3, sjf takes J4 (then the other waits for room).
    let jobs = [HOLE[0], HOLE[1], (2, 90, 4, 90), (2, 20, 4, 20)];
    let set = job_set(10, &jobs);
    assert_eq!(starts(&run(&set, "easy")), vec![0, 100, 2, 150]);
    let s = run(&set, "easy[order=sjf]");
    assert_eq!(s.policy, "easy[order=sjf]");
    // J4 at 2; from 22, J3 can no longer end by 100 (22 + 90 > 100) and needs 4 > 2 extra.
    assert_eq!(starts(&s), vec![0, 100, 150, 2]);
}

/// J1 4/10 procs until 100; J2 (8) head until 200; J3 (9) second; J4 (2 procs, 250 s).
const SECOND: [common::J; 4] = [
    (0, 100, 4, 100),
    (1, 100, 8, 100),
    (2, 100, 9, 100),
    (3, 250, 2, 250),
];

#[test]
fn easy_protects_only_the_head() {
    // EASY backfills J4 on the 2 extra processors at 3; it holds them until 253, so J3 (9)
    // cannot start when J2 ends at 200 and waits until 253.
    let s = run(&job_set(10, &SECOND), "easy");
    assert_eq!(starts(&s), vec![0, 100, 253, 3]);
}

#[test]
fn conservative_protects_the_second_job_too() {
    // J3 holds [200, 300); J4 would overlap it and gets [300, 550).
    let s = run(&job_set(10, &SECOND), "conservative");
    assert_eq!(starts(&s), vec![0, 100, 200, 300]);
    for (j, r) in s.jobs.iter().enumerate() {
        assert_eq!(r.first_reservation(), Some(starts(&s)[j]), "job {}", j + 1);
    }
}

#[test]
fn conservative_moves_reservations_earlier_when_a_job_ends_early() {
    // J1 asks 100 s but ends at 50: J2 (reserved at 100) starts at 50; J3 follows J2.
    let set = job_set(10, &[(0, 50, 10, 100), (1, 100, 10, 100), (2, 10, 5, 100)]);
    let s = run(&set, "conservative");
    assert_eq!(s.jobs[1].first_reservation(), Some(100));
    assert_eq!(s.jobs[2].first_reservation(), Some(200));
    assert_eq!(starts(&s), vec![0, 50, 150]);
}

#[test]
fn conservative_backfills_into_a_hole() {
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50)]);
    assert_eq!(starts(&run(&set, "conservative")), vec![0, 100, 2]);
}

#[test]
fn fcfs_never_skips() {
    // J3 fits in the hole at 2 but FCFS keeps it behind J2; it starts with J2 at 100.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 10, 2, 10)]);
    let s = run(&set, "fcfs");
    assert_eq!(starts(&s), vec![0, 100, 100]);
    assert_eq!(metrics(&set, &s).counts.backfilled, 0);
    assert_eq!(starts(&run(&set, "easy")), vec![0, 100, 2]);
}

#[test]
fn zero_length_jobs_start_and_end_at_one_instant() {
    // J1 occupies the whole machine for 0 s; J2 (whole machine) starts at the same instant
    // after it, then J3 after J2.
    let set = job_set(4, &[(5, 0, 4, 10), (5, 0, 4, 10), (5, 7, 4, 10)]);
    for spec in ["fcfs", "easy", "conservative"] {
        let s = run(&set, spec);
        assert_eq!(starts(&s), vec![0, 0, 0], "{spec}");
        assert_eq!(s.jobs[2].end, 7, "{spec}");
    }
}

#[test]
fn killed_at_requested_time() {
    // J1 runs 100 s but asked 60: killed at 60, J2 starts then.
    let set = job_set(4, &[(0, 100, 4, 60), (1, 10, 4, 10)]);
    let s = run(&set, "easy");
    assert_eq!(starts(&s), vec![0, 60]);
    let m = metrics(&set, &s);
    assert_eq!(m.counts.killed, 1);
    // Waits 0 and 59; bounded slowdowns 1 and (59 + 10) / 10.
    assert_eq!(m.wait.mean, 29.5);
    assert!((m.bsld.mean - (1.0 + 6.9) / 2.0).abs() < 1e-9);
    // MWBS weights by processors (both 4): same as MBS here.
    assert!((m.mwbs - m.mbs).abs() < 1e-12);
    // Busy 4 x 70 processor-seconds over 4 processors x span 70 (0 to 70).
    assert_eq!(m.makespan, 70);
    assert!((m.utilization - 1.0).abs() < 1e-12);
}

#[test]
fn processors_are_the_lowest_free_ids() {
    let set = job_set(8, &[(0, 100, 3, 100), (0, 10, 2, 10), (20, 10, 4, 10)]);
    let s = run(&set, "fcfs");
    assert_eq!(s.jobs[0].procs.to_string(), "0-2");
    assert_eq!(s.jobs[1].procs.to_string(), "3-4");
    // At 20 the free ids are 3-7: the lowest four.
    assert_eq!(s.jobs[2].procs.to_string(), "3-6");
}

#[test]
fn historic_replays_recorded_starts() {
    // Recorded waits: 5, unknown, 0.
    let text = "; MaxProcs: 4\n\
        1 0 5 10 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1\n\
        2 1 -1 10 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1\n\
        3 2 0 10 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1\n";
    let w = schedlab::swf::read_bytes("h.swf", text.as_bytes(), &Default::default()).unwrap();
    let set = schedlab::input::prepare(&w, &Default::default()).unwrap();
    let s = run(&set, "historic");
    assert_eq!(starts(&s), vec![5, -1, 2]);
    assert_eq!(s.rejected.len(), 1);
    assert!(s.rejected[0].1.contains("field 3 (wait_time)"));
    let m = metrics(&set, &s);
    assert_eq!((m.counts.jobs, m.counts.skipped), (2, 1));
}
