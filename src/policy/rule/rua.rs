//! RUA's threshold rule (`rua[thresholds=1.15;1.2;1.25;1.5]`): Resource-Usage-Aware backfilling (Guim, Rodero &
//! Corbalan, section 5). One reservation, for the first waiting job in arrival order: for each
//! threshold, LessConsume-Threshold gives an allocation (a start and a penalty factor); the one
//! with the least predicted slowdown is kept (ties: earlier start, then the first threshold);
//! the job starts if that is now, else that start is its reservation. Backfilling: every other
//! waiting job gets its allocation the same way; those starting now that end (by their
//! estimate) by the reservation or fit in the processors left over then form the backfilling
//! queue, ordered by penalty factor, then estimate; the first starts, and the queue is built
//! again until no job can be backfilled.

use super::StartRule;
use crate::policy::alloc::Threshold;
use crate::policy::blocks::select::{self, reservation, Alloc};
use crate::sim::{Ctx, SimError, StartReason};
use crate::Time;

/// The bound of the slowdown used to compare allocations, seconds (as bounded slowdown).
const BOUND: f64 = 10.0;

pub struct Rua {
    thresholds: Vec<Threshold>,
}

impl Rua {
    /// RUA over LessConsume-Threshold allocators, one per threshold.
    pub fn new(thresholds: Vec<Threshold>) -> Self {
        Self { thresholds }
    }
}

/// Predicted slowdown of job `j` started at `a.start` with factor `a.factor`:
/// (start - submit + estimate x factor) / estimate, the estimate bounded below by 10 s.
fn slowdown(c: &Ctx<'_>, j: usize, a: &Alloc) -> f64 {
    let job = c.job(j);
    let est = (job.estimate as f64).max(BOUND);
    ((a.start - job.submit) as f64 + est * a.factor) / est
}

fn better(c: &Ctx<'_>, j: usize, a: &Alloc, b: &Alloc) -> bool {
    let (sa, sb) = (slowdown(c, j, a), slowdown(c, j, b));
    sa < sb || (sa == sb && a.start < b.start)
}

impl Rua {
    /// The allocation with the least slowdown over the thresholds.
    fn allocation(&self, c: &Ctx<'_>, j: usize) -> Option<Alloc> {
        let mut best: Option<Alloc> = None;
        for t in &self.thresholds {
            if let Some(a) = t.earliest(c, j) {
                if best.as_ref().is_none_or(|b| better(c, j, &a, b)) {
                    best = Some(a);
                }
            }
        }
        best
    }

    /// The allocation of job `j` if it is one starting now. Cheap first: when every threshold
    /// is met now, each one's allocation starts now and the full search is not needed.
    fn allocation_now(&self, c: &Ctx<'_>, j: usize) -> Option<Alloc> {
        let mut best_now: Option<Alloc> = None;
        for t in &self.thresholds {
            let a = t.within_now(c, j)?;
            if best_now.as_ref().is_none_or(|b| better(c, j, &a, b)) {
                best_now = Some(a);
            }
        }
        best_now
    }
}

impl StartRule for Rua {
    fn schedule(&mut self, c: &mut Ctx<'_>, _queue: &[usize]) -> Result<(), SimError> {
        let now = c.now();
        let later = select::start_heads(c, |c, head| self.allocation(c, head))?;
        let Some(&head) = c.waiting().first() else {
            return Ok(());
        };
        let (res, mut extra) = reservation(c, head, later);
        c.reserve(head, res);
        c.wake_at(res);
        loop {
            if c.free() == 0 {
                break;
            }
            let mut best: Option<(f64, Time, usize, Alloc)> = None;
            for &j in &c.waiting()[1..] {
                let job = c.job(j);
                let within = now + job.estimate <= res;
                if job.procs > c.free() || (!within && job.procs > extra) {
                    continue;
                }
                let Some(a) = self
                    .allocation_now(c, j)
                    .or_else(|| self.allocation(c, j).filter(|a| a.start == now))
                else {
                    continue;
                };
                let key = (a.factor, job.estimate, j);
                if best
                    .as_ref()
                    .is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2))
                {
                    best = Some((key.0, key.1, key.2, a));
                }
            }
            let Some((_, est, j, a)) = best else {
                break;
            };
            let why = if now + est > res {
                extra -= c.job(j).procs;
                StartReason::Extra
            } else {
                StartReason::Backfilled
            };
            c.start_as(j, Some(why), Some(a.procs), Some(now + est))?;
        }
        Ok(())
    }
}
