//! Slurm 22.05's scheduling loops on a single pool of processors (the `slurm` policy's start
//! rule), over the priority order of `policy/order/slurm.rs`:
//!
//! - **The main scheduler** (job_scheduler.c `_schedule`): jobs in priority order start while
//!   they fit; the first that does not fit blocks its partition (on a cluster its nodes too:
//!   `blocked.rs`) and the pass goes on with the others' jobs, ending once all are. It
//!   runs at every job end, and for submissions when the controller's background loop gets
//!   to it, `batch_sched_delay` (default 3 s) after that loop's last run (a batch job never starts
//!   at its submission), looking at `default_queue_depth` jobs (and one more, as Slurm's
//!   `job_depth++ > def_job_limit` does); and on the whole queue every `sched_interval`
//!   seconds (from `sched_phase`: Slurm's background thread's start), also when no job
//!   waits: such a run, with nothing for the model to pass for, still is the loop's last
//!   run for the submissions after it.
//! - **Backfill** (backfill.c `_attempt_backfill`): every `bf_interval` seconds while jobs
//!   wait, a cycle walks the queue in priority order. A user's jobs after the first
//!   `bf_max_job_user` are skipped, and the cycle stops once `bf_max_job_test` jobs reached the
//!   will-run test (`plan.rs`: a job short of nodes free of reservations does not count). A
//!   job tested gets the earliest start at which its processors are free for its whole time
//!   limit, running jobs ending at start + limit and the higher-priority jobs holding the
//!   reservations planned earlier in the cycle; it starts if that is now. Otherwise it gets a
//!   reservation, unless its priority is below `bf_min_prio_reserve` or its start lies beyond
//!   `bf_window`: from its start rounded down to `bf_resolution` to its end rounded down (at
//!   least one resolution long).
//! - `bf_continue` changes nothing here: a simulated cycle takes no time, so it is never
//!   interrupted.
//!
//! On a cluster both loops place a job with a node count on the nodes select/cons_tres
//! chooses (`fit.rs`: blocks of consecutive nodes, the tightest sufficient one, best fit).
//! The backfill cycle is `backfill.rs`, the main scheduler `main_sched.rs`; this file holds
//! the rule's state and when each loop runs.
//!
//! Jobs started by the main scheduler are recorded as `main`, by backfill as `backfill`
//! (Slurm's `SchedMain` and `SchedBackfill` flags).

mod agent;
mod assoc_use;
mod backfill;
mod blocked;
mod entries;
mod fit;
mod free;
mod held;
mod limit_use;
mod main_sched;
mod mins_use;
mod nodes;
mod plan;
mod prefer;
mod qos_use;
mod reasons;
mod space;
mod trial;

use super::StartRule;
use crate::policy::order::priority_key;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, Jobs, SimError};
use crate::slurm::state::Shared;
use crate::Time;
use agent::Agent;
use free::Free;
use limit_use::LimitUse;
use nodes::NodePlan;
use reasons::LimitReasons;
use std::collections::HashMap;

/// A time limit for jobs without one (Slurm's `YEAR_MINUTES`).
const NO_LIMIT: Time = 365 * 86400;

/// Seconds between two time-limit checks of Slurm's controller (`PERIODIC_TIMEOUT`,
/// slurmctld.h).
const LIMIT_CHECK_PERIOD: Time = 30;

