//! Where an availability profile gained free processors, so that conservative backfilling's
//! compression re-examines only what can have changed.
//!
//! A reserved job that was shown unable to move earlier (at its placement, or by an earlier
//! check) stays unable as long as the profile before its reservation only loses processors:
//! to move to `t` it needs a window `[t, min(t + d, s))` that no longer holds a step with too
//! few processors, so the window must overlap a stretch `[a, b)` that gained processors since,
//! i.e. `a - d < t < b`. The log records every such stretch with a sequence number; each job
//! remembers the number up to which it was shown unable to move, and its check searches only
//! the start times `t` in `(min a - d, max b)` over the stretches logged since.
//!
//! A stretch also records the most processors free in it right after it gained them: a job
//! needing more cannot use it (a point of its window that was blocked and is free now gained
//! last in some stretch, and has lost since, if anything). The hulls are kept per class of
//! width (`2^c` processors or more), so that a wide job skips the stretches that stayed
//! narrow.
//!
//! Checks read two segments of the log: the previous compression's stretches (summed from every
//! `STRIDE`-th one to the end, since a job checked during that compression saw only the
//! stretches before it) and the current one's (one running sum, since every job is checked
//! once per compression). Older stretches stay in the log, unread, until they outnumber these
//! twice.

use super::reach::{fits, Clusters, Hull, Reach, RunsAround, NO_RUNS};
use crate::policy::plan::{Fit, Profile, Span};
use crate::Time;

/// Steps walked each way from a stretch to find its runs: longer runs count as endless. (64:
/// 16 counted runs as endless that were not, so that their windows were searched for any hold;
/// longer walks changed nothing on off-line 5K_sample.)
const RUN_WALK: usize = 64;

/// The previous segment's suffixes are summed every `STRIDE` stretches; a job checked in
/// between reads the sum from the multiple of `STRIDE` before its check, the few stretches it
/// had seen there included. (Walking those few one by one instead, 18 M stretches off-line on
/// 5K_sample, cost more than the windows they added: 10.26 against 9.99 G instructions, about
/// 6% of the time. 8: 4 and 16 measured alike.) Conservative backfilling's; tests give
/// [`Freed::new`] a smaller one.
pub const STRIDE: usize = 8;

/// The class of width of a job needing `need` processors: the stretches it can use have
/// `2^c` or more processors free (class 0 holds every stretch).
fn class_of(need: i64) -> usize {
    if need < 2 {
        0
    } else {
        63 - need.leading_zeros() as usize
    }
}

#[derive(Debug)]
pub struct Freed {
    /// Sequence number of `log[0]`.
    base: u64,
    /// Stretches `[a, b)` that gained processors, oldest first, with the most processors free
    /// in each right after.
    log: Vec<(Hull, i64)>,
    /// `runs[i * classes + c]`: the runs of `2^c` or more free processors around `log[i]`
    /// right after it was logged: how far they reach and the longest of them.
    runs: Vec<RunsAround>,
    /// Sequence number where the current compression began (its first stretch).
    mark: u64,
    /// Sequence number where the previous compression began.
    prev_mark: u64,
    /// Number of classes of width: enough for the whole machine.
    classes: usize,
    /// What the stretches from `prev_mark + m * stride` to `mark` offer class `c`, for each
    /// `m` from the last (none of them) to 0: `suffix[(rows - 1 - m) * classes + c]`.
    suffix: Vec<Clusters>,
    /// `suffix[i].total` for each `i`, apart: the first thing a check reads, in a small table.
    suffix_total: Vec<Reach>,
    /// The number of sums in `suffix` (`suffix.len() / classes`, kept: no division in a check).
    rows: usize,
    /// Per class: what the stretches from `mark` on offer.
    current: Vec<Clusters>,
    /// The classes in `current` that hold anything (the rest are empty).
    current_used: usize,
    /// The previous segment's suffixes are summed every `stride` stretches ([`STRIDE`]).
    stride: usize,
    /// Summaries side by side in a [`Clusters`] ([`super::reach::MOST`] at most).
    most: usize,
}

