//! Arrival order (first come, first served): the waiting list as the engine keeps it.

use super::QueueOrder;
use crate::sim::Ctx;

pub struct Arrival;

impl QueueOrder for Arrival {
    fn order(&mut self, c: &mut Ctx<'_>, out: &mut Vec<usize>, _limit: usize) {
        out.clear();
        out.extend_from_slice(c.waiting());
    }
}
