//! Conservative backfilling with guarantees: every waiting job holds a reservation in an
//! availability profile, made when it arrives; when a job ends before its planned end, waiting
//! jobs are re-planned in queue order and may only move earlier. (Without guarantees:
//! `guarantee_free.rs`, rebuilt from scratch in queue order at every pass.)

use super::StartRule;
use crate::policy::blocks::floor::Floor;
use crate::policy::blocks::profile::{hold, no_room, profile_now};
use crate::policy::plan::{Hint, Profile};
use crate::policy::queue::Queue;
use crate::policy::{KeyInfo, Params, SpecError, Values};
use crate::sim::{Ctx, Happening, Jobs, SimError, StartReason};
use crate::Time;
use due::DueIndex;
use freed::Freed;
use no_fit::NoFit;

mod due;
mod freed;
mod no_fit;
pub(super) mod on_nodes;
mod reach;
mod start;

/// The `guarantees` key.
pub const GUARANTEES: KeyInfo = KeyInfo {
    name: "guarantees",
    default: "on",
    values: Values::Text("on|off"),
    help: "on: reservations kept, only moved earlier; off: the schedule rebuilt from scratch in queue order at every event",
    presets: &[],
    examples: &[],
};

/// The `shadow` key.
pub const SHADOW: KeyInfo = KeyInfo {
    name: "shadow",
    default: "0",
    values: Values::Text("whole number 0-1000"),
    help: "with guarantees=off: no job starts later than k times its promised wait on arrival; 0 = no bound",
    presets: &[],
    examples: &["2"],
};

/// Reads the `guarantees` and `shadow` keys: `(guarantees, k)`.
pub fn parse(p: &Params) -> Result<(bool, u32), SpecError> {
    let guarantees = p.choice("guarantees")? == "on";
    let raw = p.raw("shadow")?;
    let shadow = raw
        .parse::<u32>()
        .ok()
        .filter(|k| *k <= 1000)
        .ok_or_else(|| p.error(format!("shadow={raw} is not a whole number from 0 to 1000")))?;
    if shadow > 0 && guarantees {
        return Err(p.error(
            "shadow=k bounds the delays of the guarantee-free schedule: it needs guarantees=off"
                .into(),
        ));
    }
    p.record("shadow", shadow.to_string());
    Ok((guarantees, shadow))
}

/// Queue length from which compression logs where the profile gained processors and narrows
/// its checks (`freed.rs`); shorter queues are checked in full, which costs less than the
/// log (on LANL-CM5, whose queues are mostly short).
const TRACK_FROM: usize = 512;

/// Thresholds that choose between ways of computing the same schedule: the production values
/// by default; tests give smaller ones ([`Conservative::with_tuning`]) so that short workloads
/// reach every way.
#[derive(Debug, Clone, Copy)]
struct Tuning {
    /// Queue length from which checks are narrowed ([`TRACK_FROM`]).
    track_from: usize,
    /// `freed.rs`'s stride ([`freed::STRIDE`]).
    stride: usize,
    /// Summaries side by side in `reach.rs`'s clusters ([`reach::MOST`] at most).
    most: usize,
    /// The profile's splice threshold ([`Profile::with_splice_from`]; `None`: its own).
    splice_from: Option<usize>,
    /// Every reserved job checked from now to its reservation: the reference the narrowed
    /// checks must agree with.
    full_checks: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            track_from: TRACK_FROM,
            stride: freed::STRIDE,
            most: reach::MOST,
            splice_from: None,
            full_checks: false,
        }
    }
}

/// Placements in a row from which their searches start at `blocks::floor`'s bounds (fewer
/// cost more to bound than they save: LANL-CM5's passes place one arrival each).
const FLOOR_FROM: usize = 16;

/// Conservative backfilling with guarantees: every waiting job holds a reservation.
pub struct Conservative {
    profile: Option<Profile>,
    /// Per job: the reserved interval `[start, end)` while it waits.
    res: Vec<Option<(Time, Time)>>,
    /// Where the profile gained processors, and per job the sequence number of that log up to
    /// which it is known unable to move earlier (see `freed.rs`).
    freed: Freed,
    seen: Vec<u64>,
    /// Per job: where the instant before its reservation was last found in the profile.
    hints: Vec<Hint>,
    /// The waiting jobs due at this pass, in arrival order.
    due: Vec<usize>,
    /// The reserved starts, earliest first, to find the jobs due.
    due_index: DueIndex,
    /// Scratch: the start times a compression check searches.
    windows: Vec<(Time, Time)>,
    /// Scratch: the start reason of each due job.
    why: Vec<(usize, StartReason)>,
    /// Earliest fits of the placements since the profile last gained processors.
    floor: Floor,
    use_floor: bool,
    /// The earliest reserved start of the waiting jobs (`Time::MAX`: none): kept on every
    /// placement and move (moves only go earlier) and recomputed when jobs start, so that a
    /// pass with nothing due reads no reservation.
    earliest: Time,
    /// What the jobs that could not move told the later ones, during a compression.
    no_fit: NoFit,
    /// Scratch: this pass's arrivals (the jobs without a reservation), last in queue order
    /// first.
    arrivals: Vec<usize>,
    tuning: Tuning,
}

