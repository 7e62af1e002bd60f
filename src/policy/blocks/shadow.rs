//! EASY's steps (GUIDE section 3) over any queue order: the blocked head's shadow time and
//! extra processors, its reservation, and the backfilling step.

use crate::sim::{Ctx, SimError, StartReason};
use crate::Time;

/// The shadow time of a job needing `need` processors and the extra processors at that time:
/// the earliest planned end at which enough processors are free, counting every running job
/// planned to end at that same time.
pub fn shadow(c: &Ctx<'_>, need: u32) -> (Time, u32) {
    let mut avail = c.free();
    if avail >= need {
        return (c.now(), avail - need);
    }
    let mut found: Option<Time> = None;
    for (end, j) in c.running() {
        if let Some(t) = found {
            if end != t {
                break;
            }
        }
        avail += c.job(j).procs;
        if found.is_none() && avail >= need {
            found = Some(end);
        }
    }
    // The machine always fits a job (wider ones are skipped on input), so `found` is set.
    (found.unwrap_or(Time::MAX), avail.saturating_sub(need))
}

/// Reserves the shadow time for `head` (the first waiting job in the policy's order, which does
/// not fit now). Returns the shadow time and the extra processors then, or `None` when no
/// processor is free so nothing can backfill.
pub fn reserve_head(c: &mut Ctx<'_>, head: usize) -> Option<(Time, u32)> {
    let (shadow_time, extra) = shadow(c, c.job(head).procs);
    c.reserve(head, shadow_time);
    (c.free() > 0).then_some((shadow_time, extra))
}

/// EASY's backfilling step: tries `candidates` in the given order; each starts now if it fits
/// and either ends (by its estimate, [`Ctx::estimate`]) by the shadow time or uses no more than
/// the extra processors left at the shadow time (reasons `backfilled` and `extra`). Started
/// jobs are planned to end after their estimate.
pub fn backfill(
    c: &mut Ctx<'_>,
    (shadow_time, mut extra): (Time, u32),
    candidates: impl IntoIterator<Item = usize>,
) -> Result<(), SimError> {
    let now = c.now();
    for j in candidates {
        let free = c.free();
        if free == 0 {
            break;
        }
        let procs = c.job(j).procs;
        if procs > free {
            continue;
        }
        let end = now + c.estimate(j);
        if end <= shadow_time {
            c.start_as(j, Some(StartReason::Backfilled), None, Some(end))?;
        } else if procs <= extra {
            extra -= procs;
            c.start_as(j, Some(StartReason::Extra), None, Some(end))?;
        }
    }
    Ok(())
}
