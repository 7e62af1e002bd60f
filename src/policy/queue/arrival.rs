//! Arrival order (first come, first served): the waiting list as the engine keeps it, read a
//! head at a time.

use crate::sim::Ctx;

/// Jobs copied by a pass's first request.
const HEAD: usize = 8;

/// Jobs copied at least by each later request: a short list (LANL-CM5's) is copied whole at
/// the second request, as one copy costs less than several.
const REST: usize = 256;

/// The reader of the waiting list for a pass (it keeps nothing between requests: the jobs
/// given so far say where the next ones start).
#[derive(Default)]
pub(super) struct Arrival;

impl Arrival {
    /// The waiting list is already in arrival order: first its head (the first few jobs: all
    /// that easy reads on a full machine, usually all that fcfs reads), then, when the rule
    /// reads further, the jobs after the last one given, at least as many as were given so
    /// far (and [`REST`]): reading `k` jobs copies fewer than `2k + REST`, however long the
    /// list.
    #[inline]
    pub(super) fn extend(&mut self, c: &Ctx<'_>, out: &mut Vec<usize>, upto: usize) {
        let (from, count) = match out.last() {
            Some(&last) => (
                last + 1,
                out.len().max(REST).max(upto.saturating_sub(out.len())),
            ),
            None => (0, upto.max(HEAD)),
        };
        c.waiting().append_from(from, count, out);
    }
}
