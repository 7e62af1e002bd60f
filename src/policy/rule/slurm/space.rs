//! The records of a backfill cycle's `node_space` map, counted as Slurm counts them
//! (backfill.c `_add_reservation`): `bf_node_space_size` (by default `bf_max_job_test`)
//! bounds how many records a cycle makes, and a cycle ends when a job is to get a
//! reservation once the map has had that many (`table size limit of N reached`).
//!
//! The map is a list of consecutive time records `[begin, end)`, each with the nodes no
//! reservation holds then, from now (rounded down to `bf_resolution`) to the window's end.
//! A reservation `[start, end)` on some nodes splits the record its start falls in (at its
//! very beginning too, the map's first record leaving an empty one), and the record its end
//! falls in (before the map's end), each split one more record; it takes its nodes out of
//! every record in between; then at most one pair of neighbouring records from the one
//! before its start to the one after its end, with the same nodes held, is merged, which
//! gives no record back to the count (the map's records live in an array filled in order).
//! [`NodePlan`](super::nodes::NodePlan) answers the will-run tests; this only counts.

use crate::Time;

/// One record: its span and which nodes a reservation holds over it.
#[derive(Debug, Clone, PartialEq)]
struct Rec {
    begin: Time,
    end: Time,
    /// One bit per node.
    held: Vec<u64>,
}

/// The records of one cycle's map.
#[derive(Debug)]
pub(super) struct Space {
    recs: Vec<Rec>,
    /// Records made in this cycle (`node_space_recs`), merged ones included.
    made: usize,
    resolution: Time,
}

impl Space {
    /// The map of a cycle from `begin` (now rounded down) to `end` (the window's end) on
    /// `nodes` nodes: one record.
    pub(super) fn new(begin: Time, end: Time, nodes: usize, resolution: Time) -> Self {
        Space {
            recs: vec![Rec {
                begin,
                end,
                held: vec![0; nodes.div_ceil(64)],
            }],
            made: 1,
            resolution: resolution.max(1),
        }
    }

    /// Records made so far (Slurm's `node_space_recs`).
    pub(super) fn made(&self) -> usize {
        self.made
    }

    /// Record `p` split at `at`: a new record from `at` to its end, with its nodes.
    fn split(&mut self, p: usize, at: Time) {
        let r = &mut self.recs[p];
        let rest = Rec {
            begin: at,
            end: r.end,
            held: r.held.clone(),
        };
        r.end = at;
        self.recs.insert(p + 1, rest);
        self.made += 1;
    }

    /// A reservation over `[start, end)` (rounded down to the resolution, as Slurm's
    /// `start_time` and `end_reserve`) holding `nodes` (`_add_reservation`).
    pub(super) fn add(&mut self, start: Time, end: Time, nodes: impl Iterator<Item = u32>) {
        let start = start.max(self.recs[0].begin);
        let end = end.max(start + self.resolution);
        let nodes: Vec<usize> = nodes.map(|n| n as usize).collect();
        // The record the start falls in (or ends at).
        let Some(place) = self.recs.iter().position(|r| r.end >= start) else {
            return;
        };
        let one_before = place.saturating_sub(1);
        if self.recs[place].end > start {
            self.split(place, start);
        }
        let mut one_after = None;
        let mut p = place + 1;
        while p < self.recs.len() {
            if end < self.recs[p].end {
                self.split(p, end);
            }
            for &n in &nodes {
                if let Some(h) = self.recs[p].held.get_mut(n / 64) {
                    *h |= 1 << (n % 64);
                }
            }
            if end == self.recs[p].end {
                if p + 1 < self.recs.len() {
                    one_after = Some(p + 1);
                }
                break;
            }
            p += 1;
        }
        // At most one merge of two equal neighbours, from the record before the start to
        // the one after the end.
        let mut i = one_before;
        while Some(i) != one_after && i + 1 < self.recs.len() {
            if self.recs[i].held == self.recs[i + 1].held {
                self.recs[i].end = self.recs[i + 1].end;
                self.recs.remove(i + 1);
                if let Some(a) = one_after.as_mut() {
                    *a -= 1;
                }
                break;
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Space;

    /// Worked by hand: a map from 0 to 100 on two nodes, one record. A reservation of node
    /// 0 over [20, 50) splits it at 20 and at 50: [0, 20) free, [20, 50) node 0, [50, 100)
    /// free; 3 records made; no two neighbours equal. Node 1 over [50, 100): its start is a
    /// record's end (no split), its end the map's: [50, 100) holds node 1, still 3 made.
    /// Node 0 over [0, 20): the map's first record splits at its own beginning (an empty
    /// [0, 0) stays before it), 4 made; then [0, 20) holds node 0 as [20, 50) does: merged
    /// into [0, 50), which gives no record back (4 made). A reservation past the map's end
    /// holds nothing and makes none.
    #[test]
    fn records_are_counted_as_slurm_makes_them() {
        let mut s = Space::new(0, 100, 2, 10);
        s.add(20, 50, [0].into_iter());
        assert_eq!(s.made(), 3);
        assert_eq!(s.recs.len(), 3);
        s.add(50, 100, [1].into_iter());
        assert_eq!((s.made(), s.recs.len()), (3, 3));
        assert_eq!(s.recs[2].held, [0b10]);
        s.add(0, 20, [0].into_iter());
        assert_eq!(s.made(), 4);
        let spans: Vec<_> = s.recs.iter().map(|r| (r.begin, r.end)).collect();
        assert_eq!(spans, [(0, 0), (0, 50), (50, 100)]);
        s.add(100, 120, [0].into_iter());
        assert_eq!(s.made(), 4);
    }

    /// limits-5/run1's cycle of 09:16:45 (its debug log), times from 09:16:40 (now rounded
    /// down to 10 s; the map ends 30 minutes on, at 1800), nodes n1-n4 as 0-3: the
    /// reservations of jobs 30 ([0, 60) on n2-n3: split at the map's beginning and at 60, 3
    /// records), 34 ([140, 260), all: 5), 27 ([260, 380), n3: 6), 29 ([260, 440), n2: 7), 32
    /// ([260, 440), n1, n4: 7), 28 ([380, 500), n3: 8), 26 ([500, 620), all: 9) and 18
    /// ([620, 740), n3: 10) leave 10 records made: job 23, next, met `table size limit of
    /// 10 reached`, as the log says.
    #[test]
    fn a_real_cycle_reaches_the_table_size() {
        let mut s = Space::new(0, 1800, 4, 10);
        let resv: [(i64, i64, &[u32]); 8] = [
            (0, 60, &[1, 2]),
            (140, 260, &[0, 1, 2, 3]),
            (260, 380, &[2]),
            (260, 440, &[1]),
            (260, 440, &[0, 3]),
            (380, 500, &[2]),
            (500, 620, &[0, 1, 2, 3]),
            (620, 740, &[2]),
        ];
        let mut made = Vec::new();
        for (from, to, nodes) in resv {
            s.add(from, to, nodes.iter().copied());
            made.push(s.made());
        }
        assert_eq!(made, [3, 5, 6, 7, 7, 8, 9, 10]);
    }
}
