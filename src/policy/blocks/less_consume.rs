//! LessConsume (Guim, Rodero & Corbalan, section 4) on one machine state: from the first-fit
//! allocation, processes move from the selected node with the highest penalty to not yet
//! evaluated free processors (id order) whose node would penalize less, until every free
//! processor was evaluated or the factor reaches the stop. The state is given as its free nodes
//! in id order ([`FreeNode`]), built once per state and shared by every run on it (see
//! [`super::later::Horizon`]).

mod worst;

use crate::machine::NodeModel;
use crate::sim::node_jobs::lowest_into;
use crate::sim::penalty::node_penalty;
use crate::sim::ProcSet;
use worst::{Worst, WorstIn};

/// A node with free processors: `(node id, free processors, demand of its running jobs)`.
pub type FreeNode = (u32, u32, f64);

/// Buffers of LessConsume runs, reused from one run to the next.
#[derive(Default)]
pub struct Scratch {
    /// Processes selected per free node (by position in the state's free nodes).
    count: Vec<u32>,
    /// The selected nodes by penalty, for the worst of them.
    worst: Worst,
    /// The processors picked, as intervals (before they become a set).
    pieces: Vec<(u32, u32)>,
    /// The processes of the latest run (the sum of `count`).
    need: u32,
}

/// One LessConsume run's inputs: the state's free nodes and `total` free processors, the
/// nodes' bandwidth, the job's `need` processes of `per_proc` MB/s each.
pub struct RunInputs<'n> {
    pub nodes: &'n [FreeNode],
    pub total: u32,
    pub bandwidth: f64,
    pub need: u32,
    pub per_proc: f64,
}

impl RunInputs<'_> {
    /// The factors LessConsume-Threshold reaches for several thresholds at once (`stops`,
    /// written to `out` in the same order): one run, since a run with a larger threshold is a
    /// prefix of one with a smaller threshold (its swaps do not depend on the threshold, only
    /// where they stop). `false` when fewer than `need` processors are free.
    pub fn factors(&self, stops: &[f64], scratch: &mut Scratch, out: &mut [f64]) -> bool {
        let low = stops.iter().copied().fold(f64::INFINITY, f64::min);
        // out[i]: the first factor of the run <= stops[i] (where that threshold's run stops),
        // else the last one; NAN until set.
        out.iter_mut().for_each(|f| *f = f64::NAN);
        // The largest stop not reached yet: a factor above it sets nothing.
        let mut next = stops.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let last = self.run(low, true, scratch, |factor| {
            if factor > next {
                return;
            }
            next = f64::NEG_INFINITY;
            for (o, &s) in out.iter_mut().zip(stops) {
                if o.is_nan() {
                    if factor <= s {
                        *o = factor;
                    } else {
                        next = next.max(s);
                    }
                }
            }
        });
        let Some(last) = last else {
            return false;
        };
        for o in out.iter_mut() {
            if o.is_nan() {
                *o = last;
            }
        }
        true
    }

    /// The run: leaves the processes selected per free node in `scratch.count` and calls `step`
    /// with the factor after first fit and after each swap.
    pub fn run(
        &self,
        stop: f64,
        swap: bool,
        scratch: &mut Scratch,
        mut step: impl FnMut(f64),
    ) -> Option<f64> {
        if self.total < self.need {
            return None;
        }
        let nodes = self.nodes;
        let (bw, per_proc) = (self.bandwidth, self.per_proc);
        scratch.need = self.need;
        let Scratch { count, worst, .. } = scratch;
        let pen = |i: u32, k: u32| {
            let base = nodes[i as usize].2;
            node_penalty(&[(base + f64::from(k) * per_proc, bw)])
        };
        count.clear();
        count.resize(nodes.len(), 0);
        worst.reset(stop);
        let mut left = self.need;
        let mut first = 0;
        // The last node's (demand bits, processes taken) and key: a node like it has its key.
        let mut last = (u64::MAX, 0, 0);
        while left > 0 {
            let k = nodes[first].1.min(left);
            count[first] = k;
            left -= k;
            let d = nodes[first].2.to_bits();
            let key = if (d, k) == (last.0, last.1) {
                last.2
            } else {
                pen(first as u32, k).to_bits()
            };
            last = (d, k, key);
            if left > 0 {
                worst.first_fit(key, first as u32);
            } else {
                // The last node first fit filled is the scan's first candidate.
                worst.candidate_took(key, first as u32);
            }
            first += 1;
        }
        worst.start();
        // The worst selected node, kept between swaps (it changes only at a swap).
        let (mut w, key, mut from) = worst.worst();
        let mut pw = f64::from_bits(key);
        let mut factor = 1.0 + pw;
        step(factor);
        if swap && factor > stop {
            // The nodes filled by first fit have no spare processor: start at the last one.
            'nodes: for m in first.saturating_sub(1)..nodes.len() {
                if m >= first {
                    worst.next_candidate();
                    if from == WorstIn::Candidate {
                        // The worst was the candidate left: it is counted now (same key).
                        (w, _, from) = worst.worst();
                    }
                }
                let mut spare = nodes[m].1 - count[m];
                let m = m as u32;
                while spare > 0 {
                    let km = count[m as usize];
                    let pm = pen(m, km + 1);
                    if from == WorstIn::Candidate || pm >= pw {
                        continue 'nodes;
                    }
                    count[w as usize] -= 1;
                    count[m as usize] += 1;
                    let kw = count[w as usize];
                    worst.gave(from, w, (kw > 0).then(|| pen(w, kw).to_bits()));
                    worst.candidate_took(pm.to_bits(), m);
                    spare -= 1;
                    let key;
                    (w, key, from) = worst.worst();
                    pw = f64::from_bits(key);
                    factor = 1.0 + pw;
                    step(factor);
                    if factor <= stop {
                        break 'nodes;
                    }
                }
            }
        }
        Some(factor)
    }
}

