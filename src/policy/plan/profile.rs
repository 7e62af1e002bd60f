//! Availability profile: the number of free processors over future time, as a step function.
//! Used by planning policies (conservative backfilling's reservations, the rebuilt plans of
//! `guarantee_free`); its searches and moves are in the submodules.
#![warn(missing_docs)]

use crate::Time;

/// Steps from which [`Profile::move_reservation`] changes a part apart when the move rewrites
/// more steps than one pass takes (every profile's; tests of moves on small profiles set a
/// smaller one with [`Profile::with_splice_from`], so that every way runs).
const SPLICE_FROM: usize = 256;

/// Time treated as "forever".
pub const FOREVER: Time = Time::MAX;

/// The steps over an interval `[a, b)` ([`Profile::span`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The interval's start.
    pub a: Time,
    /// The interval's end (excluded).
    pub b: Time,
    /// Index of the step holding `a`.
    pub first: usize,
    /// Index of the step holding `b - 1`.
    pub last: usize,
    /// The most processors free over them.
    pub most: i64,
}

/// Where a search found room: the start, and the index of the step holding it (where a
/// reservation there begins, while the profile before it is unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fit {
    /// The start found.
    pub start: Time,
    step: usize,
}

/// A step function of free processors: `steps[i].1` processors are free over
/// `[steps[i].0, steps[i+1].0)`, and the last step extends forever. Times rise strictly. A move
/// may leave steps at the level of the one before them (see `replace_steps`): every query
/// reads levels, so they change no answer, and [`Profile::advance`] drops them.
#[derive(Debug, Clone)]
pub struct Profile {
    steps: Vec<(Time, i64)>,
    /// Scratch for [`Profile::move_reservation`].
    part: Vec<(Time, i64)>,
    /// Whether a move may have left steps at the level of the one before them.
    loose: bool,
    /// How many steps [`Profile::advance`] dropped before the first: a [`Hint`] holds an
    /// index plus this, so that it stays near as time goes on.
    dropped: u64,
    /// Steps from which a move changes a part apart ([`SPLICE_FROM`] unless set).
    splice_from: usize,
}

/// Equal as step functions: a step at the level of the one before it changes nothing.
impl PartialEq for Profile {
    fn eq(&self, other: &Self) -> bool {
        self.changes().eq(other.changes())
    }
}

impl Eq for Profile {}

impl Profile {
    /// A profile starting at `now` with `free` processors free from then on.
    pub fn new(now: Time, free: i64) -> Self {
        Self {
            steps: vec![(now, free)],
            part: Vec::new(),
            loose: false,
            dropped: 0,
            splice_from: SPLICE_FROM,
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
        Self {
            steps,
            part: Vec::new(),
            loose: false,
            dropped: 0,
            splice_from: SPLICE_FROM,
        }
    }

    /// The profile with moves changing a part apart from `steps` steps on (instead of
    /// `SPLICE_FROM`): the answers are the same, only the way differs (for tests that reach
    /// both ways on small profiles).
    pub fn with_splice_from(mut self, steps: usize) -> Self {
        self.splice_from = steps;
        self
    }

    /// The steps: `(from, free processors)`, by time (two steps in a row may have the same
    /// level; [`Profile::changes`] drops them).
    pub fn steps(&self) -> &[(Time, i64)] {
        &self.steps
    }

    /// The steps where the level changes (the first, then each at a level other than the one
    /// before it): the profile's one form without two equal levels in a row.
    pub fn changes(&self) -> impl Iterator<Item = (Time, i64)> + '_ {
        self.steps
            .iter()
            .enumerate()
            .filter(|&(i, s)| i == 0 || s.1 != self.steps[i - 1].1)
            .map(|(_, &s)| s)
    }

    /// [`Profile::changes`] collected.
    #[cfg(test)]
    pub fn canonical(&self) -> Vec<(Time, i64)> {
        self.changes().collect()
    }

    /// The time the profile starts (its first step's).
    pub fn start(&self) -> Time {
        self.steps[0].0
    }

    /// Index of the step containing `t` (`t` must be >= the profile start).
    pub(super) fn index_of(&self, t: Time) -> usize {
        // Most searches start now, in the first step.
        if self.steps.get(1).is_none_or(|s| s.0 > t) {
            return 0;
        }
        self.steps
            .partition_point(|&(s, _)| s <= t)
            .saturating_sub(1)
    }

    /// The processors free at `t` (`t` >= the profile's start).
    pub fn free_at(&self, t: Time) -> i64 {
        self.steps[self.index_of(t)].1
    }

