//! PV-EASY on a cluster's nodes: the shadow load and the sunny load hold allocations, and the
//! head's needs are over nodes × resources.
//!
//! - Shadow-load preemption: the head's allocation is sought on what is free plus everything
//!   the shadow load holds; when there is one, only the shadow-load jobs holding something on
//!   its nodes are preempted, lowest priority first, until the head fits now (it then gets that
//!   allocation: the other nodes are as they were).
//! - Venture backfilling's reservation: the earliest planned end of the sunny load at which
//!   the head has an allocation on what is free, what the shadow load holds and what the sunny
//!   jobs ended by then hold.

use super::PvEasy;
use crate::cluster::{Alloc, Free};
use crate::sim::{Ctx, SimError};
use crate::Time;

/// What is free now plus what the running jobs after `head` (its shadow load) hold.
fn with_shadow_load(c: &Ctx<'_>, head: usize) -> Option<Free> {
    let cv = c.cluster()?;
    let mut free = cv.free().clone();
    for (_, j) in c.running().filter(|&(_, j)| j > head) {
        free.give_packed(cv.layout(), cv.alloc(j));
    }
    Some(free)
}

impl PvEasy {
    /// Shadow-load preemption for blocked `head` on a cluster; true when it made room (the head
    /// then fits now).
    pub(super) fn preempt_on_nodes(
        &mut self,
        c: &mut Ctx<'_>,
        head: usize,
    ) -> Result<bool, SimError> {
        let Some(a): Option<Alloc> = with_shadow_load(c, head).and_then(|free| {
            let cv = c.cluster()?;
            free.select(cv.layout(), cv.need(head), None)
        }) else {
            return Ok(false);
        };
        let Some(cv) = c.cluster() else {
            return Ok(false);
        };
        self.buf.clear();
        self.buf.extend(c.running().map(|(_, j)| j).filter(|&j| {
            j > head
                && cv
                    .alloc(j)
                    .iter()
                    .any(|s| a.iter().any(|h| h.node == s.node))
        }));
        // Lowest priority (latest arrival) first.
        self.buf.sort_unstable_by(|a, b| b.cmp(a));
        for i in 0..self.buf.len() {
            if c.fits(head) {
                break;
            }
            c.preempt(self.buf[i])?;
        }
        Ok(c.fits(head))
    }

    /// Venture backfilling's reservation for blocked `head` on a cluster.
    pub(super) fn reservation_on_nodes(c: &Ctx<'_>, head: usize) -> Time {
        let (Some(mut free), Some(cv)) = (with_shadow_load(c, head), c.cluster()) else {
            return Time::MAX;
        };
        let (l, need) = (cv.layout(), cv.need(head));
        for (end, j) in c.running().filter(|&(_, j)| j < head) {
            free.give_packed(l, cv.alloc(j));
            if free.fits(l, need) {
                return end;
            }
        }
        Time::MAX
    }
}
