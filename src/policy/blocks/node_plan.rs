//! A plan over a cluster's nodes: what is free on every node from each instant to the next,
//! from the running jobs' planned ends, with the allocations of the jobs placed in it. The
//! per-node profile of conservative backfilling and of guarantee-free backfilling on a cluster
//! (`policy/rule/conservative/on_nodes.rs`, `policy/rule/guarantee_free/on_nodes.rs`).

use crate::cluster::{Alloc, Free, Layout, Need};
use crate::sim::Ctx;
use crate::Time;

/// What is free on every node from each instant to the next.
pub(crate) struct NodePlan {
    times: Vec<Time>,
    states: Vec<Free>,
}

impl NodePlan {
    /// The plan now: what is free now, and after each running job's planned end.
    pub(crate) fn new(c: &Ctx<'_>) -> Option<NodePlan> {
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
            plan.states[last].give_each(l, cv.alloc(j).iter());
        }
        Some(plan)
    }

    /// What is free on every node now, once the jobs placed so far have their allocations.
    pub(crate) fn free_now(&self) -> &Free {
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
    pub(crate) fn place(&mut self, l: &Layout, need: &Need, dur: Time) -> Option<(Time, Alloc)> {
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
