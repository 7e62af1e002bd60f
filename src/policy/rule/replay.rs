//! Replays the trace's own start times (submit + recorded wait, field 3; `historic`): each job
//! starts at its recorded start, or as soon as it fits after it. The engine leaves out the jobs
//! without a recorded wait and shows this rule the recorded starts (`Ctx::recorded_start`).
//!
//! On a cluster a due job starts on the default node selection when it fits; one whose recorded
//! start finds its nodes taken (the trace ran on another machine, or jobs before it were late)
//! starts when it first fits after it, in recorded order, with the start reason `replay-late`
//! (counted among the run's start reasons). On one pool every start stays `replay`.

use super::StartRule;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, Happening, SimError};
use crate::Time;
use std::collections::BTreeSet;

/// The start reason of a job started on a cluster after its recorded start.
pub const LATE: &str = "replay-late";

/// The trace's own schedule: each job at its recorded start, or as soon as it fits after it.
#[derive(Default)]
pub struct Replay {
    /// Waiting jobs by (recorded start, job).
    ready: BTreeSet<(Time, usize)>,
}

impl StartRule for Replay {
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
                if t < now && c.cluster().is_some() {
                    let late = c.reason_word(LATE)?;
                    c.start_as(j, Some(late), None, None)?;
                } else {
                    c.start(j)?;
                }
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
