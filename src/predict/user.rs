//! `user`: the planning estimate (the requested time, or the runtime when none is known or when
//! the input semantics plan with runtimes).

use super::Model;
use crate::job::Job;

pub(super) struct User;

impl Model for User {
    fn predict(&self, _j: usize, job: &Job) -> f64 {
        job.estimate as f64
    }

    fn spec(&self) -> String {
        "user".into()
    }
}
