//! Conservative backfilling with guarantees: every waiting job holds a reservation in an
//! availability profile, made when it arrives; when a job ends before its planned end, waiting
//! jobs are re-planned in queue order and may only move earlier. (Without guarantees:
//! `guarantee_free.rs`, rebuilt from scratch in queue order at every pass.)

use super::StartRule;
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

pub struct Conservative {
    profile: Option<Profile>,
    /// Per job: the reserved interval `[start, end)` while it waits.
    res: Vec<Option<(Time, Time)>>,
    due: Vec<usize>,
    /// Scratch: the start reason of each due job.
    why: Vec<(usize, StartReason)>,
}

impl Conservative {
    pub fn new() -> Self {
        Self {
            profile: None,
            res: Vec::new(),
            due: Vec::new(),
            why: Vec::new(),
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
    fn place(&mut self, c: &mut Ctx<'_>, profile: &mut Profile, j: usize) -> Result<(), SimError> {
        let job = c.job(j);
        let d = hold(c.estimate(j));
        let start = profile
            .earliest(c.now(), job.procs, d)
            .ok_or_else(|| no_room(c, j))?;
        profile.reserve(start, start + d, job.procs);
        self.res[j] = Some((start, start + d));
        c.reserve(j, start);
        Ok(())
    }

    /// Rebuilds the profile from the running jobs and re-plans every waiting job in queue order.
    fn rebuild(&mut self, c: &mut Ctx<'_>, queue: &[usize]) -> Result<Profile, SimError> {
        let mut profile = profile_now(c);
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
    /// scan and no change to the profile.
    fn compress(&mut self, c: &mut Ctx<'_>, profile: &mut Profile, queue: &[usize]) {
        let now = c.now();
        for &j in queue {
            let Some((s, e)) = self.res[j] else { continue };
            if s <= now {
                continue;
            }
            let procs = c.job(j).procs;
            let d = e - s;
            if let Some(t) = profile.earliest_capped(now, procs, d, s, s) {
                profile.release(s, e, procs);
                profile.reserve(t, t + d, procs);
                self.res[j] = Some((t, t + d));
            }
        }
    }
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
    fn prepare(&mut self, jobs: Jobs<'_>, _procs: u32) -> Vec<(usize, String)> {
        self.res = vec![None; jobs.len()];
        Vec::new()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>, queue: &[usize]) -> Result<(), SimError> {
        let now = c.now();
        let mut rebuild = self.profile.is_none();
        let mut compress = false;
        let mut profile = self.profile.take().unwrap_or_else(|| Profile::new(now, 0));
        profile.advance(now);
        for h in c.happenings() {
            match *h {
                Happening::Submitted(_) => {}
                Happening::Finished { job, planned_end } => {
                    if planned_end > now {
                        profile.release(now, planned_end, c.job(job).procs);
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
                    self.compress(c, &mut profile, queue);
                }
                // New arrivals (no reservation yet), in queue order.
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
