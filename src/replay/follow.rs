//! The policy wrapper of a replay: before the instant asked about it starts the jobs the log
//! started, at their recorded times and on their recorded nodes, through the policy's
//! [`Policy::follow`] (so that the policy's own state, its priorities and usage, follows the
//! recorded history); at that instant it lets the policy make one pass of its own, or, for a
//! probe, follow one that starts nothing.

use crate::cluster::Alloc;
use crate::sim::{Ctx, Jobs, Policy, SimError};
use crate::Time;

/// The wrapper around the policy asked.
pub(super) struct Follow<'p> {
    pub(super) inner: &'p mut dyn Policy,
    /// The jobs to start before `at`, by (recorded start, job), earliest first.
    pub(super) forced: Vec<(Time, usize)>,
    /// The next of `forced` to start.
    pub(super) next: usize,
    /// Each job's recorded allocation, when known (`JobSet::recorded_nodes`: empty when none is).
    pub(super) allocs: &'p [Option<Alloc>],
    /// Each job's planned end when it starts as recorded (recorded start + time limit).
    pub(super) planned: &'p [Time],
    /// Each job was started by Slurm's backfill loop (`JobSet::backfilled`: empty when the
    /// log has no `Flags`).
    pub(super) backfilled: &'p [bool],
    /// Each job's id as the log names it (`JobSet::log_ids`: empty for a log without them).
    pub(super) log_ids: &'p [String],
    /// The instant asked about: its last start (`at`), when the last of its passes decides.
    pub(super) at: Time,
    /// The decision's own passes, ascending, the last at `at`: each pass's second and whether
    /// it runs a backfill cycle, told to the policy (`Policy::logged_cycle`) when the
    /// controller's debug log is given (`None`: the policy's clock decides). Without the log
    /// one pass at `at`; with it one more in each earlier second of the instant where
    /// Slurm's thread began a cycle (`Replay::passes`).
    pub(super) passes: Vec<(Time, Option<bool>)>,
    /// The passes of `passes` made.
    pub(super) done: usize,
    /// Each job's end against the priority period of its second, when the debug log tells
    /// (`Logged::end_sides`), given to the policy once prepared.
    pub(super) end_sides: Option<&'p (Time, Vec<Option<bool>>)>,
    /// The probe's pass at `at` ran.
    pub(super) decided: bool,
    /// At `at` the policy follows a pass that starts nothing (its order's state brought to
    /// `at`), rather than making its own.
    pub(super) probe: bool,
    /// Recorded starts the recorded nodes could not take (placed by the engine's selection).
    pub(super) reselected: usize,
}

impl Policy for Follow<'_> {
    fn spec(&self) -> String {
        self.inner.spec()
    }

    fn predictor(&self) -> Option<&str> {
        self.inner.predictor()
    }

    fn runs_on_clusters(&self) -> bool {
        self.inner.runs_on_clusters()
    }

    fn limit_checks(&self, partitions: &[String]) -> Option<crate::sim::LimitChecks> {
        self.inner.limit_checks(partitions)
    }

    fn prepare(&mut self, jobs: Jobs<'_>, procs: u32) -> Vec<(usize, String)> {
        let out = self.inner.prepare(jobs, procs);
        if let Some((decay, sides)) = self.end_sides {
            self.inner.logged_end_sides(*decay, sides);
        }
        out
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        let now = c.now();
        if self.probe {
            if now >= self.at {
                if !self.decided {
                    self.decided = true;
                    self.inner.follow(c, &mut |_: &mut Ctx<'_>| Ok(()))?;
                }
                return Ok(());
            }
        } else if let Some(&(t, cycle)) = self.passes.get(self.done) {
            if now >= t {
                self.done += 1;
                if let Some(ran) = cycle {
                    self.inner.logged_cycle(ran);
                }
                self.inner.schedule(c)?;
                if let Some(&(next, _)) = self.passes.get(self.done) {
                    c.wake_at(next);
                }
                return Ok(());
            }
            if self.done > 0 {
                // Between two of the decision's passes: the policy follows the events.
                self.inner.follow(c, &mut |_: &mut Ctx<'_>| Ok(()))?;
                c.wake_at(t);
                return Ok(());
            }
        } else {
            return Ok(());
        }
        let from = self.next;
        while self.forced.get(self.next).is_some_and(|&(t, _)| t <= now) {
            self.next += 1;
        }
        let due = &self.forced[from..self.next];
        if due
            .iter()
            .any(|&(_, j)| self.backfilled.get(j) == Some(&true))
        {
            self.inner.recorded_backfill(now);
        }
        let (allocs, planned) = (self.allocs, self.planned);
        let mut reselected = 0;
        self.inner.follow(c, &mut |c: &mut Ctx<'_>| {
            for &(_, j) in due {
                if !c.waiting().contains(j) {
                    continue; // rejected: it can never run on this cluster
                }
                if let Some(a) = allocs.get(j).and_then(Option::as_ref) {
                    if c.start_on(j, None, a.clone(), Some(planned[j])).is_ok() {
                        continue;
                    }
                    reselected += 1;
                }
                if !c.fits(j) {
                    // The engine would call it the policy's invalid decision; it is the log's.
                    let job = c.job(j);
                    return Err(SimError::Failed {
                        policy: "replay".into(),
                        time: now,
                        reason: format!(
                            "the log starts job {} ({} processors) here with {} free: its \
                             recorded schedule does not fit this machine (give the one it ran \
                             on: --procs, --slurm-conf or --cluster)",
                            crate::input::log_id_or(self.log_ids, j, job.id),
                            job.procs,
                            c.free()
                        ),
                    });
                }
                c.start_as(j, None, None, Some(planned[j]))?;
            }
            Ok(())
        })?;
        self.reselected += reselected;
        let pass = self.passes.first().map_or(self.at, |p| p.0);
        let next = self.forced.get(self.next).map_or(pass, |&(t, _)| t);
        c.wake_at(next.min(pass));
        Ok(())
    }
}
