//! Guarantee-free backfilling on a cluster's nodes: the same rebuild as the single pool's, in
//! the node plan of conservative backfilling (`policy/blocks/node_plan.rs`: what is free on
//! every node from each instant to the next). At every pass the running jobs hold their nodes
//! until their planned ends, then every waiting job, in planning order (urgent jobs by bound,
//! then the queue order), gets the earliest instant from which an allocation is free over its
//! whole estimated run; the jobs planned now start on that allocation. `shadow=k` bounds work
//! as in the pool: an arrival's bound comes from its place behind every job already there, and
//! a job planned past its bound becomes urgent and the plan is rebuilt.

use super::GuaranteeFree;
use crate::cluster::Alloc;
use crate::policy::blocks::node_plan::NodePlan;
use crate::sim::{Ctx, SimError, StartReason};
use crate::Time;

impl GuaranteeFree {
    /// Places job `j` in `plan` at its earliest fit (over its partitions, ties to the first
    /// tried, for a job submitted to several); `None` only for a job the cluster never fits
    /// (rejected before the run).
    fn place_on(c: &Ctx<'_>, plan: &mut NodePlan, j: usize) -> Option<(Time, Alloc)> {
        plan.place_job(&c.cluster()?, j, c.estimate(j))
    }

    /// Sets the shadow bound of the jobs that arrived since the previous pass, each placed in
    /// the node plan behind every job already running or waiting.
    fn admit_on_nodes(&mut self, c: &mut Ctx<'_>, queue: &[usize]) {
        if self.arrivals.is_empty() {
            return;
        }
        let Some(mut plan) = NodePlan::new(c) else {
            return;
        };
        self.planning_order(queue, true);
        for &j in &self.order {
            Self::place_on(c, &mut plan, j);
        }
        for i in 0..self.arrivals.len() {
            let j = self.arrivals[i];
            let Some((g, _)) = Self::place_on(c, &mut plan, j) else {
                continue;
            };
            let submit = c.job(j).submit;
            let interval = (g - submit).max(0);
            self.bound[j] = submit.saturating_add(interval.saturating_mul(Time::from(self.shadow)));
            c.reserve(j, self.bound[j]);
        }
    }

    /// One pass on a cluster (`queue`: the waiting jobs in queue order).
    pub(super) fn pass_on_nodes(
        &mut self,
        c: &mut Ctx<'_>,
        queue: &[usize],
    ) -> Result<(), SimError> {
        let bounded = self.shadow > 0;
        if bounded {
            self.admit_on_nodes(c, queue);
        }
        let mut planned: Vec<(usize, Time, Alloc)> = Vec::new();
        'rebuild: loop {
            self.planning_order(queue, false);
            let Some(mut plan) = NodePlan::new(c) else {
                return Ok(());
            };
            planned.clear();
            // Without bounds only this pass's starts matter: the plan stops once no core is
            // free now (unless a zero-length job starting now holds its nodes for a second,
            // after which the plan's next start must be known for the wake-up).
            let mut held = false;
            for i in 0..self.order.len() {
                if !bounded && !held && plan.free_now().cpus.iter().all(|&x| x == 0) {
                    break;
                }
                let j = self.order[i];
                let Some((s, a)) = Self::place_on(c, &mut plan, j) else {
                    continue;
                };
                held |= s <= c.now() && c.estimate(j) == 0;
                planned.push((j, s, a));
                if bounded && !self.urgent[j] && s > self.bound[j] {
                    self.urgent[j] = true;
                    continue 'rebuild;
                }
            }
            break;
        }
        // Reasons: `head` while every job planned before it starts now, then `backfilled`.
        let now = c.now();
        let mut next = Time::MAX;
        for (j, s, a) in planned {
            if s > now {
                next = next.min(s);
                continue;
            }
            let why = if next == Time::MAX {
                StartReason::Head
            } else {
                StartReason::Backfilled
            };
            let end = now + c.estimate(j);
            c.start_on(j, Some(why), a, Some(end))?;
            self.urgent[j] = false;
        }
        // A planned start may fall where no job event happens (a zero-length job holds its
        // nodes for a second): the engine calls back then.
        if next != Time::MAX {
            c.wake_at(next);
        }
        Ok(())
    }
}
