//! Resource selection policies (Guim, Rodero & Corbalan, section 4): which processors a job
//! gets, and, for LessConsume-Threshold, when. `ff` is First-Fit (the lowest free ids);
//! `lc` (LessConsume) starts from the first-fit allocation and moves processes from the node
//! with the highest penalty to not yet evaluated free processors (in id order) whose node would
//! penalize less, until every free processor was evaluated or the job's factor is 1; `lct[t]`
//! (LessConsume-Threshold) stops as soon as the factor is <= t, and when that is not possible
//! now, looks at later times (the running jobs' planned ends) for one where it is; when no time
//! gets there, it takes the lowest factor found (earliest on ties).
//!
//! The mechanism behind the allocators of `policy::alloc` and the rules that use them (`sjbf`,
//! `rua`); [`Rsp`] names the selection.

use super::shadow::shadow;
use crate::machine::NodeModel;
use crate::sim::nodes::spread;
use crate::sim::penalty::node_penalty;
use crate::sim::{Ctx, ProcSet};
use crate::Time;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A resource selection policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rsp {
    FirstFit,
    LessConsume,
    Threshold(f64),
}

/// An allocation: when, on which processors, with which penalty factor (1 = no penalty).
#[derive(Debug, Clone, PartialEq)]
pub struct Alloc {
    pub start: Time,
    pub procs: ProcSet,
    pub factor: f64,
}

/// LessConsume on a given state: `free` processors, `demand` per node, a job of `need`
/// processes of `per_proc` MB/s each. Starts from first fit; stops swapping once the factor is
/// <= `stop` (1 for LessConsume; no swap at all when `swap` is false: First-Fit). `None` when
/// fewer than `need` processors are free.
pub fn less_consume(
    model: &NodeModel,
    free: &ProcSet,
    demand: &[f64],
    need: u32,
    per_proc: f64,
    stop: f64,
    swap: bool,
) -> Option<(ProcSet, f64)> {
    if free.len() < need {
        return None;
    }
    let ff = free.clone().take_lowest(need);
    let pen = |n: u32, k: u32| {
        let base = demand.get(n as usize).copied().unwrap_or(0.0);
        node_penalty(&[(base + f64::from(k) * per_proc, model.bandwidth)])
    };
    let last = free.intervals().last().map_or(0, |&(_, hi)| hi);
    let mut count = vec![0u32; model.node_count(last) as usize];
    // Selected nodes by penalty, highest first (lowest id on ties); stale entries are skipped.
    // Penalties are >= 0, so their bit patterns order like the numbers.
    let mut heap: BinaryHeap<(u64, Reverse<u32>)> = BinaryHeap::new();
    for (n, k) in spread(model, &ff) {
        count[n as usize] = k;
        heap.push((pen(n, k).to_bits(), Reverse(n)));
    }
    let worst = |heap: &mut BinaryHeap<(u64, Reverse<u32>)>, count: &[u32]| loop {
        let &(key, Reverse(n)) = heap.peek().expect("a selected node");
        let k = count[n as usize];
        if k > 0 && pen(n, k).to_bits() == key {
            return (n, f64::from_bits(key));
        }
        heap.pop();
    };
    let mut factor = 1.0 + worst(&mut heap, &count).1;
    if swap && factor > stop {
        'nodes: for (m, cores) in spread(model, free) {
            let mut spare = cores - count[m as usize];
            while spare > 0 {
                let (w, pw) = worst(&mut heap, &count);
                let km = count[m as usize];
                if w == m || pen(m, km + 1) >= pw {
                    continue 'nodes;
                }
                count[w as usize] -= 1;
                count[m as usize] += 1;
                let kw = count[w as usize];
                if kw > 0 {
                    heap.push((pen(w, kw).to_bits(), Reverse(w)));
                }
                heap.push((pen(m, km + 1).to_bits(), Reverse(m)));
                spare -= 1;
                factor = 1.0 + worst(&mut heap, &count).1;
                if factor <= stop {
                    break 'nodes;
                }
            }
        }
    }
    // The lowest free processors of each node, as many as selected there.
    let mut picked: Vec<(u32, u32)> = Vec::new();
    for &(a, b) in free.intervals() {
        let mut p = a;
        while p < b {
            let n = model.node_of(p);
            let upto = ((n + 1) * model.cores).min(b);
            let k = count[n as usize].min(upto - p);
            if k > 0 {
                picked.push((p, p + k));
                count[n as usize] -= k;
            }
            p = upto;
        }
    }
    Some((ProcSet::from_intervals(picked), factor))
}

