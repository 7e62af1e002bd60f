//! A decision's passes in the order of the debug log's events (`schedlab replay --debug-log`):
//! the policy's backfill cycle runs in the second where Slurm's thread began one, on the state
//! Slurm's cycle had then.
//!
//! Slurm's backfill cycle reads the jobs and nodes as they are when it begins
//! (`_attempt_backfill` holds the controller's locks for its whole test): an end logged after
//! the cycle's beginning, in its second or a later one of the instant, has not freed its nodes
//! for it, and a job submitted after it is not yet in its queue. The sacct log stamps both
//! with whole seconds; the debug log stamps them to the millisecond. So, for an instant
//! `first..=at`:
//!
//! - a pass (main scheduler, then the cycle) runs in each second `c` of the instant where the
//!   log's thread began a cycle, and a last one at `at` (the main scheduler alone, or with the
//!   cycle when it began in `at`): the ends and submissions of the seconds after `c` come after
//!   that cycle, as in any run;
//! - within `c`, a job's end or submission logged after the cycle's beginning moves to the next
//!   second, after the pass (for `c = at`, past the decision).
//!
//! A cycle stamped in the first [`super::recorded::TICK_MS`] of a second may have read the
//! second before ([`super::recorded::backfill_cycles`]): it counts for that second, after its
//! events, when only that one is in the instant.

use super::log_order::LogOrder;
use super::recorded::TICK_MS;
use crate::job::Job;
use crate::Time;
use std::borrow::Cow;

/// A decision's passes and the jobs as they see them.
pub(super) struct Passes {
    /// Each pass's second, ascending, and whether it runs a backfill cycle: the last at `at`,
    /// or at `at + 1` when events of `at` came after its cycle.
    pub(super) passes: Vec<(Time, Option<bool>)>,
    /// The replay's jobs, with the ends and submissions logged after a cycle of their second
    /// moved a second on.
    pub(super) jobs: Vec<Job>,
}

