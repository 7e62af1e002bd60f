//! `virtual[err=x]`: the PV-EASY paper's "virtual" predictor (section 5.2.2): runtime x
//! (1 + U(-x, x)), drawn once per job when it is submitted from the simulation's seeded
//! generator.

use super::{num, Model, PerJob};
use crate::job::Job;
use rand::Rng;
use rand_pcg::Pcg64;

pub(super) const DEFAULT_ERR: f64 = 0.1;

pub(super) struct Virtual {
    err: f64,
    factor: PerJob,
}

impl Virtual {
    pub(super) fn new(err: f64) -> Self {
        Self {
            err,
            factor: PerJob::default(),
        }
    }
}

impl Model for Virtual {
    fn submitted(&mut self, j: usize, _job: &Job, rng: &mut Pcg64) {
        let u = if self.err > 0.0 {
            rng.random_range(-self.err..=self.err)
        } else {
            0.0
        };
        self.factor.set(j, 1.0 + u);
    }

    fn predict(&self, j: usize, job: &Job) -> f64 {
        job.runtime as f64 * self.factor.get(j).unwrap_or(1.0)
    }

    fn spec(&self) -> String {
        if self.err == DEFAULT_ERR {
            "virtual".into()
        } else {
            format!("virtual[err={}]", num(self.err))
        }
    }
}