    /// The most processors free at any time in `[from, to)` (`i64::MIN` if the interval is
    /// empty): the plain query that the tests state [`Profile::span`]'s `most` against (the
    /// engine and the policies read the span).
    #[cfg(test)]
    pub fn max_free(&self, from: Time, to: Time) -> i64 {
        let from = from.max(self.start());
        if from >= to {
            return i64::MIN;
        }
        self.span(from, to).most
    }

    /// The steps over `[a, b)` (`a < b`, `a` at or after the start): where they are and the
    /// most processors free over them.
    pub fn span(&self, a: Time, b: Time) -> Span {
        self.span_at(self.index_of(a), a, b)
    }

    /// [`Profile::span`] given the index of the step holding `a`.
    pub(super) fn span_at(&self, first: usize, a: Time, b: Time) -> Span {
        let (mut last, mut most) = (first, self.steps[first].1);
        for s in &self.steps[first + 1..] {
            if s.0 >= b {
                break;
            }
            last += 1;
            most = most.max(s.1);
        }
        Span {
            a,
            b,
            first,
            last,
            most,
        }
    }

    /// Index of the step containing `t`, searched from step `i` on (`steps[i].0 <= t`): a few
    /// steps one by one (an interval usually ends a few steps after it begins), then by
    /// doubling strides from there (`index_onward`: the end is mostly near, where a binary
    /// search over the rest took a dozen dependent reads).
    fn index_from(&self, t: Time, i: usize) -> usize {
        let steps = &self.steps[..];
        let mut j = i;
        for _ in 0..8 {
            match steps.get(j + 1) {
                Some(s) if s.0 <= t => j += 1,
                _ => return j,
            }
        }
        self.index_onward(t, j)
    }

    /// Adds `delta` free processors over `[from, to)` (`to` may be [`FOREVER`]).
    pub fn add(&mut self, from: Time, to: Time, delta: i64) {
        let from = from.max(self.start());
        if from >= to || delta == 0 {
            return;
        }
        let i = self.index_of(from);
        self.add_at(i, from, to, delta);
    }

