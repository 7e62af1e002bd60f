//! Jobs on a cluster's nodes while a simulation runs: the free resources per node and each
//! job's allocation. The engine
//! keeps them; a policy reads them through [`ClusterView`] and may hand an allocation of its
//! own to [`super::Ctx::start_on`], which the engine checks.

use super::free_procs::FreeProcs;
use super::procset::ProcSet;
use crate::cluster::{Alloc, Free, Layout, Need, PackedAlloc, Placement, Share};

/// The cluster's state during a simulation.
pub(super) struct ClusterRun<'a> {
    pub(super) place: &'a Placement,
    pub(super) free: Free,
    /// Each job's allocation (its current attempt's, or its last one's once ended), packed:
    /// a million jobs keep their runs of nodes, not a share per node.
    pub(super) allocs: Vec<PackedAlloc>,
    /// The allocation of each preempted attempt, in the order of the schedule's
    /// `preempted_runs`.
    pub(super) preempted: Vec<PackedAlloc>,
    /// An id of what is free, unique in the process: a new one at every start and end.
    free_id: u64,
    /// The buffer of the default selection's shares.
    shares: Alloc,
    /// The buffer of a start's processors' intervals.
    pieces: Vec<(u32, u32)>,
    /// The buffer of a start's packed runs.
    runs: Vec<(Share, u32)>,
}

/// The ids of [`ClusterRun::free_id`].
static FREE_IDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn next_free_id() -> u64 {
    FREE_IDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl<'a> ClusterRun<'a> {
    pub(super) fn new(place: &'a Placement) -> Self {
        Self {
            place,
            free: Free::all(&place.layout),
            allocs: vec![PackedAlloc::default(); place.needs.len()],
            preempted: Vec::new(),
            free_id: next_free_id(),
            shares: Vec::new(),
            pieces: Vec::new(),
            runs: Vec::new(),
        }
    }

    /// True when job `j` fits now ([`Free::fits`]): in its partition, or in one of its list
    /// when it was submitted to several ([`Placement::parts_of`]).
    pub(super) fn fits(&self, j: usize) -> bool {
        let (l, place) = (&self.place.layout, self.place);
        match place.parts_of(j) {
            [_] => self.free.fits(l, &place.needs[j]),
            parts => (parts.iter()).any(|&p| self.free.fits(l, &place.need_in(j, p))),
        }
    }

    /// Takes job `j`'s allocation by the default selection now, if it fits, as
    /// [`ClusterRun::take`] does; returns its processors.
    pub(super) fn take_selected(
        &mut self,
        j: usize,
        free_procs: &mut FreeProcs,
    ) -> Option<ProcSet> {
        let mut shares = std::mem::take(&mut self.shares);
        let (l, place) = (&self.place.layout, self.place);
        // A job of several partitions starts in the first of them (in the order Slurm tries
        // them) where the selection finds it an allocation.
        let found = match place.parts_of(j) {
            [_] => self.free.select_into(l, &place.needs[j], None, &mut shares),
            parts => (parts.iter())
                .any(|&p| (self.free).select_into(l, &place.need_in(j, p), None, &mut shares)),
        };
        let set = found.then(|| self.take(j, &shares, free_procs));
        self.shares = shares;
        set
    }

    /// Why `a` is not a valid allocation of job `j` now, if it is not: its nodes in its
    /// partition (or, for a job submitted to several, in one of them) and distinct, its totals
    /// what the job asks, its shares free. The reason given is its own partition's.
    pub(super) fn invalid(&self, j: usize, a: &[Share]) -> Option<String> {
        let place = self.place;
        let why = self.invalid_as(&place.needs[j], a)?;
        let parts = place.parts_of(j);
        let valid_in = |&p: &u32| self.invalid_as(&place.need_in(j, p), a).is_none();
        (parts.len() == 1 || !parts.iter().any(valid_in)).then_some(why)
    }

    /// Why `a` is not a valid allocation now for a job asking `need`, if it is not.
    fn invalid_as(&self, need: &Need, a: &[Share]) -> Option<String> {
        let l = &self.place.layout;
        let part = &l.parts[need.part as usize];
        let mut nodes: Vec<u32> = a.iter().map(|s| s.node).collect();
        nodes.sort_unstable();
        nodes.dedup();
        if nodes.len() != a.len() || a.is_empty() {
            return Some("an allocation names each node once, at least one".into());
        }
        let usable = |n: u32| {
            part.members.binary_search(&n).is_ok()
                && l.nodes.get(n as usize).is_some_and(|n| n.usable)
        };
        if let Some(s) = a.iter().find(|s| !usable(s.node)) {
            return Some(format!(
                "node {} is not a usable node of partition {}",
                l.nodes
                    .get(s.node as usize)
                    .map_or("?", |n| n.name.as_str()),
                part.name
            ));
        }
        let cpus: u64 = a.iter().map(|s| u64::from(s.cpus)).sum();
        let gpus: u64 = a.iter().map(|s| u64::from(s.gpus)).sum();
        if cpus != u64::from(need.cpus) || (!need.exclusive && gpus != u64::from(need.gpus)) {
            return Some(format!(
                "it asks for {} cores and {} GPUs, the allocation has {cpus} and {gpus}",
                need.cpus, need.gpus
            ));
        }
        if need.nodes > 0 && a.len() != need.nodes as usize {
            return Some(format!("it asks for {} nodes", need.nodes));
        }
        if a.iter().any(|s| s.whole != need.exclusive || s.cpus == 0) {
            return Some("whole nodes exactly when the job is exclusive".into());
        }
        if a.iter().any(|s| !s.whole && s.mem_mb < need.mem_on(s.cpus)) {
            return Some("less memory on a node than the job asks".into());
        }
        (!self.free.holds(l, a)).then(|| "the allocation is not free".into())
    }

    /// Takes `a` for job `j`, and its processors (the lowest free cores of each node) from
    /// `free_procs`; returns them.
    pub(super) fn take(&mut self, j: usize, a: &[Share], free_procs: &mut FreeProcs) -> ProcSet {
        let l = &self.place.layout;
        let pieces = &mut self.pieces;
        pieces.clear();
        let iv = free_procs.set().intervals();
        // The first free interval ending above the previous node's first processor: the
        // nodes usually come in order, and the next one's interval is then this one or close.
        let mut from = 0;
        for s in a {
            let node = &l.nodes[s.node as usize];
            let (lo, hi) = (node.first_proc, node.first_proc + node.cpus);
            if s.cpus == node.cpus {
                // Every core of the node: all free, one interval (the usual share of a wide
                // job), without looking for it among the free intervals.
                match pieces.last_mut() {
                    Some(last) if last.1 == lo => last.1 = hi,
                    _ => pieces.push((lo, hi)),
                }
                continue;
            }
            let mut left = s.cpus;
            from = match iv.get(from) {
                Some(&(a, b)) if a <= lo && lo < b => from,
                Some(&(_, b)) if b <= lo => from + iv[from..].partition_point(|&(_, b)| b <= lo),
                _ => iv.partition_point(|&(_, b)| b <= lo),
            };
            for &(a, b) in &iv[from..] {
                if left == 0 || a >= hi {
                    break;
                }
                let a = a.max(lo);
                let b = b.min(hi).min(a + left);
                // Whole nodes in order make one piece (the next node's cores follow).
                match pieces.last_mut() {
                    Some(last) if last.1 == a => last.1 = b,
                    _ => pieces.push((a, b)),
                }
                left -= b - a;
            }
        }
        // In node order (the usual case) the pieces are sorted: appended.
        let set = if pieces.windows(2).all(|w| w[0].1 <= w[1].0) {
            let mut set = ProcSet::default();
            for &(a, b) in pieces.iter() {
                set.push_above(a, b);
            }
            set
        } else {
            ProcSet::from_intervals(pieces.clone())
        };
        self.free.take(&self.place.layout, a);
        self.free_id = next_free_id();
        self.allocs[j] = PackedAlloc::new_with(a, &mut self.runs);
        free_procs.remove(&set);
        set
    }

    /// Job `j` ended or was stopped: its allocation is free again (it stays recorded).
    pub(super) fn give(&mut self, j: usize) {
        self.free.give_packed(&self.place.layout, &self.allocs[j]);
        self.free_id = next_free_id();
    }

    /// Job `j` was preempted: its allocation is free again and kept as that attempt's.
    pub(super) fn give_preempted(&mut self, j: usize) {
        self.give(j);
        self.preempted.push(self.allocs[j].clone());
    }
}

/// What a policy may know of the cluster: its layout, what each job asks, what is free on each
/// node, and each running job's allocation.
#[derive(Clone, Copy)]
pub struct ClusterView<'c> {
    pub(super) run: &'c ClusterRun<'c>,
}

