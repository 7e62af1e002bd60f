//! `fcfs`: strict first come, first served.

use super::{Params, Policy, SpecError};
use crate::sim::{Ctx, SimError};

pub struct Fcfs;

pub(super) fn build(_p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    Ok(Box::new(Fcfs))
}

impl Policy for Fcfs {
    fn spec(&self) -> String {
        "fcfs".into()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        while let Some(&head) = c.waiting().first() {
            if !c.fits(head) {
                break;
            }
            c.start(head)?;
        }
        Ok(())
    }
}
