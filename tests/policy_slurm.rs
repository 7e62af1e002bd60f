//! The `slurm` policy's scheduling loops on small cases worked by hand: each backfill and main
//! scheduler parameter changes the schedule as Slurm 22.05's loops would (docs/slurm.md).
//! Jobs are (submit, runtime, processors, requested time); job i's user is i % 3 + 1 (job 1:
//! user 2 ... see common::swf_text: users 1, 2, 3 in list order). With every weight at 0 all
//! priorities are 1 and the order is arrival.

use crate::common;
use common::{job_set, run, starts, J};

/// Starts and start-reason words of `spec` on a machine of `procs`.
fn sched(procs: u32, jobs: &[J], spec: &str) -> (Vec<i64>, Vec<String>) {
    let s = run(&job_set(procs, jobs), spec);
    let words = (0..s.jobs.len())
        .map(|j| s.reason_word(j).to_string())
        .collect();
    (starts(&s), words)
}

/// J1 holds 3 of 4 processors until 1000. J2 (all 4, limit 100) waits: the first backfill
/// cycle (t=1, at its submission) reserves 4 processors for it from 1000 rounded down to the
/// 60 s resolution, 960, to 1080. J3 (1 processor) arrives at 2; its limit decides.
fn blocked(j3_limit: i64) -> Vec<J> {
    vec![
        (0, 1000, 3, 1000),
        (1, 100, 4, 100),
        (2, j3_limit, 1, j3_limit),
    ]
}

/// Starts of [`blocked`] under `spec`.
fn b(j3_limit: i64, spec: &str) -> Vec<i64> {
    sched(4, &blocked(j3_limit), spec).0
}

#[test]
fn backfill_starts_a_job_that_ends_before_the_reservation_at_the_next_cycle() {
    // J3 (limit 100) ends by 960 when started at the next cycle, t = 1 + bf_interval = 31.
    assert_eq!(b(100, "slurm"), [0, 1000, 31]);
    // bf_interval=5: the cycle after t=1 is at 6.
    assert_eq!(b(100, "slurm[bf_interval=5]"), [0, 1000, 6]);
    // The main scheduler never starts it (it stops at J2); backfill does.
    assert_eq!(
        sched(4, &blocked(100), "slurm").1,
        ["main", "main", "backfill"]
    );
}

#[test]
fn bf_window_only_jobs_starting_within_it_hold_reservations() {
    // J3 runs 2000 s: it would overlap J2's reservation, so it waits for J2 (ends 1100).
    assert_eq!(b(2000, "slurm"), [0, 1000, 1100]);
    // bf_window=10 (minutes): J2's start, 1000, lies beyond 31 + 600: no reservation, J3
    // starts at 31 and J2 waits for it (2031).
    assert_eq!(b(2000, "slurm[bf_window=10]"), [0, 2031, 31]);
}

#[test]
fn bf_min_prio_reserve_lower_priorities_get_no_reservation() {
    // Every priority is 1: below 2 nobody reserves, as with a short window.
    assert_eq!(b(2000, "slurm[bf_min_prio_reserve=2]"), [0, 2031, 31]);
    assert_eq!(b(2000, "slurm[bf_min_prio_reserve=1]"), [0, 1000, 1100]);
}

#[test]
fn bf_resolution_reservations_start_rounded_down() {
    // J3's limit 940 ends at 971 from 31: past the reservation's rounded start 960, so it
    // waits for J2; at a resolution of 1 s the reservation starts at 1000 and J3 fits before.
    assert_eq!(b(940, "slurm"), [0, 1000, 1100]);
    assert_eq!(b(940, "slurm[bf_resolution=1]"), [0, 1000, 31]);
}

#[test]
fn bf_max_job_test_stops_the_cycle() {
    // Only J2 is tested: J3 never starts by backfill and waits for J2.
    assert_eq!(b(100, "slurm[bf_max_job_test=1]"), [0, 1000, 1100]);
    assert_eq!(b(100, "slurm[bf_max_job_test=2]"), [0, 1000, 31]);
}

#[test]
fn bf_max_job_user_skips_a_users_later_jobs() {
    // Users: J1 1, J2 2, J3 3, J4 1, J5 2. J2..J4 take all 4 processors (blocked); J5 (user
    // 2, 1 processor, 100 s) would backfill at 31, but user 2's first job, J2, is its one.
    let jobs = [
        (0, 1000, 3, 1000),
        (1, 100, 4, 100),
        (2, 100, 4, 100),
        (3, 100, 4, 100),
        (4, 100, 1, 100),
    ];
    assert_eq!(sched(4, &jobs, "slurm").0[4], 31);
    let limited = sched(4, &jobs, "slurm[bf_max_job_user=1]").0;
    assert!(limited[4] > 31, "{limited:?}");
    assert_eq!(sched(4, &jobs, "slurm[bf_max_job_user=2]").0[4], 31);
}

#[test]
fn bf_continue_changes_nothing_in_a_simulation() {
    for j3 in [100, 940, 2000] {
        assert_eq!(
            sched(4, &blocked(j3), "slurm[bf_continue=yes]"),
            sched(4, &blocked(j3), "slurm")
        );
    }
}

