//! Conservative backfilling with guarantees: every waiting job holds a reservation in an
//! availability profile, made when it arrives; when a job ends before its planned end, waiting
//! jobs are re-planned in queue order and may only move earlier. (Without guarantees:
//! `guarantee_free.rs`, rebuilt from scratch in queue order at every pass.)

use super::StartRule;
use crate::policy::blocks::floor::Floor;
use crate::policy::blocks::freed::Freed;
use crate::policy::blocks::profile::{hold, no_room, profile_now};
use crate::policy::{KeyInfo, KeyValues, Params, SpecError};
use crate::sim::{Ctx, Happening, Jobs, Profile, SimError, StartReason};
use crate::Time;

/// The `guarantees` key.
pub const GUARANTEES: KeyInfo = KeyInfo {
    name: "guarantees",
    default: "on",
    values: "on|off",
    help: "on: reservations kept, only moved earlier; off: the schedule rebuilt from scratch in queue order at every event",
    presets: &[],
};

/// The `shadow` key.
pub const SHADOW: KeyInfo = KeyInfo {
    name: "shadow",
    default: "0",
    values: "whole number 0-1000",
    help: "with guarantees=off: no job starts later than k shadow intervals after its arrival (its promised wait on arrival behind every job already there); 0 = no bound",
    presets: &[],
};

/// Parses the `guarantees` and `shadow` keys: `(guarantees, k)` and their canonical values.
pub fn parse(p: &Params) -> Result<(bool, u32, KeyValues<2>), SpecError> {
    let guarantees = p.choice("guarantees")?;
    let shadow = p
        .raw("shadow")
        .parse::<u32>()
        .ok()
        .filter(|k| *k <= 1000)
        .ok_or_else(|| {
            p.error(format!(
                "shadow={} is not a whole number from 0 to 1000",
                p.raw("shadow")
            ))
        })?;
    if shadow > 0 && guarantees == "on" {
        return Err(p.error(
            "shadow=k bounds the delays of the guarantee-free schedule: it needs guarantees=off"
                .into(),
        ));
    }
    Ok((
        guarantees == "on",
        shadow,
        [
            ("guarantees", guarantees.to_string()),
            ("shadow", shadow.to_string()),
        ],
    ))
}

/// Queue length from which compression logs where the profile gained processors and narrows
/// its checks (`blocks::freed`); shorter queues are checked in full, which costs less than the
/// log (on LANL-CM5, whose queues are mostly short). The tests use both modes on short
/// workloads.
#[cfg(not(test))]
const TRACK_FROM: usize = 512;
#[cfg(test)]
const TRACK_FROM: usize = 24;

/// Placements in a row from which their searches start at `blocks::floor`'s bounds (fewer
/// cost more to bound than they save: LANL-CM5's passes place one arrival each).
const FLOOR_FROM: usize = 16;

pub struct Conservative {
    profile: Option<Profile>,
    /// Per job: the reserved interval `[start, end)` while it waits.
    res: Vec<Option<(Time, Time)>>,
    /// Where the profile gained processors, and per job the sequence number of that log up to
    /// which it is known unable to move earlier (see `blocks::freed`).
    freed: Freed,
    seen: Vec<u64>,
    due: Vec<usize>,
    /// Scratch: the start times a compression check searches.
    windows: Vec<(Time, Time)>,
    /// Scratch: the start reason of each due job.
    why: Vec<(usize, StartReason)>,
    /// Earliest fits of the placements since the profile last gained processors.
    floor: Floor,
    use_floor: bool,
}