impl Conservative {
    /// The rule with the production thresholds.
    pub fn new() -> Self {
        Self::with_tuning_of(Tuning::default())
    }

    /// The rule with `tuning` (tests: small thresholds).
    #[cfg(test)]
    fn with_tuning(tuning: Tuning) -> Self {
        Self::with_tuning_of(tuning)
    }

    fn with_tuning_of(tuning: Tuning) -> Self {
        Self {
            profile: None,
            res: Vec::new(),
            freed: Freed::new(1, tuning.stride, tuning.most),
            seen: Vec::new(),
            hints: Vec::new(),
            due: Vec::new(),
            due_index: DueIndex::default(),
            windows: Vec::new(),
            why: Vec::new(),
            floor: Floor::default(),
            use_floor: false,
            earliest: Time::MAX,
            arrivals: Vec::new(),
            no_fit: NoFit::default(),
            tuning,
        }
    }
}

impl Default for Conservative {
    fn default() -> Self {
        Self::new()
    }
}

impl Conservative {
    /// Gives job `j` the earliest reservation from `now` on.
    ///
    /// The profile only lost processors since `self.floor` was cleared: the search begins at
    /// its bound.
    fn place(&mut self, c: &mut Ctx<'_>, profile: &mut Profile, j: usize) -> Result<(), SimError> {
        let job = c.job(j);
        let d = hold(c.estimate(j));
        let from = if self.use_floor {
            c.now().max(self.floor.bound(job.procs, d))
        } else {
            c.now()
        };
        // Not `earliest_fit` / `reserve_fit` as in `guarantee_free.rs`: here it measured slower
        // (off-line 5K_sample, ~+9% time with fewer instructions).
        let start = profile
            .earliest(from, job.procs, d)
            .ok_or_else(|| no_room(c, j))?;
        profile.reserve(start, start + d, job.procs);
        if self.use_floor {
            self.floor.record(job.procs, d, start);
        }
        self.res[j] = Some((start, start + d));
        self.due_index.push(start, j);
        self.earliest = self.earliest.min(start);
        // At its earliest fit: it cannot move earlier until the profile gains processors.
        self.seen[j] = self.freed.now();
        c.reserve(j, start);
        Ok(())
    }

    /// Starts a run of `n` placements with nothing released between them: bounded by
    /// `self.floor` when there are enough of them to pay for it.
    fn start_floor(&mut self, n: usize) {
        self.use_floor = n >= FLOOR_FROM;
        if self.use_floor {
            self.floor.clear();
        }
    }

    /// Rebuilds the profile from the running jobs and re-plans every waiting job in queue order.
    fn rebuild(&mut self, c: &mut Ctx<'_>, queue: &[usize]) -> Result<Profile, SimError> {
        let mut profile = profile_now(c);
        if let Some(n) = self.tuning.splice_from {
            profile = profile.with_splice_from(n);
        }
        self.freed.reset();
        self.due_index.clear();
        self.earliest = Time::MAX;
        self.start_floor(queue.len());
        for &j in queue {
            self.place(c, &mut profile, j)?;
        }
        Ok(profile)
    }
}

impl Conservative {
    /// Places this pass's `n` arrivals (the jobs of `queue` without a reservation), in queue
    /// order: in arrival order they are the jobs submitted now, by index (the queue is not
    /// read: with a million jobs waiting, copying it at every pass was most of the run);
    /// otherwise found from the back of the queue.
    fn place_arrivals(
        &mut self,
        c: &mut Ctx<'_>,
        profile: &mut Profile,
        queue: &mut Queue<'_>,
        n: usize,
    ) -> Result<(), SimError> {
        self.start_floor(n);
        if n == 0 {
            return Ok(());
        }
        self.arrivals.clear();
        if queue.in_arrival_order() {
            let submitted = c.happenings().iter().filter_map(|h| match *h {
                Happening::Submitted(j) => Some(j),
                _ => None,
            });
            self.arrivals.extend(submitted);
            // Last in queue order first.
            self.arrivals.sort_unstable_by(|a, b| b.cmp(a));
            debug_assert!(self.arrivals.iter().all(|&j| self.res[j].is_none()));
        } else {
            let queue = queue.all(c);
            debug_assert_eq!(
                queue.iter().filter(|&&j| self.res[j].is_none()).count(),
                n,
                "the jobs without a reservation are this pass's arrivals"
            );
            for &j in queue.iter().rev() {
                if self.res[j].is_none() {
                    self.arrivals.push(j);
                    if self.arrivals.len() == n {
                        break;
                    }
                }
            }
        }
        for i in (0..self.arrivals.len()).rev() {
            let j = self.arrivals[i];
            self.place(c, profile, j)?;
        }
        Ok(())
    }

