//! Property tests on random workloads: every policy's schedule passes the invariant checker;
//! with estimates >= runtimes, EASY's head never starts later than its first shadow time and
//! conservative's jobs never start later than their first reservation; seeds make runs repeat.

use crate::common;
use common::{job_set, run};
use proptest::prelude::*;
use schedlab::metrics::{fairness, MetricOptions};

/// Every catalogue policy at its defaults and every value of every key
/// (`schedlab::policy::sample_specs`, read from the catalogue).
fn samples() -> Vec<String> {
    schedlab::policy::sample_specs()
}

/// The samples of one policy, plus `more` (combinations of keys).
fn samples_of(policy: &str, more: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = samples()
        .into_iter()
        .filter(|s| s == policy || s.starts_with(&format!("{policy}[")))
        .collect();
    out.extend(more.iter().map(|s| s.to_string()));
    out
}

/// Combinations of keys beyond one value at a time: Zotkin et al.'s family (queue orders,
/// weights, guarantees, shadow bounds, model estimates) and predictions with backfill orders.
const COMBINED: [&str; 12] = [
    "fcfs[queue=random,weight=0.01]",
    "easy[queue=random-length,weight=0.001]",
    "easy[queue=width,order=sjf]",
    "easy[order=spf,predictor=virtual[err=0.5]]",
    "conservative[queue=width,weight=0.01]",
    "conservative[queue=sjf,guarantees=off]",
    "conservative[queue=random,guarantees=off]",
    "conservative[queue=random-length,weight=0.001,guarantees=off]",
    "conservative[queue=sjf,guarantees=off,shadow=1]",
    "conservative[queue=width,guarantees=off,shadow=3]",
    "conservative[queue=sjf,guarantees=off,predictor=rfactor[r=5,mode=rnd]]",
    "pv-easy[slp=off,vb=off,predictor=virtual[err=1]]",
];

/// PV-EASY with every predictor, with and without venture backfilling (with shadow-load
/// preemption: `slp=off` gives up the fairness guarantee).
fn pv_easy() -> Vec<String> {
    samples_of("pv-easy", &["pv-easy[predictor=virtual[err=1],vb=off]"])
        .into_iter()
        .filter(|s| !s.contains("slp=off"))
        .collect()
}

/// True for a spec planning with runtimes never below the actual ones (with estimates >=
/// runtimes): the input's estimate, the exact runtime or an R-factor.
fn never_underestimates(spec: &str) -> bool {
    !spec.contains("predictor=")
        || ["user", "exact", "rfactor"]
            .iter()
            .any(|p| spec.contains(&format!("predictor={p}")))
}

/// Specs that plan with predictions.
fn predicted() -> Vec<String> {
    samples()
        .into_iter()
        .chain(COMBINED.iter().map(|s| s.to_string()))
        .filter(|s| s.contains("predictor=") || s.starts_with("pv-easy"))
        .collect()
}

/// Random jobs on an 8-processor machine: (submit gap, runtime, procs, slack); requested time =
/// runtime + slack, or unknown (-1) when slack is 0 and the runtime is odd.
fn workload() -> impl Strategy<Value = Vec<common::J>> {
    prop::collection::vec((0i64..40, 0i64..120, 1i64..=8, 0i64..60), 1..40).prop_map(|v| {
        let mut t = 0;
        v.into_iter()
            .map(|(gap, run, procs, slack)| {
                t += gap;
                let req = if slack == 0 && run % 2 == 1 {
                    -1
                } else {
                    run + slack
                };
                (t, run, procs, req)
            })
            .collect()
    })
}

