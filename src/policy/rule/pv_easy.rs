//! PV-EASY's start rule (`pv-easy[predictor=...,slp=on|off,vb=on|off]`): preemptive venture EASY backfilling (Yuan et
//! al., HPDC'10, section 4). Priority is arrival order. Each pass:
//!
//! 1. start waiting jobs by priority while the highest one fits;
//! 2. shadow-load preemption (SLP): the running jobs of lower priority than the blocked head are
//!    its shadow load; if the free processors plus the shadow load's would let the head start
//!    now, shadow-load jobs are preempted from the lowest priority up until it fits (they wait
//!    again with their original priority, their work lost), the head starts, and 1-2 repeat;
//! 3. venture backfilling (VB): the head's reservation is the earliest planned (predicted) end
//!    of the sunny load (running jobs of higher priority than the head) at which the free
//!    processors, the shadow load's and those of the sunny jobs ended by then suffice; waiting
//!    jobs that fit and are predicted to end by the reservation start, nearest predicted
//!    completion first (ties by priority);
//! 4. while processors are idle, the remaining waiting jobs start by priority if they fit,
//!    whatever their prediction.
//!
//! With `vb=off`, steps 3-4 are EASY's backfilling (shadow time from the whole running load's
//! predicted ends, arrival order, extra processors) with predictions. With `slp=off`, step 2 is
//! skipped (an ablation: strict fairness is then no longer guaranteed).
//!
//! On a cluster the loads hold nodes and the head's needs are multi-resource
//! (`pv_easy/on_nodes.rs`); with `vb=off` the shadow is EASY's multi-resource one.

use super::StartRule;
use crate::policy::blocks::heads::start_arrivals_while_fit;
use crate::policy::blocks::shadow::{backfill, shadow, shadow_of, Shadow};
use crate::policy::queue::Queue;
use crate::policy::{KeyInfo, Params, SpecError, Values};
use crate::sim::{Ctx, SimError, StartReason};
use crate::Time;

mod on_nodes;

/// The `slp` key.
pub const SLP: KeyInfo = KeyInfo {
    name: "slp",
    default: "on",
    values: Values::Text("on|off"),
    help: "shadow-load preemption: kill lower-priority running jobs when that lets the blocked head start now",
    presets: &[],
    examples: &[],
};

/// The `vb` key.
pub const VB: KeyInfo = KeyInfo {
    name: "vb",
    default: "on",
    values: Values::Text("on|off"),
    help: "venture backfilling (reservation from the jobs ahead, nearest predicted completion first); off: EASY's backfilling with predictions",
    presets: &[],
    examples: &[],
};

/// PV-EASY's rule: shadow-load preemption and venture backfilling.
pub struct PvEasy {
    slp: bool,
    vb: bool,
    /// Scratch: shadow-load jobs, candidates.
    buf: Vec<usize>,
    /// Scratch: (prediction, job) of venture candidates.
    ventures: Vec<(Time, usize)>,
}

/// Reads the `slp` and `vb` keys.
pub fn parse(p: &Params) -> Result<PvEasy, SpecError> {
    let slp = p.choice("slp")? == "on";
    let vb = p.choice("vb")? == "on";
    Ok(PvEasy {
        slp,
        vb,
        buf: Vec::new(),
        ventures: Vec::new(),
    })
}

impl PvEasy {
    /// Starts job `j` now for `why`, planned to end after its prediction.
    fn start(&self, c: &mut Ctx<'_>, j: usize, why: StartReason) -> Result<(), SimError> {
        let end = c.now() + c.estimate(j);
        c.start_as(j, Some(why), None, Some(end))
    }

