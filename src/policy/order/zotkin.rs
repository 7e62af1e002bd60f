//! Queue orders of Zotkin, Keleher & Perkovic ("Attacking the bottlenecks of backfilling
//! schedulers"): shortest first, random, random / length, and length x width, each
//! optionally with their weighted-delay term against starvation (section 8):
//! `criterion = preferred criterion + weight x delay`, largest criterion first.
//!
//! A job's length is what the policy plans with (its estimate: the predictor's value; the
//! requested time by default).

use super::QueueOrder;
use crate::policy::blocks::sorted::Sorted;
use crate::sim::{Ctx, Happening};
use crate::Time;
use rand::Rng;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Criterion {
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
    keyed: Sorted,
}

impl Zotkin {
    /// `queue` is one of sjf, random, random-length, width (any other value: sjf).
    pub fn new(queue: &str, weight: f64) -> Self {
        let order = match queue {
            "random" => Criterion::Random,
            "random-length" => Criterion::RandomLength,
            "width" => Criterion::Width,
            _ => Criterion::Sjf,
        };
        Self {
            order,
            weight,
            random: Vec::new(),
            keyed: Sorted::default(),
        }
    }
}

impl QueueOrder for Zotkin {
    /// Draws the random numbers of the new jobs, then sorts the waiting jobs by their
    /// criterion, their lengths being the policy's estimates.
    fn begin(&mut self, c: &mut Ctx<'_>) {
        self.observe(c);
        self.key(c);
    }

    fn extend(&mut self, _c: &Ctx<'_>, out: &mut Vec<usize>, upto: usize) {
        self.keyed.extend(out, upto);
    }
}

impl Zotkin {
    /// Draws the random numbers of the jobs submitted since the previous pass (random orders
    /// only), from the simulation's generator; call once at the start of every pass.
    fn observe(&mut self, c: &mut Ctx<'_>) {
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

    /// The criterion of job `j` at time `now` (larger first), given its length and width.
    fn criterion(&self, j: usize, length: Time, width: u32, delay: Time) -> f64 {
        let len = length.max(1) as f64;
        let base = match self.order {
            Criterion::Sjf => 1.0 / len,
            Criterion::Random => self.random[j],
            Criterion::RandomLength => self.random[j] / len,
            Criterion::Width => 1.0 / (f64::from(width) * len),
        };
        base + self.weight * delay.max(0) as f64
    }

    /// Keys the waiting jobs by their criterion, largest first (ties by arrival).
    fn key(&mut self, c: &Ctx<'_>) {
        let now = c.now();
        self.keyed.clear();
        for &j in c.waiting() {
            let job = c.job(j);
            let k = self.criterion(j, c.estimate(j), job.procs, now - job.submit);
            // Negated: the IEEE total order reversed, smallest first.
            self.keyed.push(-k, j);
        }
    }
}
