//! Random clusters and workloads: every schedule on a cluster passes both invariant checkers,
//! and every job not rejected as never fitting runs, under every policy that runs on clusters.

use crate::common;

use common::clusterkit::{self, CJ};
use proptest::prelude::*;
use schedlab::cluster::{conf, Layout, Placement};
use schedlab::job::Request;
use schedlab::policy;
use schedlab::sim::check::check;
use schedlab::sim::check_cluster::check_cluster;
use schedlab::sim::simulate_placed;

const SPECS: &[&str] = &[
    "fcfs",
    "easy",
    "easy[order=sjf]",
    "easy[queue=sjf]",
    "easy[queue=fairshare]",
    "fcfs[queue=expr(wait*procs)]",
    "conservative",
    "conservative[queue=sjf]",
    "conservative[guarantees=off]",
    "conservative[guarantees=off,queue=sjf,shadow=2]",
    "historic",
    "sjbf",
    "sjbf[rsp=lc]",
    "sjbf[rsp=lct]",
    "pv-easy",
    "pv-easy[slp=off]",
    "pv-easy[vb=off,predictor=user]",
    "rua",
];

/// A node group: (nodes, cores, memory MB (1 = not stated), GPUs, weight).
fn group() -> impl Strategy<Value = (u32, u32, u64, u32, u32)> {
    (
        1u32..4,
        1u32..9,
        prop_oneof![Just(1u64), 100u64..1000],
        0u32..3,
        1u32..4,
    )
}

/// A job: (submit, runtime, cores, memory per core MB, nodes, GPUs, exclusive, partition).
fn job() -> impl Strategy<Value = (i64, i64, u32, u64, u32, u32, bool, u16)> {
    (
        0i64..200,
        0i64..60,
        1u32..12,
        prop_oneof![Just(0u64), 10u64..300],
        prop_oneof![Just(0u32), 1u32..3],
        prop_oneof![Just(0u32), 1u32..3],
        any::<bool>(),
        0u16..3,
    )
}

fn conf_text(groups: &[(u32, u32, u64, u32, u32)], exclusive_b: bool) -> String {
    let mut text = String::new();
    let mut names = Vec::new();
    for (g, &(n, cpus, mem, gpus, weight)) in groups.iter().enumerate() {
        let hosts = format!("g{g}n[1-{n}]");
        text += &format!("NodeName={hosts} CPUs={cpus} RealMemory={mem} Weight={weight}");
        if gpus > 0 {
            text += &format!(" Gres=gpu:{gpus}");
        }
        text += "\n";
        names.push(hosts);
    }
    text += &format!("PartitionName=a Nodes={} Default=YES\n", names.join(","));
    let tail = names.last().unwrap();
    let ex = if exclusive_b {
        " OverSubscribe=EXCLUSIVE"
    } else {
        ""
    };
    text += &format!("PartitionName=b Nodes={tail}{ex}\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn schedules_on_random_clusters_keep_every_invariant(
        groups in prop::collection::vec(group(), 1..4),
        specs in prop::collection::vec(job(), 1..40),
        exclusive_b in any::<bool>(),
    ) {
        let mut specs = specs;
        specs.sort_by_key(|s| s.0);
        let cj: Vec<CJ> = specs
            .iter()
            .map(|&(submit, runtime, procs, mem, nodes, gpus, exclusive, part)| {
                let req = Request { nodes, gpus, mem_per_node_mb: 0, partition: part, exclusive };
                (submit, runtime, procs, mem, req)
            })
            .collect();
        let mut jobs = clusterkit::jobs(&cj);
        for (i, j) in jobs.iter_mut().enumerate() {
            // Estimates above the runtimes, and three users (fairshare has something to order).
            j.estimate = j.runtime + 5;
            j.set_requested(Some(j.runtime + 5));
            j.user = (i % 3) as i64;
            // A recorded wait for the replay (`historic`).
            j.set_trace_wait(Some((i as i64 * 7) % 13));
        }
        let c = conf::parse_str(&conf_text(&groups, exclusive_b), "p.conf").unwrap().cluster;
        let names = vec!["a".to_string(), "b".to_string()];
        let place = Placement::new(Layout::new(&c).unwrap(), &jobs, &names);
        for spec in SPECS {
            let mut p = policy::build(spec).unwrap();
            let s = simulate_placed(&jobs, place.layout.procs, None, Some(&place), p.as_mut(), 1, None)
                .unwrap_or_else(|e| panic!("{spec}: {e}"));
            if let Err(e) = check(&jobs, &s) {
                panic!("{spec}: {e:?}");
            }
            if let Err(e) = check_cluster(&place, &s) {
                panic!("{spec}: {e:?}");
            }
            for (j, rec) in s.jobs.iter().enumerate() {
                let never = place.never.iter().any(|(k, _)| *k == j);
                prop_assert_eq!(rec.ran(), !never, "{}: job index {}", spec, j);
            }
        }
    }
}
