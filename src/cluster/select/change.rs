//! What a start or an end changes in [`Free`]: the free resources of each node it touches, and
//! with them the partitions' free totals, core sums and node sets. The nodes of an allocation
//! usually follow each other in a partition's node order, so those partition figures are
//! gathered per block of 64 positions ([`Pending`]) and written once per block instead of once
//! per node.

use super::{Free, Layout, Share};
use crate::cluster::packed::PackedAlloc;

/// Positions of a partition's node order per block: a word of its node sets, a block of its
/// core sums.
pub(super) const BLOCK: usize = 64;

/// What the nodes changed so far by a start or an end change in one block of a partition's
/// node order, written at once when the next node falls elsewhere ([`Free::apply`]): the nodes
/// of an allocation usually follow each other, so the partition's totals, core sums and node
/// sets are written once per block instead of once per node.
#[derive(Debug)]
pub(super) struct Pending {
    /// The partition (high 32 bits) and the block of its node order (low 32 bits) of the
    /// changes gathered, or [`Pending::NONE`].
    key: u64,
    /// Change of the free cores and GPUs.
    cpus: i64,
    gpus: i64,
    /// The positions (bits of the block) whose membership of the node sets flips.
    flip_cores: u64,
    flip_gpus: u64,
}

impl Pending {
    /// No change gathered.
    const NONE: u64 = u64::MAX;
}

impl Default for Pending {
    fn default() -> Pending {
        Pending {
            key: Pending::NONE,
            cpus: 0,
            gpus: 0,
            flip_cores: 0,
            flip_gpus: 0,
        }
    }
}

impl Free {
    /// What is free both here and in `other`, node by node (an interval's free resources from
    /// those of its instants). Only the nodes whose cores or GPUs drop update the partitions'
    /// totals and node sets (the instants of a plan differ by a few nodes).
    pub fn narrow(&mut self, l: &Layout, other: &Free) {
        let mut pending = Pending::default();
        for i in 0..self.cpus.len() {
            let (c, g) = (
                self.cpus[i].min(other.cpus[i]),
                self.gpus[i].min(other.gpus[i]),
            );
            if (c, g) != (self.cpus[i], self.gpus[i]) {
                self.set_cores(l, i, c, g, &mut pending);
            }
            self.mem_mb[i] = self.mem_mb[i].min(other.mem_mb[i]);
            self.idle[i] &= other.idle[i];
        }
        self.apply(&mut pending);
    }

    /// Node `i`'s free cores and GPUs become `cpus` and `gpus`; what that changes in the
    /// partitions' totals, core sums and node sets is gathered in `pending` ([`Pending`]).
    #[inline(always)]
    fn set_cores(&mut self, l: &Layout, i: usize, cpus: u32, gpus: u32, pending: &mut Pending) {
        self.set_cores_in(l.slots_of(i), i, cpus, gpus, pending);
    }

    /// [`Free::set_cores`] for a node whose partition slots (partition, position) are `slots`.
    #[inline(always)]
    fn set_cores_in(
        &mut self,
        slots: &[(u32, u32)],
        i: usize,
        cpus: u32,
        gpus: u32,
        pending: &mut Pending,
    ) {
        let (was_cpus, was_gpus) = (self.cpus[i], self.gpus[i]);
        self.cpus[i] = cpus;
        self.gpus[i] = gpus;
        let (dc, dg) = (
            i64::from(cpus) - i64::from(was_cpus),
            i64::from(gpus) - i64::from(was_gpus),
        );
        // The node sets change only when the node gains or loses its last free core or GPU.
        let core_moved = (cpus > 0) != (was_cpus > 0);
        let gpu_moved = (cpus > 0 && gpus > 0) != (was_cpus > 0 && was_gpus > 0);
        for &(p, k) in slots {
            let key = (u64::from(p) << 32) | (k as usize / BLOCK) as u64;
            if pending.key != key {
                self.apply(pending);
                pending.key = key;
            }
            pending.cpus += dc;
            pending.gpus += dg;
            let bit = 1u64 << (k as usize % BLOCK);
            if core_moved {
                pending.flip_cores ^= bit;
            }
            if gpu_moved {
                pending.flip_gpus ^= bit;
            }
        }
    }

    /// Writes the changes gathered in `pending` and empties it.
    #[inline]
    pub(super) fn apply(&mut self, pending: &mut Pending) {
        if pending.key == Pending::NONE {
            return;
        }
        let (p, b) = (
            (pending.key >> 32) as usize,
            (pending.key & u64::from(u32::MAX)) as usize,
        );
        let t = &mut self.part_free[p];
        t.0 = t.0.wrapping_add_signed(pending.cpus);
        t.1 = t.1.wrapping_add_signed(pending.gpus);
        if let Some(sums) = self.core_sums.get_mut(p) {
            sums.add_block(b, pending.cpus);
        }
        self.with_cores[p].flip(b, pending.flip_cores);
        self.with_gpus[p].flip(b, pending.flip_gpus);
        *pending = Pending::default();
    }

