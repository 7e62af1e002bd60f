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
/// 6% of the time. 8: 4 and 16 measured alike.)
#[cfg(not(test))]
const STRIDE: usize = 8;
#[cfg(test)]
const STRIDE: usize = 3;

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
    /// What the stretches from `prev_mark + m * STRIDE` to `mark` offer class `c`, for each
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
}

impl Freed {
    /// An empty log for a machine of `procs` processors.
    pub fn new(procs: u32) -> Self {
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
        for i in (from..self.log.len()).rev() {
            let (hull, most) = self.log[i];
            for (c, x) in sum[..self.classes_of(most)].iter_mut().enumerate() {
                x.add(Reach::of(hull, self.runs[i * k + c]));
            }
            if (i - from).is_multiple_of(STRIDE) {
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
        for (c, r) in self.current[..n].iter_mut().enumerate() {
            r.add(Reach::of((a, b), self.runs[at + c]));
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
            let row = (self.rows - 1 - (seen - self.prev_mark) as usize / STRIDE) * k + c;
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
mod tests {
    use super::*;

    /// The windows of a check.
    fn w(f: &Freed, seen: u64, now: Time, need: i64, d: Time, s: Time) -> Vec<(Time, Time)> {
        wr(f, seen, now, need, d, s).0
    }

    /// The windows of a check and whether the run reaching the reservation may hold a fit.
    fn wr(
        f: &Freed,
        seen: u64,
        now: Time,
        need: i64,
        d: Time,
        s: Time,
    ) -> (Vec<(Time, Time)>, bool) {
        let mut out = Vec::new();
        let reaches = f.windows(seen, now, need, d, s, &mut out);
        (out, reaches)
    }
    use crate::policy::plan::FOREVER;

    #[test]
    fn windows_follow_the_stretches_logged_since() {
        // 4 processors free throughout: every run goes on forever.
        let p = Profile::new(0, 4);
        let mut f = Freed::new(16);
        f.reset();
        let placed = f.now();
        // Nothing gained: nothing to search.
        assert_eq!(w(&f, placed, 0, 2, 10, 100), vec![]);
        f.begin();
        f.push(&p, 0, 30); // a job planned to end at 30 ended at 0
                           // A job of hold 10 reserved at 100 can only start before 30 now.
        assert_eq!(w(&f, placed, 0, 2, 10, 100), vec![(0, 30)]);
        let checked = f.now();
        f.push(&p, 50, 60); // a job moved away from [50, 60)
                            // Seen after the first stretch: only the second one counts (starts in (40, 60)).
        assert_eq!(w(&f, checked, 0, 2, 10, 100), vec![(41, 60)]);
        // Reserved at 45: the stretch at 50 is past its reservation.
        assert_eq!(w(&f, checked, 0, 2, 10, 45), vec![]);
        // Read one by one (checked inside the current segment), a stretch tells 4 from 5: it
        // had 4 free at most.
        assert_eq!(w(&f, checked, 0, 4, 10, 100), vec![(41, 60)]);
        assert_eq!(w(&f, checked, 0, 5, 10, 100), vec![]);
        // The next compression: the job checked before [50, 60) was logged still sees it, and
        // the new stretch. It reads the previous stretches from the latest multiple of the
        // stride (3 in the tests) at or before its check: [0, 30) counts again, joined with
        // [5, 8) (see `previous_stretches_are_read_from_the_stride_before`).
        let last = f.now();
        f.begin();
        f.push(&p, 5, 8);
        assert_eq!(w(&f, checked, 5, 2, 10, 100), vec![(5, 30), (41, 60)]);
        // A job checked after the last stretch of the previous compression sees only the new
        // one (this compression's sums).
        assert_eq!(w(&f, last, 5, 2, 10, 100), vec![(5, 8)]);
        // A job needing 5 or more processors: no stretch had that many free (class 2 holds
        // stretches with 4 or more, so 4 and 5 share it: 8 does not).
        assert_eq!(w(&f, checked, 5, 8, 10, 100), vec![]);
        // 5 shares class 2 (4 to 7 free) with the stretches that have 4 free: the sums count
        // them (only the stretches read one by one, above, tell 4 from 5).
        assert_eq!(w(&f, checked, 5, 5, 10, 100), vec![(5, 30), (41, 60)]);
        // Voided certificates: everything is searched; a new one holds.
        let mut g = Freed::new(16);
        g.reset();
        let old = g.now();
        g.invalidate();
        assert_eq!(w(&g, old, 3, 2, 10, 100), vec![(3, 100)]);
        assert_eq!(w(&g, g.now(), 3, 2, 10, 100), vec![]);
        // A certificate from before the previous compression: everything is searched.
        f.begin();
        assert_eq!(w(&f, placed, 7, 9, 10, 100), vec![(7, 100)]);
    }

    /// In the previous compression's log a check reads the sum from the latest multiple of
    /// the stride (3 in the tests) at or before its check: the stretches since, and the few
    /// before it in that stride (walking those one by one cost more than searching their
    /// windows again).
    #[test]
    fn previous_stretches_are_read_from_the_stride_before() {
        // 4 processors free throughout: every run goes on forever.
        let p = Profile::new(0, 4);
        let mut f = Freed::new(16);
        f.reset();
        f.begin();
        let mut seen = Vec::new();
        for a in [0, 100, 200, 300] {
            seen.push(f.now());
            f.push(&p, a, a + 10);
        }
        let end = f.now();
        f.begin();
        // A job holding 10, reserved at 1000: a window (a - 9, a + 10) per stretch [a, a + 10).
        // Checked before the fourth stretch (at a multiple of 3): that one alone.
        assert_eq!(w(&f, seen[3], 0, 2, 10, 1000), vec![(291, 310)]);
        // Checked before the first, second or third: all four, in 3 sums at most (the tests'
        // `MOST`; the first two joined, all gaps being equal).
        let all = vec![(0, 110), (191, 210), (291, 310)];
        for &q in &seen[..3] {
            assert_eq!(w(&f, q, 0, 2, 10, 1000), all, "checked at {q}");
        }
        // Checked after the last one: nothing new.
        assert_eq!(w(&f, end, 0, 2, 10, 1000), vec![]);
    }

    /// A log on 16 processors where a job was placed, then a compression logged `[a, b)` of
    /// a profile with nothing free but `free` (`(from, to, processors)`): the log and the
    /// placement's sequence number.
    fn logged(free: &[(Time, Time, i64)], a: Time, b: Time) -> (Freed, u64) {
        let mut p = Profile::new(0, 0);
        for &(from, to, n) in free {
            p.add(from, to, n);
        }
        let mut f = Freed::new(16);
        f.reset();
        let placed = f.now();
        f.begin();
        f.push(&p, a, b);
        (f, placed)
    }

    /// A stretch whose run of free processors is short: only jobs that fit in it, or whose
    /// reservation the run reaches, search it.
    #[test]
    fn short_runs_are_passed_over() {
        // Nothing free but 4 processors over [10, 20), 2 over [20, 25).
        let (mut f, placed) = logged(&[(10, 20, 4), (20, 25, 2)], 10, 20);
        // 4 or more free: [10, 20); 2 or more: [10, 25).
        assert_eq!(
            f.runs[..3],
            [(10, 25, 15), (10, 25, 15), (10, 20, 10)],
            "classes 0, 1, 2"
        );
        let fit = vec![(10, 20)];
        // `(processors, hold, reservation)`, the window for a fit in a run at least as long
        // as the hold, and whether a run reaching the reservation may hold one; the same from
        // the current segment (stretch by stretch) and from the previous one (the summed
        // suffixes).
        let cases = [
            // 3 processors for 16: too long for [10, 25); for 15 it fits (at 10 only).
            ((3, 16, 100), (vec![], false)),
            ((3, 15, 100), (fit.clone(), false)),
            // 4 processors for 11: too long for [10, 20), unless reserved at 20 or before:
            // then only in the run reaching the reservation, found apart.
            ((4, 11, 100), (vec![], false)),
            ((4, 11, 20), (vec![], true)),
            ((4, 11, 21), (vec![], false)),
            // For 10 both ways.
            ((4, 10, 20), (fit, true)),
        ];
        for segment in ["current", "previous"] {
            for (case, answer) in &cases {
                let (procs, d, s) = *case;
                assert_eq!(
                    wr(&f, placed, 0, procs, d, s),
                    *answer,
                    "{segment} {procs} {d} {s}"
                );
            }
            f.begin();
        }
        // A run longer than the walk goes on forever.
        let mut q = Profile::new(0, 8);
        for t in 0..200 {
            q.add(t * 10, t * 10 + 5, 1);
        }
        let mut runs = [NO_RUNS; 4];
        q.runs_around(q.span(1000, 1001), 3, &mut runs);
        assert_eq!(runs[3], (Time::MIN, FOREVER, Time::MAX));
        q.runs_around(q.span(1000, 1001), 1000, &mut runs);
        assert_eq!(runs[3], (0, FOREVER, Time::MAX));
    }

    /// A stretch over two short runs with a blocked gap between: their reach is long, but
    /// only a job that fits in one of them, or whose reservation the last one reaches,
    /// searches it.
    #[test]
    fn runs_apart_count_apart() {
        // 4 processors free over [10, 20) and [30, 40), none between.
        let (f, placed) = logged(&[(10, 20, 4), (30, 40, 4)], 10, 40);
        // Class 2 (4 or more free): runs within [10, 40), the longest 10.
        assert_eq!(f.runs[2], (10, 40, 10));
        // 4 processors for 15, reserved at 100: no run of 15 or more (the reach is 30).
        assert_eq!(wr(&f, placed, 0, 4, 15, 100), (vec![], false));
        // For 10: the windows meeting the stretch in the reach of its runs.
        assert_eq!(wr(&f, placed, 0, 4, 10, 100), (vec![(10, 40)], false));
        // Reserved at 40, the last run reaches it: found apart however long the hold.
        assert_eq!(wr(&f, placed, 0, 4, 15, 40), (vec![], true));
    }
}
