//! Putting new steps in place of a range of steps with as few moves of the later steps as
//! possible: a move earlier rewrites a few steps, and a long profile holds hundreds after them.

use crate::Time;

/// Replaces `steps[range]` with `new`, where `new` ends at the level the range ended at (a
/// move's splice and its pass over a few steps both end here). In a long profile
/// (`splice_from` steps or more, `Profile`'s threshold) the steps after the range move as little as they can (a
/// move rewrites a few steps, and hundreds follow them):
/// - fewer new steps: the rest of the range gets steps at the last new level, one second
///   apart after the last new step, when they fit before the next step;
/// - more: steps at the level of the one before them within a few after the range make room,
///   and only the steps up to them move;
/// - else the steps after the range move once (a `Vec::splice` moves them out and back).
///
/// Returns whether it left steps at the level of the one before them.
pub(super) fn replace_steps(
    steps: &mut Vec<(Time, i64)>,
    range: std::ops::Range<usize>,
    new: &[(Time, i64)],
    splice_from: usize,
) -> bool {
    let (i, k, n) = (range.start, range.end, steps.len());
    let end = i + new.len();
    // In a short profile moving the later steps costs less than looking for room.
    let long = n >= splice_from;
    if long && end < k && end > 0 {
        let (t, level) = if end > i {
            new[new.len() - 1]
        } else {
            steps[i - 1]
        };
        let pad = (k - end) as Time;
        if t.saturating_add(pad) < steps.get(k).map_or(Time::MAX, |s| s.0) {
            steps[i..end].copy_from_slice(new);
            for (x, s) in steps[end..k].iter_mut().enumerate() {
                *s = (t + 1 + x as Time, level);
            }
            return true;
        }
    }
    if end > k {
        let room = if long {
            level_steps_after(steps, k, end - k)
        } else {
            None
        };
        if let Some(r) = room {
            // From `r` down to `k`, the steps that change the level move up over the others.
            let mut w = r;
            for x in (k..=r).rev() {
                if x == 0 || steps[x].1 != steps[x - 1].1 {
                    steps[w] = steps[x];
                    w -= 1;
                }
            }
            steps[i..end].copy_from_slice(new);
            return false;
        }
        steps.resize(n + end - k, (0, 0));
    }
    if end != k {
        steps.copy_within(k..n, end);
    }
    steps[i..end].copy_from_slice(new);
    if end < k {
        steps.truncate(n + end - k);
    }
    false
}

/// Steps looked at after a range for steps at the level of the one before them.
const ROOM_WITHIN: usize = 32;

/// Where the `g`-th step at the level of the one before it lies from step `k` on, within
/// [`ROOM_WITHIN`] steps (`None`: not so near).
fn level_steps_after(steps: &[(Time, i64)], k: usize, g: usize) -> Option<usize> {
    let lim = (k + ROOM_WITHIN).min(steps.len());
    let mut found = 0;
    for r in k.max(1)..lim {
        if steps[r].1 == steps[r - 1].1 {
            found += 1;
            if found == g {
                return Some(r);
            }
        }
    }
    None
}
