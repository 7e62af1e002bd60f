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
        // Where each open class's run began (`open` gives `k` at most): on the stack for
        // machines of up to 2^23 processors (writing 64 places at every call cost 2% of
        // off-line 5K_sample conservative).
        let mut local = [Time::MIN; 24];
        let mut heap = Vec::new();
        let start: &mut [Time] = if k <= local.len() {
            &mut local[..k]
        } else {
            heap.resize(k, Time::MIN);
            &mut heap
        };
        let mut n = open(steps[span.first].1);
        for (st, r) in start.iter_mut().zip(out.iter_mut()) {
            *st = r.0;
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
