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

use super::later::Horizon;
use super::less_consume::{picked, Free, FreeNode, RunInputs, Scratch};
use super::shadow::shadow;
use crate::policy::queue::Queue;
use crate::sim::penalty::node_penalty;
use crate::sim::{Ctx, ProcSet};
use crate::Time;

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

/// The allocation `rsp` gives job `j` now, or `None` when it does not fit now (or, for
/// `lct`, when its allocation would start later). Without the node model every policy is
/// first fit with factor 1. `h`: the caller's horizon (kept across calls on one state).
pub fn now(c: &Ctx<'_>, j: usize, rsp: Rsp, h: &mut Horizon) -> Option<Alloc> {
    match rsp {
        Rsp::Threshold(_) => earliest_if_now(c, j, rsp, h),
        _ => at_now(c, j, rsp, h),
    }
}

fn at_now(c: &Ctx<'_>, j: usize, rsp: Rsp, h: &mut Horizon) -> Option<Alloc> {
    let job = c.job(j);
    if job.procs > c.free() {
        return None;
    }
    let Some(view) = c.nodes() else {
        return Some(Alloc {
            start: c.now(),
            procs: c.free_set().clone().take_lowest(job.procs),
            factor: 1.0,
        });
    };
    h.on(c);
    let (stop, swap) = selection(rsp);
    let factor = RunInputs {
        nodes: &h.now_nodes,
        total: c.free(),
        bandwidth: view.model().bandwidth,
        need: job.procs,
        per_proc: view.demand(j),
    }
    .run(stop, swap, &mut h.scratch, |_| {})?;
    Some(Alloc {
        start: c.now(),
        procs: picked(
            view.model(),
            // The free intervals are built only when the masks are not kept.
            view.free_masks()
                .map_or_else(|| Free::Intervals(c.free_set()), Free::Masks),
            &h.now_nodes,
            &mut h.scratch,
        ),
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

/// The allocation `rsp` gives job `j` on the `i`-th later state of `h` (on the state of `c`),
/// or `None` when it does not fit there (or there is no such state).
fn alloc_later(
    c: &Ctx<'_>,
    h: &mut Horizon,
    i: usize,
    j: usize,
    rsp: Rsp,
) -> Option<(Time, ProcSet, f64)> {
    let need = c.job(j).procs;
    if !h.reach(c, i) {
        return None;
    }
    let state = h.state(i);
    let (t, total) = (state.t, state.total);
    if total < need {
        return None;
    }
    let mut free = h.free_set(c, state);
    let Some(view) = c.nodes() else {
        return Some((t, free.take_lowest(need), 1.0));
    };
    let (stop, swap) = selection(rsp);
    let mut scratch = Scratch::default();
    let nodes = h.nodes_of(i);
    let factor = RunInputs {
        nodes,
        total,
        bandwidth: view.model().bandwidth,
        need,
        per_proc: view.demand(j),
    }
    .run(stop, swap, &mut scratch, |_| {})?;
    let procs = picked(view.model(), Free::Intervals(&free), nodes, &mut scratch);
    Some((t, procs, factor))
}

/// The stop and swap of a LessConsume run for `rsp`.
fn selection(rsp: Rsp) -> (f64, bool) {
    match rsp {
        Rsp::FirstFit => (f64::INFINITY, false),
        Rsp::LessConsume => (1.0, true),
        Rsp::Threshold(t) => (t, true),
    }
}

/// The factors LessConsume-Threshold gives job `j` with each of `thresholds` on a state of
/// `total` free processors on the free `nodes` (1 without the node model), into `out`; `false`
/// when it does not fit.
fn threshold_factors(
    c: &Ctx<'_>,
    j: usize,
    total: u32,
    nodes: &[FreeNode],
    thresholds: &[f64],
    scratch: &mut Scratch,
    out: &mut [f64],
) -> bool {
    let need = c.job(j).procs;
    match c.nodes() {
        None => {
            out.iter_mut().for_each(|f| *f = 1.0);
            total >= need
        }
        Some(view) => RunInputs {
            nodes,
            total,
            bandwidth: view.model().bandwidth,
            need,
            per_proc: view.demand(j),
        }
        .factors(thresholds, scratch, out),
    }
}

/// LessConsume-Threshold's search for several thresholds at once: per threshold, the `(start,
/// factor)` [`earliest`] finds with it (now, then at each planned end of the running jobs,
/// assuming they end then: the first time with a factor <= the threshold, else the lowest
/// factor found, earliest on ties); the times are visited once for all thresholds, and only
/// factors are computed (the processors of the one allocation used come from
/// [`threshold_procs`]). `None` for a threshold only for a job wider than the machine. `h`:
/// the caller's horizon, shared by the searches of several jobs on one state.
///
/// A state whose complete LessConsume run exceeds every threshold still searched gets that
/// factor from its node groups ([`Horizon::beyond`]) instead of a run.
pub fn earliest_many(
    c: &Ctx<'_>,
    j: usize,
    thresholds: &[f64],
    h: &mut Horizon,
) -> Vec<Option<(Time, f64)>> {
    h.on(c);
    let n = thresholds.len();
    let floor = factor_floor(c, j);
    let stops: Vec<f64> = thresholds.iter().map(|t| t.max(floor)).collect();
    let mut best: Vec<Option<(Time, f64)>> = vec![None; n];
    let mut done = vec![false; n];
    let mut f = vec![0.0; n];
    let now = c.now();
    let need = c.job(j).procs;
    let per_proc = c.nodes().map_or(0.0, |v| v.demand(j));
    // A complete run's factor; when it exceeds every threshold it is every threshold's factor
    // (no run stops earlier), so only a state where some threshold is met needs a run.
    let top = thresholds.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let fits = match h.beyond(c, None, need, per_proc, top) {
        Some(w) => {
            f.fill(w);
            true
        }
        _ => threshold_factors(
            c,
            j,
            c.free(),
            &h.now_nodes,
            thresholds,
            &mut h.scratch,
            &mut f,
        ),
    };
    if fits {
        for i in 0..n {
            best[i] = Some((now, f[i]));
            done[i] = f[i] <= stops[i] || c.running_count() == 0;
        }
    }
    if done.iter().all(|&d| d) {
        return best;
    }
    // The thresholds still searching, and theirs alone computed at each time.
    let mut active: Vec<usize> = (0..n).filter(|&i| !done[i]).collect();
    let mut ts: Vec<f64> = active.iter().map(|&i| thresholds[i]).collect();
    let mut scratch = std::mem::take(&mut h.scratch);
    let mut at = 0;
    while h.reach(c, at) {
        let (t, total) = (h.state(at).t, h.state(at).total);
        let fs = &mut f[..active.len()];
        let top = ts.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let fits = match h.beyond(c, Some(at), need, per_proc, top) {
            Some(w) => {
                fs.fill(w);
                true
            }
            _ => {
                let nodes = h.nodes_of(at);
                threshold_factors(c, j, total, nodes, &ts, &mut scratch, fs)
            }
        };
        at += 1;
        if !fits {
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
    h.scratch = scratch;
    best
}

/// The processors LessConsume-Threshold with threshold `t` gives job `j` at `start` (now or a
/// running job's planned end, as [`earliest_many`] found it).
pub fn threshold_procs(c: &Ctx<'_>, j: usize, start: Time, t: f64, h: &mut Horizon) -> ProcSet {
    let rsp = Rsp::Threshold(t);
    if start == c.now() {
        return at_now(c, j, rsp, h).map(|a| a.procs).unwrap_or_default();
    }
    h.on(c);
    let mut at = 0;
    while h.reach(c, at) {
        if h.state(at).t == start {
            return alloc_later(c, h, at, j, rsp)
                .map(|a| a.1)
                .unwrap_or_default();
        }
        at += 1;
    }
    ProcSet::default()
}

/// LessConsume-Threshold's search (any `rsp` stops at its own criterion): now, then at each
/// planned end of the running jobs (assuming they end then), the first time whose allocation
/// has a factor <= the threshold; else the lowest factor found (earliest on ties). For First-Fit
/// and LessConsume: the first time the job fits. `None` only for a job wider than the machine.
/// For LessConsume-Threshold, the processors only of a start now (a later start is a
/// reservation: its processors are chosen when it comes; empty here).
pub fn earliest(c: &Ctx<'_>, j: usize, rsp: Rsp, h: &mut Horizon) -> Option<Alloc> {
    if let Rsp::Threshold(t) = rsp {
        let (start, factor) = earliest_many(c, j, &[t], h)[0]?;
        let procs = if start == c.now() {
            threshold_procs(c, j, start, t, h)
        } else {
            ProcSet::default()
        };
        return Some(Alloc {
            start,
            procs,
            factor,
        });
    }
    let best = at_now(c, j, rsp, h);
    if best.is_some() || c.running_count() == 0 {
        return best;
    }
    h.on(c);
    let mut at = 0;
    while h.reach(c, at) {
        if let Some((start, procs, factor)) = alloc_later(c, h, at, j, rsp) {
            return Some(Alloc {
                start,
                procs,
                factor,
            });
        }
        at += 1;
    }
    None
}

/// [`earliest`] when it starts now, found with less search: once a later time has a lower
/// factor than now (or one within the threshold), the answer is not now.
fn earliest_if_now(c: &Ctx<'_>, j: usize, rsp: Rsp, h: &mut Horizon) -> Option<Alloc> {
    h.on(c);
    let (t, _) = selection(rsp);
    let key = (
        c.job(j).procs,
        c.nodes().map_or(0, |n| n.demand(j).to_bits()),
        t.to_bits(),
    );
    if h.later.contains(&key) {
        return None;
    }
    let stop = stop_at(c, j, rsp);
    let need = c.job(j).procs;
    let per_proc = c.nodes().map_or(0.0, |v| v.demand(j));
    // A complete run's factor now: when it is above the stop, it is the factor of the run now
    // (no run stops earlier), so that run is needed only if no later start beats it.
    let beyond = match c.running_count() {
        0 => None,
        _ => h.beyond(c, None, need, per_proc, stop),
    };
    let now_factor = match beyond {
        Some(w) => w,
        _ => {
            let a = at_now(c, j, rsp, h)?;
            if a.factor <= stop || c.running_count() == 0 {
                return Some(a);
            }
            a.factor
        }
    };
    let mut f = [0.0];
    let mut scratch = std::mem::take(&mut h.scratch);
    let mut at = 0;
    let mut later = false;
    while h.reach(c, at) {
        // Past the threshold, a state's factor is its complete run's.
        let factor = match h.beyond(c, Some(at), need, per_proc, t) {
            Some(w) => Some(w),
            _ => {
                let total = h.state(at).total;
                let nodes = h.nodes_of(at);
                threshold_factors(c, j, total, nodes, &[t], &mut scratch, &mut f).then_some(f[0])
            }
        };
        at += 1;
        if factor.is_some_and(|f| f <= stop || f < now_factor) {
            later = true;
            break;
        }
    }
    h.scratch = scratch;
    if later {
        h.later.insert(key);
        return None;
    }
    at_now(c, j, rsp, h)
}

/// Processors free at `t` if running jobs end at their planned ends.
pub fn free_at(c: &Ctx<'_>, t: Time) -> u32 {
    c.free()
        + c.running()
            .take_while(|&(end, _)| end <= t)
            .map(|(_, k)| c.job(k).procs)
            .sum::<u32>()
}

/// Starts the jobs at the head of `queue` while the allocation `pick` gives them starts now.
/// Returns the position of the first one left waiting (the queue's length when all started)
/// and the start `pick` gave it, if any.
pub fn start_heads(
    c: &mut Ctx<'_>,
    queue: &mut Queue<'_>,
    mut pick: impl FnMut(&Ctx<'_>, usize) -> Option<Alloc>,
) -> Result<(usize, Option<Time>), crate::sim::SimError> {
    let now = c.now();
    let mut first = 0;
    while let Some(head) = queue.get(c, first) {
        match pick(c, head) {
            Some(a) if a.start == now => {
                let end = now + c.job(head).estimate;
                c.start_as(
                    head,
                    Some(crate::sim::StartReason::Head),
                    Some(a.procs),
                    Some(end),
                )?;
                first += 1;
            }
            other => return Ok((first, other.map(|a| a.start))),
        }
    }
    Ok((first, None))
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
