//! `fcfs[queue=...,weight=w,predictor=...]`: no backfilling: jobs start strictly in queue order
//! (arrival by default; Zotkin et al.'s "sorted FCFS" with `queue=sjf`).

use super::order::Orderer;
use super::{Params, Policy, SpecError};
use crate::predict::Predictor;
use crate::sim::{Ctx, SimError};

pub struct Fcfs {
    queue: Orderer,
    predictor: Predictor,
    spec: String,
    sorted: Vec<usize>,
}

pub(super) fn build(p: &Params) -> Result<Box<dyn Policy>, SpecError> {
    let (queue, [q, w]) = super::order::parse(p)?;
    let (predictor, ptext) = super::easy::predictor(p)?;
    Ok(Box::new(Fcfs {
        queue,
        predictor,
        spec: p.canonical(&[q, w, ("predictor", ptext)]),
        sorted: Vec::new(),
    }))
}

impl Policy for Fcfs {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        self.queue
            .begin_pass(c, &mut self.predictor, &mut self.sorted);
        let pred = &self.predictor;
        let jobs = c.jobs();
        for &j in &self.sorted {
            if !c.fits(j) {
                break;
            }
            let end = c.now() + pred.predict(j, &jobs[j]);
            c.start_with(j, None, Some(end))?;
        }
        Ok(())
    }
}
