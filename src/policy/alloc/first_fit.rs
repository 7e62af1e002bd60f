//! First-Fit: the lowest free processor ids.

use super::Allocator;
use crate::policy::blocks::later::Horizon;
use crate::policy::blocks::select::{self, Alloc, Rsp};
use crate::sim::Ctx;

pub struct FirstFit;

impl Allocator for FirstFit {
    fn now(&self, c: &Ctx<'_>, j: usize, h: &mut Horizon) -> Option<Alloc> {
        select::now(c, j, Rsp::FirstFit, h)
    }
}
