//! LessConsume-Threshold: LessConsume that stops once the factor is <= the threshold; when that
//! is impossible now, it looks at the running jobs' planned ends for a start where it is (else
//! the lowest factor found, earliest on ties).

use super::Allocator;
use crate::policy::blocks::later::Horizon;
use crate::policy::blocks::select::{self, Alloc, Rsp};
use crate::sim::Ctx;

/// LessConsume-Threshold with its threshold (a penalty factor >= 1).
#[derive(Debug, Clone, Copy)]
pub struct Threshold(pub f64);

impl Threshold {
    /// The search's allocation, at whatever time it starts.
    pub fn earliest(&self, c: &Ctx<'_>, j: usize, h: &mut Horizon) -> Option<Alloc> {
        select::earliest(c, j, Rsp::Threshold(self.0), h)
    }
}

impl Allocator for Threshold {
    fn now(&self, c: &Ctx<'_>, j: usize, h: &mut Horizon) -> Option<Alloc> {
        select::now(c, j, Rsp::Threshold(self.0), h)
    }
    /// Best fit on a cluster: LessConsume's least consuming choice without a node model.
    fn packs_on_clusters(&self) -> bool {
        true
    }

    fn head(&self, c: &Ctx<'_>, j: usize, h: &mut Horizon) -> Option<Alloc> {
        self.earliest(c, j, h)
    }
}
