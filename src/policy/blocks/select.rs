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
use crate::sim::nodes::spread_lowest_into;
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

/// Buffers of LessConsume runs, reused from one run to the next.
#[derive(Default)]
struct Scratch {
    /// Processes selected per node.
    count: Vec<u32>,
    /// Selected nodes by penalty.
    heap: BinaryHeap<(u64, Reverse<u32>)>,
    /// `(node, processes)` of the first-fit allocation, of the free processors.
    first_fit: Vec<(u32, u32)>,
    free: Vec<(u32, u32)>,
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
    let mut scratch = Scratch::default();
    let factor = run_less_consume(
        model,
        free,
        demand,
        need,
        per_proc,
        stop,
        swap,
        &mut scratch,
        |_| {},
    )?;
    Some((picked(model, free, &mut scratch.count), factor))
}

/// The factors LessConsume-Threshold reaches on a given state for several thresholds at once
/// (`stops`, written to `out` in the same order): one LessConsume run, since a run with a larger
/// threshold is a prefix of one with a smaller threshold (its swaps do not depend on the
/// threshold, only where they stop). `false` when fewer than `need` processors are free.
#[allow(clippy::too_many_arguments)]
fn factors(
    model: &NodeModel,
    free: &ProcSet,
    demand: &[f64],
    need: u32,
    per_proc: f64,
    stops: &[f64],
    scratch: &mut Scratch,
    out: &mut [f64],
) -> bool {
    let low = stops.iter().copied().fold(f64::INFINITY, f64::min);
    // out[i]: the first factor of the run <= stops[i] (where that threshold's run stops), else
    // the last one; NAN until set.
    out.iter_mut().for_each(|f| *f = f64::NAN);
    let last = run_less_consume(
        model,
        free,
        demand,
        need,
        per_proc,
        low,
        true,
        scratch,
        |factor| {
            for (o, &s) in out.iter_mut().zip(stops) {
                if o.is_nan() && factor <= s {
                    *o = factor;
                }
            }
        },
    );
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

/// The LessConsume run behind [`less_consume`] and [`factors`]: leaves the processes selected
/// per node in `count` and calls `step` with the factor after first fit and after each swap.
#[allow(clippy::too_many_arguments)]
fn run_less_consume(
    model: &NodeModel,
    free: &ProcSet,
    demand: &[f64],
    need: u32,
    per_proc: f64,
    stop: f64,
    swap: bool,
    scratch: &mut Scratch,
    mut step: impl FnMut(f64),
) -> Option<f64> {
    if free.len() < need {
        return None;
    }
    let Scratch {
        count,
        heap,
        first_fit,
        free: free_spread,
    } = scratch;
    let pen = |n: u32, k: u32| {
        let base = demand.get(n as usize).copied().unwrap_or(0.0);
        node_penalty(&[(base + f64::from(k) * per_proc, model.bandwidth)])
    };
    let last = free.intervals().last().map_or(0, |&(_, hi)| hi);
    count.clear();
    count.resize(model.node_count(last) as usize, 0);
    // Selected nodes by penalty, highest first (lowest id on ties); stale entries are skipped.
    // Penalties are >= 0, so their bit patterns order like the numbers.
    heap.clear();
    spread_lowest_into(model, free, need, first_fit);
    for &(n, k) in first_fit.iter() {
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
    let mut factor = 1.0 + worst(heap, count).1;
    step(factor);
    if swap && factor > stop {
        spread_lowest_into(model, free, u32::MAX, free_spread);
        'nodes: for &(m, cores) in free_spread.iter() {
            let mut spare = cores - count[m as usize];
            while spare > 0 {
                let (w, pw) = worst(heap, count);
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
                factor = 1.0 + worst(heap, count).1;
                step(factor);
                if factor <= stop {
                    break 'nodes;
                }
            }
        }
    }
    Some(factor)
}

/// The lowest free processors of each node, as many as `count` selects there (consumed).
fn picked(model: &NodeModel, free: &ProcSet, count: &mut [u32]) -> ProcSet {
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
    ProcSet::from_intervals(picked)
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
    let (stop, swap) = selection(rsp);
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

/// The machine at the running jobs' planned ends after now, assuming they end then: the free
/// processors and the demand per node, time after time.
struct Later<'c, 'a> {
    c: &'c Ctx<'a>,
    running: Vec<(Time, usize)>,
    i: usize,
    free: ProcSet,
    demand: Vec<f64>,
    spread: Vec<(u32, u32)>,
}

impl<'c, 'a> Later<'c, 'a> {
    fn new(c: &'c Ctx<'a>) -> Self {
        Self {
            c,
            running: c.running().collect(),
            i: 0,
            free: c.free_set().clone(),
            demand: demand_now(c),
            spread: Vec::new(),
        }
    }

    /// Moves to the next time (the jobs planned to end then freed) and returns it.
    fn advance(&mut self) -> Option<Time> {
        let c = self.c;
        let now = c.now();
        let first = self.running.get(self.i)?;
        // A job past its planned end in this instant (its end just moved) frees nothing now.
        let t = first.0.max(now + 1);
        while self.i < self.running.len() && self.running[self.i].0.max(now + 1) == t {
            let k = self.running[self.i].1;
            let procs = c.procs_of(k);
            self.free.insert(procs);
            if let Some(nodes) = c.nodes() {
                spread_lowest_into(nodes.model(), procs, u32::MAX, &mut self.spread);
                for &(n, cnt) in &self.spread {
                    if let Some(d) = self.demand.get_mut(n as usize) {
                        *d = (*d - f64::from(cnt) * nodes.demand(k)).max(0.0);
                    }
                }
            }
            self.i += 1;
        }
        Some(t)
    }

    /// The allocation `rsp` gives job `j` on the machine at the current time.
    fn alloc(&self, j: usize, rsp: Rsp) -> Option<(ProcSet, f64)> {
        let need = self.c.job(j).procs;
        if self.free.len() < need {
            return None;
        }
        match self.c.nodes() {
            None => Some((self.free.clone().take_lowest(need), 1.0)),
            Some(nodes) => {
                let (stop, swap) = selection(rsp);
                less_consume(
                    nodes.model(),
                    &self.free,
                    &self.demand,
                    need,
                    nodes.demand(j),
                    stop,
                    swap,
                )
            }
        }
    }
}

/// The stop and swap of a LessConsume run for `rsp`.
fn selection(rsp: Rsp) -> (f64, bool) {
    match rsp {
        Rsp::FirstFit => (f64::INFINITY, false),
        Rsp::LessConsume => (1.0, true),
        Rsp::Threshold(t) => (t, true),
    }
}

/// The factors LessConsume-Threshold gives job `j` with each of `thresholds` on `free` and
/// `demand` (1 without the node model), into `out`; `false` when it does not fit.
fn threshold_factors(
    c: &Ctx<'_>,
    j: usize,
    free: &ProcSet,
    demand: &[f64],
    thresholds: &[f64],
    scratch: &mut Scratch,
    out: &mut [f64],
) -> bool {
    let need = c.job(j).procs;
    match c.nodes() {
        None => {
            out.iter_mut().for_each(|f| *f = 1.0);
            free.len() >= need
        }
        Some(nodes) => factors(
            nodes.model(),
            free,
            demand,
            need,
            nodes.demand(j),
            thresholds,
            scratch,
            out,
        ),
    }
}

/// LessConsume-Threshold's search for several thresholds at once: per threshold, the `(start,
/// factor)` [`earliest`] finds with it (now, then at each planned end of the running jobs,
/// assuming they end then: the first time with a factor <= the threshold, else the lowest
/// factor found, earliest on ties); the times are visited once for all thresholds, and only
/// factors are computed (the processors of the one allocation used come from
/// [`threshold_procs`]). `None` for a threshold only for a job wider than the machine.
pub fn earliest_many(c: &Ctx<'_>, j: usize, thresholds: &[f64]) -> Vec<Option<(Time, f64)>> {
    let n = thresholds.len();
    let floor = factor_floor(c, j);
    let stops: Vec<f64> = thresholds.iter().map(|t| t.max(floor)).collect();
    let mut best: Vec<Option<(Time, f64)>> = vec![None; n];
    let mut done = vec![false; n];
    let mut f = vec![0.0; n];
    let mut scratch = Scratch::default();
    let now = c.now();
    let demand = demand_now(c);
    if threshold_factors(
        c,
        j,
        c.free_set(),
        &demand,
        thresholds,
        &mut scratch,
        &mut f,
    ) {
        for i in 0..n {
            best[i] = Some((now, f[i]));
            done[i] = f[i] <= stops[i] || c.running_count() == 0;
        }
    }
    if done.iter().all(|&d| d) {
        return best;
    }
    let mut later = Later::new(c);
    // The thresholds still searching, and theirs alone computed at each time.
    let mut active: Vec<usize> = (0..n).filter(|&i| !done[i]).collect();
    let mut ts: Vec<f64> = active.iter().map(|&i| thresholds[i]).collect();
    while let Some(t) = later.advance() {
        let fs = &mut f[..active.len()];
        if !threshold_factors(c, j, &later.free, &later.demand, &ts, &mut scratch, fs) {
            continue;
        }
        let mut k = 0;
        while k < active.len() {
            let i = active[k];
            let factor = f[k];
            let reached = factor <= stops[i];
            if reached || best[i].is_none_or(|b| factor < b.1) {
                best[i] = Some((t, factor));
            }
            if reached {
                active.remove(k);
                ts.remove(k);
                f.remove(k);
                f.push(0.0);
            } else {
                k += 1;
            }
        }
        if active.is_empty() {
            break;
        }
    }
    best
}

/// The processors LessConsume-Threshold with threshold `t` gives job `j` at `start` (now or a
/// running job's planned end, as [`earliest_many`] found it).
pub fn threshold_procs(c: &Ctx<'_>, j: usize, start: Time, t: f64) -> ProcSet {
    let rsp = Rsp::Threshold(t);
    if start == c.now() {
        return at_now(c, j, rsp).map(|a| a.procs).unwrap_or_default();
    }
    let mut later = Later::new(c);
    while let Some(at) = later.advance() {
        if at == start {
            return later.alloc(j, rsp).map(|a| a.0).unwrap_or_default();
        }
    }
    ProcSet::default()
}

/// LessConsume-Threshold's search (any `rsp` stops at its own criterion): now, then at each
/// planned end of the running jobs (assuming they end then), the first time whose allocation
/// has a factor <= the threshold; else the lowest factor found (earliest on ties). For First-Fit
/// and LessConsume: the first time the job fits. `None` only for a job wider than the machine.
pub fn earliest(c: &Ctx<'_>, j: usize, rsp: Rsp) -> Option<Alloc> {
    if let Rsp::Threshold(t) = rsp {
        let (start, factor) = earliest_many(c, j, &[t])[0]?;
        return Some(Alloc {
            start,
            procs: threshold_procs(c, j, start, t),
            factor,
        });
    }
    let best = at_now(c, j, rsp);
    if best.is_some() || c.running_count() == 0 {
        return best;
    }
    let mut later = Later::new(c);
    while let Some(start) = later.advance() {
        if let Some((procs, factor)) = later.alloc(j, rsp) {
            return Some(Alloc {
                start,
                procs,
                factor,
            });
        }
    }
    None
}

/// [`earliest`] when it starts now, found with less search: once a later time has a lower
/// factor than now (or one within the threshold), the answer is not now.
fn earliest_if_now(c: &Ctx<'_>, j: usize, rsp: Rsp) -> Option<Alloc> {
    let stop = stop_at(c, j, rsp);
    let a = at_now(c, j, rsp)?;
    if a.factor <= stop || c.running_count() == 0 {
        return Some(a);
    }
    let (t, _) = selection(rsp);
    let mut later = Later::new(c);
    let mut scratch = Scratch::default();
    let mut f = [0.0];
    while later.advance().is_some() {
        if threshold_factors(c, j, &later.free, &later.demand, &[t], &mut scratch, &mut f)
            && (f[0] <= stop || f[0] < a.factor)
        {
            return None;
        }
    }
    Some(a)
}

/// Processors free at `t` if running jobs end at their planned ends.
pub fn free_at(c: &Ctx<'_>, t: Time) -> u32 {
    c.free()
        + c.running()
            .take_while(|&(end, _)| end <= t)
            .map(|(_, k)| c.job(k).procs)
            .sum::<u32>()
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
