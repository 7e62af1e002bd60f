//! The walk over a partition's nodes in Slurm's order that [`Free::select`] makes: the
//! partition's checks, then cores (and GPUs) taken node by node, or exactly `need.nodes` nodes
//! (the rules: `select.rs`'s head, docs/cluster-model.md "Allocation").

use super::{Alloc, Free, Need, Share};
use crate::cluster::layout::Layout;

impl Free {
    /// [`Free::select`], the shares pushed on `out` when given: true when `need` fits. Only the
    /// nodes with a free core (while the job needs GPUs: a free core and a free GPU) are
    /// visited, in Slurm's order; every other node would give it nothing. `LOOP_FOR_CORES`: a
    /// job asking for cores and GPUs alone goes through the loop for them
    /// ([`Free::walk_cores`]); without, through the general loop (the tests' reference).
    pub(super) fn walk<const LOOP_FOR_CORES: bool>(
        &self,
        l: &Layout,
        need: &Need,
        within: Option<&Free>,
        out: Option<&mut Alloc>,
    ) -> bool {
        let Some(part) = l.parts.get(need.part as usize) else {
            return false;
        };
        let p = need.part as usize;
        let mut from = 0;
        let next = |gpus: bool| {
            let set = if gpus {
                &self.with_gpus[p]
            } else {
                &self.with_cores[p]
            };
            let k = set.next(from)?;
            from = k + 1;
            Some(part.order[k] as usize)
        };
        self.walk_in::<LOOP_FOR_CORES>(l, need, within, true, next, out)
    }

    /// [`Free::walk`] over the nodes `next` gives (`next(true)` while the job still needs GPUs):
    /// the partition's checks, then cores (and GPUs) taken node by node, or `need.nodes` nodes.
    /// `spread`: a job whose cores are all laid before its GPUs goes on to further nodes with
    /// a free GPU, one core each (Slurm's rule, [`Free::walk_cores`]); without, it fails there.
    pub(super) fn walk_in<const LOOP_FOR_CORES: bool>(
        &self,
        l: &Layout,
        need: &Need,
        within: Option<&Free>,
        spread: bool,
        next: impl FnMut(bool) -> Option<usize>,
        out: Option<&mut Alloc>,
    ) -> bool {
        let Some(part) = l.parts.get(need.part as usize) else {
            return false;
        };
        let (mut cpus, mut gpus) = self.part_free[need.part as usize];
        if let Some(w) = within {
            let (c, g) = w.part_free[need.part as usize];
            (cpus, gpus) = (cpus.min(c), gpus.min(g));
        }
        if !part.up || need.cpus == 0 || u64::from(need.cpus) > cpus || u64::from(need.gpus) > gpus
        {
            return false;
        }
        if need.nodes > 0 {
            return self.walk_n(l, need, within, next, out);
        }
        if LOOP_FOR_CORES && Self::by_sums(need) {
            self.walk_cores::<true>(l, need, within, spread, next, out)
        } else {
            self.walk_cores::<false>(l, need, within, spread, next, out)
        }
    }

    /// [`Free::walk_in`] for a job without a node count: cores (and GPUs) taken node by node.
    /// `CORES_AND_GPUS`: the job asks for cores and GPUs alone ([`Free::by_sums`]: no memory,
    /// not exclusive), so the checks of memory and exclusivity are left out of the loop (the
    /// same loop otherwise; a property test holds the two to the same answers).
    ///
    /// Each node gives its free cores up to what the job still needs, with its free GPUs up to
    /// what it still needs. A job whose cores are all given while its GPUs are short goes on
    /// (`spread`) to further nodes with a free GPU, one core each, at most one node per core
    /// (Slurm 22.05's cons_tres `_eval_nodes` adds nodes until its cores and
    /// `gres_sched_test` are both met, `_cpus_to_use` giving a node past its cores
    /// `pn_min_cpus`, one; `choose_nodes` caps its nodes at its task count); its cores are then
    /// laid over those nodes as Slurm lays its tasks ([`Free::lay_cores`]). A job met without
    /// going past its cores is placed as without the rule.
    #[inline(always)]
    fn walk_cores<const CORES_AND_GPUS: bool>(
        &self,
        l: &Layout,
        need: &Need,
        within: Option<&Free>,
        spread: bool,
        mut next: impl FnMut(bool) -> Option<usize>,
        mut out: Option<&mut Alloc>,
    ) -> bool {
        let (mut cpus, mut gpus) = (need.cpus, need.gpus);
        let start = out.as_deref().map_or(0, Vec::len);
        // Nodes taken, and those of them taken past its cores.
        let (mut nodes, mut past) = (0, 0);
        loop {
            let Some(i) = next(gpus > 0) else {
                return false;
            };
            if !CORES_AND_GPUS && need.exclusive && !self.idle_in(i, within) {
                continue;
            }
            let (room_cpus, room_gpus) = self.cores_room(i, within);
            let mut c = room_cpus.min(cpus.max(1));
            if !CORES_AND_GPUS {
                let mem = self.mem_room(i, within);
                if mem < need.mem_per_node_mb {
                    continue;
                }
                if need.mem_per_node_mb == 0 && need.mem_per_cpu_mb > 0 {
                    c = c.min(u32::try_from(mem / need.mem_per_cpu_mb).unwrap_or(u32::MAX));
                }
            }
            let g = room_gpus.min(gpus);
            if c == 0 || (gpus > 0 && g == 0) {
                continue;
            }
            if cpus == 0 {
                if nodes == need.cpus {
                    return false;
                }
                past += 1;
            }
            nodes += 1;
            if let Some(out) = out.as_deref_mut() {
                out.push(if CORES_AND_GPUS {
                    Share {
                        node: i as u32,
                        cpus: c,
                        mem_mb: 0,
                        gpus: g,
                        whole: false,
                    }
                } else {
                    self.share(l, need, i, c, g)
                });
            }
            cpus -= c.min(cpus);
            gpus -= g;
            if cpus == 0 {
                if gpus == 0 {
                    if let Some(out) = out {
                        if past > 0 {
                            self.lay_cores(l, need, &mut out[start..]);
                        }
                    }
                    return true;
                }
                if !spread {
                    return false;
                }
            }
        }
    }