impl Conservative {
    pub fn new() -> Self {
        Self {
            profile: None,
            res: Vec::new(),
            freed: Freed::new(1),
            seen: Vec::new(),
            due: Vec::new(),
            windows: Vec::new(),
            why: Vec::new(),
            floor: Floor::default(),
            use_floor: false,
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
        self.freed.reset();
        self.start_floor(queue.len());
        for &j in queue {
            self.place(c, &mut profile, j)?;
        }
        Ok(profile)
    }

    /// Re-plans reserved waiting jobs in queue order; each moves to its earliest fit if that is
    /// earlier.
    ///
    /// A job reserved at `s` fits at `t < s` when its processors are free over
    /// `[t, min(t + d, s))`: past `s` its own reservation holds them. So the search looks only
    /// before `s`, without releasing the reservation, and a job that cannot move costs one
    /// scan and no change to the profile. The scan covers only the start times that the
    /// stretches freed since the job was last shown unable to move can have opened
    /// (`blocks::freed`); the answer is the same as a scan from now.
    fn compress(&mut self, c: &mut Ctx<'_>, profile: &mut Profile, queue: &[usize], track: bool) {
        let now = c.now();
        for &j in queue {
            let Some((s, e)) = self.res[j] else { continue };
            if s <= now {
                continue;
            }
            let procs = c.job(j).procs;
            let d = e - s;
            let search = |from, below| {
                profile
                    .earliest_capped(from, procs, d, s, below)
                    .map(|f| f.start)
            };
            let moved = if !track || full_checks() {
                search(now, s)
            } else {
                let seen = self.seen[j];
                let need = i64::from(procs);
                self.freed.windows(seen, now, need, d, s, &mut self.windows);
                // The windows in order: the first fit is the earliest.
                self.windows
                    .iter()
                    .find_map(|&(from, below)| search(from, below))
            };
            if let Some(t) = moved {
                profile.release(s, e, procs);
                profile.reserve(t, t + d, procs);
                self.res[j] = Some((t, t + d));
                // [t, t + d) replaced [s, e), t < s: the part past t + d gained processors.
                if track {
                    let gained = s.max(t + d);
                    self.freed.push(profile, gained, e);
                }
            }
            self.seen[j] = self.freed.now();
        }
        if !track {
            // Nothing was logged: no certificate holds.
            self.freed.invalidate();
        }
    }
}

#[cfg(not(test))]
fn full_checks() -> bool {
    false
}

#[cfg(test)]
thread_local! {
    /// Tests: every reserved job is checked from now to its reservation (the reference the
    /// narrowed checks must agree with).
    static FULL_CHECKS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn full_checks() -> bool {
    FULL_CHECKS.with(|f| f.get())
}

impl Conservative {
    /// The start reason of the due jobs ahead of every job that keeps waiting, in queue
    /// order: `head` when it arrived now (it never waited), else `reserved` (it waited for its
    /// reservation). The other due jobs (not in `why`) are `backfilled`: a job ahead of them
    /// in the queue order keeps waiting. The scan stops at the first job that keeps waiting.
    fn reasons(&mut self, c: &Ctx<'_>, queue: &[usize]) {
        self.why.clear();
        let now = c.now();
        for &j in queue {
            if self.why.len() == self.due.len() {
                break;
            }
            match self.res[j] {
                // Started earlier in this pass.
                None => {}
                Some((s, _)) if s <= now => {
                    let why = if c.job(j).submit == now {
                        StartReason::Head
                    } else {
                        StartReason::Reserved
                    };
                    self.why.push((j, why));
                }
                Some(_) => break,
            }
        }
    }
}

impl StartRule for Conservative {
    fn prepare(&mut self, jobs: Jobs<'_>, procs: u32) -> Vec<(usize, String)> {
        self.res = vec![None; jobs.len()];
        self.seen = vec![0; jobs.len()];
        self.freed = Freed::new(procs);
        self.floor = Floor::new(procs);
        Vec::new()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>, queue: &[usize]) -> Result<(), SimError> {
        let now = c.now();
        let mut rebuild = self.profile.is_none();
        let mut compress = false;
        // Narrowed checks pay for their log only with long queues.
        let track = queue.len() >= TRACK_FROM;
        let mut profile = self.profile.take().unwrap_or_else(|| Profile::new(now, 0));
        profile.advance(now);
        for h in c.happenings() {
            match *h {
                Happening::Submitted(_) => {}
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
        for attempt in 0..2 {
            if rebuild {
                profile = self.rebuild(c, queue)?;
            } else {
                if compress {
                    self.compress(c, &mut profile, queue, track);
                }
                // New arrivals (no reservation yet), in queue order.
                let arrivals = c
                    .happenings()
                    .iter()
                    .filter(|h| matches!(h, Happening::Submitted(_)))
                    .count();
                self.start_floor(arrivals);
                for &j in queue {
                    if self.res[j].is_none() {
                        self.place(c, &mut profile, j)?;
                    }
                }
            }
            // Start every job whose reservation has come, in arrival order.
            self.due.clear();
            self.due.extend(
                c.waiting()
                    .iter()
                    .copied()
                    .filter(|&j| self.res[j].is_some_and(|(s, _)| s <= now)),
            );
            self.reasons(c, queue);
            let mut consistent = true;
            for i in 0..self.due.len() {
                let j = self.due[i];
                if !c.fits(j) {
                    consistent = false;
                    break;
                }
                let why = self
                    .why
                    .iter()
                    .find(|w| w.0 == j)
                    .map_or(StartReason::Backfilled, |w| w.1);
                let end = now + c.estimate(j);
                c.start_as(j, Some(why), None, Some(end))?;
                self.res[j] = None;
            }
            if consistent {
                break;
            }
            if attempt == 1 {
                return Err(SimError::Invalid {
                    policy: "conservative".into(),
                    time: now,
                    reason: "profile out of step with the machine after a rebuild".into(),
                });
            }
            rebuild = true;
        }
        self.profile = Some(profile);
        // A reservation may begin when no job ends (after a zero-length job's held second, or
        // after a re-plan): make sure the engine calls back then (asked at every pass: a pass's
        // wake-up replaces the earlier ones).
        let next = c
            .waiting()
            .iter()
            .filter_map(|&j| self.res[j].map(|r| r.0))
            .min();
        if let Some(t) = next {
            c.wake_at(t);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::FULL_CHECKS;
    use crate::job::Job;
    use crate::sim::simulate;
    use crate::Time;

    /// Random workloads with estimates far above the runtimes (every end frees processors
    /// early, so every pass compresses): the narrowed checks give the same schedule as
    /// checking every reserved job from now on. Half the rounds count in whole minutes, so
    /// that jobs often fit a freed stretch exactly.
    #[test]
    fn narrowed_checks_agree_with_full_checks() {
        let mut rnd = crate::sim::test_numbers(0x9e37_79b9_7f4a_7c15);
        let mut waited = 0;
        for round in 0..12 {
            let unit: Time = if round >= 6 { 60 } else { 1 };
            let procs = 8 + rnd(56) as u32;
            let n = 200 + rnd(200) as usize;
            let mut submit: Time = 0;
            let jobs: Vec<Job> = (0..n)
                .map(|i| {
                    submit += rnd(if round % 3 == 0 { 2 } else { 400 }) as Time / unit * unit;
                    let runtime = rnd(3000) as Time / unit * unit;
                    let estimate = runtime + rnd(8000) as Time / unit * unit;
                    let width = if rnd(4) == 0 {
                        1 << rnd(6)
                    } else {
                        1 + rnd(u64::from(procs)) as u32
                    };
                    Job {
                        id: i as i64 + 1,
                        line: i as u64 + 1,
                        submit,
                        runtime,
                        trace_runtime: runtime,
                        procs: width.min(procs),
                        requested: std::num::NonZeroI64::new(estimate),
                        estimate,
                        estimate_unknown: false,
                        killed: false,
                        user: rnd(5) as i64,
                        trace_wait: -1,
                        status: 1,
                        used_memory: -1.0,
                        requested_memory: -1.0,
                        bandwidth: 0.0,
                    }
                })
                .collect();
            for spec in ["conservative", "conservative[queue=sjf]"] {
                let run = |full: bool| {
                    FULL_CHECKS.with(|f| f.set(full));
                    let mut p = crate::policy::build(spec).unwrap();
                    let s = simulate(&jobs, procs, p.as_mut(), 1, None).unwrap();
                    FULL_CHECKS.with(|f| f.set(false));
                    s.jobs.iter().map(|r| r.start).collect::<Vec<_>>()
                };
                let (narrowed, full) = (run(false), run(true));
                assert_eq!(narrowed, full, "round {round} {spec}");
                // Busy enough that most jobs wait.
                waited += narrowed
                    .iter()
                    .zip(&jobs)
                    .filter(|(&s, j)| s > j.submit)
                    .count();
            }
        }
        assert!(waited > 1000, "{waited}");
    }
}
