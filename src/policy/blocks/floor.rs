//! Lower bounds of earliest fits while a profile only loses processors.
//!
//! When jobs are placed one after another into a profile that only loses processors (a plan
//! built from scratch: every placement reserves, nothing is released), a job that needs `w`
//! processors for `d` cannot start before the earliest fit found for an earlier job that needed
//! at most `w` for at most `d`: any window that holds the later job holds the earlier one, and
//! the profile had at least as many processors free then. So the search for the later job may
//! begin there, and finds the same start as a search from the beginning.
//!
//! The earlier fits are kept by classes of width and length (exact up to 7, then four classes
//! per power of two), in a two-dimensional Fenwick tree of prefix maxima: a job's bound is the
//! latest fit among the classes wholly at or below its width and length, or the latest fit of
//! an earlier job of exactly its width and length (kept apart: such jobs are common, and a
//! class holds values above and below). Cells carry the number of the plan they belong to, so
//! a new plan clears only the exact ones.

use crate::Time;
use foldhash::HashMap;

/// The class of a positive value: exact below 8, then four per power of two.
fn class(x: u64) -> usize {
    if x < 8 {
        x as usize
    } else {
        let k = 63 - x.leading_zeros() as usize;
        8 + (k - 3) * 4 + ((x >> (k - 2)) & 3) as usize
    }
}

/// The classes whose every value is at most `x`: `class(x) + 1` of them when `x` is the
/// largest value of its class, else `class(x)`.
fn classes_at_most(x: u64) -> usize {
    let c = class(x);
    if x == u64::MAX || class(x + 1) != c {
        c + 1
    } else {
        c
    }
}

#[derive(Debug, Default)]
pub struct Floor {
    /// Width classes (the machine's widest job included).
    widths: usize,
    /// Length classes.
    lengths: usize,
    /// `(plan, latest fit)` per cell of the Fenwick tree, `widths * lengths`.
    cells: Vec<(u32, Time)>,
    plan: u32,
    /// The latest fit per exact `(width, length)` of this plan.
    exact: HashMap<(u32, Time), Time>,
    /// The last query, `(plan, width, length, its bound from the classes alone)`: a fit
    /// recorded for it at or before that bound tightens no bound, and is skipped.
    last: (u32, u32, Time, Time),
}

impl Floor {
    /// Bounds for a machine of `procs` processors.
    pub fn new(procs: u32) -> Self {
        let widths = class(u64::from(procs.max(1))) + 1;
        let lengths = class(u64::MAX) + 1;
        Self {
            widths,
            lengths,
            cells: vec![(0, Time::MIN); widths * lengths],
            plan: 1,
            exact: HashMap::default(),
            last: (0, 0, 0, Time::MIN),
        }
    }

    /// Starts a new plan: every bound known so far is forgotten.
    pub fn clear(&mut self) {
        self.exact.clear();
        self.last.0 = 0;
        self.plan = self.plan.wrapping_add(1);
        if self.plan == 0 {
            self.cells.fill((0, Time::MIN));
            self.plan = 1;
        }
    }

    /// The latest fit found in this plan for a job needing at most `procs` for at most `len`
    /// (`Time::MIN` if none).
    pub fn bound(&mut self, procs: u32, len: Time) -> Time {
        let mut w = classes_at_most(u64::from(procs)).min(self.widths);
        let l0 = classes_at_most(len.max(0) as u64).min(self.lengths);
        let mut best = Time::MIN;
        while w > 0 {
            let row = (w - 1) * self.lengths;
            let mut l = l0;
            while l > 0 {
                let (plan, t) = self.cells[row + l - 1];
                if plan == self.plan && t > best {
                    best = t;
                }
                l &= l - 1;
            }
            w &= w - 1;
        }
        self.last = (self.plan, procs, len, best);
        let exact = self.exact.get(&(procs, len)).copied().unwrap_or(Time::MIN);
        best.max(exact)
    }

