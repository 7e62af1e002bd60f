//! Arrival order (first come, first served): the waiting list as the engine keeps it, read a
//! head at a time.

use crate::sim::Ctx;

/// Jobs copied by a pass's first request.
const HEAD: usize = 8;

/// Jobs copied at least by each later request: a short list (LANL-CM5's) is copied whole at
/// the second request, as one copy costs less than several.
const REST: usize = 256;

/// Where a pass's reading of the waiting list stands.
#[derive(Default)]
pub(super) struct Arrival {
    /// Where the job after the last one given stood in the waiting list.
    next: usize,
}

impl Arrival {
    /// The waiting list is already in arrival order: first its head (the first few jobs: all
    /// that easy reads on a full machine, usually all that fcfs reads), then, when the rule
    /// reads further, the jobs after the last one given, at least as many as were given so
    /// far (and [`REST`]): reading `k` jobs copies fewer than `2k + REST`, however long the
    /// list.
    #[inline]
    pub(super) fn extend(&mut self, c: &Ctx<'_>, out: &mut Vec<usize>, upto: usize) {
        let waiting = c.waiting();
        let (from, to) = match out.last() {
            Some(&last) => {
                let from = after(waiting, last, self.next);
                let more = out.len().max(REST).max(upto.saturating_sub(out.len()));
                (from, waiting.len().min(from.saturating_add(more)))
            }
            None => (0, waiting.len().min(upto.max(HEAD))),
        };
        out.extend_from_slice(&waiting[from..to]);
        self.next = to;
    }
}

/// The position in `waiting` (ascending) of the first job after `last`; `hint` is where it
/// stood when `last` was given (the rule has usually started `last` alone since).
fn after(waiting: &[usize], last: usize, hint: usize) -> usize {
    let holds = |p: usize| {
        p <= waiting.len()
            && waiting.get(p).is_none_or(|&w| w > last)
            && (p == 0 || waiting[p - 1] <= last)
    };
    if holds(hint) {
        hint
    } else if hint > 0 && holds(hint - 1) {
        hint - 1
    } else {
        waiting.partition_point(|&w| w <= last)
    }
}