/// Demand per node now.
fn demand_now(c: &Ctx<'_>) -> Vec<f64> {
    c.nodes().map_or_else(Vec::new, |n| {
        (0..n.node_count()).map(|i| n.node_demand(i)).collect()
    })
}

/// The allocation `rsp` gives job `j` now, or `None` when it does not fit now (or, for
/// `lct`, when its allocation would start later). Without the node model every policy is
/// first fit with factor 1.
pub fn now(c: &Ctx<'_>, j: usize, rsp: Rsp) -> Option<Alloc> {
    match rsp {
        Rsp::Threshold(_) => earliest_if_now(c, j, rsp),
        _ => at_now(c, j, rsp),
    }
}

fn at_now(c: &Ctx<'_>, j: usize, rsp: Rsp) -> Option<Alloc> {
    let job = c.job(j);
    if job.procs > c.free() {
        return None;
    }
    let Some(nodes) = c.nodes() else {
        return Some(Alloc {
            start: c.now(),
            procs: c.free_set().clone().take_lowest(job.procs),
            factor: 1.0,
        });
    };
    let (stop, swap) = match rsp {
        Rsp::FirstFit => (f64::INFINITY, false),
        Rsp::LessConsume => (1.0, true),
        Rsp::Threshold(t) => (t, true),
    };
    let (procs, factor) = less_consume(
        nodes.model(),
        c.free_set(),
        &demand_now(c),
        job.procs,
        nodes.demand(j),
        stop,
        swap,
    )?;
    Some(Alloc {
        start: c.now(),
        procs,
        factor,
    })
}

/// The lowest factor any allocation of job `j` can have: its processes spread evenly over
/// empty nodes (at least ceil(procs / nodes) on one node). Computed like [`less_consume`]'s
/// factors, so an allocation reaching it compares equal.
fn factor_floor(c: &Ctx<'_>, j: usize) -> f64 {
    let Some(nodes) = c.nodes() else {
        return 1.0;
    };
    let k = c.job(j).procs.div_ceil(nodes.node_count().max(1));
    1.0 + node_penalty(&[(
        0.0 + f64::from(k) * nodes.demand(j),
        nodes.model().bandwidth,
    )])
}

/// The threshold a search stops at: `rsp`'s own, but never below the factor floor (no
/// allocation gets lower, so the first one reaching the floor is the earliest of the lowest).
fn stop_at(c: &Ctx<'_>, j: usize, rsp: Rsp) -> f64 {
    match rsp {
        Rsp::Threshold(t) => t.max(factor_floor(c, j)),
        _ => f64::INFINITY,
    }
}

/// Calls `visit` with the allocation at each later time (the running jobs' planned ends, after
/// now, assuming they end then) at which job `j` fits, in time order, until it returns true.
fn later_allocations(c: &Ctx<'_>, j: usize, rsp: Rsp, mut visit: impl FnMut(Alloc) -> bool) {
    let job = c.job(j);
    let now = c.now();
    let mut free = c.free_set().clone();
    let mut demand = demand_now(c);
    let running: Vec<(Time, usize)> = c.running().collect();
    let mut i = 0;
    while i < running.len() {
        // A job past its planned end in this instant (its end just moved) frees nothing now.
        let t = running[i].0.max(now + 1);
        while i < running.len() && running[i].0.max(now + 1) == t {
            let k = running[i].1;
            let procs = c.procs_of(k);
            free.insert(procs);
            if let Some(nodes) = c.nodes() {
                for (n, cnt) in spread(nodes.model(), procs) {
                    if let Some(d) = demand.get_mut(n as usize) {
                        *d = (*d - f64::from(cnt) * nodes.demand(k)).max(0.0);
                    }
                }
            }
            i += 1;
        }
        if free.len() < job.procs {
            continue;
        }
        let found = match c.nodes() {
            None => Some((free.clone().take_lowest(job.procs), 1.0)),
            Some(nodes) => {
                let (stop, swap) = match rsp {
                    Rsp::FirstFit => (f64::INFINITY, false),
                    Rsp::LessConsume => (1.0, true),
                    Rsp::Threshold(t) => (t, true),
                };
                less_consume(
                    nodes.model(),
                    &free,
                    &demand,
                    job.procs,
                    nodes.demand(j),
                    stop,
                    swap,
                )
            }
        };
        if let Some((procs, factor)) = found {
            if visit(Alloc {
                start: t,
                procs,
                factor,
            }) {
                return;
            }
        }
    }
}

