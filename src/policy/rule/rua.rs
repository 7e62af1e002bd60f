//! RUA's threshold rule (`rua[thresholds=1.15;1.2;1.25;1.5]`): Resource-Usage-Aware backfilling (Guim, Rodero &
//! Corbalan, section 5). One reservation, for the first waiting job in arrival order: for each
//! threshold, LessConsume-Threshold gives an allocation (a start and a penalty factor); the one
//! with the least predicted slowdown is kept (ties: earlier start, then the first threshold);
//! the job starts if that is now, else that start is its reservation. Backfilling: every other
//! waiting job gets its allocation the same way; those starting now that end (by their
//! estimate) by the reservation or fit in the processors left over then form the backfilling
//! queue, ordered by penalty factor, then estimate; the first starts, and the queue is built
//! again until no job can be backfilled.
//!
//! On a cluster there is no node model, so no penalty: every allocation's factor is 1 and the
//! thresholds all agree. The least predicted slowdown is then the earliest start, the head's
//! reservation its multi-resource shadow time, and the backfilling queue ordered by estimate
//! (ties by arrival); a job that cannot start now cannot later in the pass, so one pass in that
//! order starts the same jobs. That is `sjbf[rsp=lct]`'s pass on a cluster
//! (`policy/blocks/select_on_nodes.rs`), with LessConsume-Threshold's nodes: best fit.

use super::StartRule;
use crate::policy::alloc::Threshold;
use crate::policy::blocks::later::Horizon;
use crate::policy::blocks::select::{self, reservation, Alloc};
use crate::policy::blocks::select_on_nodes as on_nodes;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, ProcSet, SimError, StartReason};
use crate::Time;
use std::collections::HashMap;

/// The bound of the slowdown used to compare allocations, seconds (as bounded slowdown).
const BOUND: f64 = 10.0;

/// RUA: thresholds for the reservation, backfilling by least penalty.
pub struct Rua {
    search: Search,
    /// The later machine states of the current state (kept until it changes).
    horizon: Horizon,
    /// Scratch: the waiting jobs tried for backfilling.
    candidates: Vec<usize>,
}

/// RUA's searches on the current machine state.
struct Search {
    /// The LessConsume-Threshold factors, in the order ties are broken.
    thresholds: Vec<f64>,
    /// The searches' results on the current machine state, by the job's processors and demand
    /// per process (bits): the search depends on nothing else of the job, so waiting jobs of the
    /// same size and demand share one between two starts.
    found: HashMap<(u32, u64), Found>,
}

/// Per threshold, the `(start, factor)` LessConsume-Threshold's search found.
type Found = Vec<Option<(Time, f64)>>;

impl Rua {
    /// RUA over LessConsume-Threshold allocators, one per threshold.
    pub fn new(thresholds: Vec<Threshold>) -> Self {
        Self {
            search: Search {
                thresholds: thresholds.iter().map(|t| t.0).collect(),
                found: HashMap::new(),
            },
            horizon: Horizon::new(),
            candidates: Vec::new(),
        }
    }
}

/// Predicted slowdown of job `j` started at `start` with factor `factor`:
/// (start - submit + estimate x factor) / estimate, the estimate bounded below by 10 s.
fn slowdown(c: &Ctx<'_>, j: usize, start: Time, factor: f64) -> f64 {
    let job = c.job(j);
    let est = (job.estimate as f64).max(BOUND);
    ((start - job.submit) as f64 + est * factor) / est
}

/// A threshold's allocation for job `j`: start, penalty factor, which threshold.
#[derive(Clone, Copy)]
struct Choice {
    start: Time,
    factor: f64,
    threshold: usize,
}

fn better(c: &Ctx<'_>, j: usize, a: &Choice, b: &Choice) -> bool {
    let (sa, sb) = (
        slowdown(c, j, a.start, a.factor),
        slowdown(c, j, b.start, b.factor),
    );
    sa < sb || (sa == sb && a.start < b.start)
}

impl Search {
    /// The allocation with the least slowdown over the thresholds (the first threshold on
    /// ties), without its processors. When every threshold is met now, each one's allocation
    /// starts now and no later time is searched. `h` is the horizon of the current state; the
    /// searches are kept in `self.found` (cleared whenever the state changes).
    fn choose(&mut self, c: &Ctx<'_>, j: usize, h: &mut Horizon) -> Option<Choice> {
        let key = (
            c.job(j).procs,
            c.nodes().map_or(0, |n| n.demand(j).to_bits()),
        );
        let found = self
            .found
            .entry(key)
            .or_insert_with(|| select::earliest_many(c, j, &self.thresholds, h));
        let mut best: Option<Choice> = None;
        for (threshold, f) in found.iter().enumerate() {
            let Some((start, factor)) = *f else { continue };
            let a = Choice {
                start,
                factor,
                threshold,
            };
            if best.as_ref().is_none_or(|b| better(c, j, &a, b)) {
                best = Some(a);
            }
        }
        best
    }

    /// The processors of `choice` for job `j`.
    fn procs(&self, c: &Ctx<'_>, j: usize, choice: &Choice, h: &mut Horizon) -> ProcSet {
        select::threshold_procs(c, j, choice.start, self.thresholds[choice.threshold], h)
    }
}

impl StartRule for Rua {
    /// The queue (arrival order) is read up to the blocked head, then whole for backfilling.
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        if c.cluster().is_some() {
            // No node model prices sharing: every factor is 1 (see the module's text).
            return on_nodes::pass(c, queue, true, &mut self.candidates);
        }
        let now = c.now();
        // Only a start now needs the processors; a later one is the reservation.
        let (search, h) = (&mut self.search, &mut self.horizon);
        let (first, later) = select::start_heads(c, queue, |c, head| {
            search.found.clear();
            search.choose(c, head, h).map(|a| Alloc {
                start: a.start,
                procs: if a.start == now {
                    search.procs(c, head, &a, h)
                } else {
                    ProcSet::default()
                },
                factor: a.factor,
            })
        })?;
        let Some(head) = queue.get(c, first) else {
            return Ok(());
        };
        let (res, mut extra) = reservation(c, head, later);
        c.reserve(head, res);
        c.wake_at(res);
        // The jobs behind the head still waiting, in queue order.
        self.candidates.clear();
        self.candidates
            .extend_from_slice(&queue.all(c)[first + 1..]);
        loop {
            if c.free() == 0 {
                break;
            }
            let mut best: Option<(f64, Time, usize, Choice, usize)> = None;
            self.search.found.clear();
            for (i, &j) in self.candidates.iter().enumerate() {
                let job = c.job(j);
                let within = now + job.estimate <= res;
                if job.procs > c.free() || (!within && job.procs > extra) {
                    continue;
                }
                let Some(a) = self
                    .search
                    .choose(c, j, &mut self.horizon)
                    .filter(|a| a.start == now)
                else {
                    continue;
                };
                let key = (a.factor, job.estimate, j);
                if best
                    .as_ref()
                    .is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2))
                {
                    best = Some((key.0, key.1, key.2, a, i));
                }
            }
            let Some((_, est, j, a, i)) = best else {
                break;
            };
            self.candidates.remove(i);
            let why = if now + est > res {
                extra -= c.job(j).procs;
                StartReason::Extra
            } else {
                StartReason::Backfilled
            };
            let procs = self.search.procs(c, j, &a, &mut self.horizon);
            c.start_as(j, Some(why), Some(procs), Some(now + est))?;
        }
        Ok(())
    }
}
