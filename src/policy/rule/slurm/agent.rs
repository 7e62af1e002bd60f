//! When Slurm's backfill thread runs a cycle (backfill.c `backfill_agent`, `_more_work`).
//!
//! After a cycle that ended at `B` the thread sleeps `bf_interval`, then runs the next cycle
//! if anything changed since `B` (`last_job_update` or `last_node_update` at or after `B`,
//! whole seconds); if nothing did, it sleeps one second at a time until something does, and
//! runs then. The changes:
//!
//! - a job submitted, started or ended; a priority period while jobs wait (`_set_priorities`
//!   sets `last_job_update`);
//! - a main scheduler run that starts a job or reaches a job after its partition failed
//!   (`_schedule` sets `last_job_update` for each such job, its reason changed or not:
//!   `main_sched.rs`), and a queue build that records a job's new limit reason
//!   (`build_job_queue`, `reasons.rs`);
//! - on nodes, a cycle that starts a job, raises a job's start past its will-run test's
//!   (`start_res > job_ptr->start_time`, `last_job_update`), or leaves an idle node planned
//!   for a reservation (`_handle_planned`, `last_node_update`; the next cycle clears it, a
//!   change too). A cycle whose tested jobs keep their will-run starts changes nothing. On a
//!   pool (no nodes to plan) every cycle that tests a job counts as a change.
//!
//! So the cycles keep to a grid `bf_interval` apart while something changes, and after a
//! quiet spell the next one runs at the next change, on a new grid.

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
    /// After the previous pass a node was idle (no job on it), or the cluster is a pool of
    /// processors (no node to plan): a cycle this rule does not run itself then counts as
    /// planning an idle node when jobs wait.
    prev_idle: bool,
    /// The last cycle left idle nodes planned (`_handle_planned(true)` set their PLANNED
    /// flag): the next cycle clears them at its start, a change.
    planned: bool,
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
            prev_idle: true,
            planned: false,
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
    /// full run of the main scheduler before `now` when two did (`_schedule` sets
    /// `last_job_update` for every job behind the one that fails the partition; a run in a
    /// pass of this rule tells it itself, from what it met).
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
                // A full run in this pass tells its own change (`SlurmSched::main`).
                let upto = if least == 2 { now - 1 } else { now };
                if let Some((t, _)) = self.prev.filter(|p| p.1 >= least) {
                    let mut p = t - (t - phase).rem_euclid(step) + step;
                    while p <= upto {
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

    /// A pass at `now` ends with `waiting` jobs waiting; `idle`: a node has no job (always
    /// on a pool of processors).
    pub(super) fn end(&mut self, now: Time, waiting: usize, idle: bool) {
        self.prev = Some((now, waiting));
        self.prev_idle = idle;
    }

    /// True when a cycle runs at `now` (then the caller runs it and calls [`Agent::ran`]).
    /// The cycles between the last one and `now` that this rule did not run itself (a
    /// replay's history) count as changes from the time the previous pass said.
    pub(super) fn due(&mut self, now: Time, late: bool) -> bool {
        let Some(mut b) = self.last else {
            return true;
        };
        let waited = self.prev.is_some_and(|p| p.1 > 0) && self.prev_idle;
        // No job waited since the previous pass: a cycle due before this pass had no pass of
        // the model to run in, and the thread ran it in its own second ("no jobs to
        // backfill"), so it keeps the grid; it is never this pass's late cycle.
        let queued = self.prev.is_none_or(|p| p.1 > 0);
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
            if cycle == now || (late && queued && cycle + 1 == now) {
                return true;
            }
            b = cycle;
            self.ran(cycle, waited, waited);
        }
    }

    /// True once a cycle ran.
    pub(super) fn ran_once(&self) -> bool {
        self.last.is_some()
    }

    /// A cycle ran at `now`; `changed`: it changed a job (started one: `last_job_update`),
    /// `planned`: it left an idle node planned for a job's reservation (`_handle_planned`,
    /// `last_node_update`). Either is a change at `now`, and so is a previous cycle's planned
    /// nodes, which this one clears at its start.
    pub(super) fn ran(&mut self, now: Time, changed: bool, planned: bool) {
        self.last = Some(now);
        self.changes.retain(|&t| t >= now);
        if changed || planned || self.planned {
            self.change(now);
        }
        self.planned = planned;
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
        a.ran(0, true, false); // it tested a job: a change at 0
        a.end(0, 1, true);
        // At 5 the thread looks: the cycle at 0 changed a job, so a cycle runs at 5.
        a.begin(5, false);
        assert!(a.due(5, false));
        a.ran(5, false, false); // it tested nothing
        a.end(5, 1, true);
        // Nothing changes in 5-10: no cycle at 10; a job ends at 12: a cycle at 12.
        a.begin(10, false);
        assert!(!a.due(10, false));
        a.end(10, 1, true);
        a.begin(12, true);
        assert!(a.due(12, false));
        a.ran(12, false, false);
        a.end(12, 1, true);
        // The grid is 12 + 5k now. The end at 12 counts for 17 too (Slurm compares whole
        // seconds with `>=`): a cycle at 17, which tests nothing; 22 has no change, and the
        // next is the period at 55 (jobs wait).
        a.begin(17, false);
        assert!(a.due(17, false));
        a.ran(17, false, false);
        a.end(17, 1, true);
        a.begin(22, false);
        assert!(!a.due(22, false));
        a.end(22, 1, true);
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
        a.ran(100, true, false); // the log's cycle started jobs
        a.end(100, 1, true);
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
        c.ran(100, false, false);
        c.end(100, 0, true);
        c.begin(113, true);
        assert!(c.due(113, false));
    }

    /// A cycle due while no job waits runs in its own second, with nothing to test: the
    /// model has no pass then, and its next pass, a second later, is not that cycle's (the
    /// late cycle is for a pass with jobs waiting). Worked by hand, cycles 5 s apart
    /// (gpu-3/run3, 24-40 s): the cycle at 24 starts the two waiting jobs; a job submitted
    /// and started at 28 empties the queue; Slurm's thread runs its cycle at 29 ("no jobs to
    /// backfill" or, here, nothing left), so a submission at 30 waits for the look at 34, and
    /// the grid stays 24 + 5k (Slurm's cycles at 29.2, 34.2, 39.2 s). Before, the pass at 30
    /// ran the cycle due at 29 late, and the grid moved to 30 + 5k: a job submitted at 40 was
    /// backfilled at once, where Slurm's cycle at 39 had run before it.
    #[test]
    fn a_cycle_due_with_no_job_waiting_keeps_its_second() {
        let mut a = Agent::new(5, (0, 0), 0, 0);
        a.begin(24, true);
        assert!(a.due(24, true));
        a.ran(24, true, false); // started the waiting jobs
        a.end(24, 0, false);
        a.begin(28, true); // a submission, started by the main scheduler
        assert!(!a.due(28, true));
        a.end(28, 0, false);
        a.begin(30, true); // a submission; no pass at 29
        assert!(!a.due(30, true));
        a.end(30, 1, false);
        a.begin(34, false);
        assert!(a.due(34, true)); // the submission at 30 is a change since 29

        // With a job waiting since the pass at 28, the pass at 30 runs the cycle due at 29.
        let mut w = Agent::new(5, (0, 0), 0, 0);
        w.begin(24, true);
        assert!(w.due(24, true));
        w.ran(24, true, false);
        w.end(24, 1, false);
        w.begin(28, true);
        w.end(28, 1, false);
        w.begin(30, true);
        assert!(w.due(30, true));
    }

    /// Slurm's cycle changes nothing by testing a job whose start lies ahead (the will-run
    /// test sets its start, `start_res` is not later: no `last_job_update`); it changes the
    /// nodes when it leaves an idle node planned, and the next cycle's clearing of them is a
    /// change too. Worked by hand, cycles 5 s apart (smallbf-8/run1, 450-459 s: every node
    /// busy, the cycle at 450 planned none, so none ran at 455; the next ran after the end
    /// at 458).
    #[test]
    fn a_cycle_is_a_change_only_when_it_starts_a_job_or_plans_an_idle_node() {
        let mut a = Agent::new(5, (0, 0), 0, 0);
        a.begin(449, true); // a job started at 449
        a.end(449, 3, false);
        a.begin(450, false);
        assert!(a.due(450, false)); // the first cycle
        a.ran(450, false, false); // every node busy: nothing planned idle
        a.end(450, 3, false);
        a.begin(455, false);
        assert!(!a.due(455, false)); // no change since 450
        a.end(455, 3, false);
        a.begin(458, true); // a job ends: a cycle at once
        assert!(a.due(458, false));
        a.ran(458, false, true); // its reservation planned the idle node
        a.end(458, 3, true);
        a.begin(463, false);
        assert!(a.due(463, false)); // the planned node, set at 458
        a.ran(463, false, false); // the node got a job: nothing planned now
        a.end(463, 3, false);
        a.begin(468, false);
        assert!(a.due(468, false)); // 463 cleared 458's planned node at its start
        a.ran(468, false, false);
        a.end(468, 3, false);
        a.begin(473, false);
        assert!(!a.due(473, false));
        // A replay's history: cycles not run here keep the grid only while a node is idle.
        // The log's cycle at 100 started jobs; a job ends at 111. Every node busy: 105 ran
        // and changed nothing, so none ran at 110, and the end at 111 runs one then.
        let mut h = Agent::new(5, (0, 0), 0, 0);
        h.begin(100, true);
        h.ran(100, true, false);
        h.end(100, 2, false);
        h.begin(111, true);
        assert!(h.due(111, false));
        // A node idle: 105 planned it, 110 ran on the grid, and 111 has none.
        let mut h = Agent::new(5, (0, 0), 0, 0);
        h.begin(100, true);
        h.ran(100, true, false);
        h.end(100, 2, true);
        h.begin(111, true);
        assert!(!h.due(111, false));
    }
}