    /// True when every share of `a` is free here.
    pub fn holds(&self, l: &Layout, a: &[Share]) -> bool {
        a.iter().all(|s| {
            let i = s.node as usize;
            i < l.nodes.len()
                && if s.whole {
                    self.idle[i]
                } else {
                    self.cpus[i] >= s.cpus && self.mem_mb[i] >= s.mem_mb && self.gpus[i] >= s.gpus
                }
        })
    }

    /// The shares of `a` (all free) are taken.
    pub fn take(&mut self, l: &Layout, a: &[Share]) {
        self.change::<true>(l, a);
    }

    /// [`Free::take`] of a kept allocation, run by run.
    pub fn take_packed(&mut self, l: &Layout, a: &PackedAlloc) {
        self.change_packed::<true>(l, a);
    }

    /// The shares of `a` (all taken) are free again.
    pub fn give(&mut self, l: &Layout, a: &[Share]) {
        self.change::<false>(l, a);
    }

    /// [`Free::give`] of a kept allocation, run by run.
    pub fn give_packed(&mut self, l: &Layout, a: &PackedAlloc) {
        self.change_packed::<false>(l, a);
    }

    /// Takes (`TAKE`) or gives back each share of `a`, the partitions' changes written once
    /// per block.
    fn change<const TAKE: bool>(&mut self, l: &Layout, a: &[Share]) {
        let mut pending = Pending::default();
        for s in a {
            self.change_share::<TAKE>(l, s, &mut pending);
        }
        self.apply(&mut pending);
    }

    /// [`Free::change`] of a kept allocation, run by run (a loop over each run's nodes: the
    /// hot path of starts and ends, cheaper than `PackedAlloc::iter`, measured).
    fn change_packed<const TAKE: bool>(&mut self, l: &Layout, a: &PackedAlloc) {
        let mut pending = Pending::default();
        for &(s, count) in a.runs() {
            // A run in one partition at consecutive positions (the usual run): each node's
            // slot follows the first one's, without looking it up.
            let straight = l.straight_slot(s.node as usize, count as usize);
            for k in 0..count {
                let share = Share {
                    node: s.node + k,
                    ..s
                };
                match straight {
                    Some((p, first)) => {
                        self.change_share_in::<TAKE>(l, &share, &[(p, first + k)], &mut pending)
                    }
                    None => {
                        let slots = l.slots_of(share.node as usize);
                        self.change_share_in::<TAKE>(l, &share, slots, &mut pending)
                    }
                }
            }
        }
        self.apply(&mut pending);
    }

    #[inline(always)]
    fn change_share<const TAKE: bool>(&mut self, l: &Layout, s: &Share, pending: &mut Pending) {
        self.change_share_in::<TAKE>(l, s, l.slots_of(s.node as usize), pending);
    }

    /// [`Free::change_share`] for a node whose partition slots are `slots`.
    #[inline(always)]
    fn change_share_in<const TAKE: bool>(
        &mut self,
        l: &Layout,
        s: &Share,
        slots: &[(u32, u32)],
        pending: &mut Pending,
    ) {
        if TAKE {
            self.take_share_in(slots, s, pending);
        } else {
            self.give_share_in(l, slots, s, pending);
        }
    }

    /// Share `s` (free) is taken; the partitions' changes gathered in `pending`.
    #[inline(always)]
    pub(super) fn take_share(&mut self, l: &Layout, s: &Share, pending: &mut Pending) {
        self.take_share_in(l.slots_of(s.node as usize), s, pending);
    }

    /// [`Free::take_share`] on a node whose partition slots are `slots`.
    #[inline(always)]
    fn take_share_in(&mut self, slots: &[(u32, u32)], s: &Share, pending: &mut Pending) {
        let i = s.node as usize;
        if s.whole {
            self.set_cores_in(slots, i, 0, 0, pending);
            self.mem_mb[i] = 0;
        } else {
            let (c, g) = (self.cpus[i] - s.cpus, self.gpus[i] - s.gpus);
            self.set_cores_in(slots, i, c, g, pending);
            self.mem_mb[i] -= s.mem_mb;
        }
        self.jobs[i] += 1;
        self.idle[i] = false;
    }

    /// Share `s` (taken) is free again on a node whose partition slots are `slots`; the
    /// partitions' changes gathered in `pending`.
    #[inline(always)]
    fn give_share_in(
        &mut self,
        l: &Layout,
        slots: &[(u32, u32)],
        s: &Share,
        pending: &mut Pending,
    ) {
        let i = s.node as usize;
        if s.whole {
            let node = &l.nodes[i];
            self.set_cores_in(slots, i, node.cpus, node.gpus, pending);
            self.mem_mb[i] = node.mem_mb;
        } else {
            let (c, g) = (self.cpus[i] + s.cpus, self.gpus[i] + s.gpus);
            self.set_cores_in(slots, i, c, g, pending);
            self.mem_mb[i] += s.mem_mb;
        }
        self.jobs[i] -= 1;
        self.idle[i] = self.jobs[i] == 0;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CoreSums, NodeSet};
    use crate::cluster::{Cluster, Free, Layout, Need, PackedAlloc};

