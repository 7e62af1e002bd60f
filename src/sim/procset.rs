//! Processor sets as sorted, disjoint, half-open intervals of processor ids.

use serde::Serialize;
use smallvec::SmallVec;
use std::fmt;

/// Intervals of a set: two inline (a job on contiguous processors, or on two runs of them,
/// needs no allocation; two take no more room than one on 64-bit targets).
type Intervals = SmallVec<[(u32, u32); 2]>;

/// A set of processor ids, kept as sorted disjoint half-open intervals `[lo, hi)`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ProcSet {
    intervals: Intervals,
}

impl ProcSet {
    /// The set `[lo, hi)`.
    pub fn range(lo: u32, hi: u32) -> Self {
        let mut s = Self::default();
        if lo < hi {
            s.intervals.push((lo, hi));
        }
        s
    }

    /// Builds a set from arbitrary intervals (they are sorted and merged).
    pub fn from_intervals(mut v: Vec<(u32, u32)>) -> Self {
        v.retain(|&(a, b)| a < b);
        v.sort_unstable();
        let mut out = Intervals::with_capacity(v.len());
        for (a, b) in v {
            match out.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        Self { intervals: out }
    }

    /// The set of `intervals`, already sorted, disjoint and apart (none ends where the next
    /// starts): sized exactly.
    pub fn from_sorted(intervals: &[(u32, u32)]) -> Self {
        debug_assert!(intervals.iter().all(|&(a, b)| a < b));
        debug_assert!(intervals.windows(2).all(|w| w[0].1 < w[1].0));
        Self {
            intervals: Intervals::from_slice(intervals),
        }
    }

    pub fn intervals(&self) -> &[(u32, u32)] {
        &self.intervals
    }

    pub fn len(&self) -> u32 {
        self.intervals.iter().map(|&(a, b)| b - a).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    /// Iterates over every processor id.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.intervals.iter().flat_map(|&(a, b)| a..b)
    }

    /// True when `other` is entirely contained in `self`.
    pub fn contains_set(&self, other: &ProcSet) -> bool {
        // `other` ascends: each interval is looked for from the previous one's, by steps that
        // double (a job on many small pieces of a fragmented set needs a few steps per piece,
        // not a whole binary search).
        let iv = &self.intervals[..];
        let mut i = 0;
        other.intervals.iter().all(|&(a, b)| {
            i = first_ending_after(iv, i, a);
            iv.get(i).is_some_and(|&(lo, hi)| lo <= a && b <= hi)
        })
    }

    /// Removes and returns the `n` lowest ids. The caller checks `n <= self.len()`.
    pub fn take_lowest(&mut self, n: u32) -> ProcSet {
        // Most often the lowest free interval holds them all.
        if let Some(first) = self.intervals.first_mut() {
            let (a, b) = *first;
            if n > 0 && n < b - a {
                first.0 += n;
                return ProcSet::range(a, a + n);
            }
        }
        // The intervals taken whole, then the one split (if any): sized exactly.
        let mut whole = 0;
        let mut need = n;
        for &(a, b) in &self.intervals {
            if need == 0 || b - a > need {
                break;
            }
            need -= b - a;
            whole += 1;
        }
        let split = usize::from(need > 0 && whole < self.intervals.len());
        let mut taken = Intervals::with_capacity(whole + split);
        taken.extend_from_slice(&self.intervals[..whole]);
        // The intervals taken whole leave the front: one copy of the rest, no per-item drain.
        let left = self.intervals.len() - whole;
        self.intervals.copy_within(whole.., 0);
        self.intervals.truncate(left);
        if split == 1 {
            let iv = &mut self.intervals[0];
            taken.push((iv.0, iv.0 + need));
            iv.0 += need;
        }
        ProcSet { intervals: taken }
    }

    /// Removes `other` (which must be a subset) from `self`: in place, one pass over both.
    pub fn remove(&mut self, other: &ProcSet) {
        let k = other.intervals.len();
        if k == 0 {
            return;
        }
        let n = self.intervals.len();
        // The intervals below the first one `other` touches stay where they are.
        let first = other.intervals[0].0;
        let i0 = self.intervals.partition_point(|&(_, hi)| hi <= first);
        // Each interval of `other` lies in one of `self` and splits it at most in two: the
        // result has at most n + k intervals. The rest of `self` moves up by k first, then is
        // read from there while the result is written from `i0` on (never past what is left to
        // read).
        self.intervals.resize(n + k, (0, 0));
        let iv = &mut self.intervals[..];
        iv.copy_within(i0..n, i0 + k);
        let other = &other.intervals[..];
        let mut w = i0;
        let mut j = 0;
        for r in i0 + k..n + k {
            let (a, b) = iv[r];
            let mut lo = a;
            while j < k && other[j].1 <= lo {
                j += 1;
            }
            while j < k && other[j].0 < b {
                let (oa, ob) = other[j];
                if oa > lo {
                    iv[w] = (lo, oa);
                    w += 1;
                }
                lo = lo.max(ob);
                if ob > b {
                    break;
                }
                j += 1;
            }
            if lo < b {
                iv[w] = (lo, b);
                w += 1;
            }
        }
        self.intervals.truncate(w);
    }

    /// Appends `[a, b)`, which lies above every id of `self` (merged when it touches the last
    /// interval).
    pub fn push_above(&mut self, a: u32, b: u32) {
        debug_assert!(self.intervals.last().is_none_or(|l| l.1 <= a));
        if a >= b {
            return;
        }
        match self.intervals.last_mut() {
            Some(last) if last.1 == a => last.1 = b,
            _ => self.intervals.push((a, b)),
        }
    }

    /// Frees the room a set built by [`ProcSet::push_above`] holds beyond its intervals (a
    /// running job's set is kept for the whole run).
    pub fn shrink_to_fit(&mut self) {
        self.intervals.shrink_to_fit();
    }

    /// Adds `other` (disjoint from `self`) to `self`, merging neighbours; in place. A few
    /// intervals are inserted one by one; more are merged in one pass over both sets.
    pub fn insert(&mut self, other: &ProcSet) {
        let k = other.intervals.len();
        if k <= 2 {
            for &(a, b) in &other.intervals {
                self.insert_interval(a, b);
            }
            return;
        }
        let n = self.intervals.len();
        self.intervals.resize(n + k, (0, 0));
        let iv = &mut self.intervals[..];
        let other = &other.intervals[..];
        // Merged from the back (by start): the intervals of `self` below every one of `other`
        // stay where they are.
        let (mut i, mut j, mut w) = (n, k, n + k);
        while j > 0 {
            w -= 1;
            if i > 0 && iv[i - 1].0 > other[j - 1].0 {
                iv[w] = iv[i - 1];
                i -= 1;
            } else {
                iv[w] = other[j - 1];
                j -= 1;
            }
        }
        // Then neighbours that touch are joined, from the last interval left in place.
        let mut last = i.saturating_sub(1);
        for r in last + 1..n + k {
            let (a, b) = iv[r];
            if a <= iv[last].1 {
                iv[last].1 = iv[last].1.max(b);
            } else {
                last += 1;
                iv[last] = (a, b);
            }
        }
        self.intervals.truncate(last + 1);
    }

    /// Adds `[a, b)` (disjoint from `self`), merging it with the intervals it touches.
    fn insert_interval(&mut self, a: u32, b: u32) {
        let iv = &mut self.intervals;
        // The first interval that ends at or after `a` (it touches or follows `[a, b)`).
        let i = iv.partition_point(|&(_, hi)| hi < a);
        let mut j = i;
        let (mut lo, mut hi) = (a, b);
        while j < iv.len() && iv[j].0 <= b {
            lo = lo.min(iv[j].0);
            hi = hi.max(iv[j].1);
            j += 1;
        }
        if j == i {
            iv.insert(i, (a, b));
        } else {
            iv[i] = (lo, hi);
            if j > i + 1 {
                // It joined two neighbours: one copy of the rest, no per-item drain.
                let left = iv.len() - (j - i - 1);
                iv.copy_within(j.., i + 1);
                iv.truncate(left);
            }
        }
    }
}

/// The first index `>= from` of `iv` whose interval ends after `a` (`iv.len()` when none):
/// galloping from `from`, then a binary search in the last step.
fn first_ending_after(iv: &[(u32, u32)], from: usize, a: u32) -> usize {
    if iv.get(from).is_none_or(|&(_, hi)| hi > a) {
        return from;
    }
    // iv[lo - 1] ends at or before `a`; look at lo, lo + 1, lo + 3, lo + 7, ...
    let mut lo = from + 1;
    let mut step = 1;
    while lo + step <= iv.len() && iv[lo + step - 1].1 <= a {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(iv.len());
    lo + iv[lo..hi].partition_point(|&(_, h)| h <= a)
}

/// Batsim's interval notation: `0-3 8-11` (inclusive ranges, a single id alone).
impl fmt::Display for ProcSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(a, b)) in self.intervals.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if b - a == 1 {
                write!(f, "{a}")?;
            } else {
                write!(f, "{}-{}", a, b - 1)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_lowest_splits_and_release_merges() {
        let mut free = ProcSet::range(0, 10);
        let a = free.take_lowest(3);
        assert_eq!(a.intervals(), &[(0, 3)]);
        let b = free.take_lowest(4);
        assert_eq!(b.intervals(), &[(3, 7)]);
        free.insert(&a);
        assert_eq!(free.intervals(), &[(0, 3), (7, 10)]);
        let c = free.take_lowest(5);
        assert_eq!(c.intervals(), &[(0, 3), (7, 9)]);
        assert_eq!(c.to_string(), "0-2 7-8");
        free.insert(&b);
        free.insert(&c);
        assert_eq!(free.intervals(), &[(0, 10)]);
        assert_eq!(free.len(), 10);
    }

    #[test]
    fn whole_intervals_leave_and_joined_neighbours_close_up() {
        let mut free = ProcSet::from_intervals(vec![(0, 2), (4, 6), (8, 10), (12, 16), (20, 24)]);
        let t = free.take_lowest(7);
        assert_eq!(t.intervals(), &[(0, 2), (4, 6), (8, 10), (12, 13)]);
        assert_eq!(free.intervals(), &[(13, 16), (20, 24)]);
        let t2 = free.take_lowest(7);
        assert_eq!(t2.intervals(), &[(13, 16), (20, 24)]);
        assert!(free.is_empty());
        free.insert(&ProcSet::from_intervals(vec![
            (0, 2),
            (4, 6),
            (10, 12),
            (16, 18),
        ]));
        // (2, 4) joins the first two, the rest closes up behind them.
        free.insert(&ProcSet::range(2, 4));
        assert_eq!(free.intervals(), &[(0, 6), (10, 12), (16, 18)]);
        free.insert(&ProcSet::range(12, 16));
        assert_eq!(free.intervals(), &[(0, 6), (10, 18)]);
        free.insert(&ProcSet::from_intervals(vec![(6, 10), (18, 20)]));
        assert_eq!(free.intervals(), &[(0, 20)]);
    }

    #[test]
    fn remove_and_contains() {
        let mut s = ProcSet::from_intervals(vec![(5, 9), (0, 3), (2, 4)]);
        assert_eq!(s.intervals(), &[(0, 4), (5, 9)]);
        assert!(s.contains_set(&ProcSet::from_intervals(vec![(1, 3), (6, 8)])));
        assert!(!s.contains_set(&ProcSet::range(3, 6)));
        s.remove(&ProcSet::from_intervals(vec![(1, 2), (5, 9)]));
        assert_eq!(s.intervals(), &[(0, 1), (2, 4)]);
        assert_eq!(ProcSet::range(4, 5).to_string(), "4");
        let mut p = ProcSet::default();
        p.push_above(2, 4);
        p.push_above(4, 5);
        p.push_above(7, 7);
        p.push_above(8, 9);
        assert_eq!(p.intervals(), &[(2, 5), (8, 9)]);
    }

    /// A random set of ids below `size` (each id in with probability `share` / 8), and
    /// its membership.
    fn random_set(rng: &mut rand_pcg::Pcg64, size: u32, share: u32) -> (ProcSet, Vec<bool>) {
        use rand::Rng;
        let member: Vec<bool> = (0..size).map(|_| rng.random_range(0..8) < share).collect();
        (of_members(&member), member)
    }

    fn of_members(member: &[bool]) -> ProcSet {
        let mut s = ProcSet::default();
        for (p, &m) in member.iter().enumerate() {
            if m {
                s.push_above(p as u32, p as u32 + 1);
            }
        }
        s
    }

    /// Insert, remove and containment of fragmented sets (the one-pass merges) against sets
    /// of ids.
    #[test]
    fn fragmented_sets_merge_like_sets_of_ids() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
        for round in 0..400 {
            let size = rng.random_range(1..200);
            let share = rng.random_range(0..8);
            let (mut s, mut member) = random_set(&mut rng, size, share);
            // A subset of the complement goes in, then a subset of the union goes out.
            let add: Vec<bool> = member
                .iter()
                .map(|&m| !m && rng.random_range(0..3) > 0)
                .collect();
            let add_set = of_members(&add);
            assert!(
                !s.contains_set(&add_set) || add_set.is_empty(),
                "round {round}"
            );
            s.insert(&add_set);
            for (m, a) in member.iter_mut().zip(&add) {
                *m |= a;
            }
            assert_eq!(s, of_members(&member), "round {round}: insert");
            let out: Vec<bool> = member
                .iter()
                .map(|&m| m && rng.random_range(0..3) == 0)
                .collect();
            let out_set = of_members(&out);
            assert!(s.contains_set(&out_set), "round {round}");
            s.remove(&out_set);
            for (m, o) in member.iter_mut().zip(&out) {
                *m &= !o;
            }
            assert_eq!(s, of_members(&member), "round {round}: remove");
            assert_eq!(s.len() as usize, member.iter().filter(|&&m| m).count());
            // Containment of a set with one id outside.
            if let Some(p) = member.iter().position(|&m| !m) {
                let mut probe: Vec<bool> = member
                    .iter()
                    .map(|&m| m && rng.random_range(0..2) == 0)
                    .collect();
                assert!(s.contains_set(&of_members(&probe)), "round {round}");
                probe[p] = true;
                assert!(!s.contains_set(&of_members(&probe)), "round {round}");
            }
        }
    }
}
