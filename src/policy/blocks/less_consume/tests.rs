//! LessConsume's run: the processors picked from masks as from intervals; worked cases by hand
//! (nodes of 4 cores sharing 6000 MB/s); never a higher penalty than first fit; and against a
//! plain reading of its definition on random machine states: the run (which finds the worst
//! selected node without scanning them, `worst.rs`) must pick the same processors and reach
//! the same factor bits as a run that scans every selected node for the worst (the highest
//! penalty, the lowest id on ties) at each step. Demands come from a few round values, so
//! penalties tie often.

use super::*;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

/// LessConsume on a given state: `free` processors, `demand` per node (a node past its end has
/// none), a job of `need` processes of `per_proc` MB/s each. Starts from first fit; stops
/// swapping once the factor is <= `stop` (1 for LessConsume; no swap at all when `swap` is
/// false: First-Fit). `None` when fewer than `need` processors are free.
fn less_consume(
    model: &NodeModel,
    free: &ProcSet,
    demand: &[f64],
    need: u32,
    per_proc: f64,
    stop: f64,
    swap: bool,
) -> Option<(ProcSet, f64)> {
    let mut per_node = Vec::new();
    model.per_node_into(free.intervals(), &mut per_node);
    let nodes: Vec<FreeNode> = per_node
        .iter()
        .map(|&(n, k)| (n, k, demand.get(n as usize).copied().unwrap_or(0.0)))
        .collect();
    let run = RunInputs {
        nodes: &nodes,
        total: free.len(),
        bandwidth: model.bandwidth,
        need,
        per_proc,
    };
    let mut scratch = Scratch::default();
    let factor = run.run(stop, swap, &mut scratch, |_| {})?;
    Some((
        picked(model, Free::Intervals(free), &nodes, &mut scratch),
        factor,
    ))
}

/// The processors picked from the nodes' free masks are those picked from the free
/// intervals, on random fragmented states.
#[test]
fn picked_from_masks_as_from_intervals() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    for round in 0..300 {
        let cores = rng.random_range(1..=6);
        let nodes = rng.random_range(1..40);
        let model = NodeModel {
            cores,
            ..NodeModel::default()
        };
        let procs = cores * nodes - rng.random_range(0..cores);
        let mut free = ProcSet::default();
        let mut masks = vec![0u64; nodes as usize];
        for p in 0..procs {
            if rng.random_range(0..3) > 0 {
                free.push_above(p, p + 1);
                masks[(p / cores) as usize] |= 1 << (p % cores);
            }
        }
        let demand: Vec<f64> = (0..nodes)
            .map(|_| [0.0, 2000.0, 5000.0][rng.random_range(0..3)])
            .collect();
        let mut per_node = Vec::new();
        model.per_node_into(free.intervals(), &mut per_node);
        let free_nodes: Vec<FreeNode> = per_node
            .iter()
            .map(|&(n, k)| (n, k, demand[n as usize]))
            .collect();
        if free.is_empty() {
            continue;
        }
        let need = rng.random_range(1..=free.len());
        let run = RunInputs {
            nodes: &free_nodes,
            total: free.len(),
            bandwidth: model.bandwidth,
            need,
            per_proc: 2000.0,
        };
        let (mut a, mut b) = (Scratch::default(), Scratch::default());
        run.run(1.0, true, &mut a, |_| {});
        run.run(1.0, true, &mut b, |_| {});
        let by_intervals = picked(&model, Free::Intervals(&free), &free_nodes, &mut a);
        let by_masks = picked(&model, Free::Masks(&masks), &free_nodes, &mut b);
        assert_eq!(by_masks, by_intervals, "round {round}");
        assert_eq!(by_masks.len(), need);
        assert!(free.contains_set(&by_masks));
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn less_consume_moves_processes_off_the_saturated_node() {
    let model = NodeModel::default();
    // Node 0 already carries 5000 MB/s (processor 0 busy); 1-7 free. A job of 2 x 2000:
    // first fit {1, 2}: node 0 -> 9000, penalty 0.5. LessConsume: processor 3 is on the worst
    // node itself; processor 4 (node 1): moving one process there leaves node 0 at 7000 (1/6)
    // and node 1 at 2000 (0) -> factor 7/6; processor 5: node 1 at 4000 (0) < 1/6 -> move:
    // node 0 empty of the job, factor 1 -> stop with {4, 5}.
    let free = ProcSet::range(1, 8);
    let demand = [5000.0, 0.0];
    let (ff, f_ff) = less_consume(&model, &free, &demand, 2, 2000.0, f64::INFINITY, false).unwrap();
    assert_eq!((ff, f_ff), (ProcSet::range(1, 3), 1.5));
    let (lc, f_lc) = less_consume(&model, &free, &demand, 2, 2000.0, 1.0, true).unwrap();
    assert_eq!((lc, f_lc), (ProcSet::range(4, 6), 1.0));
    // LessConsume-Threshold 1.2 stops after the first move (7/6 <= 1.2): {2, 4}.
    let (lct, f_lct) = less_consume(&model, &free, &demand, 2, 2000.0, 1.2, true).unwrap();
    assert_eq!(lct, ProcSet::from_intervals(vec![(1, 2), (4, 5)]));
    assert!(close(f_lct, 7.0 / 6.0));
    // Not enough free processors: none.
    assert!(less_consume(&model, &free, &demand, 8, 2000.0, 1.0, true).is_none());
}

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
        let run = RunInputs { nodes: &nodes, total, bandwidth: bw, need, per_proc };
        let mut out = vec![0.0; stops.len()];
        prop_assert!(run.factors(&stops, &mut Scratch::default(), &mut out));
        for (s, f) in stops.iter().zip(&out) {
            let (_, want) = reference(&listed, bw, need, per_proc, *s, true).expect("fits");
            prop_assert_eq!(f.to_bits(), want.to_bits(), "stop {}: {} want {}", s, f, want);
        }
    }

    #[test]
    fn less_consume_never_penalizes_more_than_first_fit(
        busy in prop::collection::vec(any::<bool>(), 16),
        demand in prop::collection::vec(0.0f64..9000.0, 4),
        need in 1u32..=16,
        per_proc in 0.0f64..4000.0,
        stop in 1.0f64..2.0,
    ) {
        let model = NodeModel::default();
        let free = ProcSet::from_intervals(
            busy.iter().enumerate().filter(|(_, b)| !**b).map(|(p, _)| (p as u32, p as u32 + 1)).collect(),
        );
        let ff = less_consume(&model, &free, &demand, need, per_proc, f64::INFINITY, false);
        let lc = less_consume(&model, &free, &demand, need, per_proc, 1.0, true);
        let lct = less_consume(&model, &free, &demand, need, per_proc, stop, true);
        prop_assert_eq!(ff.is_some(), free.len() >= need);
        if let (Some((fp, ff)), Some((lp, lc)), Some((tp, lct))) = (ff, lc, lct) {
            prop_assert!(lc <= ff, "LessConsume {} > first fit {}", lc, ff);
            prop_assert!(lct <= ff, "LessConsume-Threshold {} > first fit {}", lct, ff);
            for p in [&fp, &lp, &tp] {
                prop_assert_eq!(p.len(), need);
                prop_assert!(free.contains_set(p));
            }
        }
    }
}
