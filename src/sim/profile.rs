//! Availability profile: the number of free processors over future time, as a step function.
//! Used by planning policies (EASY's shadow time, conservative backfilling's reservations).

use crate::Time;

/// Time treated as "forever".
pub const FOREVER: Time = Time::MAX;

/// A step function of free processors: `steps[i].1` processors are free over
/// `[steps[i].0, steps[i+1].0)`, and the last step extends forever.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    steps: Vec<(Time, i64)>,
}

impl Profile {
    /// A profile starting at `now` with `free` processors free from then on.
    pub fn new(now: Time, free: i64) -> Self {
        Self {
            steps: vec![(now, free)],
        }
    }

    /// A profile at `now` given the free processors and the running jobs' `(planned_end, procs)`.
    pub fn from_running(now: Time, free: u32, running: impl Iterator<Item = (Time, u32)>) -> Self {
        let mut ends: Vec<(Time, u32)> = running.collect();
        ends.sort_unstable();
        let mut steps = Vec::with_capacity(ends.len() + 1);
        let mut level = i64::from(free);
        steps.push((now, level));
        for (t, p) in ends {
            level += i64::from(p);
            let t = t.max(now);
            match steps.last_mut() {
                Some(last) if last.0 == t => last.1 = level,
                _ => steps.push((t, level)),
            }
        }
        Self { steps }
    }

    pub fn steps(&self) -> &[(Time, i64)] {
        &self.steps
    }

    pub fn start(&self) -> Time {
        self.steps[0].0
    }

    /// Index of the step containing `t` (`t` must be >= the profile start).
    fn index_of(&self, t: Time) -> usize {
        self.steps
            .partition_point(|&(s, _)| s <= t)
            .saturating_sub(1)
    }

    pub fn free_at(&self, t: Time) -> i64 {
        self.steps[self.index_of(t)].1
    }

    /// The most processors free at any time in `[from, to)` (`i64::MIN` if the interval is
    /// empty).
    pub fn max_free(&self, from: Time, to: Time) -> i64 {
        let from = from.max(self.start());
        if from >= to {
            return i64::MIN;
        }
        self.steps[self.index_of(from)..]
            .iter()
            .take_while(|s| s.0 < to)
            .map(|s| s.1)
            .max()
            .unwrap_or(i64::MIN)
    }

    /// Makes sure a step begins exactly at `t` and returns its index.
    fn split_at(&mut self, t: Time) -> usize {
        let i = self.index_of(t);
        if self.steps[i].0 == t {
            i
        } else {
            let level = self.steps[i].1;
            self.steps.insert(i + 1, (t, level));
            i + 1
        }
    }

    /// Adds `delta` free processors over `[from, to)` (`to` may be [`FOREVER`]).
    pub fn add(&mut self, from: Time, to: Time, delta: i64) {
        let from = from.max(self.start());
        if from >= to || delta == 0 {
            return;
        }
        let a = self.split_at(from);
        let b = if to == FOREVER {
            self.steps.len()
        } else {
            self.split_at(to)
        };
        for s in &mut self.steps[a..b] {
            s.1 += delta;
        }
        self.merge_around(a, b);
    }

    /// Removes redundant steps near the indices touched by [`Profile::add`].
    fn merge_around(&mut self, a: usize, b: usize) {
        if b < self.steps.len() && b > 0 && self.steps[b].1 == self.steps[b - 1].1 {
            self.steps.remove(b);
        }
        if a > 0 && self.steps[a].1 == self.steps[a - 1].1 {
            self.steps.remove(a);
        }
    }

    /// Reserves `procs` processors over `[from, to)`.
    pub fn reserve(&mut self, from: Time, to: Time, procs: u32) {
        self.add(from, to, -i64::from(procs));
    }

    /// Releases a reservation made with [`Profile::reserve`].
    pub fn release(&mut self, from: Time, to: Time, procs: u32) {
        self.add(from, to, i64::from(procs));
    }

    /// Earliest `t >= from` at which `procs` processors stay free for `duration`
    /// (a zero duration needs them free at the instant itself). `None` if never.
    pub fn earliest(&self, from: Time, procs: u32, duration: Time) -> Option<Time> {
        self.earliest_capped(from, procs, duration, FOREVER, FOREVER)
    }

