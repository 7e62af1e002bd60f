//! `historic`: replays the trace's own start times (submit + recorded wait, field 3).

use super::{Params, Policy, SpecError};
use crate::input::Job;
use crate::sim::{Ctx, Happening, SimError};
use crate::Time;
use std::collections::BTreeSet;

pub struct Historic {
    /// Waiting jobs by (recorded start, job).
    ready: BTreeSet<(Time, usize)>,
    woken_for: Time,
}

pub(super) fn build(_p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    Ok(Box::new(Historic {
        ready: BTreeSet::new(),
        woken_for: Time::MIN,
    }))
}

fn recorded_start(job: &Job) -> Time {
    job.submit + job.trace_wait.unwrap_or(0)
}

impl Policy for Historic {
    fn spec(&self) -> String {
        "historic".into()
    }

    fn prepare(&mut self, jobs: &[Job], _procs: u32) -> Vec<(usize, String)> {
        jobs.iter()
            .enumerate()
            .filter(|(_, j)| j.trace_wait.is_none())
            .map(|(i, _)| {
                (
                    i,
                    "field 3 (wait_time): no recorded wait, cannot replay".to_string(),
                )
            })
            .collect()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        for h in c.happenings() {
            if let Happening::Submitted(j) = *h {
                self.ready.insert((recorded_start(c.job(j)), j));
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
        if let Some(&(t, _)) = self.ready.range((now + 1, 0)..).next() {
            if t != self.woken_for {
                self.woken_for = t;
                c.wake_at(t);
            }
        }
        Ok(())
    }
}
