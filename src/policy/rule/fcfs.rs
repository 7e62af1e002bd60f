//! No backfilling: jobs start strictly in queue order while the first one fits.

use super::StartRule;
use crate::policy::blocks::heads::start_while_fit;
use crate::sim::{Ctx, SimError};

pub struct Fcfs;

impl StartRule for Fcfs {
    /// Every job needs a processor: at most `free` jobs start, then one more is looked at.
    fn queue_limit(&self, c: &Ctx<'_>) -> usize {
        match c.free() {
            0 => 0,
            free => free as usize + 1,
        }
    }

    fn schedule(&mut self, c: &mut Ctx<'_>, queue: &[usize]) -> Result<(), SimError> {
        start_while_fit(c, queue).map(|_| ())
    }
}
