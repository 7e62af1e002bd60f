//! The engine's waiting jobs: job indices, read in ascending (arrival) order.
//!
//! A job's index is its arrival rank, so the waiting list in arrival order is the set of the
//! waiting jobs' indices in ascending order. It is kept as a bit per job, with levels of summary
//! bits above it: a bit per word of the level below, set while that word holds a set bit, up
//! to a level of one word. A job joins or leaves in O(levels) wherever it stands in the list,
//! and the next waiting job after any index is found in O(levels) (four levels for 16 M jobs).
//! A sorted vector moved the jobs on one side of a job leaving from its middle: with a million
//! jobs submitted at one instant, each job EASY backfilled from the middle of the list moved a
//! quarter of a million others.

/// The waiting jobs, a set of job indices read in ascending order (the arrival order).
#[derive(Debug, Clone)]
pub struct Waiting {
    /// `levels[0]`: a bit per job; `levels[k + 1]`: a bit per word of `levels[k]`, set while
    /// that word is not zero. The last level is one word.
    levels: Vec<Vec<u64>>,
    len: usize,
    /// The earliest-arrived waiting job ([`NONE`] when none waits), kept at every change so
    /// that the head of the queue and the reads from it cost no search.
    head: usize,
}

/// [`Waiting::head`] of an empty set.
const NONE: usize = usize::MAX;

impl Default for Waiting {
    fn default() -> Self {
        Self::new(0)
    }
}

/// The word and the bit of index `i`.
#[inline]
fn at(i: usize) -> (usize, u64) {
    (i / 64, 1 << (i % 64))
}

impl Waiting {
    /// An empty set for jobs `0..jobs`.
    pub(super) fn new(jobs: usize) -> Self {
        let mut levels = vec![vec![0; jobs.div_ceil(64).max(1)]];
        while let Some(words) = levels.last().map(Vec::len).filter(|&n| n > 1) {
            levels.push(vec![0; words.div_ceil(64)]);
        }
        Self {
            levels,
            len: 0,
            head: NONE,
        }
    }

    /// Adds job `j` (an arrival, or a preempted job waiting again).
    pub(super) fn insert(&mut self, j: usize) {
        let (w, bit) = at(j);
        if self.levels[0][w] & bit != 0 {
            return;
        }
        self.len += 1;
        self.head = self.head.min(j);
        let mut i = j;
        for level in &mut self.levels {
            let (w, bit) = at(i);
            let was = level[w];
            level[w] = was | bit;
            if was != 0 {
                break;
            }
            i = w;
        }
    }

    /// Removes job `j` (it started); true if it was waiting.
    pub(super) fn remove(&mut self, j: usize) -> bool {
        if !self.contains(j) {
            return false;
        }
        self.len -= 1;
        let mut i = j;
        for level in &mut self.levels {
            let (w, bit) = at(i);
            level[w] &= !bit;
            if level[w] != 0 {
                break;
            }
            i = w;
        }
        if j == self.head {
            self.head = self.next_at(0, j + 1).unwrap_or(NONE);
        }
        true
    }

    /// The number of waiting jobs.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no job waits.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True if job `j` waits.
    #[inline]
    pub fn contains(&self, j: usize) -> bool {
        let (w, bit) = at(j);
        self.levels[0].get(w).is_some_and(|&x| x & bit != 0)
    }

    /// The earliest-arrived waiting job.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        (self.head != NONE).then_some(self.head)
    }

    /// The waiting jobs in arrival order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        self.from(self.head)
    }

    /// The waiting jobs with index `j` or more (arrived with or after job `j`), in arrival
    /// order.
    pub fn from(&self, j: usize) -> Iter<'_> {
        let j = j.max(self.head);
        let (w, _) = at(j);
        let bits = self.levels[0]
            .get(w)
            .map_or(0, |&x| x & (u64::MAX << (j % 64)));
        Iter {
            set: self,
            word: w,
            bits,
        }
    }

    /// The waiting jobs in arrival order, as a vector.
    pub fn to_vec(&self) -> Vec<usize> {
        let mut v = Vec::with_capacity(self.len);
        v.extend(self.iter());
        v
    }

    /// The smallest set index of level `k` that is at least `i`: up the levels to the first
    /// word with a set bit at or after `i`'s, then down through the lowest set bits.
    fn next_at(&self, k: usize, i: usize) -> Option<usize> {
        let (mut level, mut i) = (k, i);
        loop {
            let (w, _) = at(i);
            let here = self.levels[level].get(w)? & (u64::MAX << (i % 64));
            if here != 0 {
                i = w * 64 + here.trailing_zeros() as usize;
                break;
            }
            level += 1;
            if level == self.levels.len() {
                return None;
            }
            i = w + 1;
        }
        while level > k {
            level -= 1;
            i = i * 64 + self.levels[level][i].trailing_zeros() as usize;
        }
        Some(i)
    }
}

