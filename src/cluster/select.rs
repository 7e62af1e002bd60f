//! What a job asks of a cluster ([`Need`]), the resources free on each node ([`Free`]), and the
//! node selection that turns one into an allocation ([`Free::select`]), as Slurm does by
//! default: the partition's nodes by (weight, node order), each giving what it can.
//!
//! The rules (docs/cluster-model.md, "Allocation"):
//! - a job with a node count (`-N n`) gets exactly `n` nodes; its cores are spread evenly (the
//!   first `cores % n` nodes taken get one more), as are its GPUs;
//! - a job without one takes cores node by node until it has them all; a job asking for GPUs
//!   uses only nodes with a free GPU, and takes each such node's free GPUs up to what it still
//!   needs, together with its cores; one whose cores are all given while its GPUs are short
//!   goes on to further nodes with a free GPU, one core each, at most one node per core, and
//!   its cores are then laid over its nodes as Slurm lays its tasks (so that 2 cores and 8 GPUs
//!   take two nodes of 4 GPUs, a core on each; `select/walk.rs`);
//! - memory is per node (`--mem`) or per core (SWF field 10, `--mem-per-cpu`): a node gives only
//!   as many cores as its free memory covers;
//! - an exclusive job (`--exclusive`, or a partition with `OverSubscribe=EXCLUSIVE`) takes only
//!   idle nodes and holds them whole: no other job shares them while it runs.

use super::layout::Layout;
use super::nodeset::NodeSet;
use change::BLOCK;
use core_sums::CoreSums;

mod change;
mod core_sums;
mod take_selection;
mod walk;
#[cfg(test)]
mod walk_tests;

/// What a job asks of a cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Need {
    /// Its partition (an index into [`Layout::parts`]).
    pub part: u32,
    /// Cores over the whole job (at least 1).
    pub cpus: u32,
    /// Nodes (`-N`); 0: as many as its cores take.
    pub nodes: u32,
    /// GPUs over the whole job.
    pub gpus: u32,
    /// Memory per core, MB (0: none).
    pub mem_per_cpu_mb: u64,
    /// Memory per node, MB (0: none; it wins over the memory per core).
    pub mem_per_node_mb: u64,
    /// Whole nodes.
    pub exclusive: bool,
}

impl Need {
    /// It asks for cores alone: no node count, GPU, memory or exclusivity. Such a job fits
    /// wherever its partition has enough free cores.
    pub fn cores_only(&self) -> bool {
        self.nodes == 0
            && self.gpus == 0
            && self.mem_per_cpu_mb == 0
            && self.mem_per_node_mb == 0
            && !self.exclusive
    }

    /// Memory on a node where the job has `cpus` cores.
    pub fn mem_on(&self, cpus: u32) -> u64 {
        if self.mem_per_node_mb > 0 {
            self.mem_per_node_mb
        } else {
            self.mem_per_cpu_mb.saturating_mul(u64::from(cpus))
        }
    }
}

/// A job's part of one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    /// The node (an index into [`Layout::nodes`]).
    pub node: u32,
    /// Cores it uses there.
    pub cpus: u32,
    /// Memory it holds there, MB.
    pub mem_mb: u64,
    /// GPUs it holds there.
    pub gpus: u32,
    /// It holds the whole node (an exclusive job).
    pub whole: bool,
}

/// A job's allocation: its shares, by node order of selection.
pub type Alloc = Vec<Share>;

/// The resources free on each node.
#[derive(Debug, PartialEq, Eq)]
pub struct Free {
    /// Free cores per node.
    pub cpus: Vec<u32>,
    /// Free memory per node, MB.
    pub mem_mb: Vec<u64>,
    /// Free GPUs per node.
    pub gpus: Vec<u32>,
    /// Nodes without any job (an exclusive job needs them).
    pub idle: Vec<bool>,
    /// Jobs on each node.
    jobs: Vec<u32>,
    /// Free cores and GPUs on the usable nodes of each partition (a job asking for more does
    /// not fit, without looking at its nodes).
    part_free: Vec<(u64, u64)>,
    /// Per partition, the positions in its node order of the nodes with a free core: the only
    /// ones a selection takes anything from.
    with_cores: Vec<NodeSet>,
    /// Per partition, the positions of the nodes with a free core and a free GPU: the only
    /// ones a job still needing GPUs takes anything from.
    with_gpus: Vec<NodeSet>,
    /// Per partition, its free cores by blocks of its node order ([`Free::fits`]); none on a
    /// cluster without GPUs, whose jobs asking for cores alone fit by the totals.
    core_sums: Vec<CoreSums>,
}

