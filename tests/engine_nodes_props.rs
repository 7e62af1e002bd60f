//! Property tests of the node model on random workloads: every policy's schedule passes the
//! invariant checker (which recomputes the penalized ends from the schedule), the same seed
//! gives the same schedule, a node model that never saturates changes no schedule, sjbf with
//! first fit is easy[order=sjf] (LessConsume against first fit: `policy/blocks/less_consume/tests.rs`).

use crate::common;
use common::{node_job_set, run_nodes, NJ};
use proptest::prelude::*;
use schedlab::input::{prepare, InputOptions};
use schedlab::machine::{Mix, NodeModel};
use schedlab::swf::{read_bytes, ReadOptions};

/// Node-model policies beyond the catalogue defaults.
const NODE_SPECS: [&str; 6] = [
    "sjbf[rsp=lc]",
    "sjbf[rsp=lct]",
    "sjbf[rsp=lct,t=1]",
    "sjbf[rsp=lct,t=1.5]",
    "rua[thresholds=1;1.3]",
    "easy[order=sjf]",
];

/// Random jobs on 8 processors with demands of 500 to 3000 MB/s per process; requested time =
/// runtime + slack, so penalties can push jobs past it.
fn workload() -> impl Strategy<Value = Vec<NJ>> {
    prop::collection::vec((0i64..40, 0i64..120, 1i64..=8, 0i64..80, 0usize..4), 1..30).prop_map(
        |v| {
            let mut t = 0;
            v.into_iter()
                .map(|(gap, run, procs, slack, d)| {
                    t += gap;
                    (
                        t,
                        run,
                        procs,
                        run + slack,
                        [500.0, 1000.0, 2000.0, 3000.0][d],
                    )
                })
                .collect()
        },
    )
}

/// The same jobs with demands drawn from a mix (the run seed decides).
fn mixed_set(jobs: &[NJ], mix: Mix) -> schedlab::input::JobSet {
    let mut s = "; MaxProcs: 8\n".to_string();
    for (i, &(submit, run, p, req, _)) in jobs.iter().enumerate() {
        s.push_str(&format!(
            "{} {submit} -1 {run} {p} -1 -1 {p} {req} -1 1 1 1 -1 -1 -1 -1 -1\n",
            i + 1
        ));
    }
    let w = read_bytes("mix.swf", s.as_bytes(), &ReadOptions::default()).unwrap();
    let opts = InputOptions {
        nodes: Some(NodeModel {
            mix,
            ..NodeModel::default()
        }),
        ..InputOptions::default()
    };
    prepare(&w, &opts).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_policy_passes_the_checker_with_the_node_model(jobs in workload(), cores in 1u32..=4) {
        let set = node_job_set(8, cores, &jobs);
        for p in schedlab::policy::catalogue() {
            let s = run_nodes(&set, p.name, 1); // checks the invariants
            prop_assert!(s.nodes.is_some());
        }
        for spec in NODE_SPECS {
            run_nodes(&set, spec, 1);
        }
    }

    #[test]
    fn same_seed_same_schedule_with_the_node_model(jobs in workload(), mix in 0usize..3) {
        let set = mixed_set(&jobs, [Mix::High, Mix::Med, Mix::Low][mix]);
        for p in schedlab::policy::catalogue().iter().map(|p| p.name).chain(NODE_SPECS) {
            let a = run_nodes(&set, p, 7);
            let b = run_nodes(&set, p, 7);
            prop_assert_eq!(&a.jobs, &b.jobs, "{}", p);
            prop_assert_eq!(a.nodes, b.nodes, "{}", p);
        }
    }

    #[test]
    fn without_saturation_the_node_model_changes_no_schedule(jobs in workload(), cores in 1u32..=4) {
        let set = node_job_set(8, cores, &jobs);
        let mut plain = set.clone();
        plain.options.nodes = None;
        let mut unlimited = set.clone();
        unlimited.options.nodes.as_mut().unwrap().bandwidth = 1e12;
        for p in schedlab::policy::catalogue().iter().map(|p| p.name).chain(NODE_SPECS) {
            let a = run_nodes(&unlimited, p, 3);
            let b = run_nodes(&plain, p, 3);
            prop_assert!(b.nodes.is_none());
            prop_assert_eq!(&a.jobs, &b.jobs, "{}", p);
            prop_assert_eq!(&a.preempted_runs, &b.preempted_runs, "{}", p);
        }
    }

    #[test]
    fn sjbf_with_first_fit_is_easy_with_sjf_backfilling(jobs in workload(), cores in 1u32..=4) {
        let set = node_job_set(8, cores, &jobs);
        let a = run_nodes(&set, "sjbf", 1);
        let b = run_nodes(&set, "easy[order=sjf]", 1);
        prop_assert_eq!(a.jobs, b.jobs);
    }
}
