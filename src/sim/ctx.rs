//! The simulation state a policy sees and the decisions it can make.
//!
//! A policy reads a narrow view through [`Ctx`] (per job: [`JobView`], its predictor's
//! [`Ctx::estimate`], start and planned end; free processors; the node model's demands) and
//! decides with [`Ctx::start`], [`Ctx::start_with`], [`Ctx::preempt`], [`Ctx::reserve`] and
//! [`Ctx::wake_at`]. The engine validates each decision and applies it at once, so the state a
//! policy reads is always the state its decisions produced. The engine's state is private to
//! `sim`. The start decisions are in `start.rs`.
#![warn(missing_docs)]

use super::cluster::{ClusterRun, ClusterView};
use super::free_procs::FreeProcs;
use super::nodes::Nodes;
use super::procset::ProcSet;
use super::schedule::{JobRecord, Outcome, Run, RunEnd};
use super::view::{recorded_start, JobView, NodesView};
use super::waiting::Waiting;
use super::SimError;
use crate::job::Job;
use crate::predict::Predictor;
use crate::Time;
use rand_pcg::Pcg64;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

/// Engine events, ordered inside one instant by their sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Ev {
    Finish { job: usize, attempt: u32 },
    Expire { job: usize, attempt: u32 },
}

/// What happened since the policy's previous scheduling pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Happening {
    /// A job was submitted (it waits now).
    Submitted(usize),
    /// A job ended; `planned_end` is the end the policies had planned for it.
    Finished {
        /// The job.
        job: usize,
        /// Its planned end.
        planned_end: Time,
    },
    /// A running job outlived its planned end, which moved from `old` to `new`.
    PlanExtended {
        /// The job.
        job: usize,
        /// Its planned end before.
        old: Time,
        /// Its planned end now.
        new: Time,
    },
    /// A running job was killed to be restarted later (it waits again).
    Preempted(usize),
}

/// The simulation state, as seen and changed by a policy.
pub struct Ctx<'a> {
    pub(super) jobs: &'a [Job],
    pub(super) procs: u32,
    pub(super) now: Time,
    pub(super) free: FreeProcs,
    pub(super) free_count: u32,
    /// Waiting jobs in arrival order (job indices, ascending).
    pub(super) waiting: Waiting,
    /// Running jobs by (planned end, job).
    pub(super) running: BTreeSet<(Time, usize)>,
    pub(super) planned: Vec<Time>,
    pub(super) attempt: Vec<u32>,
    pub(super) records: Vec<JobRecord>,
    pub(super) preempted_runs: Vec<Run>,
    pub(super) heap: BinaryHeap<Reverse<(Time, u64, Ev)>>,
    pub(super) seq: u64,
    pub(super) happenings: Vec<Happening>,
    pub(super) rng: Pcg64,
    pub(super) policy: String,
    pub(super) finished: usize,
    /// The node model, when on: penalties move job ends.
    pub(super) nodes: Option<Nodes>,
    pub(super) moved: Vec<(usize, Time)>,
    /// The wake-up the latest pass asked for (the earliest of its [`Ctx::wake_at`] calls).
    pub(super) wake: Option<Time>,
    /// The latest time any pass has asked to be woken at: while it lies beyond the wake-up the
    /// engine keeps, the policy waits for a time it named, and the idle guard counts nothing.
    pub(super) named: Time,
    /// The policy's runtime estimate (its predictor), run by the engine; `None`: the input's
    /// planning estimate.
    pub(super) predictor: Option<Predictor>,
    /// The policy replays the trace: it may read the recorded start times.
    pub(super) replay: bool,
    /// The policy's own start-reason words ([`super::StartReason::Word`]).
    pub(super) words: Vec<String>,
    /// Identifies the machine state (see [`Ctx::state_id`]).
    pub(super) state: u64,
    /// The cluster's nodes, when the simulation runs on a cluster.
    pub(super) cluster: Option<ClusterRun<'a>>,
    /// Periodic time-limit checks ([`super::simulate_checked`]); `None`: a job is killed at
    /// start + requested time (its runtime is cut there by the input).
    pub(super) checks: Option<&'a super::LimitChecks>,
}

