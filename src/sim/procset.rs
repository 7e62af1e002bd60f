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
        other.intervals.iter().all(|&(a, b)| {
            let i = self.intervals.partition_point(|&(_, hi)| hi <= a);
            self.intervals
                .get(i)
                .is_some_and(|&(lo, hi)| lo <= a && b <= hi)
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

    /// Removes `other` (which must be a subset) from `self`.
    pub fn remove(&mut self, other: &ProcSet) {
        let mut out = Intervals::with_capacity(self.intervals.len() + other.intervals.len());
        let mut j = 0;
        for &(a, b) in &self.intervals {
            let mut lo = a;
            while j < other.intervals.len() && other.intervals[j].1 <= lo {
                j += 1;
            }
            let mut k = j;
            while k < other.intervals.len() && other.intervals[k].0 < b {
                let (oa, ob) = other.intervals[k];
                if oa > lo {
                    out.push((lo, oa));
                }
                lo = lo.max(ob);
                k += 1;
            }
            if lo < b {
                out.push((lo, b));
            }
        }
        self.intervals = out;
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

    /// Adds `other` (disjoint from `self`) to `self`, merging neighbours; in place.
    pub fn insert(&mut self, other: &ProcSet) {
        for &(a, b) in &other.intervals {
            self.insert_interval(a, b);
        }
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
}
