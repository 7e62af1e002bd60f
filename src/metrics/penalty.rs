//! The resource-sharing family (Guim, Rodero & Corbalan): percentage of penalized runtime,
//! jobs killed for overrunning their requested time because of penalties, bounded slowdown and
//! wait time, over a window of jobs (the paper's warm-up and measured jobs, by arrival rank).
//! Present only when the node model was on.
//!
//! Two populations for the bounded slowdown: `bsld` is over every measured job that ran
//! (killed ones included, with their run cut at the kill); `bsld_finished` leaves out the jobs
//! killed by their penalty, as the paper's BSLD does ("the number of jobs that are used to
//! compute the BSLD (number of finished jobs)", section 8.3). Jobs the trace itself cuts at
//! their requested time (killed whatever the policy) stay in both.

use super::job::per_job;
use super::options::{MetricOptions, Window};
use super::stats::Summary;
use crate::input::JobSet;
use crate::sim::{Outcome, Schedule};
use serde::Serialize;

/// The figures of one run with the node model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Penalty {
    pub window: Window,
    /// Jobs measured (ran, in the window).
    pub jobs: u64,
    /// 100 x penalized time / work done, per job: (penalty factor - 1) x 100.
    pub penalized_pct: Summary,
    /// Mean penalty factor (run length / work done).
    pub mean_factor: f64,
    /// Jobs killed at their requested time because penalties made them overrun it.
    pub killed_by_penalty: u64,
    /// Jobs killed at their requested time in all (including those the trace already cut).
    pub killed: u64,
    /// Bounded slowdown of every measured job.
    pub bsld: Summary,
    /// Measured jobs not killed by their penalty (the paper's "finished jobs").
    pub finished: u64,
    /// Bounded slowdown of those jobs only (the paper's population).
    pub bsld_finished: Summary,
    pub wait: Summary,
}

/// The resource-sharing metrics of `s`, or `None` when the node model was off.
pub fn penalty(set: &JobSet, s: &Schedule, opts: &MetricOptions) -> Option<Penalty> {
    let window = opts.window;
    let nodes = s.nodes.as_ref()?;
    let (mut pct, mut bsld, mut wait) = (Vec::new(), Vec::new(), Vec::new());
    let mut bsld_finished = Vec::new();
    let (mut killed, mut by_penalty, mut factor_sum) = (0u64, 0u64, 0.0);
    for (j, (job, rec)) in set.jobs.iter().zip(&s.jobs).enumerate() {
        if !window.contains(j) {
            continue;
        }
        let Some(m) = per_job(set, s, j, opts) else {
            continue;
        };
        let work = nodes.work[j];
        let penalized = nodes.penalized(j, rec.start, rec.end);
        let (p, f) = if work > 0.0 {
            (100.0 * penalized / work, (work + penalized) / work)
        } else {
            (0.0, 1.0)
        };
        pct.push(p);
        factor_sum += f;
        bsld.push(m.bsld);
        wait.push(m.wait as f64);
        let penalty_kill = rec.outcome == Outcome::Killed && !job.killed;
        if rec.outcome == Outcome::Killed {
            killed += 1;
            by_penalty += u64::from(penalty_kill);
        }
        if !penalty_kill {
            bsld_finished.push(m.bsld);
        }
    }
    let n = pct.len();
    Some(Penalty {
        window,
        jobs: n as u64,
        penalized_pct: Summary::of(&mut pct),
        mean_factor: if n > 0 { factor_sum / n as f64 } else { 1.0 },
        killed_by_penalty: by_penalty,
        killed,
        bsld: Summary::of(&mut bsld),
        finished: bsld_finished.len() as u64,
        bsld_finished: Summary::of(&mut bsld_finished),
        wait: Summary::of(&mut wait),
    })
}

/// Each job's penalty factor in its final run (run length / work done; 1 for a job that did no
/// work or did not run), or `None` when the node model was off.
pub fn factors(s: &Schedule) -> Option<Vec<f64>> {
    let nodes = s.nodes.as_ref()?;
    Some(
        s.jobs
            .iter()
            .enumerate()
            .map(|(j, r)| {
                let work = nodes.work[j];
                if r.ran() && work > 0.0 {
                    (r.end - r.start) as f64 / work
                } else {
                    1.0
                }
            })
            .collect(),
    )
}
