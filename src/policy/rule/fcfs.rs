//! No backfilling: jobs start strictly in queue order while the first one fits.

use super::StartRule;
use crate::policy::blocks::heads::start_while_fit;
use crate::sim::{Ctx, SimError};

pub struct Fcfs;

impl StartRule for Fcfs {
    fn schedule(&mut self, c: &mut Ctx<'_>, queue: &[usize]) -> Result<(), SimError> {
        start_while_fit(c, queue).map(|_| ())
    }
}
