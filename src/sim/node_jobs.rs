//! Which running jobs are on each node, and which processors of each node are free: flat
//! tables by node, kept at each start and stop of the node model ([`super::nodes::Nodes`]).
//!
//! A job on a node holds at least one of its processors, so no more than `cores` jobs share a
//! node: each node has room for `cores` job indices, in one table (no list per node). The order
//! of a node's jobs is not kept (a job that stops takes the place of the last one).
//!
//! With at most 64 cores per node, each node's free processors are also a bit mask (bit `i`:
//! processor `node x cores + i`), so the lowest free processors of a node are found without
//! walking the machine's free intervals.

/// The jobs on each node (flat, `cores` slots per node).
pub struct NodeJobs {
    cores: usize,
    slots: Vec<u32>,
    len: Vec<u32>,
}

impl NodeJobs {
    pub fn new(nodes: usize, cores: u32) -> Self {
        let cores = cores as usize;
        Self {
            cores,
            slots: vec![0; nodes * cores],
            len: vec![0; nodes],
        }
    }

    /// The jobs on node `n` (any order).
    #[inline]
    pub fn on(&self, n: u32) -> &[u32] {
        let n = n as usize;
        let at = n * self.cores;
        &self.slots[at..at + self.len[n] as usize]
    }

    /// Job `j` starts on node `n` (it holds a processor there, so there is room).
    #[inline]
    pub fn add(&mut self, n: u32, j: usize) {
        let n = n as usize;
        let len = self.len[n] as usize;
        debug_assert!(len < self.cores, "more jobs than cores on node {n}");
        self.slots[n * self.cores + len] = j as u32;
        self.len[n] += 1;
    }

    /// Job `j` leaves node `n` (the last job of the node takes its place).
    #[inline]
    pub fn remove(&mut self, n: u32, j: usize) {
        let n = n as usize;
        let at = n * self.cores;
        let len = self.len[n] as usize;
        let list = &mut self.slots[at..at + len];
        if let Some(pos) = list.iter().position(|&k| k as usize == j) {
            list[pos] = list[len - 1];
            self.len[n] -= 1;
        }
    }
}

/// Each node's free processors as a bit mask, when nodes have at most 64 cores (else none is
/// kept).
pub struct FreeMasks {
    cores: u32,
    masks: Vec<u64>,
}

impl FreeMasks {
    /// Every processor of `procs` free, on nodes of `cores` processors.
    pub fn new(procs: u32, cores: u32) -> Self {
        let masks = if cores <= 64 {
            (0..procs.div_ceil(cores))
                .map(|n| {
                    let k = procs.saturating_sub(n * cores).min(cores);
                    low_bits(k)
                })
                .collect()
        } else {
            Vec::new()
        };
        Self { cores, masks }
    }

    /// The masks by node id, or `None` when nodes have more than 64 cores.
    pub fn masks(&self) -> Option<&[u64]> {
        (self.cores <= 64).then_some(&self.masks[..])
    }

    /// The nodes that processor intervals (ascending, disjoint) touch, as `(node, processors)`
    /// in node order into `spread`, and their masks per node into `masks` (both cleared
    /// first; no masks when none are kept).
    pub fn spread_into(
        &self,
        intervals: &[(u32, u32)],
        spread: &mut Vec<(u32, u32)>,
        masks: &mut Vec<u64>,
    ) {
        spread.clear();
        masks.clear();
        let keep = self.cores <= 64;
        for &(a, b) in intervals {
            let mut p = a;
            while p < b {
                let n = p / self.cores;
                let base = n * self.cores;
                let upto = base.saturating_add(self.cores).min(b);
                let bits = if keep {
                    low_bits(upto - p) << (p - base)
                } else {
                    0
                };
                match spread.last_mut() {
                    Some(last) if last.0 == n => {
                        last.1 += upto - p;
                        if keep {
                            *masks.last_mut().expect("a mask per node") |= bits;
                        }
                    }
                    _ => {
                        spread.push((n, upto - p));
                        if keep {
                            masks.push(bits);
                        }
                    }
                }
                p = upto;
            }
        }
    }

