//! EASY's steps (GUIDE section 3) over any queue order: the blocked head's shadow time and
//! extra processors, its reservation, and the backfilling step.
#![warn(missing_docs)]

use crate::policy::queue::Queue;
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

/// EASY's backfilling step: tries `candidates` in the given order while a processor is free;
/// each starts now if it fits and either ends (by its estimate, [`Ctx::estimate`]) by the
/// shadow time or uses no more than the extra processors left at the shadow time (reasons
/// `backfilled` and `extra`). Started
/// jobs are planned to end after their estimate.
pub fn backfill(
    c: &mut Ctx<'_>,
    mut shadow: (Time, u32),
    candidates: impl IntoIterator<Item = usize>,
) -> Result<(), SimError> {
    for j in candidates {
        if c.free() == 0 {
            break;
        }
        backfill_one(c, &mut shadow, j)?;
    }
    Ok(())
}

/// [`backfill`] over the jobs of `queue` from position `from` on, read only while a processor
/// is free.
pub fn backfill_queue(
    c: &mut Ctx<'_>,
    mut shadow: (Time, u32),
    queue: &mut Queue<'_>,
    mut from: usize,
) -> Result<(), SimError> {
    while c.free() > 0 {
        let chunk = queue.from(c, from);
        if chunk.is_empty() {
            break;
        }
        for &j in chunk {
            if c.free() == 0 {
                return Ok(());
            }
            backfill_one(c, &mut shadow, j)?;
            from += 1;
        }
    }
    Ok(())
}

/// One candidate of EASY's backfilling step (a processor is free): starts `j` if it fits and
/// ends by the shadow time or fits in the extra processors (then taken from them).
#[inline]
fn backfill_one(
    c: &mut Ctx<'_>,
    (shadow_time, extra): &mut (Time, u32),
    j: usize,
) -> Result<(), SimError> {
    let procs = c.job(j).procs;
    if procs > c.free() {
        return Ok(());
    }
    let end = c.now() + c.estimate(j);
    if end <= *shadow_time {
        c.start_as(j, Some(StartReason::Backfilled), None, Some(end))?;
    } else if procs <= *extra {
        *extra -= procs;
        c.start_as(j, Some(StartReason::Extra), None, Some(end))?;
    }
    Ok(())
}