/// The main scheduler and backfill.
pub struct SlurmSched {
    shared: Shared,
    /// The next full-queue run of the main scheduler.
    next_full: Time,
    /// The next pass is a replay's decision after the history it followed: the main
    /// scheduler runs on the whole queue.
    decision: bool,
    /// The background loop's last run of the main scheduler (full or for submissions:
    /// controller.c's `last_sched_time`), and whether a submission asked for one since
    /// (`job_sched_cnt`).
    last_sched: Time,
    queued: bool,
    /// `batch_sched_delay`, `sched_interval` and `sched_phase`.
    batch_delay: Time,
    sched_interval: Time,
    sched_phase: Time,
    /// When backfill cycles run.
    agent: Agent,
    /// A replay's decision pass runs a backfill cycle exactly when the controller's debug log
    /// began one in its instant (`Policy::logged_cycle`); `None`: the agent decides.
    logged_cycle: Option<bool>,
    per_user: HashMap<i64, usize>,
    /// The last backfill cycle's queue (job, partition) and plan on a pool, kept for their
    /// memory.
    cycle_queue: Vec<(usize, u32)>,
    pool_plan: Free,
    /// The last backfill cycle's plan on nodes, kept for its memory.
    node_plan: Option<Box<NodePlan>>,
    /// The QOS and association limits and what the running jobs use of them (`None`: none
    /// has a limit).
    limits: Option<LimitUse>,
    /// The waiting jobs' limit reasons, as the queue builds record them.
    reasons: LimitReasons,
}

impl SlurmSched {
    /// The rule over the shared state.
    pub fn new(shared: Shared) -> Self {
        // Slurm holds jobs by limits only when `AccountingStorageEnforce` names `limits`
        // (acct_policy.c `acct_policy_job_runnable_pre_select`, `_post_select`).
        let limits = {
            let s = shared.borrow();
            s.params
                .enforce_limits
                .then(|| LimitUse::of_site(&s.site))
                .flatten()
        };
        let (agent, batch_delay, sched_interval, sched_phase) = {
            let p = &shared.borrow().params;
            let mut agent = Agent::new(
                p.bf_interval,
                (p.sched_interval, p.sched_phase),
                p.calc_period,
                p.calc_phase,
            );
            if let Some(phase) = p.bf_phase {
                agent.last_before_log(phase);
            }
            (agent, p.batch_sched_delay, p.sched_interval, p.sched_phase)
        };
        Self {
            shared,
            next_full: Time::MIN,
            decision: false,
            last_sched: Time::MIN / 2,
            queued: false,
            batch_delay,
            sched_interval: sched_interval.max(1),
            sched_phase,
            agent,
            logged_cycle: None,
            per_user: HashMap::new(),
            cycle_queue: Vec::new(),
            pool_plan: Free::default(),
            node_plan: None,
            limits,
            reasons: LimitReasons::default(),
        }
    }
}

impl SlurmSched {
    /// The backfill cycle in a pass, when one is due (`blocked`: no waiting job fits now).
    fn backfill_step(
        &mut self,
        c: &mut Ctx<'_>,
        queue: &mut Queue<'_>,
        blocked: bool,
    ) -> Result<(), SimError> {
        let now = c.now();
        // The first cycle runs at the first pass with a waiting job; a replay's decision
        // given the debug log runs one where the log's thread began one.
        let started = self.agent.ran_once() || !c.waiting().is_empty();
        let due = match self.logged_cycle.take() {
            Some(ran) => ran,
            None => started && self.agent.due(now, true),
        };
        if due {
            // The cycle's queue build, first, records the limit reasons given since the
            // last one (in the cycle's second: a change for the thread's next look).
            let reasons = self.build_queue(now);
            let tested = !c.waiting().is_empty();
            let before = c.waiting().len();
            let (mut planned, mut raised) = (false, false);
            if tested && !(blocked && all_reserved(c)) {
                let cycle = self.backfill(c, queue)?;
                (planned, raised) = (cycle.planned, cycle.raised);
            }
            // On nodes a cycle changes something when it starts a job or gives one a start
            // later than its will-run test's (`last_job_update`), or leaves an idle node
            // planned for a reservation (`_handle_planned`, `last_node_update`); a job tested
            // whose start is its will-run test's changes nothing. On a pool, which has no
            // nodes to plan, a cycle with a waiting job counts as a change.
            let changed = if c.cluster().is_some() {
                c.waiting().len() < before || raised
            } else {
                tested
            };
            self.agent.ran(now, changed, planned);
            if reasons {
                self.agent.change(now);
            }
        }
        Ok(())
    }

