//! Replays the trace's own start times (submit + recorded wait, field 3; `historic`): each job
//! starts at its recorded start, or as soon as it fits after it. The engine leaves out the jobs
//! without a recorded wait and shows this rule the recorded starts (`Ctx::recorded_start`).

use super::StartRule;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, Happening, SimError};
use crate::Time;
use std::collections::BTreeSet;

/// The trace's own schedule: each job at its recorded start, or as soon as it fits after it.
#[derive(Default)]
pub struct Replay {
    /// Waiting jobs by (recorded start, job).
    ready: BTreeSet<(Time, usize)>,
}

impl StartRule for Replay {
    /// It plans with one pool of processors.
    fn runs_on_clusters(&self) -> bool {
        false
    }

    fn replays_trace(&self) -> bool {
        true
    }

    /// The queue is not read: the order of this rule is the recorded starts.
    fn pass(&mut self, c: &mut Ctx<'_>, _queue: &mut Queue<'_>) -> Result<(), SimError> {
        for h in c.happenings() {
            if let Happening::Submitted(j) = *h {
                let start = c.recorded_start(j).unwrap_or(c.job(j).submit);
                self.ready.insert((start, j));
            }
        }
        let now = c.now();
        // Start every due job that fits, in recorded order; one that does not fit waits for room.
        let due: Vec<(Time, usize)> = self.ready.range(..(now + 1, 0)).copied().collect();
        for (t, j) in due {
            if c.free() == 0 {
                break;
            }
            if c.fits(j) {
                c.start(j)?;
                self.ready.remove(&(t, j));
            }
        }
        // Asked at every pass: a pass's wake-up replaces the earlier ones.
        if let Some(&(t, _)) = self.ready.range((now + 1, 0)..).next() {
            c.wake_at(t);
        }
        Ok(())
    }
}
