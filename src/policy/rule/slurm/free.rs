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
    /// `free` processors now, each `(end, procs)` of `running` given back at `end` (a job
    /// past its end gives them back now; one without an end, `Time::MAX`, never): a
    /// breakpoint per distinct end, in one pass over the ends sorted.
    pub(super) fn new(now: Time, free: u32, running: impl Iterator<Item = (Time, u32)>) -> Self {
        let mut ends: Vec<(Time, i64)> = running
            .filter(|&(end, _)| end < Time::MAX)
            .map(|(end, p)| (end.max(now), i64::from(p)))
            .collect();
        ends.sort_unstable_by_key(|e| e.0);
        let mut steps = Vec::with_capacity(ends.len() + 1);
        let mut last = (now, i64::from(free));
        for (t, p) in ends {
            if t > last.0 {
                steps.push(last);
                last.0 = t;
            }
            last.1 += p;
        }
        steps.push(last);
        Free { steps }
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

    /// The earliest time >= the first breakpoint at which `procs` processors are free for
    /// `len` seconds.
    pub(super) fn earliest(&self, procs: u32, len: Time) -> Option<Time> {
        let need = i64::from(procs);
        let mut i = 0;
        while i < self.steps.len() {
            let t = self.steps[i].0;
            let end = t.saturating_add(len);
            let mut ok = true;
            let mut k = i;
            while k < self.steps.len() && self.steps[k].0 < end {
                if self.steps[k].1 < need {
                    ok = false;
                    break;
                }
                k += 1;
            }
            if ok {
                return Some(t);
            }
            // No start before the step that failed can work: try from the one after it.
            i = k + 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain construction [`Free::new`] is held to: each running job's processors added
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

    proptest! {
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
            prop_assert_eq!(fast.steps, plain_new(now, free, &running).steps);
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
