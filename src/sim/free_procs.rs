//! The free processors of a simulation as a bit set (bit `p`: processor `p` is free), so that a
//! job leaves or joins them in time proportional to its own intervals, however fragmented the
//! free processors are (the node model spreads jobs over many nodes). Their interval form
//! ([`ProcSet`]), which policies read, is built when first asked for after a change. Without
//! the node model jobs take the lowest free processors and the free set stays a few intervals:
//! then it is kept as intervals alone (their updates cost less there than the bits').

use super::node_jobs::{low_bits, lowest_into};
use super::procset::ProcSet;
use std::cell::OnceCell;

/// The free processors, kept one way or the other.
pub enum FreeProcs {
    /// As intervals alone (without the node model).
    Intervals(ProcSet),
    /// As bits (the node model).
    Bits(Bits),
}

pub struct Bits {
    words: Vec<u64>,
    /// The lowest word that may hold a free processor (every word below it is empty).
    low: usize,
    /// The interval form, built when asked for (emptied at every change).
    set: OnceCell<ProcSet>,
    /// Intervals being built (a buffer).
    pieces: Vec<(u32, u32)>,
}

/// The words of `[a, b)` (`a < b`) with the bits of each, as `(word, mask)`.
fn pieces(a: u32, b: u32) -> impl Iterator<Item = (usize, u64)> {
    let (first, last) = ((a / 64) as usize, ((b - 1) / 64) as usize);
    (first..=last).map(move |w| {
        let lo = if w == first { a % 64 } else { 0 };
        let hi = if w == last { (b - 1) % 64 + 1 } else { 64 };
        (w, low_bits(hi - lo) << lo)
    })
}

impl FreeProcs {
    /// Processors `0..procs`, all free: as bits if `fragmented` (the node model), else as
    /// intervals alone.
    pub fn new(procs: u32, fragmented: bool) -> Self {
        if fragmented {
            Self::Bits(Bits::new(procs))
        } else {
            Self::Intervals(ProcSet::range(0, procs))
        }
    }

    /// The free processors as intervals.
    pub fn set(&self) -> &ProcSet {
        match self {
            Self::Intervals(p) => p,
            Self::Bits(b) => b.set(),
        }
    }

    /// True when every processor of `procs` is free.
    pub fn contains_set(&self, procs: &ProcSet) -> bool {
        match self {
            Self::Intervals(p) => p.contains_set(procs),
            Self::Bits(b) => b.contains_set(procs),
        }
    }

    /// `procs` (all free) are no longer free.
    pub fn remove(&mut self, procs: &ProcSet) {
        match self {
            Self::Intervals(p) => p.remove(procs),
            Self::Bits(b) => b.remove(procs),
        }
    }

    /// `procs` (none free) are free again.
    pub fn insert(&mut self, procs: &ProcSet) {
        match self {
            Self::Intervals(p) => p.insert(procs),
            Self::Bits(b) => b.insert(procs),
        }
    }

    /// Removes and returns the `n` lowest free processors (the caller checks that `n` are
    /// free).
    pub fn take_lowest(&mut self, n: u32) -> ProcSet {
        match self {
            Self::Intervals(p) => p.take_lowest(n),
            Self::Bits(b) => b.take_lowest(n),
        }
    }
}

impl Bits {
    fn new(procs: u32) -> Self {
        let mut words = vec![0u64; procs.div_ceil(64) as usize];
        if procs > 0 {
            for (w, bits) in pieces(0, procs) {
                words[w] = bits;
            }
        }
        Self {
            words,
            low: 0,
            set: OnceCell::new(),
            pieces: Vec::new(),
        }
    }

    /// The free processors as intervals.
    fn set(&self) -> &ProcSet {
        self.set.get_or_init(|| {
            let mut pieces = Vec::new();
            for (w, &word) in self.words.iter().enumerate().skip(self.low) {
                let _ = lowest_into(word, w as u32 * 64, word.count_ones(), &mut pieces);
            }
            ProcSet::from_sorted(&pieces)
        })
    }

    /// True when every processor of `procs` is free.
    fn contains_set(&self, procs: &ProcSet) -> bool {
        procs.intervals().iter().all(|&(a, b)| {
            (b as usize).div_ceil(64) <= self.words.len()
                && pieces(a, b).all(|(w, bits)| self.words[w] & bits == bits)
        })
    }

    /// `procs` (all free) are no longer free.
    fn remove(&mut self, procs: &ProcSet) {
        self.set.take();
        for &(a, b) in procs.intervals() {
            for (w, bits) in pieces(a, b) {
                debug_assert_eq!(self.words[w] & bits, bits);
                self.words[w] &= !bits;
            }
        }
    }

    /// `procs` (none free) are free again.
    fn insert(&mut self, procs: &ProcSet) {
        self.set.take();
        for &(a, b) in procs.intervals() {
            for (w, bits) in pieces(a, b) {
                debug_assert_eq!(self.words[w] & bits, 0);
                self.words[w] |= bits;
            }
            self.low = self.low.min((a / 64) as usize);
        }
    }

    /// Removes and returns the `n` lowest free processors (the caller checks that `n` are
    /// free).
    fn take_lowest(&mut self, mut n: u32) -> ProcSet {
        self.set.take();
        self.pieces.clear();
        while self.words.get(self.low) == Some(&0) {
            self.low += 1;
        }
        let mut w = self.low;
        while n > 0 && w < self.words.len() {
            let word = &mut self.words[w];
            let k = n.min(word.count_ones());
            *word = lowest_into(*word, w as u32 * 64, k, &mut self.pieces);
            n -= k;
            w += 1;
        }
        ProcSet::from_sorted(&self.pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Every operation against the interval form's own (ProcSet's take_lowest, insert, remove,
    /// containment) on random machines, starts and ends; kept as bits and as intervals alone.
    #[test]
    fn bits_follow_the_interval_form() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        for round in 0..400 {
            let procs = rng.random_range(1..300);
            let mut bits = FreeProcs::new(procs, round % 2 == 0);
            assert_eq!(matches!(bits, FreeProcs::Bits(_)), round % 2 == 0);
            let mut model = ProcSet::range(0, procs);
            let mut running: Vec<ProcSet> = Vec::new();
            for step in 0..60 {
                let free = model.len();
                if free > 0 && rng.random_range(0..3) > 0 {
                    let n = rng.random_range(1..=free);
                    let job = if rng.random_range(0..2) == 0 {
                        let t = bits.take_lowest(n);
                        assert_eq!(t, model.take_lowest(n), "round {round} step {step}");
                        t
                    } else {
                        // Random free ids.
                        let ids: Vec<u32> = model
                            .ids()
                            .filter(|_| rng.random_range(0..3) == 0)
                            .collect();
                        let s = ProcSet::from_intervals(ids.iter().map(|&p| (p, p + 1)).collect());
                        assert!(bits.contains_set(&s));
                        bits.remove(&s);
                        model.remove(&s);
                        s
                    };
                    running.push(job);
                } else if !running.is_empty() {
                    let job = running.swap_remove(rng.random_range(0..running.len()));
                    if !job.is_empty() {
                        assert!(!bits.contains_set(&job));
                    }
                    bits.insert(&job);
                    model.insert(&job);
                }
                assert_eq!(bits.set(), &model, "round {round} step {step}");
            }
        }
        for fragmented in [true, false] {
            let f = FreeProcs::new(130, fragmented);
            assert!(!f.contains_set(&ProcSet::range(120, 131)));
            assert!(f.contains_set(&ProcSet::range(0, 130)));
        }
    }
}
