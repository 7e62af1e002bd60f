//! The whole-node reservations of a backfill cycle ([`Holds`]), kept per node in the two forms
//! the cycle reads them in:
//!
//! - **runs**: each node's reservations merged where they overlap or touch (a span joins the
//!   run it overlaps or touches: `from <= run end` and `to >= run start`), so a node's runs are
//!   sorted and apart (each begins after the one before ends). A node is held somewhere over
//!   `[from, to]` (Slurm's `begin_time <= end_time` test) exactly when one of its runs begins
//!   at or before `to` and ends after `from`: a run covers its interval without a gap. And the
//!   first reservation boundary after `t` at which a node held since `t` is free again (Slurm's
//!   `later_start`) is the smallest run end after `t` over all nodes: a node's first run
//!   ending after `t` is where it is free again first, and reservations that ended by `t` never
//!   bridge two that did not (one that did not ends after `t`, past any start up to `t`). All
//!   the runs' ends are kept in one sorted list: a binary search finds it.
//! - **spans**: each node's reservations as they were made, sorted, for the strict test of a
//!   job's own run ([`Holds::overlap`]: a reservation ending where the run begins does not
//!   count, so merged runs would answer otherwise at touching ends).
//!
//! Before, both were passes over every reservation of every node at every step of a job's
//! test; the answers are the same (property test below: the runs and their ends against the
//! plain scans of the spans).

use crate::Time;

/// A batch of run ends this long or longer is merged into the sorted ends in one pass (shorter
/// ones are inserted or removed one by one).
const MERGE_BATCH: usize = 16;

/// A cycle's reservations, per node.
#[derive(Default)]
pub(super) struct Holds {
    /// Per node, its reservations [from, to), sorted.
    spans: Vec<Vec<(Time, Time)>>,
    /// The nodes with a reservation.
    touched: Vec<u32>,
    /// Per node, its reservations merged where they overlap or touch: sorted, apart.
    runs: Vec<Vec<(Time, Time)>>,
    /// Every run's end, over all nodes, sorted (a multiset).
    ends: Vec<Time>,
    /// Buffers: run ends gone and new in one [`Holds::hold`].
    gone: Vec<Time>,
    new: Vec<Time>,
    merged: Vec<Time>,
}

impl Holds {
    /// No reservation on `nodes` nodes.
    pub(super) fn new(nodes: usize) -> Self {
        Holds {
            spans: vec![Vec::new(); nodes],
            runs: vec![Vec::new(); nodes],
            ..Holds::default()
        }
    }

    /// No reservation on `nodes` nodes, in this memory.
    pub(super) fn clear(&mut self, nodes: usize) {
        for &n in &self.touched {
            self.spans[n as usize].clear();
            self.runs[n as usize].clear();
        }
        self.touched.clear();
        self.ends.clear();
        self.spans.resize_with(nodes, Vec::new);
        self.runs.resize_with(nodes, Vec::new);
    }

    /// The nodes of `nodes` are reserved over [from, to).
    pub(super) fn hold(&mut self, from: Time, to: Time, nodes: impl Iterator<Item = u32>) {
        self.gone.clear();
        self.new.clear();
        for n in nodes {
            let n = n as usize;
            let spans = &mut self.spans[n];
            if spans.is_empty() {
                self.touched.push(n as u32);
            }
            let at = spans.partition_point(|&s| s <= (from, to));
            spans.insert(at, (from, to));
            // The runs the span overlaps or touches: i..j.
            let runs = &mut self.runs[n];
            let i = runs.partition_point(|r| r.1 < from);
            let j = runs.partition_point(|r| r.0 <= to);
            if i == j {
                runs.insert(i, (from, to));
                self.new.push(to);
                continue;
            }
            let run = (from.min(runs[i].0), to.max(runs[j - 1].1));
            if j - i == 1 && run.1 == runs[i].1 {
                runs[i] = run;
                continue;
            }
            self.gone.extend(runs[i..j].iter().map(|r| r.1));
            self.new.push(run.1);
            runs.splice(i..j, [run]);
        }
        self.update_ends();
    }

