//! Waiting jobs keyed by a number, sorted only as far as they are read: smallest key first,
//! ties by arrival (a total order, so sorting the first jobs alone gives the same head as
//! sorting all).

use std::cmp::Ordering;

/// Smallest key first (IEEE total order: NaN after every number), ties by job index.
fn cmp(a: &(f64, usize), b: &(f64, usize)) -> Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

/// The keyed jobs of one pass.
#[derive(Default)]
pub(super) struct Sorted {
    keyed: Vec<(f64, usize)>,
    /// `keyed[..sorted]` is the sorted head of the order.
    sorted: usize,
}

impl Sorted {
    /// Begins a pass with no jobs.
    pub(super) fn clear(&mut self) {
        self.keyed.clear();
        self.sorted = 0;
    }

    /// Adds a job. Jobs come in arrival order (ascending index): while each comes after the
    /// previous in the order (keys that do not decrease; every key equal, as under Slurm's
    /// default weights, is the usual case), all the jobs pushed are the sorted head.
    pub(super) fn push(&mut self, key: f64, job: usize) {
        let n = self.keyed.len();
        let next = (key, job);
        // Equal keys (the same bits) are in order by arrival, without the total order's
        // comparison.
        let in_order =
            |last: &(f64, usize)| last.0.to_bits() == key.to_bits() || cmp(last, &next).is_lt();
        if self.sorted == n && self.keyed.last().is_none_or(in_order) {
            self.sorted = n + 1;
        } else {
            // Out of order: the jobs before it are no longer the head (and no later push,
            // with `sorted` below the count, is counted).
            self.sorted = 0;
        }
        self.keyed.push(next);
    }

    /// Appends the next jobs in order to `out` until it holds `upto` (or all); sorts a head at
    /// least twice as long as the one sorted so far, so reading `k` jobs costs O(n log k).
    pub(super) fn extend(&mut self, out: &mut Vec<usize>, upto: usize) {
        let n = self.keyed.len();
        let want = upto.min(n);
        if want > self.sorted {
            let grow = (want - self.sorted).max(self.sorted).max(16);
            let rest = &mut self.keyed[self.sorted..];
            if grow < rest.len() {
                rest.select_nth_unstable_by(grow - 1, cmp);
                rest[..grow].sort_unstable_by(cmp);
                self.sorted += grow;
            } else {
                rest.sort_unstable_by(cmp);
                self.sorted = n;
            }
        }
        let from = out.len().min(self.sorted);
        let to = want.max(from);
        out.extend(self.keyed[from..to].iter().map(|&(_, j)| j));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The jobs of `keys` (job `j` keyed `keys[j]`, pushed in arrival order) read in `steps`,
    /// then the rest; and the same jobs fully sorted.
    fn read_in_steps(keys: &[f64], steps: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let mut full: Vec<(f64, usize)> = keys.iter().copied().zip(0..).collect();
        full.sort_by(cmp);
        let mut s = Sorted::default();
        for (j, &k) in keys.iter().enumerate() {
            s.push(k, j);
        }
        let mut out = Vec::new();
        let mut upto = 0;
        for step in steps {
            upto += step;
            s.extend(&mut out, upto);
            assert!(out.len() >= upto.min(keys.len()));
        }
        s.extend(&mut out, usize::MAX);
        (out, full.iter().map(|&(_, j)| j).collect())
    }

    proptest! {
        /// Keys pushed in arrival order, often equal or rising (the jobs pushed then count as
        /// sorted), sometimes falling, NaN or a signed zero, read in any steps: a full sort.
        #[test]
        fn jobs_pushed_in_order_need_no_sort(
            keys in prop::collection::vec(
                prop_oneof![
                    4 => Just(1.0),
                    2 => 0.0f64..4.0,
                    1 => Just(f64::NAN),
                    1 => Just(-0.0),
                    1 => Just(0.0),
                ],
                0..40,
            ),
            rising in any::<bool>(),
            steps in prop::collection::vec(1usize..8, 1..8),
        ) {
            let mut keys = keys;
            if rising {
                keys.sort_by(f64::total_cmp);
            }
            let (read, full) = read_in_steps(&keys, &steps);
            prop_assert_eq!(read, full);
        }
    }

    #[test]
    fn read_in_steps_equals_a_full_sort() {
        // Keys with ties, a NaN and both zeros; read one at a time, then in bigger steps.
        let keys: Vec<f64> = (0..200)
            .map(|i| match i % 7 {
                0 => f64::NAN,
                1 => -0.0,
                2 => 0.0,
                _ => ((i * 37) % 23) as f64 - 11.0,
            })
            .collect();
        for steps in [vec![1usize; 200], vec![3, 10, 40, 200], vec![200]] {
            let (read, full) = read_in_steps(&keys, &steps);
            assert_eq!(read, full);
        }
    }
}
