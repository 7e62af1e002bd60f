//! Arrival order (first come, first served): the waiting list as the engine keeps it, read a
//! head at a time.

use crate::sim::Ctx;

/// Jobs copied by a pass's first request.
const HEAD: usize = 8;

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
    /// far: reading `k` jobs copies fewer than `2k + HEAD`, however long the list.
    pub(super) fn extend(&mut self, c: &Ctx<'_>, out: &mut Vec<usize>, upto: usize) {
        let waiting = c.waiting();
        let (from, more) = match out.last() {
            Some(&last) => (after(waiting, last, self.next), out.len()),
            None => (0, HEAD),
        };
        let to = waiting
            .len()
            .min(from.saturating_add(more.max(upto.saturating_sub(out.len()))));
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
