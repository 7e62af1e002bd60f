//! The free processors over time as the backfill cycle plans them (Slurm's `node_space` map,
//! on a pool of processors): a step function, the free count from each breakpoint on; running
//! jobs give processors back at their planned ends, reservations take them for a while. A
//! count may go below zero where a reservation rounded down overlaps a running job: such a
//! time is simply not free.

use crate::Time;

/// Free processors from each breakpoint to the next (the last one holds forever).
#[derive(Debug, Default, Clone)]
pub(super) struct Free {
    steps: Vec<(Time, i64)>,
}

impl Free {
    /// A plan made by [`Free::reset`].
    #[cfg(test)]
    pub(super) fn new(now: Time, free: u32, running: impl Iterator<Item = (Time, u32)>) -> Self {
        let mut f = Free::default();
        f.reset(now, free, running);
        f
    }

    /// The plan from `free` processors now, each `(end, procs)` of `running` given back at
    /// `end` (a job past its end gives them back now; one without an end, `Time::MAX`, never):
    /// a breakpoint per distinct end, in one pass over the ends sorted, in this plan's own
    /// memory (each backfill cycle reuses the last one's).
    pub(super) fn reset(
        &mut self,
        now: Time,
        free: u32,
        running: impl Iterator<Item = (Time, u32)>,
    ) {
        let steps = &mut self.steps;
        steps.clear();
        steps.push((now, i64::from(free)));
        steps.extend(
            running
                .filter(|&(end, _)| end < Time::MAX)
                .map(|(end, p)| (end.max(now), i64::from(p))),
        );
        steps[1..].sort_unstable_by_key(|e| e.0);
        // In place: each end adds its processors to the step at its time, a new step when
        // its time is later than the last one's.
        let mut last = 0;
        for k in 1..steps.len() {
            let (t, p) = steps[k];
            if t > steps[last].0 {
                let v = steps[last].1;
                last += 1;
                steps[last] = (t, v + p);
            } else {
                steps[last].1 += p;
            }
        }
        steps.truncate(last + 1);
    }

    /// The free processors now (at the first breakpoint): a job that needs more cannot start
    /// now, whatever is planned.
    pub(super) fn now(&self) -> i64 {
        self.steps.first().map_or(0, |s| s.1)
    }

    /// The index of the step holding `t`, splitting a step there if needed.
    fn split(&mut self, t: Time) -> usize {
        match self.steps.binary_search_by_key(&t, |s| s.0) {
            Ok(i) => i,
            Err(0) => {
                self.steps.insert(0, (t, 0));
                0
            }
            Err(i) => {
                let v = self.steps[i - 1].1;
                self.steps.insert(i, (t, v));
                i
            }
        }
    }

    /// Adds `delta` processors over [from, to).
    pub(super) fn add(&mut self, from: Time, to: Time, delta: i64) {
        if from >= to {
            return;
        }
        let a = self.split(from);
        let b = if to == Time::MAX {
            self.steps.len()
        } else {
            self.split(to)
        };
        for s in &mut self.steps[a..b] {
            s.1 += delta;
        }
    }

    /// The earliest time >= the first breakpoint at which `procs` processors (at least 1) are
    /// free for `len` seconds (at least 1).
    pub(super) fn earliest(&self, procs: u32, len: Time) -> Option<Time> {
        let need = i64::from(procs);
        let steps = &self.steps;
        let mut i = 0;
        loop {
            // A start can only be at a step with enough free processors.
            i += steps.get(i..)?.iter().position(|s| s.1 >= need)?;
            let end = steps[i].0.saturating_add(len);
            // The first step after i, while it begins before the end, without enough.
            let short = steps[i + 1..]
                .iter()
                .take_while(|s| s.0 < end)
                .position(|s| s.1 < need);
            match short {
                None => return Some(steps[i].0),
                // No start before the step that failed can work: try from the one after it.
                Some(k) => i += k + 2,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain construction [`Free::reset`] is held to: each running job's processors added
    /// from its end (or now) on, one breakpoint inserted at a time.
    fn plain_new(now: Time, free: u32, running: &[(Time, u32)]) -> Free {
        let mut f = Free {
            steps: vec![(now, i64::from(free))],
        };
        for &(end, p) in running {
            f.add(end.max(now), Time::MAX, i64::from(p));
        }
        f
    }

    /// The plain search [`Free::earliest`] is held to: from each breakpoint in turn, every
    /// step until the job's end checked.
    fn plain_earliest(f: &Free, procs: u32, len: Time) -> Option<Time> {
        let need = i64::from(procs);
        let steps = &f.steps;
        (0..steps.len()).map(|i| steps[i].0).find(|&t| {
            steps
                .iter()
                .enumerate()
                .filter(|&(k, s)| {
                    s.0 < t.saturating_add(len) && steps.get(k + 1).is_none_or(|n| n.0 > t)
                })
                .all(|(_, s)| s.1 >= need)
        })
    }

    proptest! {
        /// Any running jobs, then reservations (some rounded down before now, some forever),
        /// then jobs of any size and length: the earliest start of the plain search.
        #[test]
        fn earliest_agrees_with_the_plain_search(
            now in 0i64..50,
            free in 0u32..10,
            running in prop::collection::vec((0i64..200, 0u32..5), 0..20),
            held in prop::collection::vec((-20i64..250, 1i64..100, 1u32..6), 0..12),
            asked in prop::collection::vec((1u32..16, 1i64..300), 1..10),
        ) {
            let mut f = Free::new(now, free, running.into_iter());
            for (from, span, p) in held {
                let from = from.max(now - 20);
                let to = if span > 90 { Time::MAX } else { from + span };
                f.add(from, to, -i64::from(p));
            }
            for (procs, len) in asked {
                prop_assert_eq!(f.earliest(procs, len), plain_earliest(&f, procs, len));
            }
        }

        /// Running jobs in any order, ends before now, equal, or never: the same steps.
        #[test]
        fn new_agrees_with_inserting_each_end(
            now in 0i64..50,
            free in 0u32..10,
            running in prop::collection::vec(
                (prop_oneof![0i64..200, Just(Time::MAX)], 0u32..5),
                0..30,
            )
        ) {
            let fast = Free::new(now, free, running.iter().copied());
            let plain = plain_new(now, free, &running);
            // A plan reused from an earlier cycle, with a reservation in it.
            let mut reused = Free::new(now + 7, 3, [(now + 20, 2), (now + 9, 1)].into_iter());
            reused.add(now + 10, now + 30, -2);
            reused.reset(now, free, running.iter().copied());
            prop_assert_eq!(&fast.steps, &plain.steps);
            prop_assert_eq!(reused.steps, plain.steps);
        }
    }

    #[test]
    fn earliest_start_around_running_jobs_and_reservations() {
        // 2 free now (t=0), 4 more at 100, 2 more at 50.
        let mut f = Free::new(0, 2, [(100, 4), (50, 2)].into_iter());
        assert_eq!(f.earliest(2, 1000), Some(0));
        assert_eq!(f.earliest(4, 10), Some(50));
        assert_eq!(f.earliest(8, 10), Some(100));
        // A reservation of 6 over [100, 200): 8 fit only from 200.
        f.add(100, 200, -6);
        assert_eq!(f.earliest(8, 10), Some(200));
        assert_eq!(f.earliest(4, 50), Some(50));
        assert_eq!(f.earliest(4, 51), Some(200));
        assert_eq!(f.earliest(9, 1), None);
    }
}
