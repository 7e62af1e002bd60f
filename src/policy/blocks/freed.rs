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
//! The log keeps two segments: the previous compression's stretches (with the hull of every
//! suffix, since a job checked during that compression saw only the stretches before it) and
//! the current one's (one running hull, since every job is checked once per compression).

use crate::sim::Profile;
use crate::Time;

/// The hull of stretches: the earliest start and the latest end (`EMPTY` when none).
type Hull = (Time, Time);
const EMPTY: Hull = (Time::MAX, Time::MIN);

fn join(a: Hull, b: Hull) -> Hull {
    (a.0.min(b.0), a.1.max(b.1))
}

/// Where the runs of free processors around a stretch reached right after it was logged, for
/// one class of width: `(r0, r1)` (see `Profile::runs_around`).
type Run = (Time, Time);
const NO_RUN: Run = (Time::MAX, Time::MIN);

/// Steps walked each way from a stretch to find its runs: longer runs count as endless.
const RUN_WALK: usize = 16;

/// Whether a job holding `d` reserved at `s` can fit in `run`: a window `[t, min(t + d, s))`
/// with `t < s` inside it.
fn fits(run: Run, d: Time, s: Time) -> bool {
    run.0 < s && (run.1 >= s || run.1.saturating_sub(run.0) >= d)
}

/// What a set of stretches offers a class of width: their hull, the widest reach of their
/// runs, and the longest run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reach {
    hull: Hull,
    run: Run,
    longest: Time,
}

const NOTHING: Reach = Reach {
    hull: EMPTY,
    run: NO_RUN,
    longest: Time::MIN,
};

impl Reach {
    fn with(self, hull: Hull, run: Run) -> Self {
        Self {
            hull: join(self.hull, hull),
            run: (self.run.0.min(run.0), self.run.1.max(run.1)),
            longest: self.longest.max(run.1.saturating_sub(run.0)),
        }
    }

    fn join(self, o: Self) -> Self {
        Self {
            hull: join(self.hull, o.hull),
            run: (self.run.0.min(o.run.0), self.run.1.max(o.run.1)),
            longest: self.longest.max(o.longest),
        }
    }
}

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
    /// right after it was logged.
    runs: Vec<Run>,
    /// Sequence number where the current compression began (its first stretch).
    mark: u64,
    /// Sequence number where the previous compression began.
    prev_mark: u64,
    /// Number of classes of width: enough for the whole machine.
    classes: usize,
    /// `suffix[i * classes + c]`: what the stretches from `prev_mark + i` to `mark` offer
    /// class `c`.
    suffix: Vec<Reach>,
    /// Per class: what the stretches from `mark` on offer.
    current: Vec<Reach>,
}

