//! Predictors, PV-EASY and the fairness metrics on hand-made workloads worked out by hand.
//! Job tuples are (submit, runtime, processors, requested time); machines of 10 processors.

use crate::common;
use common::{job_set, run, starts};
use schedlab::input::{prepare, InputOptions, JobSet};
use schedlab::metrics::{fairness, Fairness, MetricOptions};
use schedlab::policy::canonical;
use schedlab::sim::Schedule;
use schedlab::swf::{read_bytes, ReadOptions};

/// Jobs with users: (submit, runtime, processors, requested time, user).
fn job_set_users(procs: u32, jobs: &[(i64, i64, i64, i64, i64)]) -> JobSet {
    let mut s = format!("; MaxProcs: {procs}\n");
    for (i, &(submit, run, p, req, user)) in jobs.iter().enumerate() {
        s.push_str(&format!(
            "{} {submit} -1 {run} {p} -1 -1 {p} {req} -1 1 {user} 1 -1 -1 -1 -1 -1\n",
            i + 1
        ));
    }
    let w = read_bytes("users.swf", s.as_bytes(), &ReadOptions::default()).unwrap();
    prepare(&w, &InputOptions::default()).unwrap()
}

fn fair(set: &JobSet, s: &Schedule) -> Fairness {
    fairness(set, s, &MetricOptions::default())
}

