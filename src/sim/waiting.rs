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
//!
//! Short lists, the usual case (on LANL-CM5 a few hundred jobs at most), are kept as that
//! sorted vector instead, which passes read as a slice: reading a job costs a load rather than
//! a bit search, and a job joins or leaves with a short move. The list moves to the bits when it
//! grows past [`LIST_MAX`] jobs and back to a vector when it shrinks to half of that, so each
//! switch is paid for by as many changes as it moves jobs.

/// The waiting jobs, a set of job indices read in ascending order (the arrival order).
#[derive(Debug, Clone)]
pub struct Waiting {
    /// While `listed`: the jobs in ascending order (at most [`LIST_MAX`] of them). Else empty.
    list: Vec<usize>,
    listed: bool,
    /// While not `listed`: `levels[0]`, a bit per job; `levels[k + 1]`, a bit per word of
    /// `levels[k]`, set while that word is not zero. The last level is one word. Else zero.
    levels: Vec<Vec<u64>>,
    len: usize,
    /// The earliest-arrived waiting job ([`NONE`] when none waits), kept at every change so
    /// that the head of the queue and the reads from it cost no search.
    head: usize,
}

/// The longest list kept as a sorted vector: a job leaving from its middle moves at most this
/// many others (a few kilobytes), which costs less than reading the list bit by bit.
const LIST_MAX: usize = 1024;

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
            list: Vec::new(),
            listed: true,
            levels,
            len: 0,
            head: NONE,
        }
    }

    /// Adds job `j` (an arrival, or a preempted job waiting again).
    #[inline]
    pub(super) fn insert(&mut self, j: usize) {
        if !self.listed {
            return self.insert_bit(j);
        }
        // Arrivals come last: no search.
        if self.list.last().is_none_or(|&last| last < j) {
            self.list.push(j);
        } else {
            match self.list.binary_search(&j) {
                Ok(_) => return,
                Err(at) => self.list.insert(at, j),
            }
        }
        self.len += 1;
        self.head = self.list[0];
        if self.len > LIST_MAX {
            self.move_to_bits();
        }
    }

    /// [`Waiting::insert`] into the bits.
    #[inline(never)]
    fn insert_bit(&mut self, j: usize) {
        let (w, bit) = at(j);
        if self.levels[0][w] & bit != 0 {
            return;
        }
        self.len += 1;
        self.head = self.head.min(j);
        self.set_bit(j);
    }

    /// Moves the list from the vector to the bits.
    #[cold]
    fn move_to_bits(&mut self) {
        self.listed = false;
        for k in 0..self.list.len() {
            self.set_bit(self.list[k]);
        }
        self.list = Vec::new();
    }

    /// Removes job `j` (it started); true if it was waiting.
    #[inline]
    pub(super) fn remove(&mut self, j: usize) -> bool {
        if !self.listed {
            return self.remove_bit(j);
        }
        let Ok(at) = self.list.binary_search(&j) else {
            return false;
        };
        self.list.remove(at);
        self.len -= 1;
        self.head = self.list.first().copied().unwrap_or(NONE);
        true
    }

    /// [`Waiting::remove`] from the bits; back to a vector at half of [`LIST_MAX`].
    #[inline(never)]
    fn remove_bit(&mut self, j: usize) -> bool {
        if !self.contains(j) {
            return false;
        }
        self.len -= 1;
        self.clear_bit(j);
        if j == self.head {
            self.head = self.next_at(0, j + 1).unwrap_or(NONE);
        }
        if self.len <= LIST_MAX / 2 {
            let list: Vec<usize> = self.bits_from(self.head).collect();
            for &k in &list {
                self.clear_bit(k);
            }
            self.list = list;
            self.listed = true;
        }
        true
    }

    /// Sets job `j`'s bit and the summary bits above it.
    fn set_bit(&mut self, j: usize) {
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

    /// Clears job `j`'s bit, and the summary bits above it that no longer cover a set bit.
    fn clear_bit(&mut self, j: usize) {
        let mut i = j;
        for level in &mut self.levels {
            let (w, bit) = at(i);
            level[w] &= !bit;
            if level[w] != 0 {
                break;
            }
            i = w;
        }
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
        if self.listed {
            return self.list.binary_search(&j).is_ok();
        }
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
        if self.listed {
            let at = if j <= self.head {
                0
            } else {
                self.list.partition_point(|&x| x < j)
            };
            Iter(Read::List(self.list[at..].iter()))
        } else {
            Iter(Read::Bits(self.bits_from(j)))
        }
    }

    /// The waiting jobs with index `j` or more, read from the bits.
    fn bits_from(&self, j: usize) -> Bits<'_> {
        let j = j.max(self.head);
        let (w, _) = at(j);
        let bits = self.levels[0]
            .get(w)
            .map_or(0, |&x| x & (u64::MAX << (j % 64)));
        Bits {
            set: self,
            word: w,
            bits,
        }
    }

    /// The waiting jobs in arrival order, as a vector.
    pub fn to_vec(&self) -> Vec<usize> {
        let mut v = Vec::with_capacity(self.len);
        self.append_from(0, self.len, &mut v);
        v
    }

    /// Appends to `out` the first `count` waiting jobs with index `j` or more, in arrival
    /// order (one slice copy while the list is a vector).
    pub(crate) fn append_from(&self, j: usize, count: usize, out: &mut Vec<usize>) {
        match self.from(j).0 {
            Read::List(jobs) => {
                let jobs = jobs.as_slice();
                out.extend_from_slice(&jobs[..count.min(jobs.len())]);
            }
            Read::Bits(jobs) => out.extend(jobs.take(count)),
        }
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
pub struct Iter<'a>(Read<'a>);

