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

use super::StartRule;
use crate::policy::blocks::profile::{hold, no_room, profile_now};
use crate::sim::{Ctx, Happening, Jobs, Profile, SimError, StartReason};
use crate::Time;

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
    narrowest: Vec<i64>,
}

impl GuaranteeFree {
    pub fn new(shadow: u32) -> Self {
        Self {
            shadow,
            order: Vec::new(),
            bound: Vec::new(),
            urgent: Vec::new(),
            arrivals: Vec::new(),
            plan: Vec::new(),
            narrowest: Vec::new(),
        }
    }

    /// Places job `j` at its earliest fit in `profile` and returns the start.
    fn place(&self, c: &Ctx<'_>, profile: &mut Profile, j: usize) -> Result<Time, SimError> {
        let job = c.job(j);
        let d = hold(c.estimate(j));
        let s = profile
            .earliest(c.now(), job.procs, d)
            .ok_or_else(|| no_room(c, j))?;
        profile.reserve(s, s + d, job.procs);
        Ok(s)
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
        self.planning_order(queue, true);
        for &j in &self.order {
            self.place(c, &mut profile, j)?;
        }
        for &j in &self.arrivals {
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
    fn prepare(&mut self, jobs: Jobs<'_>, _procs: u32) -> Vec<(usize, String)> {
        self.bound = vec![Time::MAX; jobs.len()];
        self.urgent = vec![false; jobs.len()];
        Vec::new()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>, queue: &[usize]) -> Result<(), SimError> {
        let now = c.now();
        let bounded = self.shadow > 0;
        if bounded {
            self.arrivals.clear();
            self.arrivals
                .extend(c.happenings().iter().filter_map(|h| match *h {
                    Happening::Submitted(j) => Some(j),
                    _ => None,
                }));
            self.admit(c, queue)?;
        }
        // Rebuild; with a shadow bound, restart whenever a job passes its bound (it becomes
        // urgent, so this ends after at most one restart per waiting job).
        'rebuild: loop {
            self.planning_order(queue, false);
            if !bounded {
                // narrowest[i] = the fewest processors any job from position i on needs.
                self.narrowest.clear();
                self.narrowest.resize(self.order.len() + 1, i64::MAX);
                for i in (0..self.order.len()).rev() {
                    let p = i64::from(c.job(self.order[i]).procs);
                    self.narrowest[i] = self.narrowest[i + 1].min(p);
                }
            }
            let mut profile = profile_now(c);
            self.plan.clear();
            for i in 0..self.order.len() {
                let j = self.order[i];
                let s = self.place(c, &mut profile, j)?;
                self.plan.push((j, s));
                if bounded && !self.urgent[j] && s > self.bound[j] {
                    self.urgent[j] = true;
                    continue 'rebuild;
                }
                // Without bounds only this pass's starts matter: once the processors left
                // free now are fewer than any later job needs, no later job can start now.
                if !bounded && profile.free_at(now) < self.narrowest[i + 1] {
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
