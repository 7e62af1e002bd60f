//! The Gantt chart by node with a lane per GPU (issue 33): on a cluster with GPUs, each node's
//! row holds its cores (a row each, as without GPUs) and above them a lane per GPU. An attempt
//! is drawn in the cores it used and in the lanes of the GPUs it held; a job without GPUs only
//! in the cores. Data preparation only: `gantt.rs` draws these rectangles, in rows instead of
//! processors, and the page hands them over as it hands processors.
//!
//! Which GPUs: the engine keeps how many GPUs each attempt holds on each node
//! (`Schedule::allocs`, `Schedule::preempted_allocs`), not which ones (Slurm's GRES indices are
//! not modelled), so the lanes are assigned here, deterministically: the attempts in order of
//! start (at one instant, ends before starts, then the Gantt's order of attempts), each taking
//! the lowest free lanes of every node it holds GPUs on. A job holding a node whole (exclusive)
//! holds all its GPUs.

use super::gantt::{attempts, NodeRows, Rect};
use crate::cluster::{Layout, PackedAlloc, Placement};
use crate::job::Job;
use crate::sim::Schedule;
use crate::Time;

/// Rows of one GPU lane on a node of `cpus` cores and `gpus` GPUs: the lanes take about half
/// the height of the cores, at least a row each (0 without GPUs).
pub fn lane_rows(cpus: u32, gpus: u32) -> u32 {
    if gpus == 0 {
        0
    } else {
        (cpus / (2 * gpus)).max(1)
    }
}

/// True when the placement's cluster has GPUs: its Gantt then has lanes.
pub fn has_lanes(p: &Placement) -> bool {
    p.layout.nodes.iter().any(|n| n.gpus > 0)
}

/// The rows of a cluster with GPU lanes: node `k` takes rows `first[k]..` for its cores, then
/// its lanes from `lane_first[k]`, `lane_rows[k]` rows each. With the rows' total.
pub fn node_rows(p: &Placement) -> (NodeRows, u32) {
    let l = &p.layout;
    let mut rows = NodeRows {
        first: Vec::with_capacity(l.nodes.len()),
        lane_first: Vec::with_capacity(l.nodes.len()),
        lane_rows: Vec::with_capacity(l.nodes.len()),
        ..NodeRows::of_placement(p)
    };
    let mut row = 0u32;
    for n in &l.nodes {
        let h = lane_rows(n.cpus, n.gpus);
        rows.first.push(row);
        rows.lane_first.push(row + n.cpus);
        rows.lane_rows.push(h);
        row += n.cpus + n.gpus * h;
    }
    (rows, row)
}

/// One attempt's lanes on one node: lanes `lo..hi` (consecutive) of node `node`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The attempt, numbered in the order of [`attempts`].
    pub attempt: u32,
    pub node: u32,
    pub lo: u32,
    pub hi: u32,
}

/// The GPUs attempt `a` holds on each node: (node, GPUs), a whole node's all.
fn gpus_held<'a>(l: &'a Layout, a: &'a PackedAlloc) -> impl Iterator<Item = (u32, u32)> + 'a {
    a.iter().filter_map(|x| {
        let node = l.nodes.get(x.node as usize)?;
        let g = if x.whole { node.gpus } else { x.gpus };
        (g > 0).then_some((x.node, g))
    })
}

