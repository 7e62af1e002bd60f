//! No backfilling: jobs start strictly in queue order while the first one fits.
#![warn(missing_docs)]

use super::StartRule;
use crate::policy::blocks::heads::start_heads;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, SimError};

/// No backfilling: the head loop alone.
pub struct Fcfs;

impl StartRule for Fcfs {
    /// The queue is read up to the first job that does not fit.
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        start_heads(c, queue).map(|_| ())
    }
}
