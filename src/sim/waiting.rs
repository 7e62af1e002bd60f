//! The engine's waiting jobs: job indices in ascending (arrival) order, read as one slice.
//!
//! Jobs mostly leave from near the front (the head of the queue starts first) and arrive at the
//! back. A plain `Vec` moves every later job at each removal, so a queue of a million jobs
//! submitted at one instant cost a million moves per start. Here the slice starts at an offset
//! into the vector: a job leaving the front half moves the jobs before it one place right and
//! the offset on, so a removal moves the shorter side, and a start at the front costs O(1). The
//! space before the offset is given back once it is as large as the queue itself.

use std::ops::Deref;

/// Waiting jobs in ascending order; dereferences to the slice of them.
#[derive(Debug, Default)]
pub(super) struct Waiting {
    /// `slots[head..]` are the waiting jobs; `slots[..head]` is unused.
    slots: Vec<usize>,
    head: usize,
}

impl Deref for Waiting {
    type Target = [usize];

    #[inline]
    fn deref(&self) -> &[usize] {
        &self.slots[self.head..]
    }
}

impl Waiting {
    /// Appends job `j`, which must come after every waiting job (an arrival).
    pub(super) fn push(&mut self, j: usize) {
        debug_assert!(self.last().is_none_or(|&w| w < j));
        if self.head > 0 && self.head >= self.len() {
            self.slots.drain(..self.head);
            self.head = 0;
        }
        self.slots.push(j);
    }

    /// Removes the job at position `pos`, moving the shorter side of the queue.
    #[inline]
    pub(super) fn remove(&mut self, pos: usize) -> usize {
        let at = self.head + pos;
        let j = self.slots[at];
        if pos == 0 {
            self.head += 1;
        } else if pos < (self.slots.len() - self.head) / 2 {
            self.slots.copy_within(self.head..at, self.head + 1);
            self.head += 1;
        } else {
            self.slots.remove(at);
        }
        if self.head == self.slots.len() {
            self.slots.clear();
            self.head = 0;
        }
        j
    }

    /// Inserts job `j` at position `pos` (where it belongs in ascending order), moving the
    /// shorter side of the queue when there is room before it.
    pub(super) fn insert(&mut self, pos: usize, j: usize) {
        debug_assert!(pos <= self.len());
        if self.head > 0 && pos < self.len() / 2 {
            self.slots
                .copy_within(self.head..self.head + pos, self.head - 1);
            self.head -= 1;
            self.slots[self.head + pos] = j;
        } else {
            self.slots.insert(self.head + pos, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Removals and insertions at positions drawn by a seeded generator, against a `Vec`.
    #[test]
    fn behaves_as_a_sorted_vec() {
        let mut next = crate::sim::test_numbers(7);
        let mut w = Waiting::default();
        let mut v: Vec<usize> = Vec::new();
        let mut arrivals = 0;
        let mut removed = 0;
        for _ in 0..20_000 {
            match next(4) {
                0 | 1 => {
                    w.push(arrivals);
                    v.push(arrivals);
                    arrivals += 1;
                }
                2 if !v.is_empty() => {
                    // Mostly near the front, as starts are.
                    let pos = if next(2) == 0 {
                        next(v.len().min(3) as u64) as usize
                    } else {
                        next(v.len() as u64) as usize
                    };
                    assert_eq!(w.remove(pos), v.remove(pos));
                    removed += 1;
                }
                3 if removed > 0 => {
                    // Re-insert a job that left (a preemption), where it belongs.
                    let j = (next(arrivals as u64 + 1) as usize).min(arrivals.saturating_sub(1));
                    if let Err(pos) = v.binary_search(&j) {
                        w.insert(pos, j);
                        v.insert(pos, j);
                    }
                }
                _ => {}
            }
            assert_eq!(&*w, v.as_slice());
            assert!(w.head <= w.slots.len());
        }
        while !v.is_empty() {
            assert_eq!(w.remove(0), v.remove(0));
        }
        assert!(w.is_empty());
        assert_eq!(w.slots.len(), 0, "an empty queue holds no slots");
    }
}
