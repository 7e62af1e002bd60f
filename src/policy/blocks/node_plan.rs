//! A plan over a cluster's nodes: what is free on every node from each instant to the next,
//! from the running jobs' planned ends, with the allocations of the jobs placed in it. The
//! per-node profile of conservative backfilling and of guarantee-free backfilling on a cluster
//! (`policy/rule/conservative/on_nodes.rs`, `policy/rule/guarantee_free/on_nodes.rs`).

use crate::cluster::{Alloc, Free, Layout, Need};
use crate::sim::{ClusterView, Ctx};
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
            plan.states[last].give_packed(l, cv.alloc(j));
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
        let (i, t, a) = self.earliest(l, need, dur)?;
        self.hold(l, i, t, dur, &a);
        Some((t, a))
    }

    /// [`NodePlan::place`] of job `j` for `dur` seconds: in its partition, or, submitted to
    /// several, at the earliest start over them, ties to the first tried
    /// (docs/cluster-model.md, "Jobs of several partitions").
    pub(crate) fn place_job(
        &mut self,
        cv: &ClusterView<'_>,
        j: usize,
        dur: Time,
    ) -> Option<(Time, Alloc)> {
        match cv.parts(j) {
            [_] => self.place(cv.layout(), cv.need(j), dur),
            parts => {
                let needs: Vec<Need> = parts.iter().map(|&p| cv.need_in(j, p)).collect();
                self.place_any(cv.layout(), &needs, dur)
            }
        }
    }

    /// [`NodePlan::place`] for a job submitted to several partitions (`needs`: what it asks in
    /// each, in the order they are tried): the earliest start over them, ties to the first.
    fn place_any(&mut self, l: &Layout, needs: &[Need], dur: Time) -> Option<(Time, Alloc)> {
        let mut best: Option<(usize, Time, Alloc)> = None;
        for need in needs {
            if let Some(found) = self.earliest(l, need, dur) {
                if best.as_ref().is_none_or(|b| found.1 < b.1) {
                    best = Some(found);
                }
            }
        }
        let (i, t, a) = best?;
        self.hold(l, i, t, dur, &a);
        Some((t, a))
    }

    /// Takes `a` from the plan for `dur` seconds from instant `i` (time `t`).
    fn hold(&mut self, l: &Layout, i: usize, t: Time, dur: Time, a: &Alloc) {
        let end = t.saturating_add(dur.max(1));
        let last = if end == Time::MAX {
            self.times.len()
        } else {
            self.split(end)
        };
        for state in &mut self.states[i..last] {
            state.take(l, a);
        }
    }

    /// The earliest instant (index, time) at which `need` has an allocation free for `dur`
    /// seconds, and that allocation, left in the plan.
    fn earliest(&mut self, l: &Layout, need: &Need, dur: Time) -> Option<(usize, Time, Alloc)> {
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
            return Some((i, t, a));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use proptest::prelude::*;

    /// Two GPU nodes of 4 cores and 8,000 MB, three nodes of 8 cores and 4,000 MB.
    fn cluster() -> Layout {
        let c =
            Cluster::from_compact("1/a[1-2]:c4:m8000:ga100=2/b[1-3]:c8:m4000/p=all:ALL:default")
                .unwrap();
        Layout::new(&c).unwrap()
    }

    fn idle(l: &Layout) -> NodePlan {
        NodePlan {
            times: vec![0],
            states: vec![Free::all(l)],
            scratch: Free::all(l),
        }
    }

    /// The plain search [`NodePlan::place`] is held to: every instant tried in turn, its whole
    /// window narrowed from a fresh copy.
    fn plain_place(
        plan: &mut NodePlan,
        l: &Layout,
        need: &Need,
        dur: Time,
    ) -> Option<(Time, Alloc)> {
        for i in 0..plan.times.len() {
            let t = plan.times[i];
            let end = t.saturating_add(dur.max(1));
            let mut free = plan.states[i].clone();
            for k in i + 1..plan.times.len() {
                if plan.times[k] >= end {
                    break;
                }
                free.narrow(l, &plan.states[k]);
            }
            let Some(a) = free.select(l, need, None) else {
                continue;
            };
            let last = if end == Time::MAX {
                plan.times.len()
            } else {
                plan.split(end)
            };
            for state in &mut plan.states[i..last] {
                state.take(l, &a);
            }
            return Some((t, a));
        }
        None
    }

    /// Worked by hand: an 8-core job takes the a nodes (first in Slurm's order) until 50, a
    /// 24-core job the b nodes until 100. A 20-core job is short of cores now (none free) and
    /// at 50 (8 free): it starts at 100 on a1, a2, b1 and b2 (4 + 4 + 8 + 4 cores).
    #[test]
    fn a_start_short_of_cores_is_skipped() {
        let l = cluster();
        let mut plan = idle(&l);
        let b = Need {
            cpus: 24,
            ..Need::default()
        };
        let a = Need {
            cpus: 8,
            ..Need::default()
        };
        assert_eq!(plan.place(&l, &a, 50).unwrap().0, 0);
        assert_eq!(plan.place(&l, &b, 100).unwrap().0, 0);
        let wide = Need {
            cpus: 20,
            ..Need::default()
        };
        let (t, alloc) = plan.place(&l, &wide, 10).unwrap();
        assert_eq!(t, 100);
        assert_eq!(
            alloc.iter().map(|s| s.node).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        assert_eq!(plan.times, [0, 50, 100, 110]);
    }

    proptest! {
        /// Jobs of every shape (cores, GPUs, a node count, memory per core, exclusive) placed one
        /// after another: the same starts and allocations as the plain search, the same plan.
        #[test]
        fn place_agrees_with_the_plain_search(
            jobs in prop::collection::vec(
                (1u32..30, 0u32..4, 0u32..4, 0u64..3, any::<bool>(), 0i64..300),
                1..40,
            )
        ) {
            let l = cluster();
            let (mut fast, mut plain) = (idle(&l), idle(&l));
            for (cpus, gpus, nodes, mem, exclusive, dur) in jobs {
                let need = Need {
                    part: 0,
                    cpus,
                    nodes,
                    gpus,
                    mem_per_cpu_mb: mem * 1000,
                    mem_per_node_mb: 0,
                    exclusive,
                };
                let got = fast.place(&l, &need, dur);
                prop_assert_eq!(got, plain_place(&mut plain, &l, &need, dur));
                prop_assert_eq!(&fast.times, &plain.times);
                prop_assert_eq!(&fast.states, &plain.states);
            }
        }
    }
}
