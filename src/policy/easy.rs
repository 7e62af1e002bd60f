//! `easy[queue=...,weight=w,order=fcfs|sjf|spf,predictor=...]`: EASY backfilling (GUIDE section
//! 3) over a queue order (arrival by default; Zotkin et al.'s sorted and randomized orders),
//! planning with a runtime predictor (`user` by default: the requested time). [`reserve_head`]
//! and [`backfill`] are EASY's steps over any queue order (fairshare-easy uses them).

use super::order::Orderer;
use super::{Params, Policy, SpecError};
use crate::input::Job;
use crate::predict::Predictor;
use crate::sim::{Ctx, SimError};
use crate::Time;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackfillOrder {
    /// The queue order (arrival order by default).
    Fcfs,
    /// Shortest estimate first (ties by arrival).
    Sjf,
    /// Shortest prediction first (ties by arrival).
    Spf,
}

pub struct Easy {
    order: BackfillOrder,
    predictor: Predictor,
    queue: Orderer,
    spec: String,
    sorted: Vec<usize>,
    candidates: Vec<usize>,
}

/// The `predictor` key of a policy: the predictor and its canonical value.
pub(super) fn predictor(p: &Params) -> Result<(Predictor, String), SpecError> {
    let pred = Predictor::parse(p.raw("predictor")).map_err(|e| p.error(e))?;
    let text = pred.spec();
    Ok((pred, text))
}

pub(super) fn build(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let order = match p.choice("order")? {
        "sjf" => BackfillOrder::Sjf,
        "spf" => BackfillOrder::Spf,
        _ => BackfillOrder::Fcfs,
    };
    let (predictor, ptext) = predictor(p)?;
    let (queue, [q, w]) = super::order::parse(p)?;
    Ok(Box::new(Easy {
        order,
        predictor,
        queue,
        spec: p.canonical(&[
            q,
            w,
            ("order", p.raw("order").to_string()),
            ("predictor", ptext),
        ]),
        sorted: Vec::new(),
        candidates: Vec::new(),
    }))
}

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
/// and either ends (by its estimate) by the shadow time or uses no more than the extra
/// processors left at the shadow time.
pub(super) fn backfill(
    c: &mut Ctx<'_>,
    shadow: (Time, u32),
    candidates: impl IntoIterator<Item = usize>,
) -> Result<(), SimError> {
    backfill_by(c, shadow, candidates, |_, job| job.estimate)
}

/// [`backfill`] with the runtimes `predict(j, job)`: a job ends by the shadow time by its
/// prediction, and starts planned to end after its prediction.
pub fn backfill_by(
    c: &mut Ctx<'_>,
    (shadow_time, mut extra): (Time, u32),
    candidates: impl IntoIterator<Item = usize>,
    predict: impl Fn(usize, &Job) -> Time,
) -> Result<(), SimError> {
    let now = c.now();
    for j in candidates {
        let free = c.free();
        if free == 0 {
            break;
        }
        let job = c.job(j);
        if job.procs > free {
            continue;
        }
        let end = now + predict(j, job);
        if end <= shadow_time {
            c.start_with(j, None, Some(end))?;
        } else if job.procs <= extra {
            extra -= job.procs;
            c.start_with(j, None, Some(end))?;
        }
    }
    Ok(())
}

impl Policy for Easy {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        self.queue
            .begin_pass(c, &mut self.predictor, &mut self.sorted);
        let pred = &self.predictor;
        let jobs = c.jobs();
        let mut first = 0;
        while let Some(&head) = self.sorted.get(first) {
            if !c.fits(head) {
                break;
            }
            let end = c.now() + pred.predict(head, c.job(head));
            c.start_with(head, None, Some(end))?;
            first += 1;
        }
        let Some(&head) = self.sorted.get(first) else {
            return Ok(());
        };
        let Some(shadow) = reserve_head(c, head) else {
            return Ok(());
        };
        self.candidates.clear();
        self.candidates.extend_from_slice(&self.sorted[first + 1..]);
        match self.order {
            BackfillOrder::Fcfs => {}
            BackfillOrder::Sjf => self.candidates.sort_by_key(|&j| (jobs[j].estimate, j)),
            BackfillOrder::Spf => self
                .candidates
                .sort_by_key(|&j| (pred.predict(j, &jobs[j]), j)),
        }
        backfill_by(c, shadow, self.candidates.iter().copied(), |j, job| {
            pred.predict(j, job)
        })
    }
}