impl Freed {
    /// An empty log for a machine of `procs` processors, summing the previous segment every
    /// `stride` stretches and keeping `most` summaries side by side ([`STRIDE`] and
    /// [`super::reach::MOST`] in conservative backfilling; the checks' answers do not depend
    /// on them).
    pub fn new(procs: u32, stride: usize, most: usize) -> Self {
        let classes = class_of(i64::from(procs)) + 1;
        Self {
            base: 0,
            log: Vec::new(),
            runs: Vec::new(),
            mark: 0,
            prev_mark: 0,
            classes,
            suffix: Vec::new(),
            suffix_total: Vec::new(),
            rows: 0,
            current: vec![Clusters::default(); classes],
            current_used: 0,
            stride,
            most,
        }
    }

    /// The number of classes a stretch with at most `most` processors free belongs to.
    fn classes_of(&self, most: i64) -> usize {
        (class_of(most) + 1).min(self.classes)
    }

    /// Forgets everything: every job is (re)placed from now on, so the next sequence number is
    /// where every certificate starts.
    pub fn reset(&mut self) {
        self.base = self.now();
        self.log.clear();
        self.runs.clear();
        self.mark = self.base;
        self.prev_mark = self.base;
        self.suffix.clear();
        self.suffix_total.clear();
        self.rows = 0;
        self.clear_current();
    }

    /// Forgets everything and voids every certificate given so far (the profile gained
    /// processors without being logged): every job is searched in full until it is placed or
    /// checked again.
    pub fn invalidate(&mut self) {
        self.reset();
        self.base += 1;
        self.mark = self.base;
        self.prev_mark = self.base;
    }

    /// The next sequence number: a job shown unable to move now records it.
    pub fn now(&self) -> u64 {
        self.base + self.log.len() as u64
    }

    /// Starts a compression: the stretches logged since the previous one began form the
    /// previous segment; older ones are dropped (every job waiting with a reservation was
    /// checked or placed since the previous compression began).
    ///
    /// Called before the stretches freed by the jobs that just ended are logged.
    pub fn begin(&mut self) {
        let mark = self.now();
        let k = self.classes;
        // The older ones go only once they outnumber the rest twice: moving the rest down at
        // every compression moved about a whole segment each time.
        let drop = (self.mark - self.base) as usize;
        if drop > 2 * (self.log.len() - drop) {
            self.log.drain(..drop);
            self.runs.drain(..drop * k);
            self.base = self.mark;
        }
        self.prev_mark = self.mark;
        self.mark = mark;
        let from = (self.prev_mark - self.base) as usize;
        // The sums from the last one (nothing) back to the first, each written once.
        self.suffix.clear();
        self.suffix.resize(k, Clusters::default());
        let mut sum = vec![Clusters::default(); k];
        let (stride, keep) = (self.stride, self.most);
        for i in (from..self.log.len()).rev() {
            let (hull, most) = self.log[i];
            for (c, x) in sum[..self.classes_of(most)].iter_mut().enumerate() {
                x.add(Reach::of(hull, self.runs[i * k + c]), keep);
            }
            if (i - from).is_multiple_of(stride) {
                self.suffix.extend_from_slice(&sum);
            }
        }
        self.suffix_total.clear();
        self.suffix_total
            .extend(self.suffix.iter().map(|x| x.total));
        self.rows = self.suffix.len() / k;
        self.clear_current();
    }

    fn clear_current(&mut self) {
        self.current[..self.current_used].fill(Clusters::default());
        self.current_used = 0;
    }

    /// Logs that `[a, b)` of `profile` gained processors (`profile` as it is right after).
    pub fn push(&mut self, profile: &Profile, a: Time, b: Time) {
        if a < b {
            // One search for the steps over the stretch, for both the most free and the runs.
            self.push_span(profile, profile.span(a, b));
        }
    }

    /// [`Freed::push`] for a move that began at `fit`, `a` at or after it.
    pub fn push_after(&mut self, profile: &Profile, fit: Fit, a: Time, b: Time) {
        if a < b {
            self.push_span(profile, profile.span_after(fit, a, b));
        }
    }