/// Where an [`Iter`] reads the jobs from.
#[derive(Debug, Clone)]
enum Read<'a> {
    /// The sorted vector of a short list.
    List(std::slice::Iter<'a, usize>),
    /// The bits.
    Bits(Bits<'a>),
}

impl Iterator for Iter<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match &mut self.0 {
            Read::List(it) => it.next().copied(),
            Read::Bits(it) => it.next(),
        }
    }
}

/// The waiting jobs from some index on, read from the bits.
#[derive(Debug, Clone)]
struct Bits<'a> {
    set: &'a Waiting,
    /// The word of `levels[0]` that `bits` comes from.
    word: usize,
    /// The bits of that word not given yet.
    bits: u64,
}

impl Iterator for Bits<'_> {
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

    /// A list growing past [`LIST_MAX`] drops its vector and reads the bits; shrunk to half
    /// of it, it reads a rebuilt vector; both read the same jobs.
    #[test]
    fn switches_between_the_vector_and_the_bits() {
        let mut w = Waiting::new(10_000);
        // Every third job arrives, out of order around the threshold.
        let jobs: Vec<usize> = (0..LIST_MAX + 200).map(|k| 3 * k).collect();
        for &j in jobs.iter().rev().take(10).chain(jobs.iter()) {
            w.insert(j);
        }
        assert!(!w.listed && w.list.is_empty());
        assert_eq!(w.len(), LIST_MAX + 200);
        assert!(w.iter().eq(jobs.iter().copied()));
        // Jobs leave from the middle until half of LIST_MAX wait.
        let keep: Vec<usize> = jobs.iter().copied().filter(|j| j % 4 == 1).collect();
        for &j in jobs.iter().filter(|j| *j % 4 != 1) {
            assert!(w.remove(j));
        }
        assert!(w.len() <= LIST_MAX / 2 && w.listed);
        assert_eq!(w.list, keep);
        assert!(w.from(1000).eq(keep.iter().copied().filter(|&j| j >= 1000)));
        assert_eq!(w.first(), keep.first().copied());
        assert!(w.contains(9) && !w.contains(3) && !w.contains(10));
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