/// What a job's check must search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// Nothing before the reservation gained processors: the job cannot move.
    Unchanged,
    /// Search start times in `[from, below)`.
    Search { from: Time, below: Time },
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
            current: vec![NOTHING; classes],
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
        self.current.fill(NOTHING);
    }

    /// Forgets everything and voids every certificate given so far (the profile gained
    /// processors without being logged): every job is searched in full until it is placed or
    /// checked again.
    pub fn invalidate(&mut self) {
        if self.log.is_empty() {
            // Nothing logged since the log was last emptied: `runs` and `current` hold nothing
            // (the usual case with short queues, which log nothing and invalidate at every
            // compression).
            debug_assert!(self.runs.is_empty() && self.current.iter().all(|r| *r == NOTHING));
            self.suffix.clear();
        } else {
            self.reset();
        }
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
        let drop = (self.mark - self.base) as usize;
        let k = self.classes;
        self.log.drain(..drop);
        self.runs.drain(..drop * k);
        self.base = self.mark;
        self.prev_mark = self.mark;
        self.mark = mark;
        self.suffix.clear();
        self.suffix.resize((self.log.len() + 1) * k, NOTHING);
        for i in (0..self.log.len()).rev() {
            let (hull, most) = self.log[i];
            let n = self.classes_of(most);
            let (row, next) = self.suffix[i * k..].split_at_mut(k);
            row.copy_from_slice(&next[..k]);
            for (c, r) in row[..n].iter_mut().enumerate() {
                *r = r.with(hull, self.runs[i * k + c]);
            }
        }
        self.current.fill(NOTHING);
    }

    /// Logs that `[a, b)` of `profile` gained processors (`profile` as it is right after).
    pub fn push(&mut self, profile: &Profile, a: Time, b: Time) {
        if a < b {
            let most = profile.max_free(a, b);
            let k = self.classes;
            let n = self.classes_of(most);
            let at = self.runs.len();
            self.runs.resize(at + k, NO_RUN);
            profile.runs_around(a, b, RUN_WALK, &mut self.runs[at..at + n]);
            self.log.push(((a, b), most));
            if self.base + self.log.len() as u64 > self.mark {
                for (c, r) in self.current[..n].iter_mut().enumerate() {
                    *r = r.with((a, b), self.runs[at + c]);
                }
            }
        }
    }

    /// The start times to search for a job needing `need` processors for `d`, reserved at
    /// `s`, shown unable to move as of sequence number `seen`, at time `now`.
    ///
    /// The job can move only into a run of `need` or more free processors that met a stretch
    /// logged since (the last one in which a point of its new window gained processors: that
    /// window has only lost processors since, and is still free), so that run must hold the
    /// window; stretches whose runs are too short are passed over.
    pub fn window(&self, seen: u64, now: Time, need: i64, d: Time, s: Time) -> Window {
        let k = self.classes;
        let c = class_of(need).min(k - 1);
        let reach = if seen >= self.now() {
            NOTHING
        } else if seen >= self.mark {
            let from = (seen - self.base) as usize;
            self.log[from..]
                .iter()
                .zip(self.runs[from * k..].chunks_exact(k))
                .filter(|(x, runs)| x.1 >= need && fits(runs[c], d, s))
                .fold(NOTHING, |r, (x, runs)| r.with(x.0, runs[c]))
        } else if seen >= self.prev_mark {
            let i = (seen - self.prev_mark) as usize;
            let r = self.suffix[i * k + c].join(self.current[c]);
            if r.run.1 < s && r.longest < d {
                return Window::Unchanged;
            }
            r
        } else {
            return Window::Search {
                from: now,
                below: s,
            };
        };
        let hull = reach.hull;
        // Stretches from `s` on cannot help: the window ends at `s`.
        if hull == EMPTY || hull.0 >= s {
            return Window::Unchanged;
        }
        let from = now
            .max(hull.0.saturating_sub(d).saturating_add(1))
            .max(reach.run.0);
        let below = s.min(hull.1).min(reach.run.1);
        if from >= below {
            Window::Unchanged
        } else {
            Window::Search { from, below }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::profile::FOREVER;

    #[test]
    fn windows_follow_the_stretches_logged_since() {
        // 4 processors free throughout: every run goes on forever.
        let p = Profile::new(0, 4);
        let mut f = Freed::new(16);
        f.reset();
        let placed = f.now();
        // Nothing gained: nothing to search.
        assert_eq!(f.window(placed, 0, 2, 10, 100), Window::Unchanged);
        f.begin();
        f.push(&p, 0, 30); // a job planned to end at 30 ended at 0
                           // A job of hold 10 reserved at 100 can only start before 30 now.
        assert_eq!(
            f.window(placed, 0, 2, 10, 100),
            Window::Search { from: 0, below: 30 }
        );
        let checked = f.now();
        f.push(&p, 50, 60); // a job moved away from [50, 60)
                            // Seen after the first stretch: only the second one counts (starts in (40, 60)).
        assert_eq!(
            f.window(checked, 0, 2, 10, 100),
            Window::Search {
                from: 41,
                below: 60
            }
        );
        // Reserved at 45: the stretch at 50 is past its reservation.
        assert_eq!(f.window(checked, 0, 2, 10, 45), Window::Unchanged);
        // The next compression: the job checked before [50, 60) was logged still sees it.
        f.begin();
        f.push(&p, 5, 8);
        assert_eq!(
            f.window(checked, 5, 2, 10, 100),
            Window::Search { from: 5, below: 60 }
        );
        // A job needing 5 or more processors: no stretch had that many free (class 2 holds
        // stretches with 4 or more, so 4 and 5 share it: 8 does not).
        assert_eq!(f.window(checked, 5, 8, 10, 100), Window::Unchanged);
        assert_eq!(
            f.window(checked, 5, 5, 10, 100),
            Window::Search { from: 5, below: 60 }
        );
        // Voided certificates: everything is searched; a new one holds.
        let mut g = Freed::new(16);
        g.reset();
        let old = g.now();
        g.invalidate();
        assert_eq!(
            g.window(old, 3, 2, 10, 100),
            Window::Search {
                from: 3,
                below: 100
            }
        );
        assert_eq!(g.window(g.now(), 3, 2, 10, 100), Window::Unchanged);
        // A certificate from before the previous compression: everything is searched.
        f.begin();
        assert_eq!(
            f.window(placed, 7, 9, 10, 100),
            Window::Search {
                from: 7,
                below: 100
            }
        );
    }

    /// A stretch whose run of free processors is short: only jobs that fit in it, or whose
    /// reservation the run reaches, search it.
    #[test]
    fn short_runs_are_passed_over() {
        // Nothing free but 4 processors over [10, 20), 2 over [20, 25).
        let mut p = Profile::new(0, 0);
        p.add(10, 20, 4);
        p.add(20, 25, 2);
        let mut f = Freed::new(16);
        f.reset();
        let placed = f.now();
        f.begin();
        f.push(&p, 10, 20);
        // 4 or more free: [10, 20); 2 or more: [10, 25).
        assert_eq!(
            f.runs[..3],
            [(10, 25), (10, 25), (10, 20)],
            "classes 0, 1, 2"
        );
        let fit = Window::Search {
            from: 10,
            below: 20,
        };
        // `(processors, hold, reservation)` and the window; the same from the current segment
        // (stretch by stretch) and from the previous one (the summed suffixes).
        let cases = [
            // 3 processors for 16: too long for [10, 25); for 15 it fits (at 10 only).
            ((3, 16, 100), Window::Unchanged),
            ((3, 15, 100), fit),
            // 4 processors for 11: too long for [10, 20), unless reserved at 20 or before.
            ((4, 11, 100), Window::Unchanged),
            ((4, 11, 20), fit),
            ((4, 11, 21), Window::Unchanged),
        ];
        for segment in ["current", "previous"] {
            for ((w, d, s), window) in cases {
                assert_eq!(
                    f.window(placed, 0, w, d, s),
                    window,
                    "{segment} {w} {d} {s}"
                );
            }
            f.begin();
        }
        // A run longer than the walk goes on forever.
        let mut q = Profile::new(0, 8);
        for t in 0..200 {
            q.add(t * 10, t * 10 + 5, 1);
        }
        let mut runs = [NO_RUN; 4];
        q.runs_around(1000, 1001, 3, &mut runs);
        assert_eq!(runs[3], (Time::MIN, FOREVER));
        q.runs_around(1000, 1001, 1000, &mut runs);
        assert_eq!(runs[3], (0, FOREVER));
    }
}
