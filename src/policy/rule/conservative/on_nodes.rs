//! Conservative backfilling on a cluster's nodes: at every pass every waiting job, in queue
//! order, gets the earliest start at which an allocation is free over its whole estimated run,
//! given the running jobs' planned ends and the reservations of the jobs before it; the jobs
//! whose start is now start on that allocation. The profile is a list of instants, each with
//! what is free on every node from it to the next (docs/cluster-model.md).
//!
//! Rebuilt at every pass: in arrival order a reservation then never moves later, except when a
//! running job outlives its planned end; this is the equivalent of the single pool's kept
//! reservations that the cluster model documents.

use crate::cluster::{Alloc, Free, Layout, Need};
use crate::sim::{Ctx, SimError, StartReason};
use crate::Time;

/// What is free on every node from each instant to the next (also the plan of
/// `guarantee_free.rs` on a cluster).
pub(in crate::policy::rule) struct NodePlan {
    times: Vec<Time>,
    states: Vec<Free>,
}

impl NodePlan {
    /// The plan now: what is free now, and after each running job's planned end.
    pub(in crate::policy::rule) fn new(c: &Ctx<'_>) -> Option<NodePlan> {
        let cv = c.cluster()?;
        let l = cv.layout();
        let mut plan = NodePlan {
            times: vec![c.now()],
            states: vec![cv.free().clone()],
        };
        for (end, j) in c.running() {
            let end = end.max(c.now());
            if plan.times.last() != Some(&end) {
                let last = plan.states[plan.states.len() - 1].clone();
                plan.times.push(end);
                plan.states.push(last);
            }
            let last = plan.states.len() - 1;
            plan.states[last].give(l, cv.alloc(j));
        }
        Some(plan)
    }

    /// What is free on every node now, once the jobs placed so far have their allocations.
    pub(in crate::policy::rule) fn free_now(&self) -> &Free {
        &self.states[0]
    }

    /// The index of the instant `t`, inserted (with the state then) when it is not one yet.
    fn split(&mut self, t: Time) -> usize {
        let i = self.times.partition_point(|&x| x < t);
        if self.times.get(i) != Some(&t) {
            let state = self.states[i - 1].clone();
            self.times.insert(i, t);
            self.states.insert(i, state);
        }
        i
    }

    /// The earliest instant at which `need` has an allocation free for `dur` seconds, and that
    /// allocation, taken from the plan.
    pub(in crate::policy::rule) fn place(
        &mut self,
        l: &Layout,
        need: &Need,
        dur: Time,
    ) -> Option<(Time, Alloc)> {
        for i in 0..self.times.len() {
            let t = self.times[i];
            let end = t.saturating_add(dur.max(1));
            let mut free = self.states[i].clone();
            for k in i + 1..self.times.len() {
                if self.times[k] >= end {
                    break;
                }
                free.narrow(l, &self.states[k]);
            }
            let Some(a) = free.select(l, need, None) else {
                continue;
            };
            let last = if end == Time::MAX {
                self.times.len()
            } else {
                self.split(end)
            };
            for state in &mut self.states[i..last] {
                state.take(l, &a);
            }
            return Some((t, a));
        }
        None
    }
}

/// One pass of conservative backfilling on a cluster over `queue` (the waiting jobs in queue
/// order).
pub fn pass(c: &mut Ctx<'_>, queue: &[usize]) -> Result<(), SimError> {
    let Some(mut plan) = NodePlan::new(c) else {
        return Ok(());
    };
    let Some(cv) = c.cluster() else {
        return Ok(());
    };
    let l = cv.layout();
    let now = c.now();
    // (job, planned start, allocation, reason when it starts now).
    let mut planned: Vec<(usize, Time, Alloc, StartReason)> = Vec::new();
    let mut earlier_waits = false;
    for &j in queue {
        let Some((t, a)) = plan.place(l, cv.need(j), c.estimate(j)) else {
            continue;
        };
        let why = if earlier_waits {
            StartReason::Backfilled
        } else if c.job(j).submit == now || c.reserved_at(j).is_none() {
            // A job planned at no earlier pass (a replay's one pass: `crate::replay`).
            StartReason::Head
        } else {
            StartReason::Reserved
        };
        earlier_waits |= t > now;
        planned.push((j, t, a, why));
    }
    for (j, t, a, why) in planned {
        if t > now {
            c.reserve(j, t);
            continue;
        }
        let end = now + c.estimate(j);
        c.start_on(j, Some(why), a, Some(end))?;
    }
    Ok(())
}