/// The lanes of every attempt of `s` that held GPUs, sorted by attempt (see the module's
/// rule). An attempt gets at most the lanes free on a node (the engine never gives more).
pub fn assign(p: &Placement, s: &Schedule) -> Vec<Span> {
    let l = &p.layout;
    let empty = PackedAlloc::default();
    // Each attempt's allocation, in the order of `attempts`.
    let allocs: Vec<&PackedAlloc> = attempts(s)
        .enumerate()
        .map(|(k, (j, _, _, _, preempted))| {
            let a = if preempted {
                s.preempted_allocs.get(k)
            } else {
                s.allocs.get(j)
            };
            a.unwrap_or(&empty)
        })
        .collect();
    // (instant, 0 = end | 1 = start, attempt).
    let mut events: Vec<(Time, u8, u32)> = Vec::new();
    for (k, (_, start, end, _, _)) in attempts(s).enumerate() {
        if end > start && gpus_held(l, allocs[k]).next().is_some() {
            events.push((start, 1, k as u32));
            events.push((end, 0, k as u32));
        }
    }
    events.sort_unstable();
    // Each node's lanes, true when taken: node k's are busy[base[k]..base[k + 1]].
    let mut base = Vec::with_capacity(l.nodes.len() + 1);
    base.push(0usize);
    for n in &l.nodes {
        base.push(base[base.len() - 1] + n.gpus as usize);
    }
    let mut busy = vec![false; base[l.nodes.len()]];
    let mut spans = Vec::new();
    // Where each started attempt's spans are in `spans`.
    let mut taken: Vec<(usize, usize)> = vec![(0, 0); allocs.len()];
    for (_, kind, k) in events {
        if kind == 0 {
            let (from, to) = taken[k as usize];
            for s in &spans[from..to] {
                let Span { node, lo, hi, .. } = *s;
                busy[base[node as usize] + lo as usize..base[node as usize] + hi as usize]
                    .fill(false);
            }
            continue;
        }
        let from = spans.len();
        for (node, g) in gpus_held(l, allocs[k as usize]) {
            let lanes = &mut busy[base[node as usize]..base[node as usize + 1]];
            let mut left = g;
            for (i, lane) in lanes.iter_mut().enumerate() {
                if left == 0 {
                    break;
                }
                if *lane {
                    continue;
                }
                *lane = true;
                left -= 1;
                let i = i as u32;
                let ours = spans.len() > from;
                match spans.last_mut() {
                    // The lane after this attempt's last one on this node: the same span.
                    Some(s) if ours && s.node == node && s.hi == i => s.hi = i + 1,
                    _ => spans.push(Span {
                        attempt: k,
                        node,
                        lo: i,
                        hi: i + 1,
                    }),
                }
            }
        }
        taken[k as usize] = (from, spans.len());
    }
    spans.sort_by_key(|s| s.attempt);
    spans
}

/// The Gantt rectangles of schedule `s` in the rows of [`node_rows`] (`rows`), in the order of
/// [`attempts`]: each attempt's cores, split at the nodes' edges and moved to their node's
/// rows, then its GPU lanes (`lane` true) from `spans` ([`assign`]).
pub fn each_rect<'a>(
    jobs: &'a [Job],
    s: &'a Schedule,
    p: &'a Placement,
    rows: &'a NodeRows,
    spans: &'a [Span],
) -> impl Iterator<Item = Rect> + 'a {
    let nodes = &p.layout.nodes;
    attempts(s)
        .enumerate()
        .flat_map(move |(k, (j, start, end, procs, preempted))| {
            let rect = move |lo: u32, hi: u32, lane: bool| Rect {
                start: start as f64,
                end: end as f64,
                lo,
                hi,
                user: jobs[j].user,
                job: j as u32,
                preempted,
                lane,
            };
            let cores = procs.intervals().iter().flat_map(move |&(lo, hi)| {
                // The nodes the interval crosses, each its part moved to the node's rows.
                let from = nodes.partition_point(|n| n.first_proc + n.cpus <= lo);
                nodes[from..]
                    .iter()
                    .enumerate()
                    .take_while(move |(_, n)| n.first_proc < hi)
                    .map(move |(i, n)| {
                        let (a, b) = (lo.max(n.first_proc), hi.min(n.first_proc + n.cpus));
                        let row = rows.first[from + i];
                        rect(row + a - n.first_proc, row + b - n.first_proc, false)
                    })
            });
            let at = spans.partition_point(|x| x.attempt < k as u32);
            let lanes = spans[at..]
                .iter()
                .take_while(move |x| x.attempt == k as u32)
                .map(move |x| {
                    let (first, h) = (
                        rows.lane_first[x.node as usize],
                        rows.lane_rows[x.node as usize],
                    );
                    rect(first + x.lo * h, first + x.hi * h, true)
                });
            cores.chain(lanes)
        })
}

/// A cluster's Gantt with GPU lanes: its rows ([`node_rows`]), their total, and the rectangles
/// of schedule `s` of `jobs` ([`each_rect`]).
pub fn chart(jobs: &[Job], s: &Schedule, p: &Placement) -> (NodeRows, u32, Vec<Rect>) {
    let (rows, total) = node_rows(p);
    let spans = assign(p, s);
    let rects = each_rect(jobs, s, p, &rows, &spans).collect();
    (rows, total, rects)
}
