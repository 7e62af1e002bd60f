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
    /// `spread`: a node leaves a core for each further GPU node the job needs
    /// ([`Free::spread_cap`]); without, it gives all it has.
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
        let max_gpus = if spread { part.max_gpus } else { 0 };
        if LOOP_FOR_CORES && Self::by_sums(need) {
            self.walk_cores::<true>(l, need, within, max_gpus, next, out)
        } else {
            self.walk_cores::<false>(l, need, within, max_gpus, next, out)
        }
    }

    /// [`Free::walk_in`] for a job without a node count: cores (and GPUs) taken node by node.
    /// `CORES_AND_GPUS`: the job asks for cores and GPUs alone ([`Free::by_sums`]: no memory,
    /// not exclusive), so the checks of memory and exclusivity are left out of the loop (the
    /// same loop otherwise; a property test holds the two to the same answers). `max_gpus`: the
    /// most GPUs of a node of the partition, for [`Free::spread_cap`] (0: no core left).
    #[inline(always)]
    fn walk_cores<const CORES_AND_GPUS: bool>(
        &self,
        l: &Layout,
        need: &Need,
        within: Option<&Free>,
        max_gpus: u32,
        mut next: impl FnMut(bool) -> Option<usize>,
        mut out: Option<&mut Alloc>,
    ) -> bool {
        let (mut cpus, mut gpus) = (need.cpus, need.gpus);
        loop {
            let Some(i) = next(gpus > 0) else {
                return false;
            };
            if !CORES_AND_GPUS && need.exclusive && !self.idle_in(i, within) {
                continue;
            }
            let (room_cpus, room_gpus) = self.cores_room(i, within);
            let mut c = room_cpus.min(cpus);
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
            c = c.min(Self::spread_cap(cpus, gpus - g, max_gpus));
            if c == 0 || (gpus > 0 && g == 0) {
                continue;
            }
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
            cpus -= c;
            gpus -= g;
            if cpus == 0 {
                return gpus == 0;
            }
        }
    }

    /// The most cores a node may give a job that still needs `cpus` cores and, after that
    /// node's GPUs, `gpus_after` GPUs, on a partition whose nodes hold at most `max_gpus` GPUs:
    /// one core is left for each further node the GPUs need (at least `gpus_after / max_gpus`,
    /// rounded up), so that the job's GPUs spread over several nodes however few its cores
    /// (Slurm's rule, docs/cluster-model.md "Allocation"). Never less than the node would give
    /// without it unless that leaves fewer cores than the further nodes need, where taking all
    /// would fail: a job the walk placed before is placed the same. `max_gpus == 0`: no cap.
    #[inline(always)]
    pub(super) fn spread_cap(cpus: u32, gpus_after: u32, max_gpus: u32) -> u32 {
        if gpus_after == 0 || max_gpus == 0 {
            cpus
        } else {
            cpus.saturating_sub(gpus_after.div_ceil(max_gpus))
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
