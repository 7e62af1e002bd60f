//! LessConsume against a plain reading of its definition, on random machine states: the run
//! (`policy::blocks::less_consume`, which finds the worst selected node without scanning them)
//! must pick the same processors and reach the same factor bits as a run that scans every
//! selected node for the worst (the highest penalty, the lowest id on ties) at each step.
//! Demands come from a few round values, so penalties tie often.

use proptest::prelude::*;
use schedlab::machine::NodeModel;
use schedlab::policy::blocks::less_consume::{FreeNode, Run, Scratch};
use schedlab::policy::blocks::select::less_consume;
use schedlab::sim::penalty::node_penalty;
use schedlab::sim::ProcSet;

/// The reference run: `(processors per free node, factor)`, `None` when too few are free.
fn reference(
    nodes: &[(u32, Vec<u32>, f64)],
    bw: f64,
    need: u32,
    per_proc: f64,
    stop: f64,
    swap: bool,
) -> Option<(Vec<u32>, f64)> {
    let total: usize = nodes.iter().map(|n| n.1.len()).sum();
    if total < need as usize {
        return None;
    }
    let pen = |i: usize, k: u32| node_penalty(&[(nodes[i].2 + f64::from(k) * per_proc, bw)]);
    let mut count = vec![0u32; nodes.len()];
    let (mut left, mut first) = (need, 0);
    while left > 0 {
        count[first] = (nodes[first].1.len() as u32).min(left);
        left -= count[first];
        first += 1;
    }
    let worst = |count: &[u32]| {
        let mut best: Option<(usize, f64)> = None;
        for (i, &k) in count.iter().enumerate() {
            if k > 0 && best.is_none_or(|b| pen(i, k) > b.1) {
                best = Some((i, pen(i, k)));
            }
        }
        best.expect("a selected node")
    };
    let (mut w, mut pw) = worst(&count);
    let mut factor = 1.0 + pw;
    if swap && factor > stop {
        'nodes: for m in first.saturating_sub(1)..nodes.len() {
            while (count[m] as usize) < nodes[m].1.len() {
                let pm = pen(m, count[m] + 1);
                if w == m || pm >= pw {
                    continue 'nodes;
                }
                count[w] -= 1;
                count[m] += 1;
                (w, pw) = worst(&count);
                factor = 1.0 + pw;
                if factor <= stop {
                    break 'nodes;
                }
            }
        }
    }
    Some((count, factor))
}

/// A machine of `busy.len() / 4` nodes of 4 cores: its free processors and demand per node.
fn machine(busy: &[bool], demands: &[f64]) -> (ProcSet, Vec<f64>) {
    let free = ProcSet::from_intervals(
        busy.iter()
            .enumerate()
            .filter(|(_, b)| !**b)
            .map(|(p, _)| (p as u32, p as u32 + 1))
            .collect(),
    );
    (free, demands.to_vec())
}

/// The free nodes of a machine: `(node, free processor ids, demand)`, ascending.
fn free_nodes(free: &ProcSet, demand: &[f64], cores: u32) -> Vec<(u32, Vec<u32>, f64)> {
    let mut out: Vec<(u32, Vec<u32>, f64)> = Vec::new();
    for p in free.ids() {
        let n = p / cores;
        match out.last_mut() {
            Some(last) if last.0 == n => last.1.push(p),
            _ => out.push((n, vec![p], demand[n as usize])),
        }
    }
    out
}

fn round_demand() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![
        0.0, 500.0, 1000.0, 2000.0, 3000.0, 4000.0, 4500.0, 6000.0, 7000.0,
    ])
}

fn stop() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![1.0, 1.1, 1.15, 1.2, 1.25, 1.5, 2.0, f64::INFINITY])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_run_matches_the_definition(
        nodes in 1usize..48,
        busy_rate in 0u32..4,
        busy_bits in prop::collection::vec(0u32..4, 192),
        demands in prop::collection::vec(round_demand(), 48),
        need_share in 0.0f64..1.0,
        per_proc in prop::sample::select(vec![500.0, 1000.0, 2000.0, 3000.0]),
        stop in stop(),
    ) {
        let model = NodeModel::default();
        let busy: Vec<bool> = busy_bits[..nodes * 4].iter().map(|&b| b < busy_rate).collect();
        let (free, demand) = machine(&busy, &demands[..nodes]);
        prop_assume!(!free.is_empty());
        let need = 1 + (need_share * f64::from(free.len())) as u32;
        let swap = stop.is_finite();
        let nodes = free_nodes(&free, &demand, model.cores);
        let (count, want) = reference(&nodes, model.bandwidth, need, per_proc, stop, swap)
            .expect("need <= free");
        let want_procs = ProcSet::from_intervals(
            nodes
                .iter()
                .zip(&count)
                .flat_map(|(n, &k)| n.1[..k as usize].iter().map(|&p| (p, p + 1)))
                .collect(),
        );
        let (procs, factor) = less_consume(&model, &free, &demand, need, per_proc, stop, swap)
            .expect("need <= free");
        prop_assert_eq!(factor.to_bits(), want.to_bits(), "factor {} want {}", factor, want);
        prop_assert_eq!(procs, want_procs);
    }

    #[test]
    fn one_run_gives_every_thresholds_factor(
        state in prop::collection::vec((1u32..=4, round_demand()), 1..48),
        need_share in 0.0f64..1.0,
        per_proc in prop::sample::select(vec![500.0, 1000.0, 2000.0, 3000.0]),
        stops in prop::collection::vec(stop().prop_filter("finite", |s| s.is_finite()), 1..5),
    ) {
        let bw = NodeModel::default().bandwidth;
        let nodes: Vec<FreeNode> =
            state.iter().enumerate().map(|(n, &(f, d))| (n as u32, f, d)).collect();
        let total: u32 = nodes.iter().map(|n| n.1).sum();
        let need = 1 + (need_share * f64::from(total - 1)) as u32;
        let listed: Vec<(u32, Vec<u32>, f64)> =
            nodes.iter().map(|&(n, f, d)| (n, (0..f).collect(), d)).collect();
        let run = Run { nodes: &nodes, total, bandwidth: bw, need, per_proc };
        let mut out = vec![0.0; stops.len()];
        prop_assert!(run.factors(&stops, &mut Scratch::default(), &mut out));
        for (s, f) in stops.iter().zip(&out) {
            let (_, want) = reference(&listed, bw, need, per_proc, *s, true).expect("fits");
            prop_assert_eq!(f.to_bits(), want.to_bits(), "stop {}: {} want {}", s, f, want);
        }
    }
}