/// J1 (4 processors until 10) then J2 (2 processors from 10, 100 s); the first backfill cycle
/// at t=1 (J2 waiting), the next only at 1001. J3 and J4 (1 processor each) arrive at 12, when
/// 2 are free.
fn depth_case() -> Vec<J> {
    vec![
        (0, 10, 4, 10),
        (1, 100, 2, 100),
        (12, 500, 1, 500),
        (12, 500, 1, 500),
    ]
}

#[test]
fn default_queue_depth_and_sched_interval() {
    let spec = |extra: &str| format!("slurm[bf_interval=1000{extra}]");
    // Depth 100: both start at their submission.
    assert_eq!(sched(4, &depth_case(), &spec("")).0, [0, 10, 12, 12]);
    // Depth 0: the main scheduler tests one job (Slurm's `job_depth++ > def_job_limit`); J4
    // waits for the next full-queue run, at 60 (sched_interval from time 0) or 20.
    assert_eq!(
        sched(4, &depth_case(), &spec(",default_queue_depth=0")).0,
        [0, 10, 12, 60]
    );
    assert_eq!(
        sched(
            4,
            &depth_case(),
            &spec(",default_queue_depth=0,sched_interval=20")
        )
        .0,
        [0, 10, 12, 20]
    );
}

/// J1 (4 processors until 10, limit 20) then J2 (2 processors) from its end; J3 and J4 (1
/// processor each) arrive at 11 and 12, when 2 are free. No backfill cycle after the first
/// (t=1, J2 waiting; bf_interval 1000).
fn batch_delay_case() -> Vec<J> {
    vec![
        (0, 10, 4, 20),
        (1, 100, 2, 100),
        (11, 500, 1, 500),
        (12, 500, 1, 500),
    ]
}

#[test]
fn a_submission_waits_for_the_background_loops_run_batch_sched_delay_after_the_last() {
    // J1's end at 10 runs the main scheduler at once (J2 starts). The background loop's
    // last run was the full one at 0 (sched_interval 60): J3's submission at 11 is 11 s
    // later, so J3 starts at 11; that run was at 11, so J4 (submitted at 12) waits until
    // 11 + 3 = 14.
    let spec = |extra: &str| format!("slurm[bf_interval=1000{extra}]");
    assert_eq!(sched(4, &batch_delay_case(), &spec("")).0, [0, 10, 11, 14]);
    // sched_interval=10: the full run at 10 is the loop's last run; J3 and J4 wait for
    // 10 + 3 = 13.
    assert_eq!(
        sched(4, &batch_delay_case(), &spec(",sched_interval=10")).0,
        [0, 10, 13, 13]
    );
}

/// The key `batch_sched_delay` (Slurm's SchedulerParameters option; 3 s by default) sets how
/// long after the loop's last run a submission waits: in [`batch_delay_case`] J3's run at 11
/// is the last, so J4 (submitted at 12) starts at 12 with 0 (its submission's second: 12 -
/// 11 >= 0) and at 11 + 5 = 16 with 5. With sched_interval=10 and 5 the loop's last run is
/// the full one at 10, so J3 and J4 both wait for 10 + 5 = 15 (before the full run at 20).
#[test]
fn batch_sched_delay_is_a_key() {
    let spec = |extra: &str| format!("slurm[bf_interval=1000{extra}]");
    let case = batch_delay_case();
    for (keys, starts) in [
        (",batch_sched_delay=3", [0, 10, 11, 14]),
        (",batch_sched_delay=0", [0, 10, 11, 12]),
        (",batch_sched_delay=5", [0, 10, 11, 16]),
        (",sched_interval=10,batch_sched_delay=5", [0, 10, 15, 15]),
    ] {
        assert_eq!(sched(4, &case, &spec(keys)).0, starts, "{keys}");
    }
}

/// Fairshare orders the queue: J1 (user 1) runs 0..100 on both processors; J4 (user 1, from
/// 5), J2 (user 2, from 10), J3 (user 3, from 20) wait. At the period at 60 user 1 has usage,
/// users 2 and 3 none: Fair Tree ranks them 3, 3 and user 1 1 of 3, so J2 and J3 go first.
#[test]
fn fairshare_orders_the_queue() {
    let jobs = [
        (0, 100, 2, 100),
        (10, 10, 2, 10),
        (20, 10, 2, 10),
        (5, 10, 2, 10),
    ];
    // Starts in arrival order (J1, J4, J2, J3): arrival order first.
    assert_eq!(sched(2, &jobs, "slurm").0, [0, 100, 110, 120]);
    assert_eq!(
        sched(
            2,
            &jobs,
            "slurm[PriorityWeightFairshare=1000,PriorityCalcPeriod=1]"
        )
        .0,
        [0, 120, 100, 110]
    );
    // With the default period (5 minutes) the factors are still those of time 0: arrival.
    assert_eq!(
        sched(2, &jobs, "slurm[PriorityWeightFairshare=1000]").0,
        [0, 100, 110, 120]
    );
}

