//! `rfactor[r=R,mode=det|rnd]`: Zotkin & Keleher's R-factor estimates: R x runtime (`det`), or
//! U(runtime, 2R x runtime) drawn once per job at submission (`rnd`).

use super::{num, Model, PerJob};
use crate::job::Job;
use rand::Rng;
use rand_pcg::Pcg64;

pub(super) const DEFAULT_R: f64 = 2.0;

pub(super) struct RFactor {
    r: f64,
    random: bool,
    factor: PerJob,
}

impl RFactor {
    pub(super) fn new(r: f64, random: bool) -> Self {
        Self {
            r,
            random,
            factor: PerJob::default(),
        }
    }
}

impl Model for RFactor {
    fn submitted(&mut self, j: usize, _job: &Job, rng: &mut Pcg64) {
        if self.random {
            self.factor.set(j, rng.random_range(1.0..=2.0 * self.r));
        }
    }

    fn predict(&self, j: usize, job: &Job) -> f64 {
        let f = if self.random {
            self.factor.get(j).unwrap_or(self.r)
        } else {
            self.r
        };
        job.runtime as f64 * f
    }

    fn spec(&self) -> String {
        let mut keys = Vec::new();
        if self.r != DEFAULT_R {
            keys.push(format!("r={}", num(self.r)));
        }
        if self.random {
            keys.push("mode=rnd".to_string());
        }
        if keys.is_empty() {
            "rfactor".into()
        } else {
            format!("rfactor[{}]", keys.join(","))
        }
    }
}