impl Clone for Free {
    fn clone(&self) -> Free {
        Free {
            cpus: self.cpus.clone(),
            mem_mb: self.mem_mb.clone(),
            gpus: self.gpus.clone(),
            idle: self.idle.clone(),
            jobs: self.jobs.clone(),
            part_free: self.part_free.clone(),
            with_cores: self.with_cores.clone(),
            with_gpus: self.with_gpus.clone(),
            core_sums: self.core_sums.clone(),
        }
    }

    /// Field by field, into the buffers already there (a plan's scratch state, copied once per
    /// start it tries, allocates nothing).
    fn clone_from(&mut self, from: &Free) {
        self.cpus.clone_from(&from.cpus);
        self.mem_mb.clone_from(&from.mem_mb);
        self.gpus.clone_from(&from.gpus);
        self.idle.clone_from(&from.idle);
        self.jobs.clone_from(&from.jobs);
        self.part_free.clone_from(&from.part_free);
        self.with_cores.clone_from(&from.with_cores);
        self.with_gpus.clone_from(&from.with_gpus);
        self.core_sums.clone_from(&from.core_sums);
    }
}

/// What a node can give a job, before its shape is applied.
#[derive(Debug, Clone, Copy)]
struct Room {
    cpus: u32,
    mem: u64,
    gpus: u32,
}