    /// [`Profile::add`] given the index `i` of the step containing `from` (`from < to`,
    /// `delta != 0`): a step begins at `from` and at `to` (inserted when missing, both with one
    /// move of the steps after them), the steps between gain `delta`, and a step left with the
    /// level of the one before it at either end is removed.
    fn add_at(&mut self, i: usize, from: Time, to: Time, delta: i64) {
        let n = self.steps.len();
        let split_a = self.steps[i].0 != from;
        let (a, b) = if to == FOREVER {
            if split_a {
                self.steps.insert(i + 1, (from, self.steps[i].1));
            }
            (i + usize::from(split_a), self.steps.len())
        } else {
            let k = self.index_from(to, i);
            let split_b = self.steps[k].0 != to;
            match (split_a, split_b) {
                (false, false) => (i, k),
                (true, false) => {
                    self.steps.insert(i + 1, (from, self.steps[i].1));
                    (i + 1, k + 1)
                }
                (false, true) => {
                    self.steps.insert(k + 1, (to, self.steps[k].1));
                    (i, k + 1)
                }
                (true, true) => {
                    let (la, lb) = (self.steps[i].1, self.steps[k].1);
                    self.steps.extend_from_slice(&[(0, 0), (0, 0)]);
                    self.steps.copy_within(k + 1..n, k + 3);
                    self.steps.copy_within(i + 1..k + 1, i + 2);
                    self.steps[i + 1] = (from, la);
                    self.steps[k + 2] = (to, lb);
                    (i + 1, k + 2)
                }
            }
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

    /// Moves a reservation of `procs` processors from `[s, e)` to `[t, t + d)`, `t < s`: the
    /// levels of [`Profile::release`] then [`Profile::reserve`] (the same
    /// [`Profile::changes`]), with the steps after both moved at most once, and mostly not
    /// at all (`replace_steps`). A move rewriting a few steps does it in one pass over them
    /// (`one_pass.rs`); in a long profile, more steps, from the one holding `t` to the one
    /// holding the later end, are changed apart, then put back in one splice, joined with
    /// the step before them.
    pub fn move_reservation(&mut self, s: Time, e: Time, t: Time, d: Time, procs: u32) {
        let lo = t.max(self.start());
        self.move_from(self.index_of(lo), (s, e), t, d, procs);
    }

    /// [`Profile::move_reservation`] to a [`Fit`] found by a search (the profile unchanged
    /// before its step since): the step where the move begins is not searched again.
    pub fn move_to_fit(&mut self, fit: Fit, (s, e): (Time, Time), d: Time, procs: u32) {
        let t = fit.start;
        let lo = t.max(self.start());
        let i = if self.holds(fit.step, lo) {
            fit.step
        } else {
            self.index_of(lo)
        };
        self.move_from(i, (s, e), t, d, procs);
    }

    /// Whether step `i` holds `t`.
    fn holds(&self, i: usize, t: Time) -> bool {
        self.steps.get(i).is_some_and(|s| s.0 <= t) && self.steps.get(i + 1).is_none_or(|s| s.0 > t)
    }

    /// [`Profile::move_reservation`] given the index `i` of the step holding
    /// `max(t, start)`.
    fn move_from(&mut self, i: usize, (s, e): (Time, Time), t: Time, d: Time, procs: u32) {
        let lo = t.max(self.start());
        if lo < s && procs > 0 {
            if self.steps.len() < self.splice_from {
                // Release and reserve would each move the steps after them.
                if self.move_in_one_pass(lo, i, (s, e), t + d, procs) {
                    return;
                }
            } else {
                // The steps to the later end: one pass when they are few, else apart.
                let k = self.index_from(e.max(t + d), i) + 1;
                if k - i > REGION || !self.move_in_one_pass(lo, i, (s, e), t + d, procs) {
                    self.splice_move(lo, (i, k), (s, e), t + d, procs);
                }
                return;
            }
        }
        self.release(s, e, procs);
        self.reserve(t, t + d, procs);
    }

    /// [`Profile::move_reservation`] in a long profile (`lo = max(t, start) < s`, `procs > 0`,
    /// steps `i..k` from the one holding `lo` to the one holding the later end).
    fn splice_move(
        &mut self,
        lo: Time,
        (i, k): (usize, usize),
        (s, e): (Time, Time),
        t_end: Time,
        procs: u32,
    ) {
        let mut part = Profile {
            steps: std::mem::take(&mut self.part),
            part: Vec::new(),
            loose: false,
            dropped: 0,
            splice_from: self.splice_from,
        };
        part.steps.clear();
        part.steps.extend_from_slice(&self.steps[i..k]);
        part.release(s, e, procs);
        part.reserve(lo, t_end, procs);
        // The part ends with a step at the later end holding the level that the step after
        // the part follows (unchanged): only its first step can join a neighbour.
        let first = usize::from(i > 0 && self.steps[i - 1].1 == part.steps[0].1);
        self.loose |= replace_steps(
            &mut self.steps,
            i..k,
            &part.steps[first..],
            self.splice_from,
        );
        self.part = part.steps;
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
        self.earliest_fit(from, procs, duration).map(|f| f.start)
    }

    /// [`Profile::earliest`] as a [`Fit`], to reserve there with [`Profile::reserve_fit`].
    #[inline]
    pub fn earliest_fit(&self, from: Time, procs: u32, duration: Time) -> Option<Fit> {
        self.earliest_capped(from, procs, duration, FOREVER, FOREVER)
    }

    /// Reserves `procs` processors over `[fit.start, fit.start + length)`: [`Profile::reserve`]
    /// without searching for the step where the reservation begins when the fit's step still
    /// holds it (the profile unchanged before it since the search).
    pub fn reserve_fit(&mut self, fit: Fit, length: Time, procs: u32) {
        let (t, i) = (fit.start, fit.step);
        if !self.holds(i, t) || t < self.start() {
            self.reserve(t, t + length, procs);
        } else if length > 0 && procs > 0 {
            self.add_at(i, t, t + length, -i64::from(procs));
        }
    }

    /// Earliest `t` with `from <= t < below` at which `procs` processors stay free over
    /// `[t, min(t + duration, cap))` (a zero duration counts as one), as a [`Fit`]. `None` if
    /// there is none.
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
    ) -> Option<Fit> {
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
                return Some(Fit {
                    start: cand,
                    step: i,
                });
            }
            i = k;
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
    ///
    /// Also drops the steps at the level of the one before them (left by moves).
    pub fn advance(&mut self, now: Time) {
        if self.loose {
            self.steps.dedup_by(|b, a| b.1 == a.1);
            self.loose = false;
        }
        if now <= self.start() {
            return;
        }
        let i = self.index_of(now);
        self.steps.drain(..i);
        self.dropped += i as u64;
        self.steps[0].0 = now;
    }
}

mod near;
mod one_pass;
mod replace;

pub use near::Hint;
mod runs;

use replace::replace_steps;

use one_pass::REGION;
#[cfg(test)]
mod tests;
