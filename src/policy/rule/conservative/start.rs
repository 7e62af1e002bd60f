//! Conservative's passes that start jobs: the planning part of a pass (re-planning, placing the
//! arrivals) and the start of every job whose reservation has come, with its start reason and
//! the length its reservation holds.

use super::Conservative;
use crate::policy::blocks::profile::hold;
use crate::policy::plan::Profile;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, SimError, StartReason};
use crate::Time;

impl Conservative {
    /// The start reason of the due jobs ahead of every job that keeps waiting, in queue
    /// order: `head` when it arrived now (it never waited), else `reserved` (it waited for its
    /// reservation). The other due jobs (not in `why`) are `backfilled`: a job ahead of them
    /// in the queue order keeps waiting. The scan stops at the first job that keeps waiting.
    fn reasons(&mut self, c: &Ctx<'_>, queue: impl IntoIterator<Item = usize>) {
        self.why.clear();
        let now = c.now();
        for j in queue {
            if self.why.len() == self.due.len() {
                break;
            }
            match self.res[j] {
                // Started earlier in this pass.
                None => {}
                Some((s, _)) if s <= now => {
                    let why = if c.job(j).submit == now {
                        StartReason::Head
                    } else {
                        StartReason::Reserved
                    };
                    self.why.push((j, why));
                }
                Some(_) => break,
            }
        }
    }

    /// How long due job `j` is planned to run from now: the length its reservation holds in
    /// the profile. A predictor that learns (`last`) may have changed the job's
    /// estimate since it was placed; the profile holds the old length, and the job's planned
    /// end must release exactly what was reserved. A zero estimate holds one second in the
    /// profile (`hold`) and ends now: kept as it is while the estimate has not changed.
    fn reserved_length(&self, c: &Ctx<'_>, j: usize) -> Time {
        let (s, e) = self.res[j].expect("a due job holds a reservation");
        let estimate = c.estimate(j);
        if hold(estimate) == e - s {
            estimate
        } else {
            e - s
        }
    }

    /// The planning part of a pass: re-plans (from scratch or by compression), places the
    /// arrivals and starts every job whose reservation has come.
    pub(super) fn plan_and_start(
        &mut self,
        c: &mut Ctx<'_>,
        profile: &mut Profile,
        queue: &mut Queue<'_>,
        mut rebuild: bool,
        compress: bool,
        arrivals: usize,
    ) -> Result<(), SimError> {
        let now = c.now();
        // The queue is read only as far as needed in arrival order (the engine's waiting
        // list); a queue in another order is read whole as the pass begins.
        let arrival_order = queue.in_arrival_order();
        if !arrival_order {
            queue.all(c);
        }
        let track = c.waiting().len() >= self.tuning.track_from;
        // After an inconsistency in arrival order: the queue as the pass began.
        let mut as_begun: Option<Vec<usize>> = None;
        let mut started = 0;
        for attempt in 0..2 {
            if rebuild {
                if attempt == 1 && arrival_order {
                    // The jobs started before the inconsistency were in it.
                    let mut jobs = c.waiting().to_vec();
                    jobs.extend_from_slice(&self.due[..started]);
                    jobs.sort_unstable();
                    as_begun = Some(jobs);
                }
                let queue = match &as_begun {
                    Some(jobs) => jobs,
                    None => queue.all(c),
                };
                *profile = self.rebuild(c, queue)?;
                if attempt == 1 {
                    // `queue` still lists the jobs started before the inconsistency: they were
                    // placed too, so the earliest start is read from the waiting jobs.
                    self.earliest = self.scan_earliest(c);
                }
            } else {
                if compress {
                    self.compress(c, profile, queue.all(c), track);
                }
                self.place_arrivals(c, profile, queue, arrivals)?;
            }
            // Start every job whose reservation has come, in arrival order.
            let rest = self.find_due(c);
            if self.due.is_empty() {
                return Ok(());
            }
            match &as_begun {
                Some(jobs) => self.reasons(c, jobs.iter().copied()),
                None => self.reasons(c, (0..).map_while(|i| queue.get(c, i))),
            }
            let mut consistent = true;
            for i in 0..self.due.len() {
                let j = self.due[i];
                if !c.fits(j) {
                    consistent = false;
                    started = i;
                    break;
                }
                let why = self
                    .why
                    .iter()
                    .find(|w| w.0 == j)
                    .map_or(StartReason::Backfilled, |w| w.1);
                let end = now + self.reserved_length(c, j);
                c.start_as(j, Some(why), None, Some(end))?;
                self.res[j] = None;
            }
            if consistent {
                self.earliest = rest;
                return Ok(());
            }
            if attempt == 1 {
                break;
            }
            rebuild = true;
        }
        Err(SimError::Invalid {
            policy: "conservative".into(),
            time: now,
            reason: "profile out of step with the machine after a rebuild".into(),
        })
    }
}
