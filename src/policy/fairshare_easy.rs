//! `fairshare-easy[halflife=S]`: EASY backfilling over the fairshare order: at every pass the
//! waiting queue is ordered by the users' decayed usage (least first, ties by arrival, see
//! [`super::fairshare`]); jobs start in that order while they fit, the first one that does not
//! fit gets EASY's reservation (shadow time), and the others are tried for backfilling in the
//! same order ([`super::easy::reserve_head`], [`super::easy::backfill`]).

use super::easy::{backfill, reserve_head};
use super::fairshare::{halflife, Fairshare};
use super::{Params, Policy, SpecError};
use crate::input::Job;
use crate::sim::{Ctx, SimError};

pub struct FairshareEasy {
    fs: Fairshare,
    spec: String,
}

pub(super) fn build(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let (h, text) = halflife(p)?;
    Ok(Box::new(FairshareEasy {
        fs: Fairshare::new(h),
        spec: p.canonical(&[("halflife", text)]),
    }))
}

impl Policy for FairshareEasy {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn prepare(&mut self, jobs: &[Job], _procs: u32) -> Vec<(usize, String)> {
        self.fs.prepare(jobs);
        Vec::new()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        self.fs.observe(c);
        if c.waiting().is_empty() {
            return Ok(());
        }
        self.fs.order(c.now());
        let mut head = None;
        while let Some(j) = self.fs.next() {
            if !c.fits(j) {
                head = Some(j);
                break;
            }
            c.start(j)?;
        }
        if let Some(shadow) = head.and_then(|h| reserve_head(c, h)) {
            let fs = &mut self.fs;
            backfill(c, shadow, std::iter::from_fn(|| fs.next()))?;
        }
        self.fs.settle(c);
        Ok(())
    }
}