#[test]
fn canonical_predictor_specs() {
    assert_eq!(canonical("easy[predictor=user]").unwrap(), "easy");
    assert_eq!(
        canonical("easy[predictor=virtual[err=0.10]]").unwrap(),
        "easy[predictor=virtual]"
    );
    assert_eq!(
        canonical("easy[order=spf,predictor=virtual[err=0.25]]").unwrap(),
        "easy[order=spf,predictor=virtual[err=0.25]]"
    );
    assert_eq!(
        canonical("pv-easy[vb=on,predictor=last,slp=on]").unwrap(),
        "pv-easy"
    );
    assert_eq!(
        canonical("pv-easy[predictor=rfactor[mode=rnd,r=2]]").unwrap(),
        "pv-easy[predictor=rfactor[mode=rnd]]"
    );
    for (bad, says) in [
        ("easy[predictor=oracle]", "valid: user, exact, virtual"),
        (
            "easy[predictor=virtual[err=1.5]]",
            "err=1.5 is not a number in [0, 1]",
        ),
        ("easy[predictor=virtual[x=1]]", "valid keys: err"),
        ("easy[predictor=last[x=1]]", "takes no keys"),
        (
            "pv-easy[predictor=rfactor[mode=avg]]",
            "valid values: det, rnd",
        ),
        ("pv-easy[predictor=rfactor[r=0.5]]", "r=0.5 is not a number"),
        ("pv-easy[vb=yes]", "valid values: on, off"),
        ("pv-easy[predictor=virtual[err=]]", "empty value"),
    ] {
        let e = canonical(bad).expect_err(bad).to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

/// J1 6/10 until 100; J2 (8) blocked, reservation 100; J3 (4 procs, 200 s) backfilled at 2 by
/// venture step 4 (it cannot end by 100). At 100 J1 ends: free 4 + J3's 4 = 8 lets J2 start, so
/// J3 is preempted (98 s lost); it restarts from scratch when J2 ends at 150 and ends at 350.
#[test]
fn shadow_load_is_preempted_so_the_head_starts() {
    let set = job_set(10, &[(0, 100, 6, 100), (1, 50, 8, 50), (2, 200, 4, 200)]);
    let s = run(&set, "pv-easy[predictor=user]");
    assert_eq!(s.policy, "pv-easy[predictor=user]");
    assert_eq!(starts(&s), vec![0, 100, 150]);
    assert_eq!(s.jobs[2].end, 350);
    assert_eq!((s.jobs[2].preemptions, s.wasted(2)), (1, 98));
    assert_eq!(s.preempted_runs.len(), 1);
    assert_eq!(
        (s.preempted_runs[0].start, s.preempted_runs[0].end),
        (2, 100)
    );
    assert_eq!(s.jobs[1].first_reservation(), Some(100));
    let mut csv = Vec::new();
    schedlab::output::runs_csv(&mut csv, &set, &s).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.matches("preempted").count(), 1, "{csv}");
    let f = fair(&set, &s);
    assert_eq!(f.strict.delayed, 0);
    assert_eq!((f.preemption.preempted, f.preemption.mkt), (1, 1.0));
    // RTW = 98 / 200; 1 of 3 jobs preempted.
    assert!((f.preemption.mean_rtw_pct - 49.0).abs() < 1e-9);
    assert!((f.preemption.rate_pct - 100.0 / 3.0).abs() < 1e-9);
    // Wasted 4 x 98 processor-seconds over 10 x 350.
    assert!((f.preemption.wasted_load_pct - 100.0 * 392.0 / 3500.0).abs() < 1e-9);
    // EASY never starts J3 at 2 (it needs 4 > 2 extra and ends after 100).
    assert_eq!(starts(&run(&set, "easy")), vec![0, 100, 150]);
}

/// J3 and J4 (2 procs, 300 s each) are backfilled at 2 and 3. At 100 J1 ends: 6 free, J2 needs
/// 8: preempting J4 alone (the lowest priority) suffices, so J3 keeps running; J4 restarts at 150.
#[test]
fn preemption_goes_from_the_lowest_priority_up() {
    let set = job_set(
        10,
        &[
            (0, 100, 6, 100),
            (1, 50, 8, 50),
            (2, 300, 2, 300),
            (3, 300, 2, 300),
        ],
    );
    let s = run(&set, "pv-easy[predictor=user]");
    assert_eq!(starts(&s), vec![0, 100, 2, 150]);
    assert_eq!(s.jobs[2].preemptions, 0);
    assert_eq!((s.jobs[3].preemptions, s.wasted(3)), (1, 97));
    assert_eq!(s.jobs[2].end, 302);
}

/// J2 blocked until 100 (4 free). At 2 arrive J3 (4 procs, 90 s), J4 (2 procs, 30 s), J5 (2
/// procs, 300 s); exact predictions. Step 3 starts jobs predicted to end by 100, nearest
/// completion first: J4 (ends 32), then J3 no longer fits. Step 4 fills the idle processors by
/// priority: J3 does not fit, J5 does. J2 starts at 100 without preemption, J3 when J2 ends.
#[test]
fn venture_backfilling_nearest_completion_first_then_by_priority() {
    let set = job_set(
        10,
        &[
            (0, 100, 6, 100),
            (1, 50, 8, 50),
            (2, 90, 4, 200),
            (2, 30, 2, 200),
            (2, 300, 2, 300),
        ],
    );
    let s = run(&set, "pv-easy[predictor=exact]");
    assert_eq!(starts(&s), vec![0, 100, 150, 2, 2]);
    assert!(s.jobs[4].backfilled && s.jobs[3].backfilled);
    assert!(s.jobs.iter().all(|r| r.preemptions == 0));
    // EASY tries in arrival order: J3 fits and ends by 100 (at 92); at 92 J4 (ends 122) takes
    // the 2 extra processors; J5 waits until J4 ends.
    assert_eq!(
        starts(&run(&set, "easy[predictor=exact]")),
        vec![0, 100, 2, 92, 122]
    );
}

/// User 1's first job runs 10 of 100 s requested (accuracy 0.1). J3 (8 procs) is blocked behind
/// J2 (predicted to end at 120, a first job: its requested time). User 1's J4 (4 procs, 200 s
/// requested and run) is predicted 0.1 x 200 = 20 s by the Last Model, so it is backfilled at 22.
#[test]
fn last_model_underestimate_violates_easy_reservation_not_pv_easy() {
    let set = job_set_users(
        10,
        &[
            (0, 10, 1, 100, 1),
            (20, 100, 6, 100, 2),
            (21, 50, 8, 50, 3),
            (22, 200, 4, 200, 1),
        ],
    );
    // EASY: J4 holds 4 processors until 222; from 120, free 6 + J4's 4 would let J3 start.
    let s = run(&set, "easy[predictor=last]");
    assert_eq!(starts(&s), vec![0, 20, 222, 22]);
    assert_eq!(s.jobs[2].first_reservation(), Some(120));
    let f = fair(&set, &s);
    assert_eq!(
        (f.strict.blocked, f.strict.delayed, f.strict.max_delay),
        (1, 1, 102)
    );
    assert_eq!((f.violations.late, f.violations.count), (1, 1));
    assert_eq!(f.violations.max_delay, 102);
    assert!((f.violations.max_si - 102.0 / 50.0).abs() < 1e-9);
    // With user estimates J4 (222 > 120, 4 > 2 extra) is not backfilled.
    assert_eq!(starts(&run(&set, "easy")), vec![0, 20, 120, 170]);
    // PV-EASY: J4 is backfilled by prediction, preempted at 120 for J3, restarts at 170.
    let s = run(&set, "pv-easy");
    assert_eq!(starts(&s), vec![0, 20, 120, 170]);
    assert_eq!((s.jobs[3].preemptions, s.wasted(3)), (1, 98));
    let f = fair(&set, &s);
    assert_eq!((f.strict.delayed, f.violations.count), (0, 0));
}

/// The blocked jobs' slowdowns split big (> 10/4 processors) and small.
#[test]
fn blocked_slowdown_split_big_and_small() {
    // J2 (8 procs) blocked 1 -> 100: bsld (99 + 50) / 50. J3 waits behind J2 but is never the
    // head (both start at 100), so it is not blocked.
    let set = job_set(10, &[(0, 100, 6, 100), (1, 50, 8, 50), (2, 10, 2, 10)]);
    let s = run(&set, "fcfs");
    assert_eq!(starts(&s), vec![0, 100, 100]);
    let f = fair(&set, &s);
    assert_eq!((f.blocked.big_jobs, f.blocked.small_jobs), (1, 0));
    assert!((f.blocked.big_mbs - 149.0 / 50.0).abs() < 1e-9);
    assert!((f.blocked.big_mwbs - 149.0 / 50.0).abs() < 1e-9);
    // A 2-processor job blocked 1 -> 100 behind a full machine: bsld (99 + 10) / 10; small.
    let set = job_set(10, &[(0, 100, 10, 100), (1, 10, 2, 10)]);
    let f = fair(&set, &run(&set, "easy"));
    assert_eq!((f.blocked.big_jobs, f.blocked.small_jobs), (0, 1));
    assert!((f.blocked.small_mbs - 10.9).abs() < 1e-9);
}