    /// A job's `need.cpus` cores laid over the nodes of `shares` (one share per node), each
    /// holding at most the cores it gave: Slurm's task layout for a task per core
    /// (cons_common/dist_tasks.c, `dist_tasks_compute_c_b`: one task on each node, then one
    /// more on each node with room, round after round, in node index order), so that the
    /// cores a job took past its count come off the nodes that gave the most. Shares of 8, 1
    /// and 1 cores for 9: the first round lays 1, 1, 1; the six left go to the first node
    /// alone, one a round: 7, 1, 1.
    fn lay_cores(&self, l: &Layout, need: &Need, shares: &mut [Share]) {
        let mut left = need.cpus;
        let mut laid = vec![0u32; shares.len()];
        let mut by_index: Vec<usize> = (0..shares.len()).collect();
        by_index.sort_by_key(|&k| shares[k].node);
        while left > 0 {
            let before = left;
            for &k in &by_index {
                if left > 0 && laid[k] < shares[k].cpus {
                    laid[k] += 1;
                    left -= 1;
                }
            }
            if left == before {
                debug_assert!(false, "the shares hold the job's cores");
                break;
            }
        }
        for (s, c) in shares.iter_mut().zip(laid) {
            *s = self.share(l, need, s.node as usize, c, s.gpus);
        }
    }

    /// [`Free::walk_in`] for a job asking for `need.nodes` nodes (each with at least one core,
    /// so `next(false)`: only nodes with a free core need be visited).
    fn walk_n(
        &self,
        l: &Layout,
        need: &Need,
        within: Option<&Free>,
        mut next: impl FnMut(bool) -> Option<usize>,
        mut out: Option<&mut Alloc>,
    ) -> bool {
        let n = need.nodes;
        if need.cpus < n {
            return false;
        }
        let (c_base, c_more) = (need.cpus / n, need.cpus % n);
        let (g_base, g_more) = (need.gpus / n, need.gpus % n);
        let mut k = 0;
        while k < n {
            let Some(i) = next(false) else {
                break;
            };
            if need.exclusive && !self.idle_in(i, within) {
                continue;
            }
            let c = c_base + u32::from(k < c_more);
            let g = g_base + u32::from(k < g_more);
            let room = self.room(i, within);
            if room.cpus >= c && room.gpus >= g && room.mem >= need.mem_on(c) {
                if let Some(out) = out.as_deref_mut() {
                    out.push(self.share(l, need, i, c, g));
                }
                k += 1;
            }
        }
        k == n
    }

    /// The share of node `i` for a job using `cpus` cores and `gpus` GPUs there.
    #[inline(always)]
    fn share(&self, l: &Layout, need: &Need, i: usize, cpus: u32, gpus: u32) -> Share {
        let node = &l.nodes[i];
        if need.exclusive {
            Share {
                node: i as u32,
                cpus,
                mem_mb: node.mem_mb,
                gpus: node.gpus,
                whole: true,
            }
        } else {
            Share {
                node: i as u32,
                cpus,
                mem_mb: need.mem_on(cpus),
                gpus,
                whole: false,
            }
        }
    }
}
