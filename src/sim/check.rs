//! The schedule invariant checker, run by the tests on every schedule they make.
//!
//! It checks: no processor used by two jobs at once, start >= submit, every job not rejected by
//! the policy completes or is killed exactly once (and killed exactly when its runtime was cut),
//! each run has the job's processor count on existing processors, so usage never exceeds the machine.

use super::schedule::{Outcome, RunEnd, Schedule};
use crate::input::Job;

/// Returns every violation found (at most 20), or `Ok(())`.
pub fn check(jobs: &[Job], s: &Schedule) -> Result<(), Vec<String>> {
    if s.jobs.len() != jobs.len() {
        return Err(vec![format!(
            "{} job records for {} jobs",
            s.jobs.len(),
            jobs.len()
        )]);
    }
    let mut errs = Vec::new();
    let mut err = |m: String| {
        if errs.len() < 20 {
            errs.push(m);
        }
    };
    let mut rejected = vec![false; jobs.len()];
    for (j, _) in &s.rejected {
        rejected[*j] = true;
    }
    let runs = s.runs();
    let mut final_runs = vec![0u32; jobs.len()];
    for r in &runs {
        let job = &jobs[r.job];
        if r.start < job.submit {
            err(format!(
                "job {} starts at {} before its submit {}",
                job.id, r.start, job.submit
            ));
        }
        if r.end < r.start {
            err(format!("job {} ends before it starts", job.id));
        }
        if r.procs.len() != job.procs {
            err(format!(
                "job {} ran on {} processors, needs {}",
                job.id,
                r.procs.len(),
                job.procs
            ));
        }
        if r.procs
            .intervals()
            .last()
            .is_some_and(|&(_, hi)| hi > s.procs)
        {
            err(format!(
                "job {} uses processor ids beyond the machine ({})",
                job.id, s.procs
            ));
        }
        if r.end_kind != RunEnd::Preempted {
            final_runs[r.job] += 1;
            if r.end - r.start != job.runtime {
                err(format!(
                    "job {} ran {} s, its runtime is {} s",
                    job.id,
                    r.end - r.start,
                    job.runtime
                ));
            }
        }
    }
    for (j, (job, rec)) in jobs.iter().zip(&s.jobs).enumerate() {
        let expected = match (rejected[j], job.killed) {
            (true, _) => Outcome::Rejected,
            (false, true) => Outcome::Killed,
            (false, false) => Outcome::Completed,
        };
        if rec.outcome != expected {
            err(format!(
                "job {}: outcome {:?}, expected {expected:?}",
                job.id, rec.outcome
            ));
        }
        let want_runs = u32::from(!rejected[j]);
        if final_runs[j] != want_runs {
            err(format!(
                "job {}: {} final runs, expected {want_runs}",
                job.id, final_runs[j]
            ));
        }
    }
    // Sweep over time: ends before starts at one instant; zero-length runs hold nothing.
    let mut edges: Vec<(i64, bool, usize)> = Vec::with_capacity(runs.len() * 2);
    for (i, r) in runs.iter().enumerate() {
        if r.end > r.start {
            edges.push((r.start, true, i));
            edges.push((r.end, false, i));
        }
    }
    edges.sort_unstable();
    let mut owner: Vec<Option<usize>> = vec![None; s.procs as usize];
    for (t, is_start, i) in edges {
        let r = &runs[i];
        for p in r.procs.ids().filter(|&p| p < s.procs) {
            let slot = &mut owner[p as usize];
            if is_start {
                if let Some(other) = *slot {
                    err(format!(
                        "processor {p} used by jobs {} and {} at t={t}",
                        jobs[runs[other].job].id, jobs[r.job].id
                    ));
                }
                *slot = Some(i);
            } else if *slot == Some(i) {
                *slot = None;
            }
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}
