//! Guarantee accuracy (Zotkin, Keleher & Perkovic, section 8 and Figure 16): how well the start a
//! policy promises a job on arrival (its first reservation; `conservative` with guarantees gives
//! every job one when it arrives) tells when the job starts. The paper's measure, over the jobs
//! that do not start at once: the ratio of the guaranteed delay to the actual delay,
//! (promised start - submit) / (start - submit); its median was 3.9 on CTC, and 20% of the jobs
//! started 11 or more times sooner than guaranteed (the 80th percentile of the ratio >= 11).
//! Policies that promise nothing on arrival (EASY's reservation is the head's, made later) have
//! no promised jobs, or promises made after arrival, which this metric reads the same way.

use super::stats::interpolated;
use crate::input::JobSet;
use crate::sim::Schedule;
use serde::Serialize;

/// Guarantee accuracy of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Guarantee {
    /// Jobs that ran.
    pub jobs: u64,
    /// Jobs that started at their submit time, % of the jobs that ran (the paper: 62% on CTC).
    pub at_once_pct: f64,
    /// Jobs that ran with a promised start (a first reservation).
    pub promised: u64,
    /// Promised jobs that did not start at once: the population of the ratio below.
    pub delayed: u64,
    /// Guaranteed delay / actual delay over the delayed promised jobs: median, 80th percentile
    /// (interpolated), mean. 1 = started exactly when promised; > 1 = earlier.
    pub median_ratio: f64,
    pub p80_ratio: f64,
    pub mean_ratio: f64,
    /// Promised jobs that started before / after their promise, % of the promised jobs.
    pub early_pct: f64,
    pub late_pct: f64,
}

impl Guarantee {
    /// Whether the figures read as the paper's: every job that ran had a promised start (a
    /// policy that promises on arrival: `conservative` with guarantees, `shadow=k` bounds).
    /// Other runs (EASY reserves for the blocked head only, later than its arrival) are left
    /// out of the catalogue's figures and of the JSON report.
    pub fn applies(&self) -> bool {
        self.jobs > 0 && self.promised == self.jobs
    }

    /// `!applies()` (for serde's `skip_serializing_if`).
    pub fn not_applicable(&self) -> bool {
        !self.applies()
    }
}

/// The guarantee accuracy of `s`.
pub fn guarantee(jobs: &JobSet, s: &Schedule) -> Guarantee {
    let mut g = Guarantee::default();
    let mut ratios = Vec::new();
    let (mut early, mut late) = (0u64, 0u64);
    for (job, rec) in jobs.jobs.iter().zip(&s.jobs) {
        if !rec.ran() {
            continue;
        }
        g.jobs += 1;
        let wait = rec.start - job.submit;
        if wait == 0 {
            g.at_once_pct += 1.0;
        }
        let Some(promise) = rec.first_reservation() else {
            continue;
        };
        g.promised += 1;
        early += u64::from(rec.start < promise);
        late += u64::from(rec.start > promise);
        if wait > 0 {
            ratios.push((promise - job.submit).max(0) as f64 / wait as f64);
        }
    }
    let pct = |n: f64, of: u64| if of > 0 { 100.0 * n / of as f64 } else { 0.0 };
    g.at_once_pct = pct(g.at_once_pct, g.jobs);
    g.early_pct = pct(early as f64, g.promised);
    g.late_pct = pct(late as f64, g.promised);
    g.delayed = ratios.len() as u64;
    if !ratios.is_empty() {
        super::stats::sort_total(&mut ratios);
        g.median_ratio = interpolated(&ratios, 0.5);
        g.p80_ratio = interpolated(&ratios, 0.8);
        g.mean_ratio = ratios.iter().sum::<f64>() / ratios.len() as f64;
    }
    g
}