    /// The earliest reserved start of the waiting jobs, read from each (`Time::MAX`: none).
    fn scan_earliest(&self, c: &Ctx<'_>) -> Time {
        c.waiting()
            .iter()
            .filter_map(|j| self.res[j].map(|r| r.0))
            .min()
            .unwrap_or(Time::MAX)
    }

    /// Fills `self.due` with the waiting jobs whose reservation has come, in arrival order;
    /// returns the earliest reserved start of the others: from the heap of reserved starts
    /// while many jobs wait (`due.rs`), else read from each waiting job. Not inlined into
    /// `pass` (measured: fewer instructions on LANL-CM5 and off-line than inlined, whose
    /// larger `pass` compiled its other loops worse).
    #[inline(never)]
    fn find_due(&mut self, c: &Ctx<'_>) -> Time {
        self.due.clear();
        let now = c.now();
        let (res, waiting) = (&self.res[..], c.waiting());
        let reserved = || {
            waiting
                .iter()
                .filter_map(|j| res[j].map(|r| (r.0, j)))
                .collect()
        };
        // At every plan, so that the heap's stale entries stay bounded.
        let indexed = self.due_index.keep(waiting.len(), reserved);
        if self.earliest > now {
            return self.earliest;
        }
        if indexed {
            // A job started before a rebuild was placed again by it: it is not waiting.
            let holds = |t: Time, j: usize| res[j].is_some_and(|r| r.0 == t) && waiting.contains(j);
            return self.due_index.take(now, holds, &mut self.due);
        }
        let mut rest = Time::MAX;
        // Borrowed apart: the loop reads the reservations without reloading them after a push.
        let due = &mut self.due;
        for j in waiting {
            if let Some((s, _)) = res[j] {
                if s <= now {
                    due.push(j);
                } else {
                    rest = rest.min(s);
                }
            }
        }
        rest
    }
}

impl StartRule for Conservative {
    fn prepare(&mut self, jobs: Jobs<'_>, procs: u32) -> Vec<(usize, String)> {
        self.res = vec![None; jobs.len()];
        self.seen = vec![0; jobs.len()];
        self.hints = vec![Hint::NONE; jobs.len()];
        self.due_index.clear();
        self.freed = Freed::new(procs, self.tuning.stride, self.tuning.most);
        self.floor = Floor::new(procs);
        self.earliest = Time::MAX;
        Vec::new()
    }

    /// A pass reads the queue only when it has something to plan or start: a pass after
    /// ends at their planned times (or a wake-up) with no reservation due changes nothing.
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        if c.cluster().is_some() {
            return on_nodes::pass(c, queue.all(c));
        }
        let now = c.now();
        let mut rebuild = self.profile.is_none();
        let mut compress = false;
        let mut arrivals = 0;
        // Narrowed checks pay for their log only with long queues.
        let track = c.waiting().len() >= self.tuning.track_from;
        let mut profile = self.profile.take().unwrap_or_else(|| Profile::new(now, 0));
        profile.advance(now);
        for h in c.happenings() {
            match *h {
                Happening::Submitted(_) => arrivals += 1,
                Happening::Finished { job, planned_end } => {
                    if planned_end > now {
                        profile.release(now, planned_end, c.job(job).procs);
                        if track {
                            if !compress {
                                // This pass compresses: its freed stretches start a new segment.
                                self.freed.begin();
                            }
                            self.freed.push(&profile, now, planned_end);
                        }
                        compress = true;
                    }
                }
                Happening::PlanExtended { .. } | Happening::Preempted(_) => rebuild = true,
            }
        }
        if rebuild || compress || arrivals > 0 || self.earliest <= now {
            self.plan_and_start(c, &mut profile, queue, rebuild, compress, arrivals)?;
        }
        self.profile = Some(profile);
        // A reservation may begin when no job ends (after a zero-length job's held second, or
        // after a re-plan): make sure the engine calls back then (asked at every pass: a pass's
        // wake-up replaces the earlier ones).
        debug_assert_eq!(self.earliest, self.scan_earliest(c));
        if self.earliest < Time::MAX {
            c.wake_at(self.earliest);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;

mod compress;