    /// A loop's queue build at `now` (`build_job_queue`, which each main scheduler run and
    /// backfill cycle begins with): the waiting jobs' accrue time
    /// (`acct_policy_handle_accrue_time`), and the limit reasons given since the last build;
    /// true when it records one (a change for the backfill thread).
    fn build_queue(&mut self, now: Time) -> bool {
        if let Some(mf) = self.shared.borrow_mut().mf.as_mut() {
            mf.queue_built(now);
        }
        self.reasons.build()
    }

    /// Runs the period of this second that the queue order left to the pass (after the main
    /// scheduler, before the backfill cycle: `calc_early_bf`) and gives the waiting jobs in
    /// the order it makes (the pass's queue read whole first, so that the order hears of
    /// every start).
    fn after_period(&mut self, c: &Ctx<'_>, queue: &mut Queue<'_>) -> Vec<usize> {
        let mut jobs = queue.all(c).to_vec();
        let mut s = self.shared.borrow_mut();
        if let Some(mf) = s.mf.as_mut() {
            mf.advance(c.now(), true);
        }
        jobs.retain(|&j| c.waiting().contains(j));
        let keys: Vec<f64> = jobs.iter().map(|&j| priority_key(c, &s, j)).collect();
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]).then(jobs[a].cmp(&jobs[b])));
        order.into_iter().map(|k| jobs[k]).collect()
    }
}

/// True on a pool of processors when no waiting job fits in the processors free now: then
/// neither loop can start a job (the main scheduler stops at its first job, backfill starts a
/// job only if it fits now), so the main scheduler need not read the queue. While jobs wait
/// with no event, the passes every `sched_interval` and `bf_interval` are mostly of this kind.
fn nothing_fits(c: &Ctx<'_>) -> bool {
    let free = c.free();
    c.cluster().is_none() && c.waiting().iter().all(|j| c.job(j).procs > free)
}

/// True when a node has no job, or on a pool of processors (no nodes): a cycle's reservation
/// may then plan an idle node (the history of a replay, whose cycles this rule does not run,
/// is judged by this).
fn any_idle(c: &Ctx<'_>) -> bool {
    c.cluster()
        .is_none_or(|cv| cv.free().idle.iter().any(|&i| i))
}

/// True when every waiting job holds its first planned start: a backfill cycle that starts
/// no job then changes nothing ([`Ctx::reserve`] records only the first), so it need not be
/// planned.
fn all_reserved(c: &Ctx<'_>) -> bool {
    c.waiting().iter().all(|j| c.reserved_at(j).is_some())
}

