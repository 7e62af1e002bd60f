//! `exact`: the actual runtime of the simulation (a perfect predictor).

use super::Model;
use crate::job::Job;

pub(super) struct Exact;

impl Model for Exact {
    fn predict(&self, _j: usize, job: &Job) -> f64 {
        job.runtime as f64
    }

    fn spec(&self) -> String {
        "exact".into()
    }
}
