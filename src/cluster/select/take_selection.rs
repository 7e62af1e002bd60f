//! A selection taken out of what is free without building it: EASY takes the blocked head's
//! allocation out of what is free at the shadow time, and a wide head takes most of the
//! cluster. Once it has its GPUs, such a head takes every free core of the nodes it visits
//! until it has its cores, so a block of 64 positions of its partition's order whose free
//! cores it needs all is taken at once: its nodes' cores zeroed in one loop, the partition's
//! totals, core sum and node-set words written once.

use super::change::{Pending, BLOCK};
use super::{Free, Layout, Need, Share};

impl Free {
    /// What `self.take(l, &self.select(l, need, None)?)` does, without building the
    /// allocation; false (nothing taken) when `need` does not fit. By blocks for a need of
    /// cores and GPUs alone on a cluster whose nodes are each in one partition (the block's
    /// nodes then change no other partition's figures); else through the allocation.
    pub fn take_selection(&mut self, l: &Layout, need: &Need) -> bool {
        if !Self::by_sums(need) || self.core_sums.is_empty() || !l.one_part_per_node() {
            let Some(a) = self.select(l, need, None) else {
                return false;
            };
            self.take(l, &a);
            return true;
        }
        match self.gpus_past_cores(l, need) {
            None => return false,
            Some(true) => {
                // Its cores laid again over the nodes its GPUs took (`Free::lay_cores`).
                let a = self.select(l, need, None).expect("it fits");
                self.take(l, &a);
                return true;
            }
            Some(false) => {}
        }
        let p = need.part as usize;
        let order = &l.parts[p].order;
        let mut pending = Pending::default();
        let (mut cpus, mut gpus, mut from) = (need.cpus, need.gpus, 0);
        let take = |free: &mut Free, i: usize, c: u32, g: u32, pending: &mut Pending| {
            let share = Share {
                node: i as u32,
                cpus: c,
                mem_mb: 0,
                gpus: g,
                whole: false,
            };
            free.take_share(l, &share, pending);
        };
        // While it needs GPUs, node by node as the walk visits them (a free core and a free
        // GPU each).
        while gpus > 0 && cpus > 0 {
            let k = self.with_gpus[p].next(from).expect("it fits");
            from = k + 1;
            let i = order[k] as usize;
            let (c, g) = (self.cpus[i].min(cpus), self.gpus[i].min(gpus));
            take(self, i, c, g, &mut pending);
            (cpus, gpus) = (cpus - c, gpus - g);
        }
        // Then the cores: every free core of each node with one, whole blocks at once. The
        // nodes taken so far lie before `from`, so the figures of the block at `from` are not
        // among those `pending` gathers.
        while cpus > 0 {
            let b = from / BLOCK;
            if from % BLOCK == 0 && self.core_sums[p].block(b) <= u64::from(cpus) {
                cpus -= self.take_block(l, p, b);
                from += BLOCK;
                continue;
            }
            let k = self.with_cores[p].next(from).expect("it fits");
            from = k + 1;
            let i = order[k] as usize;
            let c = self.cpus[i].min(cpus);
            take(self, i, c, 0, &mut pending);
            cpus -= c;
        }
        self.apply(&mut pending);
        true
    }

    /// Every free core of the nodes at positions `b x BLOCK..` of partition `p`'s order is
    /// taken (their GPUs stay free); returns how many (the block's core sum). Only where no
    /// node is in another partition.
    fn take_block(&mut self, l: &Layout, p: usize, b: usize) -> u32 {
        let order = &l.parts[p].order;
        let with_cores = self.with_cores[p].word(b);
        let mut bits = with_cores;
        let mut taken: u64 = 0;
        while bits != 0 {
            let i = order[b * BLOCK + bits.trailing_zeros() as usize] as usize;
            bits &= bits - 1;
            taken += u64::from(self.cpus[i]);
            self.cpus[i] = 0;
            self.jobs[i] += 1;
            self.idle[i] = false;
        }
        debug_assert_eq!(taken, self.core_sums[p].block(b));
        self.part_free[p].0 -= taken;
        self.core_sums[p].add_block(b, -(taken as i64));
        self.with_cores[p].flip(b, with_cores);
        // Its nodes with a free GPU had a free core too: none is left in the set.
        let with_gpus = self.with_gpus[p].word(b);
        self.with_gpus[p].flip(b, with_gpus);
        taken as u32
    }
}

#[cfg(test)]
mod tests {
    use crate::cluster::{Cluster, Free, Layout, Need};

    /// Against the plain reference (the selection built, then taken), on random busy states:
    /// a cluster whose nodes are each in one partition (GPU nodes of two sizes and CPU nodes
    /// over five blocks of positions, so that wide needs take whole blocks) and one whose
    /// partitions share nodes (taken through the allocation).
    #[test]
    fn taking_a_selection_by_blocks_takes_what_the_selection_takes() {
        let mut x: u64 = 17;
        let mut rand = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % m) as u32
        };
        let (mut blocks, mut wide, mut past) = (0, 0, 0);
        for compact in [
            "1/g[1-200]:c8:m1000:g4/h[1-40]:c16:m1000:g1/c[1-90]:c4:m500\
             /p=a:g[1-200],h[1-40],c[1-50]:default/p=b:c[51-90]",
            "1/g[1-70]:c8:m1000:g4/c[1-60]:c4:m500/p=a:ALL:default/p=b:c[1-60],g[50-70]",
        ] {
            let l = Layout::new(&Cluster::from_compact(compact).unwrap()).unwrap();
            let need = |rand: &mut dyn FnMut(u64) -> u32, wide: bool| Need {
                part: rand(2),
                cpus: 1 + rand(if wide { 2400 } else { 60 }),
                nodes: if rand(10) == 0 { 1 + rand(4) } else { 0 },
                gpus: rand(2) * rand(if wide { 200 } else { 10 }),
                mem_per_cpu_mb: u64::from(rand(10) == 0) * 20,
                mem_per_node_mb: 0,
                exclusive: rand(12) == 0,
            };
            for _ in 0..300 {
                let mut free = Free::all(&l);
                for _ in 0..rand(60) {
                    if let Some(a) = free.select(&l, &need(&mut rand, false), None) {
                        free.take(&l, &a);
                    }
                }
                for _ in 0..6 {
                    let wide_need = rand(2) == 0;
                    let n = need(&mut rand, wide_need);
                    let mut want = free.clone();
                    let fits = match free.select(&l, &n, None) {
                        Some(a) => {
                            want.take(&l, &a);
                            wide += usize::from(a.len() > 64);
                            true
                        }
                        None => false,
                    };
                    let by_sums = Free::by_sums(&n) && l.one_part_per_node();
                    past += usize::from(by_sums && free.gpus_past_cores(&l, &n) == Some(true));
                    assert_eq!(free.take_selection(&l, &n), fits, "{n:?}");
                    assert_eq!(free, want, "{n:?}");
                    blocks += usize::from(fits && l.one_part_per_node() && Free::by_sums(&n));
                }
            }
        }
        // Some of them go past their cores for their GPUs (taken through the allocation).
        assert!(
            blocks > 300 && wide > 150 && past > 20,
            "{blocks} {wide} {past}"
        );
    }
}
