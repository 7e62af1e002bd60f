//! Algorithm 1 of Tóth & Klusáček ("User-aware metrics for measuring quality of parallel job
//! schedules") on a piecewise-constant capacity profile instead of a per-second array.
//!
//! One [`CapacityProfile`] is one user's remaining capacity of one resource over time, in
//! integer units (the caller scales capacities, requests and areas by a common denominator, so
//! fractional capacities stay exact). Jobs are placed in arrival order, as in the paper: in
//! each time unit from its arrival a job consumes `min(remaining capacity, request)` until its
//! area (request x runtime) is used up, and its expected end time is the end of the last unit
//! it consumed in.
//!
//! The last unit is consumed like every other one (`min(capacity, request)`, line 9 of
//! Algorithm 1), even when the job needs less than that to finish: the paper's loop ends on
//! `jobCapacity <= 0`. This can waste up to one unit's worth of capacity per job; it is what
//! the algorithm says, and it moves later expected end times by at most a unit each.
//!
//! In a segment of constant remaining capacity `c`, every unit gives the job the same
//! `min(c, request)`, so the units it needs there follow by one division; placing a job costs
//! the number of segments it crosses. Segments of equal capacity are merged, so a user whose
//! jobs saturate their share leaves one zero-capacity segment behind, not one per job.

use crate::Time;

/// Remaining capacity of one resource for one user, a step function of time.
#[derive(Debug, Clone)]
pub struct CapacityProfile {
    /// `(start, remaining)`, sorted by start; segment `i` covers `[start_i, start_{i+1})`, the
    /// last one runs forever and always has the full capacity (every placed job ends).
    segs: Vec<(Time, u128)>,
    /// Segments before `head` end at or before the latest arrival: never read again.
    head: usize,
    buf: Vec<(Time, u128)>,
}

/// Units that never end: the length of the last segment.
const FOREVER: u128 = u128::MAX;

impl CapacityProfile {
    /// A profile with `full` units of capacity per time unit at every time (`full` > 0).
    pub fn new(full: u128) -> Self {
        Self {
            segs: vec![(Time::MIN, full)],
            head: 0,
            buf: Vec::new(),
        }
    }

    /// The remaining capacity in time unit `t` (for tests and diagnostics).
    pub fn remaining_at(&self, t: Time) -> u128 {
        let i = self.segs.partition_point(|&(s, _)| s <= t);
        self.segs[i.saturating_sub(1)].1
    }

    /// Places a job arriving at `arrival` that consumes at most `request` units per time unit
    /// until it has consumed `area` units; returns its expected end time. Jobs must be placed
    /// in non-decreasing arrival order. A job of zero area ends at its arrival (the loop of
    /// Algorithm 1 does not run).
    pub fn place(&mut self, arrival: Time, request: u128, area: u128) -> Time {
        if area == 0 || request == 0 {
            return arrival;
        }
        while self.head + 1 < self.segs.len() && self.segs[self.head + 1].0 <= arrival {
            self.head += 1;
        }
        if self.head > 4096 && 2 * self.head > self.segs.len() {
            self.segs.drain(..self.head);
            self.head = 0;
        }
        let i0 = self.head;
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let push = |buf: &mut Vec<(Time, u128)>, start: Time, cap: u128| {
            if buf.last().is_none_or(|&(_, c)| c != cap) {
                buf.push((start, cap));
            }
        };
        let (s0, c0) = self.segs[i0];
        if s0 < arrival {
            buf.push((s0, c0));
        }
        let mut rem = area;
        let mut i = i0;
        let eet = loop {
            let (s, c) = self.segs[i];
            let from = s.max(arrival);
            let next = self.segs.get(i + 1).map(|&(e, _)| e);
            let units = next.map_or(FOREVER, |e| (e - from) as u128);
            let rate = c.min(request);
            if rate == 0 {
                push(&mut buf, from, c);
                i += 1;
                continue;
            }
            let need = rem.div_ceil(rate);
            if need <= units {
                // Saturate instead of overflowing for absurd inputs (a share of ~0 processors).
                let end = from.saturating_add(need.min((Time::MAX / 4) as u128) as Time);
                push(&mut buf, from, c - rate);
                if next.is_none_or(|e| end < e) {
                    push(&mut buf, end, c);
                }
                i += 1;
                break end;
            }
            push(&mut buf, from, c - rate);
            rem -= rate * units;
            i += 1;
        };
        // Merge with the first untouched segment when it has the same capacity.
        let mut i1 = i;
        if let (Some(&(_, last)), Some(&(_, c))) = (buf.last(), self.segs.get(i1)) {
            if last == c {
                i1 += 1;
            }
        }
        self.segs.splice(i0..i1, buf.drain(..));
        self.buf = buf;
        eet
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_1_of_the_paper() {
        // Capacity 3: job 1 (arrival 0, 2 x 4) ends at 4; job 2 (arrival 1, 2 x 1) gets one
        // unit at 1 and one at 2: EET 3.
        let mut p = CapacityProfile::new(3);
        assert_eq!(p.place(0, 2, 8), 4);
        assert_eq!(p.place(1, 2, 2), 3);
        assert_eq!(
            (0..6).map(|t| p.remaining_at(t)).collect::<Vec<_>>(),
            vec![1, 0, 0, 1, 3, 3]
        );
    }

    #[test]
    fn last_unit_consumes_like_the_others() {
        // Capacity 3; job A (2 x 4 from 0) leaves 1 over [0, 4). Job B (2 x 1) arrives at 3:
        // 1 at unit 3, then min(3, 2) = 2 at unit 4 (it needed only 1): EET 5, unit 4 keeps 1.
        let mut p = CapacityProfile::new(3);
        p.place(0, 2, 8);
        assert_eq!(p.place(3, 2, 2), 5);
        assert_eq!(p.remaining_at(4), 1);
        assert_eq!(p.remaining_at(5), 3);
        // A job of zero area ends when it arrives.
        assert_eq!(p.place(7, 2, 0), 7);
    }
}