/// A cycle where no job fits still runs while a job has no reservation yet: J1 holds 3 of 4
/// processors until 5000; J2 (all 4) waits, planned to start at 5000. With bf_window=60 (one
/// hour) that start lies beyond the window until the cycle at 1411 (1 + 47 · 30, the first
/// at or after 5000 - 3600), which records it. With no window limit the first cycle, at 1,
/// does; later cycles then change nothing (and are not planned). Were cycles skipped whenever no
/// job fits, J2 would have no reservation with the window.
#[test]
fn a_reservation_is_recorded_once_the_start_enters_the_window() {
    let jobs = [(0, 5000, 3, 5000), (1, 100, 4, 100)];
    for spec in ["slurm", "slurm[bf_window=60]"] {
        let s = run(&job_set(4, &jobs), spec);
        assert_eq!(starts(&s), [0, 5000], "{spec}");
        assert_eq!(s.jobs[1].first_reservation(), Some(5000), "{spec}");
    }
}

/// Backfill's map ends at the window's end (`window_end`, now + bf_window rounded down to
/// bf_resolution; `_add_reservation` holds nothing past it). J1 holds 3 of 4 processors until
/// 1030; J2 (all 4) is planned to start then, J3 (1 processor, limit 2000) arrives at 2. With
/// bf_window=17 (1020 s), at the cycle at 31 J2's start lies within the window (31 + 1020 =
/// 1051) but its reservation, from 1030 rounded down to 1020, begins at the map's end (1051
/// rounded down: 1020): it holds nothing, J3 starts at once and J2 waits for it (2031). With
/// bf_window=18 the map ends at 1080 (at the first cycle, t = 1: 1081 rounded down): J2
/// holds the 4 processors over [1020, 1080), J3 waits until J2 is done, 1130.
#[test]
fn bf_window_a_reservation_holds_nothing_past_the_maps_end() {
    let jobs = [(0, 1030, 3, 1030), (1, 100, 4, 100), (2, 2000, 1, 2000)];
    let got = |spec: &str| sched(4, &jobs, spec).0;
    assert_eq!(got("slurm[bf_window=17]"), [0, 2031, 31]);
    assert_eq!(got("slurm[bf_window=18]"), [0, 1030, 1130]);
}

/// The main scheduler's full runs every `sched_interval` fall on `sched_phase + k *
/// sched_interval` (Slurm: from its background thread's start), and one with no job waiting
/// is still the loop's last run. J1 (all 4 processors until 10), J2 (all 4, from 1) waits
/// until J1's end; the first backfill cycle runs at 1 (bf_interval 1000: no other). J3 (1
/// processor) comes at 61, the queue empty since 15: the full run at 60 (none waited) was
/// the loop's last, so J3 waits until 60 + 3 = 63; at phase 59 until 62; at phase 58 it
/// starts at once (61 - 58 = 3).
#[test]
fn sched_phase_places_the_full_runs_and_one_with_nothing_waiting_still_counts() {
    let jobs = vec![(0, 10, 4, 10), (1, 5, 4, 10), (61, 5, 1, 10)];
    let spec = |extra: &str| format!("slurm[bf_interval=1000{extra}]");
    assert_eq!(sched(4, &jobs, &spec("")).0, [0, 10, 63]);
    assert_eq!(sched(4, &jobs, &spec(",sched_phase=59")).0, [0, 10, 62]);
    assert_eq!(sched(4, &jobs, &spec(",sched_phase=58")).0, [0, 10, 61]);
    // In [`batch_delay_case`] with sched_interval=10 the full run at 10 (phase 0) keeps J3
    // and J4 until 13; at phase 9 it ran at 9, so both start at 12.
    let case = batch_delay_case();
    assert_eq!(
        sched(4, &case, &spec(",sched_interval=10,sched_phase=9")).0,
        [0, 10, 12, 12]
    );
}

/// `bf_phase` sets the backfill thread's grid before the log. J1 holds 3 of 4 processors
/// until 100; J2 (all 4) waits from 1; J3 (1 processor, 10 s, submitted at 2) fits before
/// J2's reservation. The main scheduler (its last run at 0) runs at 3 and stops at J2.
/// Without the key the first cycle runs at 1 (J2 waiting) and the next at 6: J3 starts at
/// 6. With bf_phase=4 the thread's last cycle was at -1: the next at 4. With bf_phase=2, at
/// 2, J3's own second.
#[test]
fn bf_phase_sets_the_backfill_grid_before_the_log() {
    let jobs = vec![(0, 100, 3, 200), (1, 50, 4, 100), (2, 10, 1, 10)];
    let spec = |extra: &str| format!("slurm[bf_interval=5{extra}]");
    assert_eq!(sched(4, &jobs, &spec("")).0[2], 6);
    assert_eq!(sched(4, &jobs, &spec(",bf_phase=4")).0[2], 4);
    assert_eq!(sched(4, &jobs, &spec(",bf_phase=2")).0[2], 2);
    assert_eq!(sched(4, &jobs, &spec(",bf_phase=9")).0[2], 4);
}