/// The passes of the instant `first..=at` for the log's `order`: `jobs` as the replay runs
/// them, `starts` their recorded starts, `id` a job's id as the log names it.
pub(super) fn passes<'a>(
    order: &LogOrder,
    (first, at): (Time, Time),
    jobs: &[Job],
    starts: &[Time],
    id: impl Fn(usize) -> Cow<'a, str>,
) -> Passes {
    // The cycles begun within the instant: (second, milliseconds into it), one per second.
    let mut cuts: Vec<(Time, i64)> = Vec::new();
    for &(s, ms) in &order.cycles {
        let cut = if (first..=at).contains(&s) {
            (s, ms)
        } else if ms < TICK_MS && (first..=at).contains(&(s - 1)) {
            (s - 1, 1000)
        } else {
            continue;
        };
        if !cuts.iter().any(|c| c.0 == cut.0) {
            cuts.push(cut);
        }
    }
    cuts.sort_unstable();
    let mut passes: Vec<(Time, Option<bool>)> = cuts.iter().map(|c| (c.0, Some(true))).collect();
    if passes.last().is_none_or(|p| p.0 != at) {
        passes.push((at, Some(false)));
    }
    // The ends (of jobs started before the instant, ending in a cut's second by the replay)
    // and the submissions of a cut's second logged after its cycle began.
    let mut ends: Vec<usize> = Vec::new();
    let mut submits: Vec<usize> = Vec::new();
    for &(c, ms) in &cuts {
        // Logged after the cycle began (a kill's nodes may be freed in a later second).
        let after = |stamp: Option<&(Time, i64)>| stamp.is_some_and(|&s| s > (c, ms));
        for (j, job) in jobs.iter().enumerate() {
            let end = starts[j] + job.runtime;
            if starts[j] < first && end == c && after(order.ends.get(id(j).as_ref())) {
                ends.push(j);
            }
            if job.submit == c && after(order.submits.get(id(j).as_ref())) {
                submits.push(j);
            }
        }
    }
    let mut jobs = jobs.to_vec();
    let late_in_at = ends.iter().any(|&j| starts[j] + jobs[j].runtime == at)
        || submits.iter().any(|&j| jobs[j].submit == at);
    if late_in_at {
        // Events of `at` came after its cycle: the main scheduler's pass after them, a second
        // on, every event of that second kept past the decision.
        passes.push((at + 1, Some(false)));
        for (j, job) in jobs.iter_mut().enumerate() {
            if starts[j] < first && starts[j] + job.runtime == at + 1 {
                job.runtime += 1;
            }
            if job.submit == at + 1 {
                job.submit += 1;
            }
        }
    }
    for &j in &ends {
        jobs[j].runtime += 1;
    }
    // A submission moved a second on moves every later one of its second with it: the engine
    // takes submissions in the jobs' order (the log's ids are in that order too). Each second
    // moves once, from its first late submission: the seconds are read before any move, so a
    // second late submission of the same second, already moved, is not moved again.
    let mut moved: Vec<Time> = Vec::new();
    let firsts: Vec<(usize, Time)> = submits.iter().map(|&j| (j, jobs[j].submit)).collect();
    for (from, c) in firsts {
        if moved.contains(&c) {
            continue;
        }
        moved.push(c);
        for job in jobs[from..].iter_mut().take_while(|job| job.submit == c) {
            job.submit += 1;
        }
    }
    Passes { passes, jobs }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(submit: Time, runtime: Time) -> Job {
        Job {
            submit,
            runtime,
            ..Job::default()
        }
    }

    /// Worked by hand: the instant is second 10 alone (its one recorded start, job 3's). Job 0
    /// (started at 0, 10 s) ends in second 10 at .600, after the cycle begun at .300: the
    /// cycle's pass at 10 still sees it running (its end moves to 11) and a main scheduler's
    /// pass at 11 follows, the decision's last; job 1 (started at 1, 10 s) ends at 11 by
    /// sacct and is kept past it (12). Job 2 submitted at 10.100, before the cycle, waits for
    /// it; job 3 at 10.800, after it, is submitted at 11 for the pass after; job 4 at 11 at 12.
    #[test]
    fn an_end_after_the_cycle_of_its_second_is_not_seen_by_it() {
        let jobs = [job(0, 10), job(1, 10), job(5, 5), job(10, 5), job(11, 5)];
        let starts = [0, 1, 10, 10, 11];
        let ids = ["1", "2", "3", "4", "5"];
        let order = LogOrder {
            cycles: vec![(5, 300), (10, 300), (15, 300)],
            ends: [("1", (10, 600)), ("2", (11, 200))]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            submits: [("3", (5, 0)), ("4", (10, 800)), ("5", (11, 500))]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        };
        let p = passes(&order, (10, 10), &jobs, &starts, |j| Cow::Borrowed(ids[j]));
        assert_eq!(p.passes, vec![(10, Some(true)), (11, Some(false))]);
        let ends: Vec<Time> = (0..2).map(|j| starts[j] + p.jobs[j].runtime).collect();
        assert_eq!(ends, [11, 12]);
        let submits: Vec<Time> = p.jobs.iter().map(|j| j.submit).collect();
        assert_eq!(submits, [0, 1, 5, 11, 12]);
        // The end before the cycle (at .200 of second 10) is seen: one pass, nothing moved.
        let mut before = order.clone();
        before.ends.insert("1".into(), (10, 200));
        before.submits.insert("4".into(), (10, 100));
        let p = passes(&before, (10, 10), &jobs, &starts, |j| Cow::Borrowed(ids[j]));
        assert_eq!(p.passes, vec![(10, Some(true))]);
        assert_eq!(p.jobs[0].runtime, 10);
        assert_eq!(p.jobs[3].submit, 10);
        // An instant of seconds 9 and 10 with its cycle in 9: a pass at 9 with the cycle, one
        // at 10 with the main scheduler alone, whose second's end comes after the cycle anyway.
        let p = passes(&order, (9, 10), &jobs, &starts, |j| Cow::Borrowed(ids[j]));
        assert_eq!(p.passes, vec![(10, Some(true)), (11, Some(false))]);
        let early = LogOrder {
            cycles: vec![(9, 300)],
            ..order.clone()
        };
        let p = passes(&early, (9, 10), &jobs, &starts, |j| Cow::Borrowed(ids[j]));
        assert_eq!(p.passes, vec![(9, Some(true)), (10, Some(false))]);
        assert_eq!(p.jobs[0].runtime, 10);
    }

    /// Worked by hand (multipart-17/run2 at 88 s: jobs 32 and 33 submitted at .453 and .473,
    /// after the cycle begun at .192): two submissions of the cycle's second, both logged after
    /// it, each move one second, to the main scheduler's pass after the cycle; the second one
    /// is not moved again from the second the first one's move put it in (it was, to 12, past
    /// the decision). Job "4", submitted at 11 (a second after the instant), is kept past it
    /// (12), as before.
    #[test]
    fn two_submissions_after_the_cycle_of_their_second_move_one_second_each() {
        let jobs = [job(0, 20), job(10, 5), job(10, 5), job(11, 5)];
        let starts = [0, 10, 12, 12];
        let ids = ["1", "2", "3", "4"];
        let order = LogOrder {
            cycles: vec![(10, 192)],
            ends: Default::default(),
            submits: [("2", (10, 453)), ("3", (10, 473)), ("4", (11, 100))]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        };
        let p = passes(&order, (10, 10), &jobs, &starts, |j| Cow::Borrowed(ids[j]));
        assert_eq!(p.passes, vec![(10, Some(true)), (11, Some(false))]);
        let submits: Vec<Time> = p.jobs.iter().map(|j| j.submit).collect();
        assert_eq!(submits, [0, 11, 11, 12]);
    }
}
