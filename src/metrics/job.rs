//! One job's figures in a schedule (wait, response, bounded slowdown, stretch): the per-job
//! base of the classic, fairness and resource-sharing families and of the jobs CSV.

use super::options::MetricOptions;
use crate::input::JobSet;
use crate::sim::Schedule;
use crate::Time;
use serde::Serialize;

/// Per-job figures of a job that ran.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct JobMetrics {
    pub wait: Time,
    pub response: Time,
    /// (wait + max(run, bound)) / max(run, bound).
    pub bsld: f64,
    /// response / run time (a run time of 0 counts as 1 s).
    pub stretch: f64,
}

/// Figures of job `j`, or `None` when it did not run.
pub fn per_job(set: &JobSet, s: &Schedule, j: usize, opts: &MetricOptions) -> Option<JobMetrics> {
    let rec = &s.jobs[j];
    if !rec.ran() {
        return None;
    }
    let submit = set.jobs[j].submit;
    let wait = rec.start - submit;
    let run = rec.end - rec.start;
    let response = rec.end - submit;
    let bounded = (run as f64).max(opts.bsld_bound).max(f64::MIN_POSITIVE);
    Some(JobMetrics {
        wait,
        response,
        bsld: (wait as f64 + bounded) / bounded,
        stretch: response as f64 / run.max(1) as f64,
    })
}
