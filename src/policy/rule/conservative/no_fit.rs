//! What the jobs checked earlier in a compression tell the later ones about where they cannot
//! start.
//!
//! A job needing `w` processors for `d`, reserved at `c`, whose earliest start from now on is
//! `b` (`b = c` when it cannot move) shows that no start `t < b` has `w` processors free over
//! `[t, min(t + d, c))`. A later job needing `w' >= w` for `d' >= d`, reserved at `s'`, then
//! fits at no `t < b` but in the run of free processors reaching its own reservation:
//! - when `t + d <= s'`, its window `[t, min(t + d', s'))` holds `[t, t + d)`, which is
//!   blocked (`t + d <= s'` and, if `s' < c`, `t + d < c`; if `s' >= c`, it holds
//!   `[t, min(t + d, c))`);
//! - when `t + d > s'`, its window is `[t, s')`: a fit there lies in the run holding `s' - 1`,
//!   which the check looks at apart (`Profile::run_before`).
//!
//! So its windows are searched from `b` on. The fact holds while the profile only loses
//! processors before `min(b - 1 + d, c)`, the end of the latest window it speaks of; a stretch
//! that gains processors before that voids it. (A move gains only after the moved job's old
//! start, which is at or after that end for its own fact.)

use crate::Time;

/// Facts kept at most: a new one takes the place of the one with the earliest bound (the next
/// jobs in queue order are reserved later, and use the latest bounds most). Measured on
/// off-line 5K_sample: 4, 16 and 32 searched about as many windows as 8.
const MOST: usize = 8;

/// One fact: a job needing `w` processors for `d` starts nowhere before `below` (but in the
/// run reaching its reservation), while the profile gains nothing before `until`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Fact {
    w: i64,
    d: Time,
    below: Time,
    until: Time,
}

impl Fact {
    /// Whether `self` says all that `o` says (perhaps not for as long: keeping the later bound
    /// searched fewer windows than keeping both, off-line on 5K_sample).
    fn covers(&self, o: &Fact) -> bool {
        self.w <= o.w && self.d <= o.d && self.below >= o.below
    }
}

/// The facts gathered during one compression, none covered by another.
#[derive(Debug, Default)]
pub struct NoFit {
    n: usize,
    all: [Fact; MOST],
}

impl NoFit {
    /// Forgets every fact (a new compression: the profile gained processors since).
    pub fn clear(&mut self) {
        self.n = 0;
    }

    /// A job needing `w` processors for `d`, reserved at `s`, was shown to fit nowhere before
    /// `below` (`below <= s`; `below = s` when it cannot move).
    pub fn record(&mut self, w: i64, d: Time, below: Time, s: Time) {
        let new = Fact {
            w,
            d,
            below,
            until: below.saturating_add(d - 1).min(s),
        };
        let mut k = 0;
        for i in 0..self.n {
            let old = self.all[i];
            if old.covers(&new) {
                return;
            }
            if !new.covers(&old) {
                self.all[k] = old;
                k += 1;
            }
        }
        if k < MOST {
            self.all[k] = new;
            self.n = k + 1;
        } else {
            self.n = MOST;
            let earliest = (0..MOST).min_by_key(|&i| self.all[i].below).unwrap_or(0);
            self.all[earliest] = new;
        }
    }

    /// The profile gained processors from `a` on: the facts whose windows reach past `a` go.
    pub fn gained(&mut self, a: Time) {
        let mut k = 0;
        for i in 0..self.n {
            if self.all[i].until <= a {
                self.all[k] = self.all[i];
                k += 1;
            }
        }
        self.n = k;
    }

    /// The latest time before which a job needing `w` processors for `d` fits nowhere but in
    /// the run reaching its reservation (`Time::MIN`: nothing known).
    pub fn bound(&self, w: i64, d: Time) -> Time {
        self.all[..self.n]
            .iter()
            .filter(|f| f.w <= w && f.d <= d)
            .map(|f| f.below)
            .max()
            .unwrap_or(Time::MIN)
    }
}

#[cfg(test)]
mod tests;
