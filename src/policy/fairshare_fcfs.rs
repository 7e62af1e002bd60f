//! `fairshare-fcfs[halflife=S]`: first come, first served over the fairshare order: the waiting
//! queue is ordered by the users' decayed usage (least first, ties by arrival, see
//! [`super::fairshare`]) at every pass, and jobs start in that order while the first one fits.

use super::fairshare::{halflife, Fairshare};
use super::{Params, Policy, SpecError};
use crate::input::Job;
use crate::sim::{Ctx, SimError};

pub struct FairshareFcfs {
    fs: Fairshare,
    spec: String,
}

pub(super) fn build(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let (h, text) = halflife(p)?;
    Ok(Box::new(FairshareFcfs {
        fs: Fairshare::new(h),
        spec: p.canonical(&[("halflife", text)]),
    }))
}

impl Policy for FairshareFcfs {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn prepare(&mut self, jobs: &[Job], _procs: u32) -> Vec<(usize, String)> {
        self.fs.prepare(jobs);
        Vec::new()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        self.fs.observe(c);
        // Every job needs a processor: with none free, the order does not matter now.
        if c.free() == 0 || c.waiting().is_empty() {
            return Ok(());
        }
        self.fs.order(c.now());
        while let Some(j) = self.fs.next() {
            if !c.fits(j) {
                break;
            }
            c.start(j)?;
        }
        self.fs.settle(c);
        Ok(())
    }
}
