//! What stretches of an availability profile that gained processors offer a job (see
//! `freed.rs`): their hull, how far their runs of free processors reach, the longest of
//! those runs; and a few such summaries side by side ([`Clusters`]), so that stretches far
//! apart in time do not make one wide hull to search.

use crate::Time;

/// The hull of stretches: the earliest start and the latest end (`EMPTY` when none).
pub type Hull = (Time, Time);
pub const EMPTY: Hull = (Time::MAX, Time::MIN);

/// Where the runs of free processors around a stretch reached right after it was logged, for
/// one class of width, and the longest of them: `(r0, r1, longest)` (see
/// `Profile::runs_around`).
pub type RunsAround = (Time, Time, Time);
pub const NO_RUNS: RunsAround = (Time::MAX, Time::MIN, Time::MIN);

/// Whether a job holding `d` reserved at `s` can fit in `run`: a window `[t, min(t + d, s))`
/// with `t < s` inside one of the runs.
pub fn fits(run: RunsAround, d: Time, s: Time) -> bool {
    run.0 < s && (run.1 >= s || run.2 >= d)
}

/// What a set of stretches offers a class of width: their hull, the widest reach of their
/// runs, and the longest run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    pub hull: Hull,
    pub run: (Time, Time),
    pub longest: Time,
}

pub const NOTHING: Reach = Reach {
    hull: EMPTY,
    run: (Time::MAX, Time::MIN),
    longest: Time::MIN,
};

impl Reach {
    /// One stretch and its run.
    pub fn of(hull: Hull, run: RunsAround) -> Self {
        Self {
            hull,
            run: (run.0, run.1),
            longest: run.2,
        }
    }

    pub fn join(self, o: Self) -> Self {
        Self {
            hull: join(self.hull, o.hull),
            run: (self.run.0.min(o.run.0), self.run.1.max(o.run.1)),
            longest: self.longest.max(o.longest),
        }
    }

    /// The start times that a job needing its processors for `d`, reserved at `s`, at time
    /// `now`, can move to through these stretches: `[from, below)`, `None` when empty. A
    /// window `[t, min(t + d, s))` must meet a stretch (`a - d < t < b`), lie in the reach of
    /// the runs, and fit in one of them.
    pub fn window(&self, now: Time, d: Time, s: Time) -> Option<(Time, Time)> {
        if self.hull == EMPTY || self.hull.0 >= s || (self.run.1 < s && self.longest < d) {
            return None;
        }
        let from = now
            .max(self.hull.0.saturating_sub(d).saturating_add(1))
            .max(self.run.0);
        let below = s.min(self.hull.1).min(self.run.1);
        (from < below).then_some((from, below))
    }

    /// [`Reach::window`] told apart by the run a fit would lie in: the start times to search
    /// for a fit in a run of `d` or more (`None` when every run here is shorter), and whether
    /// a run reaching `s` may hold one (a job reserved at `s` fits in a run that reaches its
    /// reservation however short the run: the caller looks at that one run itself).
    pub fn split_window(&self, now: Time, d: Time, s: Time) -> (Option<(Time, Time)>, bool) {
        match self.window(now, d, s) {
            Some(w) => ((self.longest >= d).then_some(w), self.run.1 >= s),
            None => (None, false),
        }
    }
}

fn join(a: Hull, b: Hull) -> Hull {
    (a.0.min(b.0), a.1.max(b.1))
}

/// Most summaries side by side: what conservative backfilling keeps, and the room a
/// [`Clusters`] has (tests keep fewer, through [`Clusters::add`]'s `most`, so that they join
/// often).
pub const MOST: usize = 8;

/// Up to `most` ([`MOST`] at most) summaries of stretches, in the order of their hulls'
/// starts: one more joins the two whose hulls are closest (or overlap most).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clusters {
    /// All of them joined.
    pub total: Reach,
    n: usize,
    /// `most` at most between calls; one more while one is added.
    all: [Reach; MOST + 1],
}

