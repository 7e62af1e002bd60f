//! The free cores of a partition's nodes summed by blocks of 64 positions of its node order, so
//! that "are there `n` free cores from position `k` on" reads the rest of one block and the
//! block sums after it instead of every node. A job asking for cores and GPUs (no node count,
//! memory or exclusivity) fits once its GPUs are placed if the nodes after them hold its other
//! cores ([`Free::fits`]): EASY asks that at every planned end of a blocked head, whose nodes
//! would otherwise be walked one by one.

use super::{Free, Layout, Need};

use super::BLOCK;

/// Free cores per block of a partition's node order.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct CoreSums {
    blocks: Vec<u64>,
}

impl Clone for CoreSums {
    fn clone(&self) -> CoreSums {
        CoreSums {
            blocks: self.blocks.clone(),
        }
    }

    /// Into the buffer already there (a will-run trial's state is copied once per test).
    fn clone_from(&mut self, from: &CoreSums) {
        self.blocks.clone_from(&from.blocks);
    }
}

impl CoreSums {
    /// The sums of `len` positions, position `k` holding `cpus(k)` free cores.
    pub(super) fn new(len: usize, cpus: impl Fn(usize) -> u32) -> CoreSums {
        let mut blocks = vec![0; len.div_ceil(BLOCK)];
        for k in 0..len {
            blocks[k / BLOCK] += u64::from(cpus(k));
        }
        CoreSums { blocks }
    }

    /// Position `k`'s free cores change by `delta`.
    #[cfg(test)]
    fn add(&mut self, k: usize, delta: i64) {
        self.add_block(k / BLOCK, delta);
    }

    /// The free cores of block `b` (positions `b x BLOCK..`) change by `delta`.
    #[inline]
    pub(super) fn add_block(&mut self, b: usize, delta: i64) {
        let sum = &mut self.blocks[b];
        *sum = sum.wrapping_add_signed(delta);
    }

    /// The free cores of block `b` (positions `b x BLOCK..`).
    #[inline]
    pub(super) fn block(&self, b: usize) -> u64 {
        self.blocks[b]
    }

    /// The free cores of positions `from..len`, position `k` holding `cpus(k)`.
    pub(super) fn from(&self, from: usize, len: usize, cpus: impl Fn(usize) -> u32) -> u64 {
        let end = (from / BLOCK + 1) * BLOCK;
        let head: u64 = (from..end.min(len)).map(|k| u64::from(cpus(k))).sum();
        head + self.blocks.iter().skip(from / BLOCK + 1).sum::<u64>()
    }
}

impl Free {
    /// `need` asks for cores and GPUs alone (no node count, memory or exclusivity): a node
    /// with a free core gives it what it has, up to what it still needs.
    pub(super) fn by_sums(need: &Need) -> bool {
        need.nodes == 0 && need.mem_per_cpu_mb == 0 && need.mem_per_node_mb == 0 && !need.exclusive
    }

    /// [`Free::fits`] for a need of [`Free::by_sums`] without walking every node it would take:
    /// the selection's nodes with a free GPU are visited while it needs GPUs (as the walk
    /// does, one core each past its cores), then the cores it still needs are there exactly
    /// when the nodes after the last one visited hold as many free cores, each giving all it
    /// has up to what is left.
    pub(super) fn fits_by_sums(&self, l: &Layout, need: &Need) -> bool {
        self.gpus_past_cores(l, need).is_some()
    }