/// The waiting jobs from some index on, in ascending order.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    set: &'a Waiting,
    /// The word of `levels[0]` that `bits` comes from.
    word: usize,
    /// The bits of that word not given yet.
    bits: u64,
}

impl Iterator for Iter<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.bits == 0 {
            let levels = &self.set.levels;
            self.word = if levels.len() > 1 {
                self.set.next_at(1, self.word + 1)?
            } else {
                return None;
            };
            self.bits = levels[0][self.word];
        }
        let j = self.word * 64 + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(j)
    }
}

impl<'a> IntoIterator for &'a Waiting {
    type Item = usize;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Arrivals, starts and returns at indices drawn by a seeded generator, against a
    /// `BTreeSet`: membership, first, length and every iteration agree.
    #[test]
    fn behaves_as_a_sorted_set() {
        for jobs in [1, 63, 64, 65, 4096, 4097, 300_000] {
            let mut next = crate::sim::test_numbers(jobs as u64);
            let mut w = Waiting::new(jobs);
            let mut s = BTreeSet::new();
            let mut arrivals = 0;
            for step in 0..20_000 {
                match next(4) {
                    0 | 1 if arrivals < jobs => {
                        w.insert(arrivals);
                        s.insert(arrivals);
                        arrivals += 1;
                    }
                    2 if !s.is_empty() => {
                        // The first job or any job (a head start or a backfill).
                        let j = if next(2) == 0 {
                            *s.first().unwrap()
                        } else {
                            next(arrivals as u64) as usize
                        };
                        assert_eq!(w.remove(j), s.remove(&j));
                    }
                    3 if arrivals > 0 => {
                        // A job that left waits again (a preemption).
                        let j = next(arrivals as u64) as usize;
                        w.insert(j);
                        s.insert(j);
                    }
                    _ => {}
                }
                assert_eq!(w.len(), s.len());
                assert_eq!(w.first(), s.first().copied());
                let probe = next(jobs as u64 + 70) as usize;
                assert_eq!(w.contains(probe), s.contains(&probe));
                assert!(w.from(probe).eq(s.range(probe..).copied()));
                if step % 500 == 0 {
                    assert!(w.iter().eq(s.iter().copied()));
                }
            }
            assert!(w.iter().eq(s.iter().copied()));
            assert_eq!(w.to_vec(), s.iter().copied().collect::<Vec<_>>());
        }
    }

    /// By hand: jobs 0, 5, 64, 4096 and 70,000 across the levels' words.
    #[test]
    fn finds_jobs_across_words_and_levels() {
        let mut w = Waiting::new(100_000);
        assert_eq!(w.first(), None);
        for j in [70_000, 4096, 64, 5, 0] {
            w.insert(j);
        }
        assert_eq!(w.to_vec(), [0, 5, 64, 4096, 70_000]);
        assert_eq!(w.from(6).collect::<Vec<_>>(), [64, 4096, 70_000]);
        assert_eq!(w.from(4097).collect::<Vec<_>>(), [70_000]);
        assert!(w.remove(0) && w.remove(5) && w.remove(64));
        assert!(!w.remove(64));
        assert_eq!(w.first(), Some(4096));
        assert!(w.remove(4096));
        assert_eq!(w.first(), Some(70_000));
        assert_eq!(w.len(), 1);
        assert!(w.remove(70_000));
        assert!(w.is_empty() && w.first().is_none() && w.iter().next().is_none());
    }
}
