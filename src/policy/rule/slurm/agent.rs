//! When Slurm's backfill thread runs a cycle (backfill.c `backfill_agent`, `_more_work`).
//!
//! After a cycle that ended at `B` the thread sleeps `bf_interval`, then runs the next cycle
//! if anything changed since `B` (`last_job_update` or `last_node_update` at or after `B`,
//! whole seconds); if nothing did, it sleeps one second at a time until something does, and
//! runs then. The changes: a job submitted, started or ended; a priority period while jobs
//! wait (`_set_priorities` sets `last_job_update`); and the cycle itself when it tested a
//! waiting job (`_attempt_backfill` clears every estimate first, `_clear_job_estimates`, and
//! the job tested gets one from the will-run test, `start_res`, which sets `last_job_update`;
//! `bf_max_job_test` is at least 1, so every cycle with a waiting job tests one). So while jobs
//! wait the cycles keep to a grid `bf_interval` apart; after a cycle that tested nothing and a
//! quiet spell, the next one runs at the next change, on a new grid.

use crate::Time;

/// The backfill thread's clock.
#[derive(Debug, Clone)]
pub(super) struct Agent {
    interval: Time,
    /// The main scheduler's full-queue runs (`sched_interval`, from `sched_phase`).
    sched_interval: Time,
    sched_phase: Time,
    /// `PriorityCalcPeriod` and the periods' phase.
    period: Time,
    phase: Time,
    /// The last cycle, once one ran.
    last: Option<Time>,
    /// The changes since `last` (at or after it: Slurm compares whole seconds with `>=`).
    changes: Vec<Time>,
    /// The first period or full run of the main scheduler after the previous pass.
    next_mark: Time,
    /// The previous pass, and how many jobs waited after it (a cycle until the next pass
    /// tests one of them when there is one).
    prev: Option<(Time, usize)>,
}

impl Agent {
    /// A clock for cycles `interval` seconds apart, the main scheduler's full runs every
    /// `sched.0` seconds from `sched.1`, priority periods every `period` seconds from `phase`.
    pub(super) fn new(interval: Time, sched: (Time, Time), period: Time, phase: Time) -> Agent {
        Agent {
            interval: interval.max(1),
            sched_interval: sched.0,
            sched_phase: sched.1,
            period,
            phase,
            last: None,
            next_mark: Time::MIN,
            changes: Vec::new(),
            prev: None,
        }
    }

    /// The thread's last cycle before the log: `interval` before the first second of
    /// `phase + k * interval` from time 0 (the next cycle falls there if anything changed).
    pub(super) fn last_before_log(&mut self, phase: Time) {
        self.last = Some(phase.rem_euclid(self.interval) - self.interval);
    }

    /// Something changed at `t`.
    pub(super) fn change(&mut self, t: Time) {
        self.changes.push(t);
    }

    /// A pass begins at `now`; `event`: a job was submitted or ended since the previous pass.
    /// Since the previous pass: each priority period is a change when jobs waited, and each
    /// full run of the main scheduler when two did (`_schedule` sets `last_job_update` for
    /// every job behind the one that blocks the partition).
    pub(super) fn begin(&mut self, now: Time, event: bool) {
        if now >= self.next_mark {
            let every = [
                (1, self.period, self.phase),
                (2, self.sched_interval, self.sched_phase),
            ];
            let mut next_mark = Time::MAX;
            for (least, step, phase) in every {
                if step <= 0 {
                    continue;
                }
                if let Some((t, _)) = self.prev.filter(|p| p.1 >= least) {
                    let mut p = t - (t - phase).rem_euclid(step) + step;
                    while p <= now {
                        self.change(p);
                        p += step;
                    }
                }
                next_mark = next_mark.min(now - (now - phase).rem_euclid(step) + step);
            }
            self.next_mark = next_mark;
        }
        if event {
            self.change(now);
        }
    }

    /// A pass at `now` ends with `waiting` jobs waiting.
    pub(super) fn end(&mut self, now: Time, waiting: usize) {
        self.prev = Some((now, waiting));
    }