    /// The sorted ends less `gone`, plus `new` (a multiset: an end both gone and new, as when
    /// a node is named twice, cancels out first).
    fn update_ends(&mut self) {
        self.gone.sort_unstable();
        self.new.sort_unstable();
        cancel_common(&mut self.gone, &mut self.new);
        let ends = &mut self.ends;
        if self.gone.len() + self.new.len() < MERGE_BATCH {
            for &e in &self.gone {
                let at = ends.partition_point(|&x| x < e);
                ends.remove(at);
            }
            for &e in &self.new {
                let at = ends.partition_point(|&x| x <= e);
                ends.insert(at, e);
            }
            return;
        }
        self.merged.clear();
        let (mut g, mut n) = (0, 0);
        for &e in ends.iter() {
            while n < self.new.len() && self.new[n] <= e {
                self.merged.push(self.new[n]);
                n += 1;
            }
            if g < self.gone.len() && self.gone[g] == e {
                g += 1;
                continue;
            }
            self.merged.push(e);
        }
        self.merged.extend_from_slice(&self.new[n..]);
        debug_assert_eq!(g, self.gone.len());
        std::mem::swap(ends, &mut self.merged);
    }

    /// Marks in `out` (one entry per node) the nodes a reservation holds over some of
    /// `[from, to]` (one beginning at `to` counts): those with a run beginning at or before
    /// `to` and ending after `from`.
    pub(super) fn held_over(&self, from: Time, to: Time, out: &mut Vec<bool>) {
        out.clear();
        out.resize(self.runs.len(), false);
        // Only the nodes with a reservation can be held.
        for &n in &self.touched {
            let runs = &self.runs[n as usize];
            out[n as usize] = match runs.as_slice() {
                [] => false,
                [r] => r.0 <= to && r.1 > from,
                _ => {
                    let i = runs.partition_point(|r| r.1 <= from);
                    runs.get(i).is_some_and(|r| r.0 <= to)
                }
            };
        }
    }

    /// The smallest end of a run after `t`, over all nodes.
    pub(super) fn first_end_after(&self, t: Time) -> Option<Time> {
        self.ends
            .get(self.ends.partition_point(|&e| e <= t))
            .copied()
    }

    /// True when a reservation on one of `nodes` overlaps `(from, to)` strictly (`to > x` and
    /// `y > from` for a reservation [x, y)).
    pub(super) fn overlap(
        &self,
        from: Time,
        to: Time,
        mut nodes: impl Iterator<Item = u32>,
    ) -> bool {
        nodes.any(|n| {
            self.spans[n as usize]
                .iter()
                .take_while(|s| s.0 < to)
                .any(|s| s.1 > from)
        })
    }

    /// Every reservation as (node, from, to), by node.
    #[cfg(test)]
    pub(super) fn spans(&self) -> impl Iterator<Item = (u32, Time, Time)> + '_ {
        self.spans
            .iter()
            .enumerate()
            .flat_map(|(n, s)| s.iter().map(move |&(a, b)| (n as u32, a, b)))
    }
}