    /// Records that a job needing `procs` for `len` fits at `start` at the earliest.
    ///
    /// Skipped when the last query was for this job and its classes already bounded it at
    /// `start` or later: every later query that would see this fit sees that bound too (its
    /// classes include this job's), and a query for this exact job sees it as well. A Fenwick
    /// cell holds the latest fit over a range of classes that contains the ranges of the cells
    /// before it on an update path, so the update stops at the first cell already at `start` or
    /// later (and the whole update when that is the first cell of a row: the later rows hold
    /// wider ranges still).
    pub fn record(&mut self, procs: u32, len: Time, start: Time) {
        if self.cells.is_empty() {
            return;
        }
        if self.last.0 == self.plan
            && self.last.1 == procs
            && self.last.2 == len
            && start <= self.last.3
        {
            return;
        }
        let e = self.exact.entry((procs, len)).or_insert(start);
        *e = (*e).max(start);
        let mut w = class(u64::from(procs.max(1))).min(self.widths - 1) + 1;
        let l0 = class(len.max(1) as u64) + 1;
        while w <= self.widths {
            let row = (w - 1) * self.lengths;
            let mut l = l0;
            while l <= self.lengths {
                let cell = &mut self.cells[row + l - 1];
                if cell.0 != self.plan {
                    *cell = (self.plan, start);
                } else if start > cell.1 {
                    cell.1 = start;
                } else if l == l0 {
                    return;
                } else {
                    break;
                }
                l += l & l.wrapping_neg();
            }
            w += w & w.wrapping_neg();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::sim::test_numbers as numbers;

    #[test]
    fn classes_rise_and_hold_only_smaller_values() {
        let mut last = 0;
        for x in 1..5000u64 {
            let c = class(x);
            assert!(c == last || c == last + 1, "{x}");
            last = c;
            // Every value of the classes below classes_at_most(x) is at most x.
            let n = classes_at_most(x);
            assert!(n == 0 || (1..=x + 1).any(|y| class(y) == n - 1 && y <= x));
            assert!((x + 1..x * 2 + 2).all(|y| class(y) >= n), "{x}");
        }
        assert_eq!(class(7), 7);
        assert_eq!(class(8), 8);
        assert_eq!(class(9), 8);
        assert_eq!(class(10), 9);
        assert_eq!(classes_at_most(9), 9);
        assert_eq!(classes_at_most(8), 8);
    }

    #[test]
    fn bounds_come_from_smaller_jobs_of_this_plan_only() {
        let mut f = Floor::new(128);
        f.clear();
        f.record(4, 100, 50);
        f.record(1, 10, 5);
        // Wider and longer: bounded by both, the later fit wins; the same job: its own fit.
        assert_eq!(f.bound(4, 100), 50);
        // 100 shares its class with 101 and 99 (96-111): a job of length 99 is bounded by
        // the 1-processor job only, one of 101 by that class only from 111 on.
        assert_eq!(f.bound(4, 99), 5);
        assert_eq!(f.bound(4, 101), 5);
        assert_eq!(f.bound(4, 111), 50);
        assert_eq!(f.bound(128, 1 << 40), 50);
        // Narrower than 4: only the 1-processor job counts.
        assert_eq!(f.bound(3, 1000), 5);
        // Shorter than 10: nothing.
        assert_eq!(f.bound(64, 9), Time::MIN);
        // 9 shares a class with 8: a job of width 8 is not bounded by a job of width 9.
        f.record(9, 100, 70);
        assert_eq!(f.bound(9, 100), 70);
        assert_eq!(f.bound(9, 111), 70);
        assert_eq!(f.bound(8, 111), 50);
        f.clear();
        assert_eq!(f.bound(128, 1 << 40), Time::MIN);
    }

    /// Against a plain list of the recorded jobs.
    #[test]
    fn agrees_with_a_plain_maximum() {
        let mut rnd = numbers(99);
        let mut f = Floor::new(1000);
        for round in 0..20 {
            f.clear();
            let mut seen: Vec<(u32, Time, Time)> = Vec::new();
            for _ in 0..200 {
                let (w, d) = (1 + rnd(1000) as u32, 1 + rnd(100_000) as Time);
                if rnd(2) == 0 {
                    let s = rnd(1_000_000) as Time;
                    f.record(w, d, s);
                    seen.push((w, d, s));
                } else {
                    let b = f.bound(w, d);
                    // Never above the plain bound; only recorded fits of jobs no bigger.
                    let exact = seen
                        .iter()
                        .filter(|e| e.0 <= w && e.1 <= d)
                        .map(|e| e.2)
                        .max()
                        .unwrap_or(Time::MIN);
                    assert!(b <= exact, "round {round}");
                    assert!(b == Time::MIN || seen.iter().any(|e| e.2 == b));
                }
            }
        }
    }

    /// Used as the rules use it (a bound, then the fit found from it recorded), the bounds
    /// are those of every recorded fit: the skipped records and the stopped updates lose none.
    #[test]
    fn skipped_records_lose_no_bound() {
        let mut rnd = numbers(7);
        let mut f = Floor::new(512);
        for round in 0..30 {
            f.clear();
            let mut seen: Vec<(u32, Time, Time)> = Vec::new();
            for _ in 0..300 {
                // Few distinct jobs, so that the same job comes back often.
                let (w, d) = (1 + rnd(40) as u32 * 12, 1 + rnd(30) as Time * 500);
                let b = f.bound(w, d);
                let plain = seen
                    .iter()
                    .filter(|e| {
                        (e.0, e.1) == (w, d)
                            || class(u64::from(e.0)) < classes_at_most(u64::from(w))
                                && class(e.1 as u64) < classes_at_most(d as u64)
                    })
                    .map(|e| e.2)
                    .max()
                    .unwrap_or(Time::MIN);
                assert_eq!(b, plain, "round {round}");
                // The fit is at the bound or later (often at it).
                let s = b.max(0) + [0, 0, 1, 1000][rnd(4) as usize];
                f.record(w, d, s);
                seen.push((w, d, s));
            }
        }
    }
}
