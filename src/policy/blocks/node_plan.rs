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
    /// Scratch: what is free over the window of the start being tried.
    scratch: Free,
}

impl NodePlan {
    /// The plan now: what is free now, and after each running job's planned end.
    pub(crate) fn new(c: &Ctx<'_>) -> Option<NodePlan> {
        let cv = c.cluster()?;
        let l = cv.layout();
        let mut plan = NodePlan {
            times: vec![c.now()],
            states: vec![cv.free().clone()],
            scratch: cv.free().clone(),
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
    ///
    /// A start is tried at each instant: what is free over its whole window (the window's
    /// states narrowed node by node) gives the allocation. An instant of the window whose
    /// partition has too few cores or GPUs ([`Free::short_of`]) rules out that start and every
    /// later one up to it (their windows hold it too), without narrowing anything.
    pub(crate) fn place(&mut self, l: &Layout, need: &Need, dur: Time) -> Option<(Time, Alloc)> {
        let n = self.times.len();
        // The instants before `enough` are known not to be short of the job's totals.
        let (mut i, mut enough) = (0, 0);
        while i < n {
            let t = self.times[i];
            let end = t.saturating_add(dur.max(1));
            let stop = i + self.times[i..].partition_point(|&x| x < end);
            if let Some(k) = (enough.max(i)..stop).find(|&k| self.states[k].short_of(need)) {
                i = k + 1;
                continue;
            }
            enough = stop;
            let free = &mut self.scratch;
            free.clone_from(&self.states[i]);
            for state in &self.states[i + 1..stop] {
                free.narrow(l, state);
            }
            let Some(a) = free.select(l, need, None) else {
                i += 1;
                continue;
            };
            let last = if end == Time::MAX { n } else { self.split(end) };
            for state in &mut self.states[i..last] {
                state.take(l, &a);
            }
            return Some((t, a));
        }
        None
    }
}