    /// Logs the stretch `span` covers (`span.a < span.b`).
    fn push_span(&mut self, profile: &Profile, span: Span) {
        let (a, b, most) = (span.a, span.b, span.most);
        let k = self.classes;
        let n = self.classes_of(most);
        let at = self.runs.len();
        self.runs.resize(at + k, NO_RUNS);
        profile.runs_around(span, RUN_WALK, &mut self.runs[at..at + n]);
        self.log.push(((a, b), most));
        // Every stretch logged belongs to the current segment (it began at or before it).
        debug_assert!(self.now() > self.mark);
        self.current_used = self.current_used.max(n);
        let keep = self.most;
        for (c, r) in self.current[..n].iter_mut().enumerate() {
            r.add(Reach::of((a, b), self.runs[at + c]), keep);
        }
    }

    /// Where a job needing `need` processors for `d`, reserved at `s`, shown unable to move
    /// as of sequence number `seen`, can move to at time `now`: `out` gets the start times to
    /// search, windows `[from, below)` in order and apart; the answer tells whether the run
    /// reaching `s` may hold a fit as well (then the caller looks at the run holding the
    /// instant before `s`, `Profile::run_before`). No window and `false`: the job cannot move.
    ///
    /// The job can move only into a run of `need` or more free processors that met a stretch
    /// logged since (the last one in which a point of its new window gained processors: that
    /// window has only lost processors since, and is still free), so that run must hold the
    /// window; stretches whose runs are too short are passed over. A fit lies either in the
    /// run that reaches `s` (its own reservation holds the processors after `s`), or in a run
    /// of `d` or more: the windows cover only the stretches whose runs were that long (most
    /// moves slide a job a little earlier, into the run before its reservation: searching
    /// every window up to there walked many short runs in vain). Stretches far apart give
    /// windows apart (up to a few per segment; see [`Clusters`]).
    pub fn windows(
        &self,
        seen: u64,
        now: Time,
        need: i64,
        d: Time,
        s: Time,
        out: &mut Vec<(Time, Time)>,
    ) -> bool {
        out.clear();
        let mut reaches_s = false;
        let k = self.classes;
        let c = class_of(need).min(k - 1);
        if seen >= self.now() {
            return false;
        }
        if seen < self.prev_mark {
            out.push((now, s));
            return false;
        }
        // The stretches logged since `seen`: the sums that offer anything as a whole, or the
        // stretches one by one when `seen` is inside the current segment.
        let current = &self.current[c];
        let (one_by_one, sums) = if seen == self.mark {
            // Checked after the previous compression's last stretch: this compression's
            // sums hold exactly what it has not seen.
            (
                0..0,
                [None, current.total.window(now, d, s).map(|_| current)],
            )
        } else if seen > self.mark {
            ((seen - self.base) as usize..self.log.len(), [None, None])
        } else {
            // Checked during the previous compression: the sum from the multiple of the
            // stride before `seen` on (the `m`-th sum is the `m`-th from the end of
            // `suffix`), and this compression's.
            let row = (self.rows - 1 - (seen - self.prev_mark) as usize / self.stride) * k + c;
            let sums = [
                self.suffix_total[row]
                    .window(now, d, s)
                    .map(|_| &self.suffix[row]),
                current.total.window(now, d, s).map(|_| current),
            ];
            if sums == [None, None] {
                return false;
            }
            (0..0, sums)
        };
        let (first, last) = (one_by_one.start, one_by_one.end);
        let singles = self.log[first..last]
            .iter()
            .zip(self.runs[first * k..last * k].chunks_exact(k));
        for (&(hull, most), runs) in singles {
            if most >= need && fits(runs[c], d, s) {
                let (w, r) = Reach::of(hull, runs[c]).split_window(now, d, s);
                out.extend(w);
                reaches_s |= r;
            }
        }
        // The sums that offer something as a whole (the others were passed over).
        for set in sums.into_iter().flatten() {
            // In the order of their hulls' starts: none from the first one at or after `s`.
            for r in set.iter().take_while(|r| r.hull.0 < s) {
                let (w, r) = r.split_window(now, d, s);
                out.extend(w);
                reaches_s |= r;
            }
        }
        // In order, overlapping ones joined.
        out.sort_unstable();
        let mut n = 0;
        for i in 0..out.len() {
            if n > 0 && out[i].0 <= out[n - 1].1 {
                out[n - 1].1 = out[n - 1].1.max(out[i].1);
            } else {
                out[n] = out[i];
                n += 1;
            }
        }
        out.truncate(n);
        reaches_s
    }
}

#[cfg(test)]
mod tests;
