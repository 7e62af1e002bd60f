//! The waiting jobs' reserved starts in a heap, so that a pass finds the jobs whose
//! reservation has come without reading every waiting job (with a million jobs waiting, that
//! read at every start was most of the run).
//!
//! A reservation is pushed when it is made and again when it moves; moves only go earlier and
//! a rebuild clears the heap, so an entry `(t, j)` is stale exactly when job `j` no longer
//! holds a reservation starting at `t` (it started, or moved earlier). Stale entries are
//! dropped when they reach the top.
//!
//! The heap is kept only while many jobs wait (from [`DUE_FROM`] until fewer than half as
//! many): with short queues (LANL-CM5's) reading the waiting jobs costs less than the heap's
//! pops (measured: 1,520.7 -> 1,547.1 M instructions for the whole of `schedlab run`
//! LANL-CM5 conservative with the heap always on, and the profile change reverted since).

use crate::Time;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Waiting jobs from which the heap is kept.
pub const DUE_FROM: usize = 1024;

#[derive(Debug, Default)]
pub struct DueIndex {
    /// `(reserved start, job)`, earliest first.
    heap: BinaryHeap<Reverse<(Time, usize)>>,
    /// Whether the heap is kept (else it is empty and pushes are ignored).
    on: bool,
}

impl DueIndex {
    /// Forgets every reservation (a rebuild places every job again).
    pub fn clear(&mut self) {
        self.heap.clear();
    }

    /// Job `j`'s reservation now starts at `start`.
    #[inline]
    pub fn push(&mut self, start: Time, j: usize) {
        if self.on {
            self.heap.push(Reverse((start, j)));
        }
    }

    /// Whether the heap is kept with `waiting` jobs waiting: turned on from [`DUE_FROM`]
    /// (filled with `reserved`, every waiting job's reserved start), off below half of it.
    /// Refilled when stale entries outnumber the waiting jobs (a compression's moves each
    /// leave one: 1.9 M at 10,000 jobs off-line), so it holds O(waiting) entries.
    pub fn keep(&mut self, waiting: usize, reserved: impl FnOnce() -> Vec<(Time, usize)>) -> bool {
        let stale = self.heap.len() > 2 * waiting + DUE_FROM;
        if (!self.on && waiting >= DUE_FROM) || (self.on && stale) {
            self.on = true;
            self.heap = reserved().into_iter().map(Reverse).collect();
        } else if self.on && waiting < DUE_FROM / 2 {
            self.on = false;
            self.heap = BinaryHeap::new();
        }
        self.on
    }

    /// Moves into `due` the jobs whose reservation starts at or before `now`, in arrival order
    /// (by index), and returns the earliest reserved start of the others (`Time::MAX`: none).
    /// `holds(t, j)`: job `j` waits with a reservation starting at `t` (else the entry is
    /// stale).
    pub fn take(
        &mut self,
        now: Time,
        holds: impl Fn(Time, usize) -> bool,
        due: &mut Vec<usize>,
    ) -> Time {
        while let Some(&Reverse((t, j))) = self.heap.peek() {
            if t > now && holds(t, j) {
                due.sort_unstable();
                return t;
            }
            self.heap.pop();
            if holds(t, j) {
                due.push(j);
            }
        }
        due.sort_unstable();
        Time::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_jobs_due_in_arrival_order_and_skips_stale_entries() {
        let mut index = DueIndex::default();
        assert!(!index.keep(3, Vec::new));
        index.push(1, 2);
        assert!(index.keep(DUE_FROM, Vec::new));
        // Job 0 reserved at 10 then moved to 4; job 1 at 5; job 2 at 3, started since;
        // job 3 at 7; job 4 at 20.
        let res = vec![
            Some((4, 9)),
            Some((5, 6)),
            None,
            Some((7, 8)),
            Some((20, 30)),
        ];
        for (t, j) in [(10, 0), (5, 1), (3, 2), (7, 3), (4, 0), (20, 4)] {
            index.push(t, j);
        }
        fn holds(res: &[Option<(Time, Time)>]) -> impl Fn(Time, usize) -> bool + '_ {
            move |t, j| res[j].is_some_and(|r| r.0 == t)
        }
        let mut due = Vec::new();
        assert_eq!(index.take(5, holds(&res), &mut due), 7);
        assert_eq!(due, vec![0, 1]);
        // Job 3 started: the stale entry of job 0 at 10 is passed over too.
        let res = vec![None, None, None, None, Some((20, 30))];
        due.clear();
        assert_eq!(index.take(8, holds(&res), &mut due), 20);
        assert!(due.is_empty());
        assert_eq!(index.take(25, holds(&res), &mut due), Time::MAX);
        assert_eq!(due, vec![4]);
    }

    #[test]
    fn turned_on_it_holds_the_reservations_it_is_given() {
        let mut index = DueIndex::default();
        assert!(index.keep(DUE_FROM, || vec![(9, 1), (4, 0)]));
        // Still on down to half.
        assert!(index.keep(DUE_FROM / 2, Vec::new));
        let res = [Some((4, 5)), Some((9, 10))];
        let holds = |t: Time, j: usize| res[j].is_some_and(|r| r.0 == t);
        let mut due = Vec::new();
        assert_eq!(index.take(4, holds, &mut due), 9);
        assert_eq!(due, vec![0]);
        // Too many stale entries: refilled with what it is given.
        for t in 10..(3 * DUE_FROM as Time) {
            index.push(t, 1);
        }
        assert!(index.keep(DUE_FROM / 2, || vec![(7, 1)]));
        assert_eq!(index.heap.len(), 1);
        // Off: emptied, and pushes are ignored until it is on again.
        assert!(!index.keep(DUE_FROM / 2 - 1, Vec::new));
        index.push(1, 1);
        due.clear();
        assert_eq!(index.take(20, holds, &mut due), Time::MAX);
        assert!(due.is_empty());
    }
}
