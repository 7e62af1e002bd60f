//! Resource selection policies (Guim, Rodero & Corbalan, section 4): which processors a job
//! gets, and, for LessConsume-Threshold, when. `ff` is First-Fit (the lowest free ids);
//! `lc` (LessConsume) starts from the first-fit allocation and moves processes from the node
//! with the highest penalty to not yet evaluated free processors (in id order) whose node would
//! penalize less, until every free processor was evaluated or the job's factor is 1; `lct[t]`
//! (LessConsume-Threshold) stops as soon as the factor is <= t, and when that is not possible
//! now, looks at later times (the running jobs' planned ends) for one where it is; when no time
//! gets there, it takes the lowest factor found (earliest on ties).

use crate::sim::nodes::spread;
use crate::sim::penalty::node_penalty;
use crate::sim::{Ctx, NodeModel, ProcSet};
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
    // Selected processes per node (ascending by node), and the free cores per node.
    let mut sel: Vec<(u32, u32)> = spread(model, &ff);
    let factor_of =
        |sel: &[(u32, u32)]| 1.0 + sel.iter().map(|&(n, k)| pen(n, k)).fold(0.0, f64::max);
    let mut factor = factor_of(&sel);
    if swap && factor > stop {
        let avail = spread(model, free);
        'nodes: for &(m, cores) in &avail {
            let taken = sel.iter().find(|&&(n, _)| n == m).map_or(0, |&(_, k)| k);
            let mut spare = cores - taken;
            while spare > 0 {
                // The selected node with the highest penalty (lowest id on ties).
                let (wi, &(w, kw)) = sel
                    .iter()
                    .enumerate()
                    .max_by(|a, b| {
                        pen(a.1 .0, a.1 .1)
                            .total_cmp(&pen(b.1 .0, b.1 .1))
                            .then(b.1 .0.cmp(&a.1 .0))
                    })
                    .expect("a job needs at least one processor here");
                let km = sel.iter().find(|&&(n, _)| n == m).map_or(0, |&(_, k)| k);
                if w == m || pen(m, km + 1) >= pen(w, kw) {
                    continue 'nodes;
                }
                if kw == 1 {
                    sel.remove(wi);
                } else {
                    sel[wi].1 -= 1;
                }
                match sel.binary_search_by_key(&m, |&(n, _)| n) {
                    Ok(i) => sel[i].1 += 1,
                    Err(i) => sel.insert(i, (m, 1)),
                }
                spare -= 1;
                factor = factor_of(&sel);
                if factor <= stop {
                    break 'nodes;
                }
            }
        }
    }
    let mut procs = ProcSet::default();
    for &(n, k) in &sel {
        let lo = n * model.cores;
        procs.insert(&intersect(free, lo, lo + model.cores).take_lowest(k));
    }
    Some((procs, factor))
}

fn intersect(set: &ProcSet, lo: u32, hi: u32) -> ProcSet {
    ProcSet::from_intervals(
        set.intervals()
            .iter()
            .map(|&(a, b)| (a.max(lo), b.min(hi)))
            .collect(),
    )
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
        Rsp::Threshold(_) => earliest(c, j, rsp).filter(|a| a.start == c.now()),
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

/// LessConsume-Threshold's search (any `rsp` stops at its own criterion): now, then at each
/// planned end of the running jobs (assuming they end then), the first time whose allocation
/// has a factor <= the threshold; else the lowest factor found (earliest on ties). For First-Fit
/// and LessConsume: the first time the job fits. `None` only for a job wider than the machine.
pub fn earliest(c: &Ctx<'_>, j: usize, rsp: Rsp) -> Option<Alloc> {
    let job = c.job(j);
    let threshold = match rsp {
        Rsp::Threshold(t) => t,
        _ => f64::INFINITY,
    };
    if let Some(a) = at_now(c, j, rsp) {
        if a.factor <= threshold || c.running_count() == 0 {
            return Some(a);
        }
    }
    let now = c.now();
    let mut free = c.free_set().clone();
    let mut demand = demand_now(c);
    let mut best = at_now(c, j, rsp);
    let running: Vec<(Time, usize)> = c.running().collect();
    let mut i = 0;
    while i < running.len() {
        let t = running[i].0.max(now);
        while i < running.len() && running[i].0.max(now) == t {
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
        let Some((procs, factor)) = found else {
            continue;
        };
        let a = Alloc {
            start: t,
            procs,
            factor,
        };
        if factor <= threshold {
            return Some(a);
        }
        if best.as_ref().is_none_or(|b| factor < b.factor) {
            best = Some(a);
        }
    }
    best
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