    /// Earliest `t` with `from <= t < below` at which `procs` processors stay free over
    /// `[t, min(t + duration, cap))` (a zero duration counts as one). `None` if there is none.
    ///
    /// For a job reserved at `cap` this is where it can move to: over `[cap, t + duration)` its
    /// own reservation keeps its processors free, so only the part before `cap` needs looking
    /// at, and the reservation need not be released to find out. With `cap` and `below`
    /// [`FOREVER`] it is [`Profile::earliest`].
    ///
    /// The search goes run by run: past the steps with too few processors, then along the
    /// run with enough to its end: long enough (a fit) or not (the next run).
    #[inline]
    pub fn earliest_capped(
        &self,
        from: Time,
        procs: u32,
        duration: Time,
        cap: Time,
        below: Time,
    ) -> Option<Time> {
        let need = i64::from(procs);
        let duration = duration.max(1);
        let from = from.max(self.start());
        let steps = &self.steps[..];
        let n = steps.len();
        let mut i = self.index_of(from);
        loop {
            while i < n && steps[i].1 < need {
                i += 1;
            }
            let cand = steps.get(i)?.0.max(from);
            if cand >= below {
                return None;
            }
            // The run's end (levels alone: a run is a few steps, one comparison each).
            let mut k = i + 1;
            while k < n && steps[k].1 >= need {
                k += 1;
            }
            let end = steps.get(k).map_or(FOREVER, |s| s.0);
            if end >= cap || end - cand >= duration {
                return Some(cand);
            }
            i = k;
        }
    }

    /// Where the runs of many free processors around `[a, b)` (`a < b`, `a` at or after the
    /// start) can reach: for each `c` below `out.len()`, every run of steps with `2^c` or more
    /// processors free that meets `[a, b)` lies inside `out[c] = (r0, r1)`. The walk goes at most
    /// `limit` steps each way; a run still going on there is taken to go on forever
    /// (`Time::MIN`, [`FOREVER`]).
    pub fn runs_around(&self, a: Time, b: Time, limit: usize, out: &mut [(Time, Time)]) {
        let steps = &self.steps[..];
        let k = out.len();
        // The classes whose runs go on over a step when the fewest free so far is `m`.
        let open = |m: i64| {
            if m < 1 {
                0
            } else {
                ((63 - m.leading_zeros()) as usize + 1).min(k)
            }
        };
        // Back from the step holding `a`.
        let i = self.index_of(a);
        let (mut m, mut n, mut j) = (i64::MAX, k, i);
        loop {
            m = m.min(steps[j].1);
            let still = open(m);
            let edge = if j == i { a } else { steps[j + 1].0 };
            for r in &mut out[still..n] {
                r.0 = edge;
            }
            n = still;
            if n == 0 {
                break;
            }
            if j == 0 {
                for r in &mut out[..n] {
                    r.0 = steps[0].0;
                }
                break;
            }
            if i - j >= limit {
                for r in &mut out[..n] {
                    r.0 = Time::MIN;
                }
                break;
            }
            j -= 1;
        }
        // On from the step holding `b - 1`.
        let i = self.index_of(b - 1);
        let (mut m, mut n, mut j) = (i64::MAX, k, i);
        loop {
            m = m.min(steps[j].1);
            let still = open(m);
            let edge = if j == i { b } else { steps[j].0 };
            for r in &mut out[still..n] {
                r.1 = edge;
            }
            n = still;
            if n == 0 {
                break;
            }
            if j + 1 == steps.len() || j - i >= limit {
                for r in &mut out[..n] {
                    r.1 = FOREVER;
                }
                break;
            }
            j += 1;
        }
    }

    /// Where the fewest processors free since the profile start drops, and to what: `out`
    /// gets `(t, m)` pairs, the first `(start, free at start)`, then each time `t` from which the
    /// minimum over `[start, t]` is `m` (times rising, `m` falling), until it reaches 0 or the
    /// steps end. A job of `w` processors fits at the start for `d` exactly when `m >= w` at
    /// the last pair with `t < start + d`.
    pub fn min_drops(&self, out: &mut Vec<(Time, i64)>) {
        out.clear();
        let mut m = i64::MAX;
        for &(t, level) in &self.steps {
            if level < m {
                m = level;
                out.push((t, m));
                if m <= 0 {
                    break;
                }
            }
        }
    }