/// Like [`workload`] but some jobs run past their requested time (and are killed there).
fn workload_with_overruns() -> impl Strategy<Value = Vec<common::J>> {
    prop::collection::vec((0i64..40, 0i64..120, 1i64..=8, 1i64..120), 1..40).prop_map(|v| {
        let mut t = 0;
        v.into_iter()
            .map(|(gap, run, procs, req)| {
                t += gap;
                (t, run, procs, req)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_policy_passes_the_invariant_checker(jobs in workload_with_overruns()) {
        let set = job_set(8, &jobs);
        for spec in samples().iter().map(String::as_str).chain(COMBINED) {
            let s = run(&set, spec);  // run() checks the invariants
            let m = common::metrics(&set, &s);
            prop_assert_eq!(m.counts.jobs + m.counts.skipped, jobs.len() as u64, "{}", spec);
        }
    }

    #[test]
    fn queue_orders_repeat_with_a_seed(jobs in workload_with_overruns()) {
        let set = job_set(8, &jobs);
        let orders = samples().into_iter().filter(|s| s.contains("queue=") || s.contains("weight="));
        for spec in orders.chain(COMBINED.iter().map(|s| s.to_string())) {
            let a = run(&set, &spec);
            let b = run(&set, &spec);
            prop_assert_eq!(a.jobs, b.jobs, "{}", spec);
        }
    }

    #[test]
    fn pv_easy_is_strictly_fair_and_keeps_its_reservations(jobs in workload_with_overruns()) {
        let set = job_set(8, &jobs);
        for spec in pv_easy() {
            let s = run(&set, &spec);
            let f = fairness(&set, &s, &MetricOptions::default());
            prop_assert_eq!(f.strict.delayed, 0, "{}: {:?}", spec, f.strict);
            prop_assert_eq!(f.violations.count, 0, "{}: {:?}", spec, f.violations);
            // With predictions never below the runtime, the sunny load ends by its planned ends:
            // every head starts by its first reservation.
            if spec.contains("user") || spec.contains("exact") || spec.contains("rfactor") {
                prop_assert_eq!(f.violations.late, 0, "{}: {:?}", spec, f.violations);
            }
        }
    }

    #[test]
    fn easy_with_user_estimates_has_no_reservation_violation(jobs in workload_with_overruns()) {
        let set = job_set(8, &jobs);
        for spec in ["easy", "easy[order=sjf]", "easy[order=spf]"] {
            let f = fairness(&set, &run(&set, spec), &MetricOptions::default());
            prop_assert_eq!((f.violations.late, f.violations.count), (0, 0), "{}", spec);
        }
    }

    #[test]
    fn same_seed_same_schedule_with_predictors(jobs in workload_with_overruns()) {
        let set = job_set(8, &jobs);
        for spec in predicted() {
            let a = run(&set, &spec);
            let b = run(&set, &spec);
            prop_assert_eq!(a.jobs, b.jobs);
            prop_assert_eq!(a.preempted_runs, b.preempted_runs);
        }
    }

    #[test]
    fn easy_head_never_starts_after_its_first_shadow_time(jobs in workload()) {
        let set = job_set(8, &jobs);
        for spec in ["easy", "easy[order=sjf]"] {
            let s = run(&set, spec);
            for (j, r) in s.jobs.iter().enumerate() {
                if let Some(res) = r.first_reservation() {
                    prop_assert!(r.start <= res, "{}: job {} starts {} after its shadow time {}", spec, j + 1, r.start, res);
                }
            }
        }
    }

    #[test]
    fn conservative_jobs_never_start_after_their_first_reservation(jobs in workload()) {
        let set = job_set(8, &jobs);
        // With guarantees, in every queue order.
        let guaranteed = samples_of("conservative", &["conservative[queue=width,weight=0.01]"])
            .into_iter()
            .filter(|s| !s.contains("guarantees=off") && never_underestimates(s));
        for spec in guaranteed {
            let s = run(&set, &spec);
            for (j, r) in s.jobs.iter().enumerate() {
                let res = r.first_reservation();
                prop_assert!(res.is_some(), "{}: job {} got no reservation", spec, j + 1);
                prop_assert!(r.start <= res.unwrap(), "{}: job {} starts {} after its reservation {:?}", spec, j + 1, r.start, res);
            }
        }
    }

    #[test]
    fn fcfs_starts_in_arrival_order(jobs in workload_with_overruns()) {
        let set = job_set(8, &jobs);
        let s = run(&set, "fcfs");
        for w in s.jobs.windows(2) {
            prop_assert!(w[0].start <= w[1].start);
        }
    }

    #[test]
    fn same_seed_same_schedule(jobs in workload_with_overruns()) {
        let set = job_set(8, &jobs);
        for spec in samples() {
            let a = run(&set, &spec);
            let b = run(&set, &spec);
            prop_assert_eq!(a.jobs, b.jobs, "{}", spec);
            prop_assert_eq!(a.series, b.series);
        }
    }
}

/// A learning predictor (`last`: the user's last finished job sets the accuracy) changes a
/// waiting job's estimate after its reservation was placed. Conservative starts the job with
/// the length its reservation holds, so that its end releases exactly what the profile
/// reserved. A case the property tests above found: starting with the newer estimate
/// released processors the profile never held, and at t=291 the profile was found out of
/// step with the machine (an invalid decision, the run lost).
#[test]
fn conservative_with_a_learning_predictor_keeps_its_profile_in_step() {
    let jobs = [
        (0, 35, 1, 65),
        (0, 87, 1, 85),
        (18, 55, 8, 52),
        (18, 52, 5, 68),
        (22, 38, 7, 57),
        (50, 48, 4, 73),
        (84, 0, 7, 13),
        (89, 0, 6, 9),
        (111, 11, 2, 7),
        (120, 55, 2, 115),
        (127, 0, 3, 62),
        (149, 0, 3, 57),
        (149, 0, 4, 27),
        (153, 0, 4, 15),
        (189, 48, 2, 50),
        (189, 10, 1, 76),
    ];
    let s = run(&job_set(8, &jobs), "conservative[predictor=last]");
    assert_eq!(s.jobs.len(), jobs.len());
}
