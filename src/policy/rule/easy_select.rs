//! EASY with an allocator and shortest-estimate-first backfilling (`sjbf[rsp=ff|lc|lct,t=1.15]`;
//! Guim, Rodero & Corbalan, section 7). The head of the queue (in arrival order) starts when its
//! allocator gives it a start now; otherwise it holds a reservation: the shadow time for ff /
//! lc, the start LessConsume-Threshold found for lct. Waiting jobs are then tried shortest
//! estimate first; each starts now if its allocator gives it a start now and it ends (by its
//! estimate) by the reservation or fits in the processors left over then. Planned ends are start
//! + the input's planning estimate.
//!
//! On a cluster the selections choose nodes (`policy/blocks/select_on_nodes.rs`).

use super::StartRule;
use crate::policy::alloc::Allocator;
use crate::policy::blocks::later::Horizon;
use crate::policy::blocks::select::{self, reservation};
use crate::policy::blocks::select_on_nodes::{self as on_nodes, shortest_first};
use crate::policy::queue::Queue;
use crate::sim::{Ctx, SimError, StartReason};

/// EASY with a resource selection policy and shortest-estimate-first backfilling (`sjbf`).
pub struct EasySelect {
    alloc: Box<dyn Allocator>,
    candidates: Vec<usize>,
    /// What the allocator derived from the current machine state (kept until it changes).
    horizon: Horizon,
}

impl EasySelect {
    /// The rule selecting processors with `alloc`.
    pub fn new(alloc: Box<dyn Allocator>) -> Self {
        Self {
            alloc,
            candidates: Vec::new(),
            horizon: Horizon::new(),
        }
    }
}

impl StartRule for EasySelect {
    /// The queue (arrival order) is read up to the blocked head, then whole when a processor
    /// is left for backfilling.
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        if c.cluster().is_some() {
            let packed = self.alloc.packs_on_clusters();
            return on_nodes::pass(c, queue, packed, &mut self.candidates);
        }
        let now = c.now();
        let alloc = &*self.alloc;
        let h = &mut self.horizon;
        let (first, later) = select::start_heads(c, queue, |c, head| alloc.head(c, head, h))?;
        let Some(head) = queue.get(c, first) else {
            return Ok(());
        };
        let (res, mut extra) = reservation(c, head, later);
        c.reserve(head, res);
        if later.is_some() {
            c.wake_at(res);
        }
        if c.free() == 0 {
            return Ok(());
        }
        shortest_first(&mut self.candidates, c, queue, first);
        for &j in &self.candidates {
            if c.free() == 0 {
                break;
            }
            let job = c.job(j);
            let end = now + job.estimate;
            let within = end <= res;
            if job.procs > c.free() || (!within && job.procs > extra) {
                continue;
            }
            let Some(a) = self.alloc.now(c, j, &mut self.horizon) else {
                continue;
            };
            let why = if within {
                StartReason::Backfilled
            } else {
                extra -= job.procs;
                StartReason::Extra
            };
            c.start_as(j, Some(why), Some(a.procs), Some(end))?;
        }
        Ok(())
    }
}