/// LessConsume-Threshold's search (any `rsp` stops at its own criterion): now, then at each
/// planned end of the running jobs (assuming they end then), the first time whose allocation
/// has a factor <= the threshold; else the lowest factor found (earliest on ties). For First-Fit
/// and LessConsume: the first time the job fits. `None` only for a job wider than the machine.
pub fn earliest(c: &Ctx<'_>, j: usize, rsp: Rsp) -> Option<Alloc> {
    let stop = stop_at(c, j, rsp);
    let mut best = at_now(c, j, rsp);
    if best
        .as_ref()
        .is_some_and(|a| a.factor <= stop || c.running_count() == 0)
    {
        return best;
    }
    later_allocations(c, j, rsp, |a| {
        let done = a.factor <= stop;
        if done || best.as_ref().is_none_or(|b| a.factor < b.factor) {
            best = Some(a);
        }
        done
    });
    best
}

/// [`earliest`] when it starts now, found with less search: once a later time has a lower
/// factor than now (or one within the threshold), the answer is not now.
fn earliest_if_now(c: &Ctx<'_>, j: usize, rsp: Rsp) -> Option<Alloc> {
    let stop = stop_at(c, j, rsp);
    let a = at_now(c, j, rsp)?;
    if a.factor <= stop || c.running_count() == 0 {
        return Some(a);
    }
    let mut later = false;
    later_allocations(c, j, rsp, |b| {
        later = b.factor <= stop || b.factor < a.factor;
        later
    });
    (!later).then_some(a)
}

/// Processors free at `t` if running jobs end at their planned ends.
pub fn free_at(c: &Ctx<'_>, t: Time) -> u32 {
    c.free()
        + c.running()
            .take_while(|&(end, _)| end <= t)
            .map(|(_, k)| c.job(k).procs)
            .sum::<u32>()
}

/// LessConsume-Threshold's allocation now if its factor is <= `t` (the threshold met now).
pub fn now_within(c: &Ctx<'_>, j: usize, t: f64) -> Option<Alloc> {
    at_now(c, j, Rsp::Threshold(t)).filter(|a| a.factor <= t || c.running_count() == 0)
}

/// Starts the jobs at the head of the queue (arrival order) while the allocation `pick` gives
/// them starts now. Returns the start `pick` gave the first one left waiting, if any.
pub fn start_heads(
    c: &mut Ctx<'_>,
    mut pick: impl FnMut(&Ctx<'_>, usize) -> Option<Alloc>,
) -> Result<Option<Time>, crate::sim::SimError> {
    let now = c.now();
    while let Some(&head) = c.waiting().first() {
        match pick(c, head) {
            Some(a) if a.start == now => {
                let end = now + c.job(head).estimate;
                c.start_as(
                    head,
                    Some(crate::sim::StartReason::Head),
                    Some(a.procs),
                    Some(end),
                )?;
            }
            other => return Ok(other.map(|a| a.start)),
        }
    }
    Ok(None)
}

/// The head's reservation when it cannot start now: `(time, processors left over then)`: the
/// start its allocation found, else the shadow time.
pub fn reservation(c: &Ctx<'_>, head: usize, start: Option<Time>) -> (Time, u32) {
    let need = c.job(head).procs;
    match start {
        Some(t) => (t, free_at(c, t).saturating_sub(need)),
        None => shadow(c, need),
    }
}
