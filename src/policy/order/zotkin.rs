//! Queue orders of Zotkin, Keleher & Perkovic ("Attacking the bottlenecks of backfilling
//! schedulers"): shortest first, random, random / length, and length x width, each
//! optionally with their weighted-delay term against starvation (section 8):
//! `criterion = preferred criterion + weight x delay`, largest criterion first.
//!
//! A job's length is what the policy plans with (its estimate: the predictor's value; the
//! requested time by default).

use super::QueueOrder;
use crate::policy::keys::Params;
use crate::policy::SpecError;
use crate::sim::{Ctx, Happening};
use rand::Rng;

/// The preferred criterion of an order (larger first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Criterion {
    /// Shortest length first: criterion 1 / length.
    Sjf,
    /// A random number per job, drawn at submission: criterion U[0, 1).
    Random,
    /// Criterion U[0, 1) / length.
    RandomLength,
    /// Criterion 1 / (width x length): the job's weight in the width-normalized slowdown.
    Width,
}

/// A configured queue order with its per-job random numbers.
pub struct Zotkin {
    order: Criterion,
    weight: f64,
    random: Vec<f64>,
}

impl Zotkin {
    /// The order by `criterion`, plus `weight` x seconds waited.
    pub fn new(criterion: Criterion, weight: f64) -> Self {
        Self {
            order: criterion,
            weight,
            random: Vec::new(),
        }
    }
}

/// Reads the `weight` key and builds the order.
pub(super) fn build(
    p: &Params,
    criterion: Criterion,
) -> Result<Option<Box<dyn QueueOrder>>, SpecError> {
    let weight = p.number("weight", |w| w >= 0.0, "a number >= 0")?;
    Ok(Some(Box::new(Zotkin::new(criterion, weight))))
}

impl QueueOrder for Zotkin {
    /// Draws the random numbers of the jobs submitted since the previous pass (random orders
    /// only), from the simulation's generator.
    fn begin(&mut self, c: &mut Ctx<'_>) {
        if !matches!(self.order, Criterion::Random | Criterion::RandomLength) {
            return;
        }
        if self.random.len() < c.job_count() {
            self.random.resize(c.job_count(), 0.0);
        }
        let n = c.happenings().len();
        for i in 0..n {
            if let Happening::Submitted(j) = c.happenings()[i] {
                self.random[j] = c.rng().random::<f64>();
            }
        }
    }

    /// The criterion negated (largest criterion first), the length being the policy's
    /// estimate (at least 1 s).
    fn key(&mut self, c: &Ctx<'_>, j: usize) -> f64 {
        let job = c.job(j);
        let len = c.estimate(j).max(1) as f64;
        let base = match self.order {
            Criterion::Sjf => 1.0 / len,
            Criterion::Random => self.random[j],
            Criterion::RandomLength => self.random[j] / len,
            Criterion::Width => 1.0 / (f64::from(job.procs) * len),
        };
        let delay = (c.now() - job.submit).max(0) as f64;
        -(base + self.weight * delay)
    }
}