    /// Steps 1 and 2; returns the blocked head, if any.
    fn start_and_preempt(&mut self, c: &mut Ctx<'_>) -> Result<Option<usize>, SimError> {
        loop {
            start_arrivals_while_fit(c)?;
            let Some(head) = c.waiting().first() else {
                return Ok(None);
            };
            if !self.slp {
                return Ok(Some(head));
            }
            if c.cluster().is_some() {
                if !self.preempt_on_nodes(c, head)? {
                    return Ok(Some(head));
                }
                self.start(c, head, StartReason::Head)?;
                continue;
            }
            let need = c.job(head).procs;
            self.buf.clear();
            self.buf
                .extend(c.running().map(|(_, j)| j).filter(|&j| j > head));
            let shadow_procs: u32 = self.buf.iter().map(|&j| c.job(j).procs).sum();
            if c.free() + shadow_procs < need {
                return Ok(Some(head));
            }
            // Lowest priority (latest arrival) first.
            self.buf.sort_unstable_by(|a, b| b.cmp(a));
            for i in 0..self.buf.len() {
                if c.free() >= need {
                    break;
                }
                c.preempt(self.buf[i])?;
            }
            self.start(c, head, StartReason::Head)?;
        }
    }

    /// Venture backfilling's reservation for blocked `head` on one pool: the earliest planned
    /// end of the sunny load at which the free processors, the shadow load's and those of the
    /// sunny jobs ended by then suffice.
    fn reservation(c: &Ctx<'_>, head: usize) -> Time {
        let need = c.job(head).procs;
        let mut avail = c.free()
            + c.running()
                .filter(|&(_, j)| j > head)
                .map(|(_, j)| c.job(j).procs)
                .sum::<u32>();
        for (end, j) in c.running().filter(|&(_, j)| j < head) {
            avail += c.job(j).procs;
            if avail >= need {
                return end;
            }
        }
        Time::MAX
    }

    /// Step 3 and 4 (venture backfilling) for blocked `head`.
    fn venture(&mut self, c: &mut Ctx<'_>, head: usize) -> Result<(), SimError> {
        let reservation = if c.cluster().is_some() {
            Self::reservation_on_nodes(c, head)
        } else {
            Self::reservation(c, head)
        };
        c.reserve(head, reservation);
        if c.free() == 0 {
            return Ok(());
        }
        let now = c.now();
        let free = c.free();
        self.ventures.clear();
        self.ventures
            .extend(c.waiting().iter().skip(1).filter_map(|j| {
                if c.job(j).procs > free {
                    return None;
                }
                let p = c.estimate(j);
                (now + p <= reservation).then_some((p, j))
            }));
        self.ventures.sort_unstable();
        for i in 0..self.ventures.len() {
            if c.free() == 0 {
                return Ok(());
            }
            let (p, j) = self.ventures[i];
            if c.fits(j) {
                c.start_as(j, Some(StartReason::Backfilled), None, Some(now + p))?;
            }
        }
        self.buf.clear();
        self.buf.extend(c.waiting().iter().skip(1));
        for i in 0..self.buf.len() {
            if c.free() == 0 {
                break;
            }
            let j = self.buf[i];
            if c.fits(j) {
                self.start(c, j, StartReason::Venture)?;
            }
        }
        Ok(())
    }
}

impl StartRule for PvEasy {
    /// The queue is not read: priority is arrival order by definition (SLP and VB compare the
    /// running jobs' priorities with the head's by arrival), and SLP changes the waiting jobs
    /// during the pass (a preempted job waits again in its place), which the pass's queue does
    /// not show; the rule reads `Ctx::waiting` instead.
    fn pass(&mut self, c: &mut Ctx<'_>, _queue: &mut Queue<'_>) -> Result<(), SimError> {
        let Some(head) = self.start_and_preempt(c)? else {
            return Ok(());
        };
        if self.vb {
            return self.venture(c, head);
        }
        let sh = if c.cluster().is_some() {
            shadow_of(c, head)
        } else {
            let (shadow_time, extra) = shadow(c, c.job(head).procs);
            Shadow::pool(shadow_time, extra)
        };
        c.reserve(head, sh.time);
        if c.free() == 0 {
            return Ok(());
        }
        self.buf.clear();
        self.buf.extend(c.waiting().iter().skip(1));
        backfill(c, sh, self.buf.iter().copied())
    }
}
