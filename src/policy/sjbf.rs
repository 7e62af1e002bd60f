//! `sjbf[rsp=ff|lc|lct,t=1.15]`: EASY backfilling with shortest-job-backfilled-first order and
//! a resource selection policy (Guim, Rodero & Corbalan, section 7). The head of the queue (in
//! arrival order) starts when its selection gives it a start now; otherwise it holds a
//! reservation: the shadow time for ff / lc, the start LessConsume-Threshold found for lct.
//! Waiting jobs are then tried shortest estimate first; each starts now if its selection gives
//! it a start now and it ends (by its estimate) by the reservation or fits in the processors
//! left over then.

use super::easy::shadow;
use super::select::{self, Rsp};
use super::{Params, Policy, SpecError};
use crate::sim::{Ctx, SimError};
use crate::Time;

pub struct Sjbf {
    rsp: Rsp,
    spec: String,
    candidates: Vec<usize>,
}

/// A threshold value: a penalty factor >= 1.
pub(super) fn threshold(p: &Params, key: &str, v: &str) -> Result<f64, SpecError> {
    match v.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && (1.0..=1e6).contains(&t) => Ok(t),
        _ => Err(p.error(format!(
            "{key}={v} is not valid; a penalty factor >= 1 (e.g. 1.15)"
        ))),
    }
}

pub(super) fn build(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let t = threshold(p, "t", p.raw("t"))?;
    let rsp = match p.choice("rsp")? {
        "lc" => Rsp::LessConsume,
        "lct" => Rsp::Threshold(t),
        _ => Rsp::FirstFit,
    };
    Ok(Box::new(Sjbf {
        rsp,
        spec: p.canonical(&[
            ("rsp", p.raw("rsp").to_string()),
            ("t", p.raw("t").trim().to_string()),
        ]),
        candidates: Vec::new(),
    }))
}

/// The head's reservation when it cannot start now: `(time, processors left over then)`.
pub(super) fn reservation(c: &Ctx<'_>, head: usize, start: Option<Time>) -> (Time, u32) {
    let need = c.job(head).procs;
    match start {
        Some(t) => (t, select::free_at(c, t).saturating_sub(need)),
        None => shadow(c, need),
    }
}

impl Policy for Sjbf {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        let now = c.now();
        let rsp = self.rsp;
        let later = select::start_heads(c, |c, head| match rsp {
            Rsp::Threshold(_) => select::earliest(c, head, rsp),
            _ => select::now(c, head, rsp),
        })?;
        let Some(&head) = c.waiting().first() else {
            return Ok(());
        };
        let (res, mut extra) = reservation(c, head, later);
        c.reserve(head, res);
        if later.is_some() {
            c.wake_at(res);
        }
        if c.free() == 0 {
            return Ok(());
        }
        self.candidates.clear();
        self.candidates.extend_from_slice(&c.waiting()[1..]);
        let jobs = c.jobs();
        self.candidates.sort_by_key(|&j| (jobs[j].estimate, j));
        for &j in &self.candidates {
            if c.free() == 0 {
                break;
            }
            let job = c.job(j);
            let end = now + job.estimate;
            let within = end <= res;
            if job.procs > c.free() || (!within && job.procs > extra) {
                continue;
            }
            let Some(a) = select::now(c, j, self.rsp) else {
                continue;
            };
            if !within {
                extra -= job.procs;
            }
            c.start_with(j, Some(a.procs), Some(end))?;
        }
        Ok(())
    }
}
