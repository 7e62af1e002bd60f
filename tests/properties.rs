//! Property tests on random workloads: every policy's schedule passes the invariant checker;
//! with estimates >= runtimes, EASY's head never starts later than its first shadow time and
//! conservative's jobs never start later than their first reservation; seeds make runs repeat.

mod common;
use common::{job_set, run};
use proptest::prelude::*;

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
        for p in schedlab::policy::catalogue() {
            let s = run(&set, p.name);  // run() checks the invariants
            let m = common::metrics(&set, &s);
            prop_assert_eq!(m.counts.jobs + m.counts.skipped, jobs.len() as u64);
        }
        run(&set, "easy[order=sjf]");
    }

    #[test]
    fn easy_head_never_starts_after_its_first_shadow_time(jobs in workload()) {
        let set = job_set(8, &jobs);
        for spec in ["easy", "easy[order=sjf]"] {
            let s = run(&set, spec);
            for (j, r) in s.jobs.iter().enumerate() {
                if let Some(res) = r.first_reservation {
                    prop_assert!(r.start <= res, "{}: job {} starts {} after its shadow time {}", spec, j + 1, r.start, res);
                }
            }
        }
    }

    #[test]
    fn conservative_jobs_never_start_after_their_first_reservation(jobs in workload()) {
        let set = job_set(8, &jobs);
        let s = run(&set, "conservative");
        for (j, r) in s.jobs.iter().enumerate() {
            let res = r.first_reservation;
            prop_assert!(res.is_some(), "job {} got no reservation", j + 1);
            prop_assert!(r.start <= res.unwrap(), "job {} starts {} after its reservation {:?}", j + 1, r.start, res);
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
        for p in schedlab::policy::catalogue() {
            let a = run(&set, p.name);
            let b = run(&set, p.name);
            prop_assert_eq!(a.jobs, b.jobs);
            prop_assert_eq!(a.series, b.series);
        }
    }
}