    /// True when a cycle runs at `now` (then the caller runs it and calls [`Agent::ran`]).
    /// The cycles between the last one and `now` that this rule did not run itself (a
    /// replay's history) count as changes from the time the previous pass said.
    pub(super) fn due(&mut self, now: Time, late: bool) -> bool {
        let Some(mut b) = self.last else {
            return true;
        };
        let waited = self.prev.is_some_and(|p| p.1 > 0);
        loop {
            let next = b + self.interval;
            if next > now {
                return false;
            }
            let cycle = if self.changes.iter().any(|&t| t >= b && t <= next) {
                next
            } else {
                match self.changes.iter().filter(|&&t| t > next).min() {
                    Some(&t) => t,
                    None => return false,
                }
            };
            // `late`: a cycle due a second before this pass may run now (the thread sleeps
            // from the end of its last cycle, so its grid drifts later).
            if cycle == now || (late && cycle + 1 == now) {
                return true;
            }
            b = cycle;
            self.ran(cycle, waited);
        }
    }

    /// True once a cycle ran.
    pub(super) fn ran_once(&self) -> bool {
        self.last.is_some()
    }

    /// A cycle ran at `now`; `tested`: it tested a waiting job (one waited: the first waiting
    /// job a cycle meets is always tested, `bf_max_job_test` being at least 1).
    pub(super) fn ran(&mut self, now: Time, tested: bool) {
        self.last = Some(now);
        self.changes.retain(|&t| t >= now);
        if tested {
            self.change(now);
        }
    }

    /// When the thread next looks: the last cycle + `bf_interval`, or (nothing changed then)
    /// the next priority period.
    pub(super) fn next_check(&self, now: Time) -> Time {
        let Some(b) = self.last else {
            return now + 1;
        };
        let next = b + self.interval;
        if next > now || self.period <= 0 {
            return next.max(now + 1);
        }
        let off = (now - self.phase).rem_euclid(self.period);
        now - off + self.period
    }
}

#[cfg(test)]
mod tests {
    use super::Agent;

    /// Worked by hand, cycles 5 s apart, periods every 60 s from 55.
    #[test]
    fn cycles_keep_their_grid_while_things_change_and_move_after_a_quiet_spell() {
        let mut a = Agent::new(5, (0, 0), 60, 55);
        a.begin(0, true);
        assert!(a.due(0, false)); // the first cycle: at the first pass
        a.ran(0, true); // it tested a job: a change at 0
        a.end(0, 1);
        // At 5 the thread looks: the cycle at 0 changed a job, so a cycle runs at 5.
        a.begin(5, false);
        assert!(a.due(5, false));
        a.ran(5, false); // it tested nothing
        a.end(5, 1);
        // Nothing changes in 5-10: no cycle at 10; a job ends at 12: a cycle at 12.
        a.begin(10, false);
        assert!(!a.due(10, false));
        a.end(10, 1);
        a.begin(12, true);
        assert!(a.due(12, false));
        a.ran(12, false);
        a.end(12, 1);
        // The grid is 12 + 5k now. The end at 12 counts for 17 too (Slurm compares whole
        // seconds with `>=`): a cycle at 17, which tests nothing; 22 has no change, and the
        // next is the period at 55 (jobs wait).
        a.begin(17, false);
        assert!(a.due(17, false));
        a.ran(17, false);
        a.end(17, 1);
        a.begin(22, false);
        assert!(!a.due(22, false));
        a.end(22, 1);
        assert_eq!(a.next_check(22), 55);
        a.begin(55, false);
        assert!(a.due(55, false));
    }

    /// A replay's history: the log's cycle at 100, jobs waiting; the cycles at 105, 110, ...
    /// are taken as testing a job, so a pass at 113 has none and one at 115 has one.
    #[test]
    fn cycles_not_run_here_keep_the_grid_of_the_recorded_one() {
        let mut a = Agent::new(5, (0, 0), 60, 0);
        a.begin(100, true);
        a.ran(100, true); // the log's cycle started jobs
        a.end(100, 1);
        let mut b = a.clone();
        a.begin(113, true);
        assert!(!a.due(113, false));
        let mut late = b.clone();
        b.begin(115, true);
        assert!(b.due(115, false));
        // A pass of its own at 116 runs the cycle due at 115 that it did not see.
        late.begin(116, true);
        assert!(late.due(116, true));
        // A cycle at 100 that tested nothing, no job waiting: the next runs at the next
        // change, a submission at 113.
        let mut c = Agent::new(5, (0, 0), 60, 0);
        c.begin(100, false);
        assert!(c.due(100, false));
        c.ran(100, false);
        c.end(100, 0);
        c.begin(113, true);
        assert!(c.due(113, false));
    }
}