/// Where a state's free processors are read from.
#[derive(Clone, Copy)]
pub enum Free<'a> {
    /// Per node as bit masks, by node id (bit `i`: processor `node x cores + i`).
    Masks(&'a [u64]),
    /// As intervals.
    Intervals(&'a ProcSet),
}

/// The processors the latest run on `nodes` selected (left in `scratch`, consumed): the lowest
/// free processors of each free node, as many as the run selects there. `free`: the state's
/// free processors, `nodes` its free nodes.
pub fn picked(
    model: &NodeModel,
    free: Free<'_>,
    nodes: &[FreeNode],
    scratch: &mut Scratch,
) -> ProcSet {
    let Scratch {
        count,
        pieces,
        need,
        ..
    } = scratch;
    pieces.clear();
    let free = match free {
        Free::Intervals(set) => set,
        Free::Masks(masks) => {
            // Up to the last node with processes selected.
            let mut left = *need;
            for (&(n, _, _), k) in nodes.iter().zip(count.iter_mut()) {
                if left == 0 {
                    break;
                }
                if *k > 0 {
                    let _ = lowest_into(masks[n as usize], n * model.cores, *k, pieces);
                    left -= *k;
                    *k = 0;
                }
            }
            return ProcSet::from_sorted(pieces);
        }
    };
    let intervals = free.intervals();
    // The first free interval not below the current node.
    let mut at = 0;
    for (&(n, _, _), k) in nodes.iter().zip(count.iter_mut()) {
        if *k == 0 {
            continue;
        }
        let base = n.saturating_mul(model.cores);
        let top = base.saturating_add(model.cores);
        if intervals[at].1 <= base {
            at += intervals[at..].partition_point(|&(_, b)| b <= base);
        }
        let mut x = at;
        while *k > 0 {
            let (a, b) = intervals[x];
            let (a, b) = (a.max(base), b.min(top));
            let take = (b - a).min(*k);
            match pieces.last_mut() {
                Some(last) if last.1 == a => last.1 = a + take,
                _ => pieces.push((a, a + take)),
            }
            *k -= take;
            x += 1;
        }
    }
    ProcSet::from_sorted(pieces)
}

#[cfg(test)]
mod tests;
