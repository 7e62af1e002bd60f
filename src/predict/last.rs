//! `last`: the Last Model (PV-EASY paper, sections 3.2 and 5.2): a job's lifetime accuracy
//! (runtime / requested time) is that of the same user's last finished job; the prediction is
//! that accuracy x the job's requested time. A user's first job (or a job without a requested
//! time) is predicted by its planning estimate. "Last" is by end time in the simulation; jobs
//! without a requested time do not update the model.

use super::Model;
use crate::job::Job;
use rand_pcg::Pcg64;
use std::collections::HashMap;

#[derive(Default)]
pub(super) struct Last {
    /// Dense user number of each user id, and of each submitted job.
    slot_of_user: HashMap<i64, u32>,
    slot: Vec<u32>,
    /// Per user slot: the lifetime accuracy of its last finished job (NaN: none yet).
    accuracy: Vec<f64>,
}

impl Last {
    fn slot(&mut self, user: i64) -> u32 {
        let next = self.slot_of_user.len() as u32;
        let s = *self.slot_of_user.entry(user).or_insert(next);
        if s == next {
            self.accuracy.push(f64::NAN);
        }
        s
    }
}

impl Model for Last {
    fn submitted(&mut self, j: usize, job: &Job, _rng: &mut Pcg64) {
        let s = self.slot(job.user);
        if self.slot.len() <= j {
            self.slot.resize(j + 1, u32::MAX);
        }
        self.slot[j] = s;
    }

    fn finished(&mut self, job: &Job) {
        if let Some(r) = job.requested().filter(|&r| r > 0) {
            let s = self.slot(job.user) as usize;
            self.accuracy[s] = job.runtime as f64 / r as f64;
        }
    }

    fn predict(&self, j: usize, job: &Job) -> f64 {
        let acc = self
            .slot
            .get(j)
            .and_then(|&s| self.accuracy.get(s as usize))
            .copied()
            .unwrap_or(f64::NAN);
        match job.requested() {
            Some(r) if !acc.is_nan() => acc * r as f64,
            _ => job.estimate as f64,
        }
    }

    fn spec(&self) -> String {
        "last".into()
    }

    fn fixed(&self) -> bool {
        false
    }
}
