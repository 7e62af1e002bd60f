//! The runs of free processors around a stretch of a profile, per class of width.

use super::{Profile, Span, FOREVER};
use crate::Time;

impl Profile {
    /// Where the runs of many free processors around the span's `[a, b)` can reach, and how
    /// long they are: for each `c` below `out.len()`, every run of steps with `2^c` or more
    /// processors free that meets `[a, b)` lies inside `(r0, r1)` and is at most `longest`
    /// long, `out[c] = (r0, r1, longest)`. The walk goes at most `limit` steps each way from
    /// the span; a run still going on there is taken to go on forever (`Time::MIN`,
    /// [`FOREVER`]).
    pub fn runs_around(&self, span: Span, limit: usize, out: &mut [(Time, Time, Time)]) {
        let Span { a, b, .. } = span;
        let steps = &self.steps[..];
        let k = out.len();
        // The classes whose runs go on over a step when the fewest free so far is `m`.
        let open = |m: i64| {
            if m < 1 {
                0
            } else {
                ((63 - m.leading_zeros()) as usize + 1).min(k)
            }
        };
        // Back from the step holding `a`.
        let i = span.first;
        let (mut m, mut n, mut j) = (i64::MAX, k, i);
        loop {
            m = m.min(steps[j].1);
            let still = open(m);
            let edge = if j == i { a } else { steps[j + 1].0 };
            for r in &mut out[still..n] {
                r.0 = edge;
            }
            n = still;
            if n == 0 {
                break;
            }
            if j == 0 {
                for r in &mut out[..n] {
                    r.0 = steps[0].0;
                }
                break;
            }
            if i - j >= limit {
                for r in &mut out[..n] {
                    r.0 = Time::MIN;
                }
                break;
            }
            j -= 1;
        }
        // On from the step holding `b - 1`.
        let i = span.last;
        let (mut m, mut n, mut j) = (i64::MAX, k, i);
        loop {
            m = m.min(steps[j].1);
            let still = open(m);
            let edge = if j == i { b } else { steps[j].0 };
            for r in &mut out[still..n] {
                r.1 = edge;
            }
            n = still;
            if n == 0 {
                break;
            }
            if j + 1 == steps.len() || j - i >= limit {
                for r in &mut out[..n] {
                    r.1 = FOREVER;
                }
                break;
            }
            j += 1;
        }
        // Through the span: each run ends where the level drops below its class (the classes
        // open at a step are the first few: a run of a class holds runs of the classes above).
        // Where each open class's run began: one place per class an `i64` level can open (at
        // most 63: `open` never gives more, whatever the length of `out`).
        let mut start = [Time::MIN; 64];
        let mut n = open(steps[span.first].1);
        for (c, r) in out.iter_mut().enumerate() {
            if let Some(st) = start.get_mut(c) {
                *st = r.0;
            }
            r.2 = Time::MIN;
        }
        for s in &steps[span.first + 1..=span.last] {
            let now_open = open(s.1);
            for c in now_open..n {
                out[c].2 = out[c].2.max(s.0.saturating_sub(start[c]));
            }
            if now_open > n {
                for st in &mut start[n..now_open] {
                    *st = s.0;
                }
            }
            n = now_open;
        }
        for (c, r) in out[..n].iter_mut().enumerate() {
            r.2 = r.2.max(r.1.saturating_sub(start[c]));
        }
    }
}