    /// Processors leave (`busy`) or join the free ones: `masks` per node of `spread` (as
    /// [`FreeMasks::of`] gave them).
    pub fn update(&mut self, spread: &[(u32, u32)], masks: &[u64], busy: bool) {
        for (&(n, _), &m) in spread.iter().zip(masks) {
            let free = &mut self.masks[n as usize];
            debug_assert_eq!(*free & m, if busy { m } else { 0 });
            *free ^= m;
        }
    }
}

/// A mask of the `k` lowest bits (`k` <= 64).
#[inline]
pub fn low_bits(k: u32) -> u64 {
    if k >= 64 {
        u64::MAX
    } else {
        (1u64 << k) - 1
    }
}

/// Appends the `k` lowest processors of free `mask` (bit `i`: processor `base + i`; a node's,
/// or a word of the machine's) to `out` as intervals, merged with the last one when they touch
/// (`k` <= the mask's ones). Returns the mask without them.
#[inline]
pub fn lowest_into(mut mask: u64, base: u32, mut k: u32, out: &mut Vec<(u32, u32)>) -> u64 {
    while k > 0 {
        let lo = mask.trailing_zeros();
        let run = (!(mask >> lo)).trailing_zeros().min(k);
        let (a, b) = (base + lo, base + lo + run);
        match out.last_mut() {
            Some(last) if last.1 == a => last.1 = b,
            _ => out.push((a, b)),
        }
        mask &= !(low_bits(run) << lo);
        k -= run;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_join_and_leave_nodes() {
        let mut j = NodeJobs::new(3, 4);
        j.add(1, 7);
        j.add(1, 9);
        j.add(1, 3);
        j.add(2, 9);
        assert_eq!(j.on(1), &[7, 9, 3]);
        j.remove(1, 7);
        assert_eq!(j.on(1), &[3, 9]);
        j.remove(1, 5);
        assert_eq!(j.on(1), &[3, 9]);
        assert_eq!(j.on(2), &[9]);
        assert!(j.on(0).is_empty());
    }

    #[test]
    fn masks_follow_starts_and_stops() {
        // 10 processors on nodes of 4: the last node has 2.
        let mut f = FreeMasks::new(10, 4);
        assert_eq!(f.masks().unwrap(), &[0b1111, 0b1111, 0b11]);
        let (mut spread, mut m) = (Vec::new(), Vec::new());
        f.spread_into(&[(1, 3), (3, 6), (9, 10)], &mut spread, &mut m);
        assert_eq!(spread, vec![(0, 3), (1, 2), (2, 1)]);
        assert_eq!(m, vec![0b1110, 0b0011, 0b10]);
        f.update(&[(0, 3), (1, 2), (2, 1)], &m, true);
        assert_eq!(f.masks().unwrap(), &[0b0001, 0b1100, 0b01]);
        let mut out = vec![(0, 1)];
        assert_eq!(lowest_into(0b1100_1101, 64, 4, &mut out), 0b1000_0000);
        assert_eq!(out, vec![(0, 1), (64, 65), (66, 68), (70, 71)]);
        lowest_into(0b1, 71, 1, &mut out);
        assert_eq!(out, vec![(0, 1), (64, 65), (66, 68), (70, 72)]);
        f.update(&[(0, 3), (1, 2), (2, 1)], &m, false);
        assert_eq!(f.masks().unwrap(), &[0b1111, 0b1111, 0b11]);
        assert!(FreeMasks::new(130, 65).masks().is_none());
        let wide = FreeMasks::new(130, 65);
        wide.spread_into(&[(60, 70), (129, 130)], &mut spread, &mut m);
        assert_eq!(spread, vec![(0, 5), (1, 6)]);
        assert!(m.is_empty());
        let mut all = FreeMasks::new(128, 64);
        all.spread_into(&[(0, 128)], &mut spread, &mut m);
        assert_eq!(spread, vec![(0, 64), (1, 64)]);
        assert_eq!(m, vec![u64::MAX, u64::MAX]);
        all.update(&[(0, 64), (1, 64)], &m, true);
        assert_eq!(all.masks().unwrap(), &[0, 0]);
    }
}