/// The source of state ids: unique in the process, so that ids of different simulations never
/// meet.
static STATE_IDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A new state id.
pub(super) fn new_state_id() -> u64 {
    STATE_IDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl<'a> Ctx<'a> {
    /// The time of this pass, seconds.
    pub fn now(&self) -> Time {
        self.now
    }

    /// An id of the machine state a policy sees: the time, the free processors, the running
    /// jobs, their planned ends and the node demands. It changes whenever one of them does
    /// (unique in the process), so a policy may keep what it derived from a state until then.
    pub fn state_id(&self) -> u64 {
        self.state
    }

    /// Number of jobs of the simulation (job indices are `0..job_count()`, in arrival order).
    pub fn job_count(&self) -> usize {
        self.jobs.len()
    }

    /// What the policy may know of job `j`.
    #[inline]
    pub fn job(&self, j: usize) -> JobView {
        JobView::of(&self.jobs[j])
    }

    /// The runtime estimate of job `j` the policy plans with: its predictor's value (rounded
    /// to seconds, capped at the requested time), or the input's planning estimate when the
    /// policy has no predictor.
    #[inline]
    pub fn estimate(&self, j: usize) -> Time {
        let job = &self.jobs[j];
        match &self.predictor {
            Some(p) => p.predict(j, job),
            None => job.estimate,
        }
    }

    /// The trace's recorded start of job `j`, for a policy that replays the trace; `None`
    /// otherwise.
    pub fn recorded_start(&self, j: usize) -> Option<Time> {
        recorded_start(self.replay, &self.jobs[j])
    }

    /// Machine size.
    pub fn procs(&self) -> u32 {
        self.procs
    }

    /// Number of free processors now.
    pub fn free(&self) -> u32 {
        self.free_count
    }

    /// The free processors now.
    pub fn free_set(&self) -> &ProcSet {
        self.free.set()
    }

    /// Waiting jobs in arrival order.
    pub fn waiting(&self) -> &Waiting {
        &self.waiting
    }

    /// Running jobs as `(planned_end, job)`, earliest planned end first.
    pub fn running(&self) -> impl Iterator<Item = (Time, usize)> + '_ {
        self.running.iter().copied()
    }

    /// The number of running jobs.
    pub fn running_count(&self) -> usize {
        self.running.len()
    }

    /// Start time of a running job's current attempt.
    pub fn start_of(&self, j: usize) -> Time {
        self.records[j].start
    }

    /// The first planned start recorded for job `j` ([`Ctx::reserve`]), if any.
    pub fn reserved_at(&self, j: usize) -> Option<Time> {
        self.records[j].first_reservation()
    }

    /// Planned end of a running job.
    pub fn planned_end(&self, j: usize) -> Time {
        self.planned[j]
    }

    /// What happened since the previous pass.
    pub fn happenings(&self) -> &[Happening] {
        &self.happenings
    }

    /// The simulation's one seeded random number generator.
    pub fn rng(&mut self) -> &mut Pcg64 {
        &mut self.rng
    }

    /// The node model's state (nodes, demands, penalty factors), when the model is on.
    pub fn nodes(&self) -> Option<NodesView<'_>> {
        self.nodes.as_ref().map(NodesView)
    }

    /// Processors of running job `j`.
    pub fn procs_of(&self, j: usize) -> &ProcSet {
        &self.records[j].procs
    }

    /// True when job `j` fits in the free processors now (on a cluster: when the default node
    /// selection finds it an allocation now).
    #[inline]
    pub fn fits(&self, j: usize) -> bool {
        self.jobs[j].procs <= self.free_count && self.cluster.as_ref().is_none_or(|c| c.fits(j))
    }

    /// The cluster (layout, needs, free resources per node, allocations) when the simulation
    /// runs on one.
    pub fn cluster(&self) -> Option<ClusterView<'_>> {
        self.cluster.as_ref().map(|run| ClusterView { run })
    }

    /// Feeds the predictor what happened since the previous pass (ends first, then
    /// submissions, each in the order they happened); called before every pass.
    pub(super) fn observe(&mut self) {
        let Some(p) = self.predictor.as_mut() else {
            return;
        };
        for h in &self.happenings {
            if let Happening::Finished { job, .. } = *h {
                p.finished(&self.jobs[job]);
            }
        }
        for h in &self.happenings {
            if let Happening::Submitted(j) = *h {
                p.submitted(j, &self.jobs[j], &mut self.rng);
            }
        }
    }

    pub(super) fn push(&mut self, t: Time, ev: Ev) {
        self.seq += 1;
        self.heap.push(Reverse((t, self.seq, ev)));
    }

    /// The error of an invalid decision, for `reason`.
    #[cold]
    #[inline(never)]
    pub(super) fn invalid(&self, reason: String) -> SimError {
        SimError::Invalid {
            policy: self.policy.clone(),
            time: self.now,
            reason,
        }
    }

    /// Node model: pushes the finish events of jobs whose end moved (older ones go stale), and
    /// an expiry where a job's end passed its planned end.
    pub(super) fn reschedule(&mut self, moved: &mut Vec<(usize, Time)>) {
        for (k, end) in moved.drain(..) {
            let attempt = self.attempt[k];
            self.push(end, Ev::Finish { job: k, attempt });
            let planned = self.planned[k];
            if planned < end && planned >= self.now {
                self.push(planned, Ev::Expire { job: k, attempt });
            }
        }
    }

    /// Records a planned start for waiting job `j` (only the first one is kept, with the
    /// running job it waits for: the first, in (planned end, index) order, planned to end then).
    pub fn reserve(&mut self, j: usize, at: Time) {
        if self.records[j].first_reservation().is_some() {
            return;
        }
        let behind = if at > self.now {
            self.running
                .range((at, 0)..=(at, usize::MAX))
                .next()
                .map_or(JobRecord::NONE, |&(_, k)| k as u32)
        } else {
            JobRecord::NONE
        };
        let rec = &mut self.records[j];
        rec.set_first_reservation(at);
        rec.waited_for = behind;
    }

    /// Asks for a scheduling pass at time `t` (ignored unless `t` is in the future). The
    /// wake-ups a pass asks for replace those of earlier passes: a policy asks, at every pass,
    /// for the next time it needs one (only the earliest of a pass's calls matters, since any
    /// pass before it replaces it).
    pub fn wake_at(&mut self, t: Time) {
        if t > self.now {
            self.wake = Some(self.wake.map_or(t, |w| w.min(t)));
            self.named = self.named.max(t);
        }
    }

    /// Stops running job `j`: its work is lost and it waits again with its original priority.
    pub fn preempt(&mut self, j: usize) -> Result<(), SimError> {
        if j >= self.jobs.len() || !self.running.remove(&(self.planned[j], j)) {
            return Err(self.invalid(format!("job index {j} is not running")));
        }
        if let Some(nodes) = self.nodes.as_mut() {
            let mut moved = std::mem::take(&mut self.moved);
            nodes.stop(j, &self.jobs[j], self.now, &mut moved);
            self.reschedule(&mut moved);
            self.moved = moved;
        }
        if let Some(cl) = self.cluster.as_mut() {
            cl.give_preempted(j);
        }
        let rec = &mut self.records[j];
        let procs = std::mem::take(&mut rec.procs);
        self.free.insert(&procs);
        self.free_count += self.jobs[j].procs;
        rec.preemptions += 1;
        self.preempted_runs.push(Run {
            job: j,
            start: rec.start,
            end: self.now,
            procs,
            end_kind: RunEnd::Preempted,
        });
        rec.start = -1;
        self.attempt[j] += 1;
        self.waiting.insert(j);
        self.happenings.push(Happening::Preempted(j));
        self.state = new_state_id();
        Ok(())
    }

    /// Applies the end of job `j`'s attempt; returns false (and does nothing) for a superseded
    /// event: an earlier attempt, or an end the node model has since moved.
    pub(super) fn finish(&mut self, j: usize, attempt: u32) -> bool {
        if self.attempt[j] != attempt
            || self.nodes.as_ref().is_some_and(|n| n.end(j) != self.now)
            || !self.running.remove(&(self.planned[j], j))
        {
            return false;
        }
        let job = &self.jobs[j];
        let mut by_penalty = false;
        if let Some(nodes) = self.nodes.as_mut() {
            by_penalty = nodes.killed_by_penalty(j);
            let mut moved = std::mem::take(&mut self.moved);
            nodes.stop(j, job, self.now, &mut moved);
            self.reschedule(&mut moved);
            self.moved = moved;
        }
        if let Some(cl) = self.cluster.as_mut() {
            cl.give(j);
        }
        let rec = &mut self.records[j];
        self.free.insert(&rec.procs);
        self.free_count += job.procs;
        rec.end = self.now;
        let by_check = self.checks.is_some() && self.now < rec.start + job.runtime;
        rec.outcome = if job.killed || by_penalty || by_check {
            Outcome::Killed
        } else {
            Outcome::Completed
        };
        self.finished += 1;
        self.happenings.push(Happening::Finished {
            job: j,
            planned_end: self.planned[j],
        });
        self.state = new_state_id();
        true
    }

    /// A running job reached its planned end without ending: plan it to end at its kill time,
    /// or, when it has none, after as long again as it has run so far. Returns false (and does
    /// nothing) for a superseded event: an earlier attempt, a job that ended, a plan that moved.
    pub(super) fn expire(&mut self, j: usize, attempt: u32) -> bool {
        let old = self.planned[j];
        if self.attempt[j] != attempt || old > self.now || !self.running.contains(&(old, j)) {
            return false;
        }
        let job = &self.jobs[j];
        let start = self.records[j].start;
        let now = self.now;
        let end = match (&self.nodes, self.checks) {
            (Some(nodes), _) => nodes.end(j),
            (None, Some(ch)) => ch.end(job, start),
            (None, None) => start + job.runtime,
        };
        let kill = match self.checks {
            Some(ch) => ch.kill(job, start),
            None => job.requested().map(|r| start + r),
        };
        let new = match kill {
            Some(kill) if kill > now => kill,
            _ => now + (now - start).max(1),
        };
        self.running.remove(&(old, j));
        self.running.insert((new, j));
        self.planned[j] = new;
        self.state = new_state_id();
        if new < end {
            self.push(new, Ev::Expire { job: j, attempt });
        }
        self.happenings
            .push(Happening::PlanExtended { job: j, old, new });
        true
    }
}