    /// Drops the history before `now` (the step containing `now` now starts at `now`).
    pub fn advance(&mut self, now: Time) {
        if now <= self.start() {
            return;
        }
        let i = self.index_of(now);
        self.steps.drain(..i);
        self.steps[0].0 = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_reserve_and_find() {
        // 10 procs: 2 free now, job A (4 procs) ends at 10, job B (4 procs) ends at 20.
        let mut p = Profile::from_running(0, 2, [(20, 4), (10, 4)].into_iter());
        assert_eq!(p.steps(), &[(0, 2), (10, 6), (20, 10)]);
        assert_eq!(p.earliest(0, 2, 100), Some(0));
        assert_eq!(p.earliest(0, 5, 5), Some(10));
        assert_eq!(p.earliest(0, 8, 5), Some(20));
        assert_eq!(p.earliest(0, 11, 5), None);
        p.reserve(10, 25, 5);
        assert_eq!(p.steps(), &[(0, 2), (10, 1), (20, 5), (25, 10)]);
        // A 2-proc job of length 15 cannot fit before 25 anymore, one of length 10 fits at 0.
        assert_eq!(p.earliest(0, 2, 15), Some(20));
        assert_eq!(p.earliest(0, 2, 10), Some(0));
        assert_eq!(p.earliest_capped(0, 6, 1, FOREVER, 25), None);
        assert_eq!(p.earliest_capped(0, 6, 1, FOREVER, 26), Some(25));
        // The 5-proc reservation at [10, 25) could move to 0 only if 5 were free over [0, 10).
        assert_eq!(p.earliest_capped(0, 5, 15, 10, 10), None);
        // A 1-proc job reserved at 20 fits from 0 on: 1 processor stays free until 20.
        assert_eq!(p.earliest_capped(0, 1, 100, 20, 20), Some(0));
        p.release(10, 25, 5);
        assert_eq!(p.steps(), &[(0, 2), (10, 6), (20, 10)]);
        assert_eq!(p.max_free(0, 10), 2);
        assert_eq!(p.max_free(5, 20), 6);
        assert_eq!(p.max_free(5, 21), 10);
        assert_eq!(p.max_free(20, FOREVER), 10);
        assert_eq!(p.max_free(7, 7), i64::MIN);
        p.advance(15);
        assert_eq!(p.steps(), &[(15, 6), (20, 10)]);
        assert_eq!(p.free_at(30), 10);
    }
    /// The run-by-run search against a plain one (every candidate start, every step), on a
    /// profile of many short runs.
    #[test]
    fn search_agrees_with_a_plain_scan() {
        fn plain(
            p: &Profile,
            from: Time,
            need: i64,
            d: Time,
            cap: Time,
            below: Time,
        ) -> Option<Time> {
            let steps = p.steps().to_vec();
            let d = d.max(1);
            let mut t = from;
            loop {
                if t >= below {
                    return None;
                }
                let end = t.saturating_add(d).min(cap);
                let ok = steps.iter().enumerate().all(|(i, &(s, f))| {
                    let next = steps.get(i + 1).map_or(FOREVER, |x| x.0);
                    next <= t || s >= end || f >= need
                });
                if ok {
                    return Some(t);
                }
                // Next candidate: the next step start after t.
                t = steps.iter().map(|s| s.0).find(|&s| s > t)?;
            }
        }
        let mut p = Profile::new(0, 8);
        let mut rnd = crate::sim::test_numbers(12345);
        for _ in 0..150 {
            let from = rnd(3000) as Time;
            let len = 1 + rnd(60) as Time;
            let procs = 1 + rnd(4) as u32;
            if p.earliest(from, procs, len) == Some(from) {
                p.reserve(from, from + len, procs);
            }
        }
        assert!(p.steps().len() > 100);
        for _ in 0..2000 {
            let from = rnd(3500) as Time;
            let need = 1 + rnd(8) as u32;
            let d = rnd(200) as Time;
            let cap = if rnd(3) == 0 {
                FOREVER
            } else {
                from + rnd(4000) as Time
            };
            let below = if rnd(2) == 0 {
                cap
            } else {
                from + rnd(4000) as Time
            }
            .min(cap);
            assert_eq!(
                p.earliest_capped(from, need, d, cap, below),
                plain(&p, from, i64::from(need), d, cap, below),
                "from {from} need {need} d {d} cap {cap} below {below}"
            );
        }
    }

    /// `runs_around` against the runs found one step at a time.
    #[test]
    fn runs_around_agrees_with_a_plain_walk() {
        let mut rnd = crate::sim::test_numbers(777);
        for _ in 0..20 {
            let mut p = Profile::new(0, 20);
            for _ in 0..80 {
                let from = rnd(2000) as Time;
                p.reserve(from, from + 1 + rnd(100) as Time, rnd(6) as u32);
            }
            let steps = p.steps().to_vec();
            let level = |t: Time| p.free_at(t);
            for _ in 0..200 {
                let a = rnd(2200) as Time;
                let b = a + 1 + rnd(300) as Time;
                let mut out = [(0, 0); 5];
                p.runs_around(a, b, usize::MAX, &mut out);
                for (c, &(r0, r1)) in out.iter().enumerate() {
                    let th = 1i64 << c;
                    // The run holding a (from its first step), or a.
                    let r0_plain = if level(a) >= th {
                        let i = steps.partition_point(|s| s.0 <= a) - 1;
                        let k = (0..=i).rev().find(|&k| steps[k].1 < th);
                        k.map_or(steps[0].0, |k| steps[k + 1].0)
                    } else {
                        a
                    };
                    let r1_plain = if level(b - 1) >= th {
                        let i = steps.partition_point(|s| s.0 < b) - 1;
                        (i..steps.len())
                            .find(|&k| steps[k].1 < th)
                            .map_or(FOREVER, |k| steps[k].0)
                    } else {
                        b
                    };
                    assert_eq!((r0, r1), (r0_plain, r1_plain), "[{a}, {b}) class {c}");
                }
            }
        }
    }
}
