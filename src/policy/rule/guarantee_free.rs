//! Conservative backfilling without guarantees (`conservative[guarantees=off]`): Zotkin et al.'s guarantee-free backfilling (section 8). At
//! every pass the schedule is rebuilt from scratch: the running jobs at their planned ends, then
//! every waiting job, in queue order, at its earliest fit; the jobs planned to start now start.
//! Nothing is promised to a waiting job, so in a sorted order a long job may starve (the
//! `weight` key of the order prevents it).
//!
//! `shadow=k` (section 5, Table 8) bounds delays instead: a job's shadow interval is the wait it
//! would be promised on arrival behind every job already there (the running jobs and the current
//! plan of the waiting ones, in queue order); it may start at the latest k shadow intervals
//! after its arrival. A job whose place in the rebuilt plan passes that bound becomes urgent:
//! urgent jobs are planned first, earliest bound first, ahead of the queue order.
//!
//! The only promise recorded (`Ctx::reserve`, read by the reservation metrics) is the shadow
//! bound; without it the policy promises nothing.
//!
//! On a cluster the plan is over nodes × resources (`guarantee_free/on_nodes.rs`).

use super::StartRule;
use crate::policy::blocks::floor::Floor;
use crate::policy::blocks::profile::{hold, no_room, profile_now};
use crate::policy::plan::Profile;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, Happening, Jobs, SimError, StartReason};
use crate::Time;

mod on_nodes;

/// Conservative backfilling without guarantees: the plan rebuilt at every pass, with optional
/// shadow bounds.
pub struct GuaranteeFree {
    /// k of `shadow=k`; 0 = no bound.
    shadow: u32,
    /// Planning order of this pass (urgent jobs, then the queue order).
    order: Vec<usize>,
    /// Per job: the latest start its shadow bound allows (`Time::MAX` before it is known).
    bound: Vec<Time>,
    urgent: Vec<bool>,
    arrivals: Vec<usize>,
    /// `(job, planned start)` of this pass.
    plan: Vec<(usize, Time)>,
    /// Scratch: `Profile::min_drops` of the plan so far.
    drops: Vec<(Time, i64)>,
    /// Scratch: the fewest processors any job from each position of the order on needs.
    narrowest: Vec<i64>,
    /// Earliest fits of this plan, bounding the later ones.
    floor: Floor,
}

impl GuaranteeFree {
    /// The rule with bound `shadow` (0: none).
    pub fn new(shadow: u32) -> Self {
        Self {
            shadow,
            order: Vec::new(),
            bound: Vec::new(),
            urgent: Vec::new(),
            arrivals: Vec::new(),
            plan: Vec::new(),
            drops: Vec::new(),
            narrowest: Vec::new(),
            floor: Floor::default(),
        }
    }

    /// Places job `j` at its earliest fit in `profile` and returns the start. The profile
    /// only lost processors since `self.floor` was cleared: the search begins at its bound.
    fn place(&mut self, c: &Ctx<'_>, profile: &mut Profile, j: usize) -> Result<Time, SimError> {
        let job = c.job(j);
        let d = hold(c.estimate(j));
        let from = c.now().max(self.floor.bound(job.procs, d));
        let fit = profile
            .earliest_fit(from, job.procs, d)
            .ok_or_else(|| no_room(c, j))?;
        profile.reserve_fit(fit, d, job.procs);
        let s = fit.start;
        self.floor.record(job.procs, d, s);
        Ok(s)
    }

    /// The first position from `from` on in the planning order whose job can start now in
    /// `profile` (`None`: no job left can).
    fn next_fit_now(&mut self, c: &Ctx<'_>, profile: &Profile, from: usize) -> Option<usize> {
        profile.min_drops(&mut self.drops);
        let now = c.now();
        let drops = &self.drops;
        let free = drops.first().map_or(0, |d| d.1);
        (from..self.order.len()).find(|&k| {
            let j = self.order[k];
            let need = i64::from(c.job(j).procs);
            need <= free && {
                // The first time the minimum drops below `need`: the job must end by then.
                let i = drops.partition_point(|d| d.1 >= need);
                drops
                    .get(i)
                    .is_none_or(|d| now.saturating_add(hold(c.estimate(j))) <= d.0)
            }
        })
    }

    /// The planning order: urgent jobs by bound, then the rest in queue order.
    fn planning_order(&mut self, queue: &[usize], skip_arrivals: bool) {
        self.order.clear();
        let (urgent, bound) = (&self.urgent, &self.bound);
        self.order
            .extend(queue.iter().copied().filter(|&j| urgent[j]));
        self.order.sort_by_key(|&j| (bound[j], j));
        let arrivals = &self.arrivals;
        self.order.extend(
            queue
                .iter()
                .copied()
                .filter(|&j| !(urgent[j] || skip_arrivals && arrivals.contains(&j))),
        );
    }