/// Removes from the sorted lists `a` and `b` the values both hold (as multisets).
fn cancel_common(a: &mut Vec<Time>, b: &mut Vec<Time>) {
    let (mut i, mut j, mut ka, mut kb) = (0, 0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                a[ka] = a[i];
                (i, ka) = (i + 1, ka + 1);
            }
            std::cmp::Ordering::Greater => {
                b[kb] = b[j];
                (j, kb) = (j + 1, kb + 1);
            }
        }
    }
    a.copy_within(i.., ka);
    a.truncate(ka + a.len() - i);
    b.copy_within(j.., kb);
    b.truncate(kb + b.len() - j);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Worked by hand: node 0 reserved over [10, 20), then [20, 30) (touching: one run [10,
    /// 30)), then [40, 50); node 1 over [5, 15). Held over [30, 35]: node 0's run [10, 30)
    /// ends at 30, not after it, and [40, 50) begins after 35: neither node. Held over [30,
    /// 40]: node 0 (the run beginning at 40 counts). The first end after 12: 15 (node 1);
    /// after 15: 30; after 30: 50; after 50: none. The strict test: (30, 40) meets no
    /// reservation of node 0 (one ends at 30, the next begins at 40); (29, 40) does.
    #[test]
    fn runs_merge_touching_reservations() {
        let mut h = Holds::new(2);
        h.hold(10, 20, [0].into_iter());
        h.hold(20, 30, [0].into_iter());
        h.hold(40, 50, [0].into_iter());
        h.hold(5, 15, [1].into_iter());
        assert_eq!(h.runs[0], [(10, 30), (40, 50)]);
        let mut out = Vec::new();
        h.held_over(30, 35, &mut out);
        assert_eq!(out, [false, false]);
        h.held_over(30, 40, &mut out);
        assert_eq!(out, [true, false]);
        assert_eq!(h.first_end_after(12), Some(15));
        assert_eq!(h.first_end_after(15), Some(30));
        assert_eq!(h.first_end_after(30), Some(50));
        assert_eq!(h.first_end_after(50), None);
        assert!(!h.overlap(30, 40, [0].into_iter()));
        assert!(h.overlap(29, 40, [0].into_iter()));
        // [25, 45) bridges both runs of node 0: one run [10, 50), its ends 15 and 50.
        h.hold(25, 45, [0].into_iter());
        assert_eq!(h.runs[0], [(10, 50)]);
        assert_eq!(h.ends, [15, 50]);
    }

    /// The plain scans the runs stand for (the code before): held over `[from, to]` from
    /// every span, and the first end after `t` as each node's first chain of spans (sorted,
    /// those ended by `t` left out, each joining while it begins by the chain's end).
    fn plain(h: &Holds, from: Time, to: Time, t: Time) -> (Vec<bool>, Option<Time>) {
        let mut held = vec![false; h.spans.len()];
        for (n, a, b) in h.spans() {
            held[n as usize] |= a <= to && b > from;
        }
        let mut first: Option<Time> = None;
        for spans in &h.spans {
            let mut kept = spans.iter().filter(|s| s.1 > t);
            if let Some(&(_, mut end)) = kept.next() {
                for &(a, b) in kept {
                    if a <= end {
                        end = end.max(b);
                    }
                }
                first = Some(first.map_or(end, |f| f.min(end)));
            }
        }
        (held, first)
    }

    proptest! {
        /// Random reservations (overlapping, touching, nested, apart) on 6 nodes, made in
        /// random order in batches: the runs answer as the plain scans of the spans, and the
        /// sorted ends are the runs' ends.
        #[test]
        fn runs_answer_as_the_spans(
            holds in prop::collection::vec(
                (0i64..60, 1i64..40, prop::collection::vec(0u32..6, 1..7)), 0..30),
            probes in prop::collection::vec((0i64..100, 0i64..40, 0i64..100), 1..8),
        ) {
            let mut h = Holds::new(6);
            for (from, len, nodes) in &holds {
                h.hold(*from, from + len, nodes.iter().copied());
                let mut ends: Vec<Time> = h.runs.iter().flatten().map(|r| r.1).collect();
                ends.sort_unstable();
                prop_assert_eq!(&h.ends, &ends);
                for runs in &h.runs {
                    prop_assert!(runs.windows(2).all(|w| w[0].1 < w[1].0));
                }
                for &(from, len, t) in &probes {
                    let (held, first) = plain(&h, from, from + len, t);
                    let mut out = Vec::new();
                    h.held_over(from, from + len, &mut out);
                    prop_assert_eq!(out, held);
                    prop_assert_eq!(h.first_end_after(t), first);
                }
            }
        }
    }
}
