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

use crate::Time;

/// The hull of stretches: the earliest start and the latest end (`EMPTY` when none).
type Hull = (Time, Time);
const EMPTY: Hull = (Time::MAX, Time::MIN);

fn join(a: Hull, b: Hull) -> Hull {
    (a.0.min(b.0), a.1.max(b.1))
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
    /// Sequence number where the current compression began (its first stretch).
    mark: u64,
    /// Sequence number where the previous compression began.
    prev_mark: u64,
    /// Number of classes of width: enough for the whole machine.
    classes: usize,
    /// `suffix[i * classes + c]`: hull of the stretches of class `c` from `prev_mark + i` to
    /// `mark`.
    suffix: Vec<Hull>,
    /// Per class: hull of the stretches from `mark` on.
    current: Vec<Hull>,
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
            mark: 0,
            prev_mark: 0,
            classes,
            suffix: Vec::new(),
            current: vec![EMPTY; classes],
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
        self.mark = self.base;
        self.prev_mark = self.base;
        self.suffix.clear();
        self.current.fill(EMPTY);
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
        let drop = (self.mark - self.base) as usize;
        self.log.drain(..drop);
        self.base = self.mark;
        self.prev_mark = self.mark;
        self.mark = mark;
        let k = self.classes;
        self.suffix.clear();
        self.suffix.resize((self.log.len() + 1) * k, EMPTY);
        for i in (0..self.log.len()).rev() {
            let (hull, most) = self.log[i];
            let n = self.classes_of(most);
            let (row, next) = self.suffix[i * k..].split_at_mut(k);
            row.copy_from_slice(&next[..k]);
            for h in &mut row[..n] {
                *h = join(*h, hull);
            }
        }
        self.current.fill(EMPTY);
    }

    /// Logs that `[a, b)` gained processors, `most` of them free at most right after.
    pub fn push(&mut self, a: Time, b: Time, most: i64) {
        if a < b {
            self.log.push(((a, b), most));
            if self.base + self.log.len() as u64 > self.mark {
                let n = self.classes_of(most);
                for h in &mut self.current[..n] {
                    *h = join(*h, (a, b));
                }
            }
        }
    }

    /// The start times to search for a job needing `need` processors for `d`, reserved at
    /// `s`, shown unable to move as of sequence number `seen`, at time `now`.
    pub fn window(&self, seen: u64, now: Time, need: i64, d: Time, s: Time) -> Window {
        let c = class_of(need).min(self.classes - 1);
        let hull = if seen >= self.now() {
            EMPTY
        } else if seen >= self.mark {
            let from = (seen - self.base) as usize;
            self.log[from..]
                .iter()
                .filter(|x| x.1 >= need)
                .fold(EMPTY, |h, x| join(h, x.0))
        } else if seen >= self.prev_mark {
            let i = (seen - self.prev_mark) as usize;
            join(self.suffix[i * self.classes + c], self.current[c])
        } else {
            (now, Time::MAX)
        };
        // Stretches from `s` on cannot help: the window ends at `s`.
        if hull == EMPTY || hull.0 >= s {
            return Window::Unchanged;
        }
        let from = now.max(hull.0.saturating_sub(d).saturating_add(1));
        let below = s.min(hull.1);
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

    #[test]
    fn windows_follow_the_stretches_logged_since() {
        let mut f = Freed::new(16);
        f.reset();
        let placed = f.now();
        // Nothing gained: nothing to search.
        assert_eq!(f.window(placed, 0, 2, 10, 100), Window::Unchanged);
        f.begin();
        f.push(0, 30, 4); // a job planned to end at 30 ended at 0
                          // A job of hold 10 reserved at 100 can only start before 30 now.
        assert_eq!(
            f.window(placed, 0, 2, 10, 100),
            Window::Search { from: 0, below: 30 }
        );
        let checked = f.now();
        f.push(50, 60, 4); // a job moved away from [50, 60)
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
        f.push(5, 8, 4);
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
}
