//! Moving a reservation earlier in one pass over the steps it rewrites, instead of a release
//! and a reservation that each search, insert and remove steps (each insertion or removal a
//! move of the steps after it). Most moves rewrite a few steps, in long profiles too.

use super::{replace_steps, Profile};
use crate::Time;

/// Most steps a move rewrites here (from the step holding the new place's start to the old
/// place's end, with those added): a longer stretch is left to release and reserve.
pub(super) const REGION: usize = 16;

impl Profile {
    /// Moves a reservation of `procs` processors from `[s, e)` to `[t, t + d)` where
    /// `lo = max(t, start) < s` and `procs > 0`: the steps of [`Profile::release`] then
    /// [`Profile::reserve`]. Returns false, changing nothing, when the new place ends at or
    /// before `lo` (nothing to reserve) or the steps it rewrites are more than [`REGION`].
    ///
    /// Over `[lo, e)` the move adds `-procs` up to `m1 = min(t + d, s)`, nothing up to
    /// `m2 = max(t + d, s)`, then `procs` up to `e`. The new steps from the one holding `lo`
    /// to `e` are written into a small array, each stretch's steps with its change. Within a
    /// stretch the levels keep their differences: only the step where one begins (a new step,
    /// or the one already there) can equal the level before it, and is then left out. Past
    /// `e` nothing changed. They replace the old ones with at most one move of the steps
    /// after them (see `replace_steps`). Where the old steps had no two equal levels in a
    /// row, neither have the new ones; steps at the level of the one before them are copied
    /// as they are. The levels are those of release then reserve.
    #[inline(never)]
    pub(super) fn move_in_one_pass(
        &mut self,
        lo: Time,
        i: usize,
        (s, e): (Time, Time),
        t_end: Time,
        procs: u32,
    ) -> bool {
        let (m1, m2) = (t_end.min(s), t_end.max(s));
        if m1 <= lo {
            return false;
        }
        let (p, splice_from) = (i64::from(procs), self.splice_from);
        // Where a stretch begins, and the change over it; the stretch between the new and
        // the old place is empty when one ends where the other begins.
        let all = [(lo, -p), (m1, 0), (m2, p), (e, 0)];
        let changes: &[(Time, i64)] = if m1 == m2 {
            &[(lo, -p), (m2, p), (e, 0)]
        } else {
            &all
        };
        let steps = &mut self.steps;
        let n = steps.len();
        // The new steps from `steps[i]` to the end of the last stretch.
        let mut new = [(0, 0); REGION];
        let mut w = 0;
        // Levels are processor counts: never `i64::MIN`, so a first step is always written.
        let mut last = if i > 0 { steps[i - 1].1 } else { i64::MIN };
        let (mut j, mut delta) = (i, 0);
        for &(x, change) in changes {
            while j < n && steps[j].0 < x {
                let (t, level) = steps[j];
                last = level + delta;
                let Some(slot) = new.get_mut(w) else {
                    return false;
                };
                *slot = (t, last);
                (w, j) = (w + 1, j + 1);
            }
            // The level of the step holding `x` (`steps[i]` holds `lo`: there is one).
            if j < n && steps[j].0 == x {
                j += 1;
            }
            let base = steps[j - 1].1;
            delta = change;
            if base + delta != last {
                last = base + delta;
                let Some(slot) = new.get_mut(w) else {
                    return false;
                };
                *slot = (x, last);
                w += 1;
            }
        }
        // They replace `steps[i..j]`.
        let loose = replace_steps(steps, i..j, &new[..w], splice_from);
        self.loose |= loose;
        true
    }
}

#[cfg(test)]
mod tests;
