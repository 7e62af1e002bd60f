//! Searches that start from a step found before: the step holding a time near it is a few
//! reads away, where a search from scratch takes a dozen dependent ones.

use super::{Fit, Profile, Span};
use crate::Time;

/// Where a search found a step, kept across changes of the profile to search near it again:
/// the step's index plus the steps [`Profile::advance`] had dropped before the first. Steps
/// inserted or removed since only make the next search a little longer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hint(pub(super) u64);

impl Hint {
    /// No step found yet: the search starts from scratch.
    pub const NONE: Hint = Hint(u64::MAX);
}

impl Default for Hint {
    fn default() -> Self {
        Self::NONE
    }
}

impl Profile {
    /// A hint to the step holding `fit` (the profile unchanged before it since the search).
    pub fn hint(&self, fit: Fit) -> Hint {
        Hint(fit.step as u64 + self.dropped)
    }

    /// Index of the step containing `t`, searched from step `i` on (`steps[i].0 <= t`) by
    /// doubling strides, then halving.
    pub(super) fn index_onward(&self, t: Time, i: usize) -> usize {
        let steps = &self.steps[..];
        let (mut lo, mut stride) = (i, 1);
        loop {
            let hi = lo + stride;
            match steps.get(hi) {
                Some(s) if s.0 <= t => {
                    lo = hi;
                    stride *= 2;
                }
                _ => {
                    let hi = hi.min(steps.len());
                    return lo + steps[lo + 1..hi].partition_point(|&(x, _)| x <= t);
                }
            }
        }
    }

    /// Index of the step containing `t`, searched back from step `i` (`steps[i].0 > t`) by
    /// doubling strides, then halving (0 when `t` is before the first step).
    fn index_back(&self, t: Time, i: usize) -> usize {
        let steps = &self.steps[..];
        let (mut hi, mut stride) = (i, 1);
        loop {
            let lo = hi.saturating_sub(stride);
            if lo == 0 || steps[lo].0 <= t {
                let rest = &steps[(lo + 1).min(hi)..hi];
                return lo + rest.partition_point(|&(x, _)| x <= t);
            }
            hi = lo;
            stride *= 2;
        }
    }

    /// Index of the step containing `t`, searched from the step `hint` found (from scratch
    /// without one); `hint` then holds that step.
    fn index_near(&self, t: Time, hint: &mut Hint) -> usize {
        let i = if *hint == Hint::NONE {
            self.index_of(t)
        } else {
            let h = (hint.0.saturating_sub(self.dropped) as usize).min(self.steps.len() - 1);
            if self.steps[h].0 <= t {
                self.index_onward(t, h)
            } else {
                self.index_back(t, h)
            }
        };
        *hint = Hint(i as u64 + self.dropped);
        i
    }

    /// [`Profile::span`] of `[a, b)` for `a` at or after a [`Fit`] that a move began at
    /// (the profile unchanged before the fit's step since the search): the step holding `a`
    /// searched from there.
    pub fn span_after(&self, fit: Fit, a: Time, b: Time) -> Span {
        // The fit's step may have joined the one before it.
        let i = fit.step.saturating_sub(1);
        let first = if self.steps.get(i).is_some_and(|s| s.0 <= a) {
            self.index_onward(a, i)
        } else {
            self.index_of(a)
        };
        self.span_at(first, a, b)
    }

    /// The earliest start from `now` on in the run of `procs` or more processors free that
    /// holds the instant before `s` (`now < s`): `None` when that instant has fewer free.
    /// The step holding that instant is searched from `hint` (see [`Hint`]), which then holds
    /// it.
    ///
    /// For a job reserved at `s`, a start there is a fit however short the run: its own
    /// reservation holds the processors from `s` on.
    pub fn run_before(&self, now: Time, procs: u32, s: Time, hint: &mut Hint) -> Option<Fit> {
        let need = i64::from(procs);
        let steps = &self.steps[..];
        let mut i = self.index_near(s - 1, hint);
        if steps[i].1 < need {
            return None;
        }
        while i > 0 && steps[i - 1].1 >= need && steps[i].0 > now {
            i -= 1;
        }
        Some(Fit {
            start: steps[i].0.max(now),
            step: i,
        })
    }
}

#[cfg(test)]
mod tests;