    /// What is free rebuilt from scratch (the plain reference): each node's figures as a plain
    /// model keeps them, and the partitions' totals, node sets and core sums summed from them.
    fn plain(l: &Layout, model: &[(u32, u64, u32, u32)]) -> Free {
        let mut f = Free::all(l);
        for (i, &(cpus, mem, gpus, jobs)) in model.iter().enumerate() {
            (f.cpus[i], f.mem_mb[i], f.gpus[i], f.jobs[i]) = (cpus, mem, gpus, jobs);
            f.idle[i] = jobs == 0;
        }
        let node = |p: &crate::cluster::layout::Part, k: usize| p.order[k] as usize;
        for (pi, p) in l.parts.iter().enumerate() {
            f.part_free[pi] = p.order.iter().fold((0, 0), |(c, g), &n| {
                (
                    c + u64::from(f.cpus[n as usize]),
                    g + u64::from(f.gpus[n as usize]),
                )
            });
            let (cpus, gpus) = (&f.cpus, &f.gpus);
            f.with_cores[pi] = NodeSet::new(p.order.len(), |k| cpus[node(p, k)] > 0);
            f.with_gpus[pi] = NodeSet::new(p.order.len(), |k| {
                cpus[node(p, k)] > 0 && gpus[node(p, k)] > 0
            });
            if !f.core_sums.is_empty() {
                f.core_sums[pi] = CoreSums::new(p.order.len(), |k| cpus[node(p, k)]);
            }
        }
        f
    }

    /// Random starts and ends (allocations taken and given as shares and as packed runs, whole
    /// nodes among them) on a cluster of 150 nodes (more than two blocks of 64 positions) in
    /// three partitions sharing nodes, one of them ordered by weight: after each, the state
    /// kept block by block is the one rebuilt from scratch.
    #[test]
    fn starts_and_ends_keep_what_a_rebuild_finds() {
        let c = Cluster::from_compact(
            "1/g[1-70]:c8:m1000:g4:w2/h[1-20]:c16:m1000:g1/c[1-60]:c4:m500\
             /p=a:ALL:default/p=b:h[1-20],c[1-40],g[30-70]/p=x:c[10-60]:oexclusive",
        )
        .unwrap();
        let l = Layout::new(&c).unwrap();
        let mut x: u64 = 21;
        let mut rand = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % m) as u32
        };
        let (mut starts, mut ends) = (0, 0);
        for _ in 0..60 {
            let mut free = Free::all(&l);
            let mut model: Vec<(u32, u64, u32, u32)> = l
                .nodes
                .iter()
                .map(|n| (n.cpus, n.mem_mb, n.gpus, 0))
                .collect();
            let mut running: Vec<PackedAlloc> = Vec::new();
            for _ in 0..80 {
                if running.is_empty() || rand(3) > 0 {
                    let wide = rand(3) == 0;
                    let need = Need {
                        part: rand(3),
                        cpus: 1 + rand(if wide { 600 } else { 40 }),
                        nodes: if rand(8) == 0 { 1 + rand(4) } else { 0 },
                        gpus: rand(2) * rand(20),
                        mem_per_cpu_mb: u64::from(rand(6) == 0) * 20,
                        mem_per_node_mb: 0,
                        exclusive: rand(2) == 0 && rand(3) == 0,
                    };
                    let need = Need {
                        exclusive: need.exclusive || need.part == 2,
                        ..need
                    };
                    let Some(a) = free.select(&l, &need, None) else {
                        continue;
                    };
                    let packed = PackedAlloc::new(&a);
                    if rand(2) == 0 {
                        free.take(&l, &a);
                    } else {
                        free.take_packed(&l, &packed);
                    }
                    for s in &a {
                        let m = &mut model[s.node as usize];
                        if s.whole {
                            (m.0, m.1, m.2) = (0, 0, 0);
                        } else {
                            (m.0, m.1, m.2) = (m.0 - s.cpus, m.1 - s.mem_mb, m.2 - s.gpus);
                        }
                        m.3 += 1;
                    }
                    running.push(packed);
                    starts += 1;
                } else {
                    let packed = running.swap_remove(rand(running.len() as u64) as usize);
                    if rand(2) == 0 {
                        free.give(&l, &packed.to_vec());
                    } else {
                        free.give_packed(&l, &packed);
                    }
                    for s in packed.iter() {
                        let (n, m) = (&l.nodes[s.node as usize], &mut model[s.node as usize]);
                        if s.whole {
                            (m.0, m.1, m.2) = (n.cpus, n.mem_mb, n.gpus);
                        } else {
                            (m.0, m.1, m.2) = (m.0 + s.cpus, m.1 + s.mem_mb, m.2 + s.gpus);
                        }
                        m.3 -= 1;
                    }
                    ends += 1;
                }
                assert_eq!(free, plain(&l, &model));
            }
        }
        assert!(starts > 1500 && ends > 1200, "{starts} {ends}");
    }
}