    /// Sets the shadow bound of the jobs that arrived since the previous pass: each is placed
    /// behind every job already running or waiting.
    fn admit(&mut self, c: &mut Ctx<'_>, queue: &[usize]) -> Result<(), SimError> {
        if self.arrivals.is_empty() {
            return Ok(());
        }
        let mut profile = profile_now(c);
        self.floor.clear();
        self.planning_order(queue, true);
        for i in 0..self.order.len() {
            self.place(c, &mut profile, self.order[i])?;
        }
        for i in 0..self.arrivals.len() {
            let j = self.arrivals[i];
            let g = self.place(c, &mut profile, j)?;
            let submit = c.job(j).submit;
            let interval = (g - submit).max(0);
            self.bound[j] = submit.saturating_add(interval.saturating_mul(Time::from(self.shadow)));
            // The bound is the one promise this policy makes.
            c.reserve(j, self.bound[j]);
        }
        Ok(())
    }
}

impl StartRule for GuaranteeFree {
    fn prepare(&mut self, jobs: Jobs<'_>, procs: u32) -> Vec<(usize, String)> {
        self.floor = Floor::new(procs);
        self.bound = vec![Time::MAX; jobs.len()];
        self.urgent = vec![false; jobs.len()];
        Vec::new()
    }

    /// Reads the queue whole: every pass plans every waiting job.
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        let queue = queue.all(c);
        let now = c.now();
        let bounded = self.shadow > 0;
        if bounded {
            self.arrivals.clear();
            self.arrivals
                .extend(c.happenings().iter().filter_map(|h| match *h {
                    Happening::Submitted(j) => Some(j),
                    _ => None,
                }));
        }
        if c.cluster().is_some() {
            return self.pass_on_nodes(c, queue);
        }
        if bounded {
            self.admit(c, queue)?;
        }
        // Rebuild; with a shadow bound, restart whenever a job passes its bound (it becomes
        // urgent, so this ends after at most one restart per waiting job).
        'rebuild: loop {
            self.planning_order(queue, false);
            let mut profile = profile_now(c);
            self.floor.clear();
            self.plan.clear();
            // Without bounds only this pass's starts matter: the plan stops once no job left
            // can start now (`probe`: the position of the next job that could when last
            // looked; the profile only loses processors, so the jobs before it cannot).
            let mut probe = 0;
            let mut held = false;
            for i in 0..self.order.len() {
                if !bounded && !held && i >= probe {
                    match self.next_fit_now(c, &profile, i) {
                        Some(k) => probe = k,
                        None => break,
                    }
                }
                let j = self.order[i];
                let s = self.place(c, &mut profile, j)?;
                self.plan.push((j, s));
                if bounded && !self.urgent[j] && s > self.bound[j] {
                    self.urgent[j] = true;
                    continue 'rebuild;
                }
                // A zero-length job starting now holds its processors for a second in which
                // no job event happens, so the wake-up this pass asks for matters: the plan
                // then stops where it always has, once the processors free now are fewer than
                // any later job needs. (Otherwise every planned start after now is at a job
                // event, where a pass happens anyway.)
                if !bounded && !held && s <= now && c.estimate(j) == 0 {
                    held = true;
                    self.narrowest.clear();
                    self.narrowest.resize(self.order.len() + 1, i64::MAX);
                    for k in (0..self.order.len()).rev() {
                        let p = i64::from(c.job(self.order[k]).procs);
                        self.narrowest[k] = self.narrowest[k + 1].min(p);
                    }
                }
                if held && profile.free_at(now) < self.narrowest[i + 1] {
                    break;
                }
            }
            break;
        }
        // Reasons: `head` while every job planned before it starts now, then `backfilled`.
        let mut next = Time::MAX;
        for i in 0..self.plan.len() {
            let (j, s) = self.plan[i];
            if s <= now {
                let why = if next == Time::MAX {
                    StartReason::Head
                } else {
                    StartReason::Backfilled
                };
                let end = now + c.estimate(j);
                c.start_as(j, Some(why), None, Some(end))?;
                self.urgent[j] = false;
            } else {
                next = next.min(s);
            }
        }
        // A planned start may fall where no job event happens (after a zero-length job's held
        // second): make sure the engine calls back then (asked at every pass: a pass's wake-up
        // replaces the earlier ones).
        if next != Time::MAX {
            c.wake_at(next);
        }
        Ok(())
    }
}