impl Default for Clusters {
    fn default() -> Self {
        Self {
            total: NOTHING,
            n: 0,
            all: [NOTHING; MOST + 1],
        }
    }
}

impl Clusters {
    pub fn iter(&self) -> impl Iterator<Item = &Reach> {
        self.all[..self.n].iter()
    }

    /// Adds `r`, keeping `most` summaries at most (1 to [`MOST`]; the same at every call).
    pub fn add(&mut self, r: Reach, most: usize) {
        debug_assert!((1..=MOST).contains(&most));
        if r.hull == EMPTY {
            return;
        }
        self.total = self.total.join(r);
        let n = self.n;
        let all = &mut self.all;
        // Stretches come mostly in the order of their starts (forward as they are logged,
        // backward in `Freed::begin`'s sums): the ends first, then element by element (a few
        // at most, cheaper than a search).
        let at = if n == 0 || all[n - 1].hull.0 <= r.hull.0 {
            n
        } else if all[0].hull.0 > r.hull.0 {
            0
        } else {
            let mut at = 1;
            while all[at].hull.0 <= r.hull.0 {
                at += 1;
            }
            at
        };
        // Overlapping hulls join at once (the order by start stays).
        if at > 0 && r.hull.0 <= all[at - 1].hull.1 {
            all[at - 1] = all[at - 1].join(r);
            return;
        }
        if at < n && r.hull.1 >= all[at].hull.0 {
            all[at] = all[at].join(r);
            return;
        }
        for k in (at..n).rev() {
            all[k + 1] = all[k];
        }
        all[at] = r;
        if n < most {
            self.n = n + 1;
            return;
        }
        // One too many: the closest neighbours join (the first such pair).
        let gap = |i: usize| all[i + 1].hull.0.saturating_sub(all[i].hull.1);
        let (mut i, mut least) = (0, gap(0));
        for j in 1..most {
            let g = gap(j);
            if g < least {
                (i, least) = (j, g);
            }
        }
        all[i] = all[i].join(all[i + 1]);
        for k in i + 1..most {
            all[k] = all[k + 1];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten stretches, one every 100 s, and one 10 s after the one at 800, added latest first,
    /// three side by side at most: the fourth joins the two closest (800
    /// and 830); from then on, every gap being 80 s, each new one joins the first.
    #[test]
    fn the_closest_join_when_too_many() {
        let mut c = Clusters::default();
        let mut hulls: Vec<Hull> = (0..9).map(|i| (i * 100, i * 100 + 20)).collect();
        hulls.push((830, 840));
        for &h in hulls.iter().rev() {
            c.add(Reach::of(h, (h.0 - 5, h.1 + 5, h.1 - h.0 + 10)), 3);
        }
        let got: Vec<Hull> = c.iter().map(|r| r.hull).collect();
        assert_eq!(got, [(0, 620), (700, 720), (800, 840)]);
        let last = c.iter().last().copied().unwrap_or(NOTHING);
        assert_eq!((last.run, last.longest), ((795, 845), 30));
        // A job holding 25, reserved at 1000, at time 0: start times that meet a stretch and
        // lie in its runs.
        let windows: Vec<_> = c.iter().filter_map(|r| r.window(0, 25, 1000)).collect();
        assert_eq!(windows, [(0, 620), (695, 720), (795, 840)]);
        // Runs of 30 s at most: a job holding 50 fits only if reserved where a run reaches.
        assert_eq!(last.window(0, 50, 846), None);
        assert_eq!(last.window(0, 50, 845), Some((795, 840)));
        // Stretches at or after the reservation cannot help.
        assert_eq!(last.window(0, 5, 800), None);
        // One overlapping another joins it at once.
        c.add(Reach::of((705, 730), (705, 730, 25)), 3);
        let got: Vec<Hull> = c.iter().map(|r| r.hull).collect();
        assert_eq!(got, [(0, 620), (700, 730), (800, 840)]);
        assert_eq!(c.total.hull, (0, 840));
    }
}
