//! Arrival order (first come, first served): the waiting list as the engine keeps it.

use super::QueueOrder;
use crate::sim::Ctx;

pub struct Arrival;

impl QueueOrder for Arrival {
    /// The waiting list is already in arrival order: only the first `limit` jobs are copied
    /// (fcfs looks at free + 1 of them, easy at the head alone when the machine is full).
    fn order(&mut self, c: &mut Ctx<'_>, out: &mut Vec<usize>, limit: usize) {
        out.clear();
        let waiting = c.waiting();
        out.extend_from_slice(&waiting[..limit.min(waiting.len())]);
    }
}
