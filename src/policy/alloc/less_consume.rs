//! LessConsume: from the first-fit allocation, processes move from the node with the highest
//! penalty to not yet evaluated free processors (id order) whose node penalizes less, until all
//! were evaluated or the factor is 1.

use super::Allocator;
use crate::policy::blocks::later::Horizon;
use crate::policy::blocks::select::{self, Alloc, Rsp};
use crate::sim::Ctx;

pub struct LessConsume;

impl Allocator for LessConsume {
    fn now(&self, c: &Ctx<'_>, j: usize, h: &mut Horizon) -> Option<Alloc> {
        select::now(c, j, Rsp::LessConsume, h)
    }
    /// Best fit on a cluster: LessConsume's least consuming choice without a node model.
    fn packs_on_clusters(&self) -> bool {
        true
    }
}