impl StartRule for SlurmSched {
    fn prepare(&mut self, jobs: Jobs<'_>, procs: u32) -> Vec<(usize, String)> {
        let mut s = self.shared.borrow_mut();
        s.prepare(
            jobs.iter()
                .map(|j| (j.user, j.procs, j.submit, j.requested)),
            procs,
        );
        let mut out = fit::never_selected(&jobs);
        let Some(l) = self.limits.as_mut() else {
            return out;
        };
        let left: std::collections::HashSet<usize> = out.iter().map(|o| o.0).collect();
        let (held, usage) = l.prepare(&s.site, jobs);
        out.extend(held.into_iter().filter(|o| !left.contains(&o.0)));
        // The `GrpTRESMins` limits read the associations' and QOS' TRES usage, which the
        // multifactor plugin's periods keep.
        if let Some(mf) = s.mf.as_mut() {
            mf.tres_usage = usage;
        }
        out.sort_by_key(|o| o.0);
        out
    }

    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        let now = c.now();
        let split = {
            let mut s = self.shared.borrow_mut();
            s.split_period.take().filter(|p| p.0 == now).map(|p| p.1)
        };
        self.agent.begin(now, !c.happenings().is_empty());
        let full = self.full_run(now);
        let run_main = self.main_runs(c, full);
        let blocked = nothing_fits(c);
        match split {
            None => {
                self.main_step(c, queue, run_main, full)?;
                self.backfill_step(c, queue, blocked)?;
            }
            // The period falls after this second's backfill cycle, before its main scheduler
            // (`calc_early_bf`): the cycle, first, walks the queue in the order before it
            // (the pass's queue read whole first, so that the order hears of every start).
            Some(Some(before)) => {
                queue.all(c);
                self.backfill_step(c, &mut Queue::fixed(&before), blocked)?;
                self.main_step(c, queue, run_main, full)?;
            }
            // The period falls after the main scheduler, before the backfill cycle.
            Some(None) => {
                self.main_step(c, queue, run_main, full)?;
                let jobs = self.after_period(c, queue);
                self.backfill_step(c, &mut Queue::fixed(&jobs), blocked)?;
            }
        }
        self.agent.end(now, c.waiting().len(), any_idle(c));
        if !c.waiting().is_empty() {
            let mut next = self.agent.next_check(now).min(self.next_full);
            if self.queued {
                next = next.min((self.last_sched + self.batch_delay).max(now + 1));
            }
            c.wake_at(next);
        }
        Ok(())
    }

    /// A replay's history: the cycles this rule does not run (the log's own are told by
    /// `recorded_backfill`) give a waiting job a start, as its own do.
    fn followed(&mut self, c: &Ctx<'_>) {
        let now = c.now();
        self.decision = true;
        // The history's loops built their queues (Slurm's, at times the log does not give;
        // taken as each instant's).
        if let Some(mf) = self.shared.borrow_mut().mf.as_mut() {
            mf.queue_built(now);
        }
        self.agent.begin(now, true);
        let waiting = c.waiting().len();
        if self.agent.due(now, false) {
            self.agent.ran(now, waiting > 0, false);
        }
        self.agent.end(now, waiting, true);
    }

    fn recorded_backfill(&mut self, at: Time) {
        self.agent.ran(at, true, false);
    }

    /// Each of a replay's decision passes given the debug log runs the main scheduler on the
    /// whole queue, as its one pass did (the passes of `replay::order`: the one after the
    /// events of a second that came after its cycle is the decision's main scheduler too).
    fn logged_cycle(&mut self, ran: bool) {
        self.decision = true;
        self.logged_cycle = Some(ran);
    }

    fn logged_end_sides(&mut self, decay: Time, sides: &[Option<bool>]) {
        if let Some(mf) = self.shared.borrow_mut().mf.as_mut() {
            mf.set_end_sides(decay, sides.to_vec());
        }
    }

    /// Slurm's controller checks time limits every `PERIODIC_TIMEOUT` (30 s) from its
    /// background thread's start (`_slurmctld_background`, `job_time_limit`), which starts
    /// with the controller, as the decay thread does: on `calc_phase`'s whole second modulo
    /// 30 (docs/slurm.md, "Time limits"). `OverTimeLimit`: [`crate::slurm::Site::over_times`].
    fn limit_checks(&self, partitions: &[String]) -> Option<crate::sim::LimitChecks> {
        let s = self.shared.borrow();
        Some(crate::sim::LimitChecks {
            period: LIMIT_CHECK_PERIOD,
            phase: s.params.calc_phase,
            over: s.site.over_times(s.params.over_time_limit, partitions),
            logged: false,
        })
    }
}

/// `t` rounded down to a multiple of `step` on the log's clock (`clock + t`: Slurm rounds
/// its backfill times on the epoch, `_attempt_backfill`'s `/ backfill_resolution`).
fn round_down(t: Time, step: Time, clock: Time) -> Time {
    t - (clock + t).rem_euclid(step.max(1))
}

#[cfg(test)]
mod tests {
    use super::round_down;

    /// Worked by hand: at resolution 10, time 26 is 26 on a clock of 0 (down to 20) and 31 on
    /// a clock of 5 or of 1795785465 (down to 30 there, time 25); on a clock of -7 it is 19
    /// (down to 10, time 17).
    #[test]
    fn backfill_times_round_on_the_logs_clock() {
        assert_eq!(round_down(26, 10, 0), 20);
        assert_eq!(round_down(26, 10, 5), 25);
        assert_eq!(round_down(26, 10, 1_795_785_465), 25);
        assert_eq!(round_down(26, 10, -7), 17);
        assert_eq!(round_down(20, 10, 0), 20);
    }
}