impl Free {
    /// Every node of `l` free.
    pub fn all(l: &Layout) -> Free {
        Free {
            cpus: l.nodes.iter().map(|n| n.cpus).collect(),
            mem_mb: l.nodes.iter().map(|n| n.mem_mb).collect(),
            gpus: l.nodes.iter().map(|n| n.gpus).collect(),
            idle: vec![true; l.nodes.len()],
            jobs: vec![0; l.nodes.len()],
            part_free: l
                .parts
                .iter()
                .map(|p| {
                    p.order.iter().fold((0, 0), |(c, g), &n| {
                        let n = &l.nodes[n as usize];
                        (c + u64::from(n.cpus), g + u64::from(n.gpus))
                    })
                })
                .collect(),
            with_cores: Self::node_sets(l, |n| n.cpus > 0),
            with_gpus: Self::node_sets(l, |n| n.cpus > 0 && n.gpus > 0),
            core_sums: if l.nodes.iter().any(|n| n.gpus > 0) {
                l.parts
                    .iter()
                    .map(|p| CoreSums::new(p.order.len(), |k| l.nodes[p.order[k] as usize].cpus))
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    /// Per partition, its nodes (when idle) for which `member` holds.
    fn node_sets(l: &Layout, member: impl Fn(&super::layout::Node) -> bool) -> Vec<NodeSet> {
        l.parts
            .iter()
            .map(|p| NodeSet::new(p.order.len(), |k| member(&l.nodes[p.order[k] as usize])))
            .collect()
    }

    /// The number of partitions.
    pub fn parts(&self) -> u32 {
        self.part_free.len() as u32
    }

    /// Free cores on the usable nodes of partition `part`.
    pub fn part_cores(&self, part: u32) -> u64 {
        self.part_free[part as usize].0
    }

    /// Free cores and GPUs on the usable nodes of partition `part`.
    pub fn part_totals(&self, part: u32) -> (u64, u64) {
        self.part_free[part as usize]
    }

    /// Too few cores or GPUs free on the usable nodes of `need`'s partition for it: it fits
    /// neither here nor on any narrower state ([`Free::narrow`]), whose totals are no larger.
    pub fn short_of(&self, need: &Need) -> bool {
        self.part_free
            .get(need.part as usize)
            .is_none_or(|&(cpus, gpus)| u64::from(need.cpus) > cpus || u64::from(need.gpus) > gpus)
    }

    /// The cores `a` holds on the nodes of partition `part` (a whole node's every core).
    pub fn held_cores(l: &Layout, a: impl IntoIterator<Item = Share>, part: u32) -> u64 {
        a.into_iter()
            .filter(|s| l.node_parts[s.node as usize].contains(&part))
            .map(|s| {
                u64::from(if s.whole {
                    l.nodes[s.node as usize].cpus
                } else {
                    s.cpus
                })
            })
            .sum()
    }

    /// What node `n` gives a job now and, if `within` is given, also there (the smaller).
    #[inline(always)]
    fn room(&self, n: usize, within: Option<&Free>) -> Room {
        let (cpus, gpus) = self.cores_room(n, within);
        Room {
            cpus,
            mem: self.mem_room(n, within),
            gpus,
        }
    }

    /// [`Free::room`]'s cores and GPUs alone.
    #[inline(always)]
    fn cores_room(&self, n: usize, within: Option<&Free>) -> (u32, u32) {
        let (cpus, gpus) = (self.cpus[n], self.gpus[n]);
        match within {
            Some(w) => (cpus.min(w.cpus[n]), gpus.min(w.gpus[n])),
            None => (cpus, gpus),
        }
    }

    /// [`Free::room`]'s memory alone.
    #[inline(always)]
    fn mem_room(&self, n: usize, within: Option<&Free>) -> u64 {
        let mem = self.mem_mb[n];
        within.map_or(mem, |w| mem.min(w.mem_mb[n]))
    }

    /// Node `n` is idle here and in `within`.
    #[inline(always)]
    fn idle_in(&self, n: usize, within: Option<&Free>) -> bool {
        self.idle[n] && within.is_none_or(|w| w.idle[n])
    }

    /// True when [`Free::select`] finds `need` an allocation here: for a job asking for cores
    /// alone (no node count, GPU, memory or exclusivity), when its partition's free cores are
    /// enough, without building the allocation; for one asking for cores and GPUs alone, from
    /// the free cores summed per block of nodes (`fits_by_sums`, `select/core_sums.rs`).
    pub fn fits(&self, l: &Layout, need: &Need) -> bool {
        let fits = match l.parts.get(need.part as usize) {
            Some(part) if need.cores_only() => {
                part.up && need.cpus > 0 && u64::from(need.cpus) <= self.part_cores(need.part)
            }
            Some(_) if Self::by_sums(need) && !self.core_sums.is_empty() => {
                self.fits_by_sums(l, need)
            }
            _ => return self.walk::<true>(l, need, None, None),
        };
        debug_assert_eq!(fits, self.select(l, need, None).is_some());
        fits
    }

    /// The allocation Slurm's default selection gives `need` on these free resources (and,
    /// when `within` is given, on what is free in both), or `None` when it does not fit.
    pub fn select(&self, l: &Layout, need: &Need, within: Option<&Free>) -> Option<Alloc> {
        // Room for a share per node it may take, so that a wide job's shares are not moved
        // as they grow.
        let nodes = l.parts.get(need.part as usize).map_or(0, |p| p.order.len());
        let mut out = Vec::with_capacity(nodes.min(need.cpus as usize));
        self.select_into(l, need, within, &mut out).then_some(out)
    }

    /// [`Free::select`] into `out` (emptied first, its buffer reused): true when `need` fits.
    pub fn select_into(
        &self,
        l: &Layout,
        need: &Need,
        within: Option<&Free>,
        out: &mut Alloc,
    ) -> bool {
        out.clear();
        self.walk::<true>(l, need, within, Some(out))
    }

    /// [`Free::select`] best fit: the partition's nodes taken in ascending order of what they
    /// have free (GPUs, then cores; ties in Slurm's order), so that a job fills the nodes
    /// already in use and leaves whole nodes (and GPU nodes, for a job without GPUs) free.
    /// Taking cores node by node is greedy, so an order may miss an allocation another finds
    /// (a job's cores all given before its GPUs): then Slurm's order is tried, and whatever
    /// [`Free::select`] finds this finds too.
    pub fn select_packed(&self, l: &Layout, need: &Need, within: Option<&Free>) -> Option<Alloc> {
        let part = l.parts.get(need.part as usize)?;
        let mut order = part.order.clone();
        order.sort_by_key(|&n| {
            let r = self.room(n as usize, within);
            (r.gpus, r.cpus)
        });
        let mut nodes = order.iter().map(|&n| n as usize);
        let mut out = Vec::new();
        // Without going past its cores for its GPUs: a job the packed order places so is
        // placed there, any other by Slurm's order (which goes past them, `select/walk.rs`).
        if self.walk_in::<true>(l, need, within, false, |_| nodes.next(), Some(&mut out)) {
            return Some(out);
        }
        self.select(l, need, within)
    }
}