impl<'c> ClusterView<'c> {
    /// The cluster laid out (nodes, partitions).
    pub fn layout(&self) -> &'c Layout {
        &self.run.place.layout
    }

    /// What job `j` asks (in its own partition).
    pub fn need(&self, j: usize) -> &'c Need {
        &self.run.place.needs[j]
    }

    /// Job `j`'s partitions in the order Slurm tries them: its own alone, unless it was
    /// submitted to several ([`Placement::parts_of`]); a start in any of them is valid.
    pub fn parts(&self, j: usize) -> &'c [u32] {
        self.run.place.parts_of(j)
    }

    /// Whether any job was submitted to several partitions.
    pub fn has_lists(&self) -> bool {
        self.run.place.has_lists()
    }

    /// What job `j` asks in partition `part` (one of [`ClusterView::parts`]).
    pub fn need_in(&self, j: usize, part: u32) -> Need {
        self.run.place.need_in(j, part)
    }

    /// Every node free (the cluster before any job).
    pub fn idle(&self) -> &'c Free {
        &self.run.place.idle
    }

    /// The resources free on each node now.
    pub fn free(&self) -> &'c Free {
        &self.run.free
    }

    /// An id of what is free and of the running jobs' allocations, unique in the process: a
    /// new one at every start and end, so a policy may keep what it derived from them until
    /// it changes.
    pub fn free_id(&self) -> u64 {
        self.run.free_id
    }

    /// The allocation of running job `j`.
    pub fn alloc(&self, j: usize) -> &'c PackedAlloc {
        &self.run.allocs[j]
    }

    /// True when `a` is a valid allocation of waiting job `j` now: [`crate::sim::Ctx::start_on`]
    /// takes it.
    pub fn takes(&self, j: usize, a: &[Share]) -> bool {
        self.run.invalid(j, a).is_none()
    }
}