    /// [`Free::fits_by_sums`]: `None` when `need` does not fit, else whether its GPUs take
    /// nodes past its cores (its cores are then laid again, [`Free::walk_cores`]).
    pub(super) fn gpus_past_cores(&self, l: &Layout, need: &Need) -> Option<bool> {
        let p = need.part as usize;
        let part = &l.parts[p];
        let (free_cpus, free_gpus) = self.part_free[p];
        if !part.up
            || need.cpus == 0
            || u64::from(need.cpus) > free_cpus
            || u64::from(need.gpus) > free_gpus
        {
            return None;
        }
        let (mut cpus, mut gpus, mut from) = (need.cpus, need.gpus, 0);
        // Nodes taken, and whether one was taken past its cores.
        let (mut nodes, mut past) = (0, false);
        while gpus > 0 {
            // A node of this set has a free core and a free GPU.
            let k = self.with_gpus[p].next(from)?;
            from = k + 1;
            if cpus == 0 {
                if nodes == need.cpus {
                    return None;
                }
                past = true;
            }
            let i = part.order[k] as usize;
            nodes += 1;
            cpus -= self.cpus[i].min(cpus);
            gpus -= self.gpus[i].min(gpus);
        }
        if cpus == 0 {
            return Some(past);
        }
        let cores = |k: usize| self.cpus[part.order[k] as usize];
        (self.core_sums[p].from(from, part.order.len(), cores) >= u64::from(cpus)).then_some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::CoreSums;
    use crate::cluster::{Cluster, Free, Layout, Need};

    /// The fit check by sums against the plain selection's walk, on random busy states of a
    /// cluster with GPU nodes of two sizes, CPU nodes and two partitions sharing nodes, for
    /// jobs asking for cores and GPUs (and some for more, which the walk decides).
    #[test]
    fn fits_by_sums_decides_as_the_selection() {
        let c = Cluster::from_compact(
            "1/g[1-70]:c8:m1000:g4/h[1-9]:c16:m1000:g1/c[1-60]:c4:m500\
             /p=a:ALL:default/p=b:h[1-9],c[1-20],g[60-70]",
        )
        .unwrap();
        let l = Layout::new(&c).unwrap();
        let mut x: u64 = 9;
        let mut rand = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % m) as u32
        };
        let need = |rand: &mut dyn FnMut(u64) -> u32, wide: bool| Need {
            part: rand(2),
            cpus: 1 + rand(if wide { 700 } else { 60 }),
            nodes: if rand(8) == 0 { 1 + rand(4) } else { 0 },
            gpus: rand(3) * rand(12),
            mem_per_cpu_mb: u64::from(rand(8) == 0) * 50,
            mem_per_node_mb: 0,
            exclusive: rand(10) == 0,
        };
        let (mut by_sums, mut fit, mut past) = (0, 0, 0);
        for _ in 0..400 {
            let mut free = Free::all(&l);
            for _ in 0..rand(40) {
                if let Some(a) = free.select(&l, &need(&mut rand, false), None) {
                    free.take(&l, &a);
                }
            }
            for _ in 0..20 {
                let wide = rand(2) == 0;
                let mut n = need(&mut rand, wide);
                if rand(2) == 0 {
                    // Near all the partition's free cores: whether the nodes skipped while
                    // placing the GPUs are counted decides.
                    let near = free.part_cores(n.part).saturating_sub(u64::from(rand(24)));
                    n.cpus = u32::try_from(near).unwrap().max(1);
                }
                let want = free.select(&l, &n, None).is_some();
                assert_eq!(free.fits(&l, &n), want, "{n:?}");
                by_sums += usize::from(Free::by_sums(&n) && n.gpus > 0);
                fit += usize::from(want && Free::by_sums(&n) && n.gpus > 0);
                if Free::by_sums(&n) && free.gpus_past_cores(&l, &n) == Some(true) {
                    past += 1;
                }
            }
        }
        // Some of them fit only by going past their cores for their GPUs.
        assert!(
            by_sums > 2000 && fit > 500 && past > 50,
            "{by_sums} {fit} {past}"
        );
    }

    /// Against the plain sum, on random cores per position and random changes.
    #[test]
    fn sums_from_a_position_are_the_plain_sums() {
        let mut x: u64 = 5;
        let mut rand = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        for _ in 0..200 {
            let len = rand(300) as usize;
            let mut cpus: Vec<u32> = (0..len).map(|_| rand(40) as u32).collect();
            let mut s = CoreSums::new(len, |k| cpus[k]);
            for _ in 0..50 {
                if len > 0 {
                    let k = rand(len as u64) as usize;
                    let to = rand(40) as u32;
                    s.add(k, i64::from(to) - i64::from(cpus[k]));
                    cpus[k] = to;
                }
                let from = rand(len as u64 + 2) as usize;
                let plain: u64 = cpus.iter().skip(from).map(|&c| u64::from(c)).sum();
                assert_eq!(s.from(from, len, |k| cpus[k]), plain);
            }
        }
    }
}
