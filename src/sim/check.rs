//! The schedule invariant checker, run by the tests on every schedule they make.
//!
//! It checks: no processor used by two jobs at once, start >= submit, every job not rejected by
//! the policy completes or is killed exactly once (and killed exactly when its runtime was cut),
//! each run has the job's processor count on existing processors, so usage never exceeds the machine.
//! With the node model, a job's end is recomputed independently from the final schedule (see
//! [`penalized_ends`]): start + penalized runtime, or its kill time when that comes first.

use std::collections::BTreeMap;

use super::nodes::spread;
use super::penalty::{job_factor, node_penalty};
use super::schedule::{Outcome, RunEnd, Schedule};
use crate::job::Job;
use crate::Time;

/// Returns every violation found (at most 20), or `Ok(())`. A schedule made with time-limit
/// checks ([`Schedule::checks`]) is held to them: each job runs its recorded runtime, ended by
/// the check [`super::LimitChecks::end`] gives, killed when that cut it.
pub fn check(jobs: &[Job], s: &Schedule) -> Result<(), Vec<String>> {
    let checked;
    let jobs = match &s.checks {
        Some(ch) => {
            checked = ch.jobs(jobs);
            &checked[..]
        }
        None => jobs,
    };
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
            let ran = match &s.checks {
                Some(ch) => ch.end(job, r.start) - r.start,
                None => job.runtime,
            };
            if s.nodes.is_none() && r.end - r.start != ran {
                err(format!(
                    "job {} ran {} s, its runtime is {ran} s",
                    job.id,
                    r.end - r.start,
                ));
            }
        }
    }
    let progress = s.nodes.as_ref().map(|_| penalized_ends(jobs, s));
    for (j, (job, rec)) in jobs.iter().zip(&s.jobs).enumerate() {
        let mut killed = job.killed;
        if s.checks.is_some() && rec.ran() && rec.end < rec.start + job.runtime {
            killed = true;
        }
        if let (Some(done), true) = (&progress, rec.ran()) {
            // Progress made by the end (rate 1 / factor): the runtime, within the one second the
            // end is rounded up by, unless the job was killed at start + requested time first.
            let work = done[j];
            let at_kill = job.requested().map(|r| rec.start + r) == Some(rec.end);
            let runtime = job.runtime as f64;
            if work < runtime - 1e-3 && !at_kill {
                err(format!(
                    "job {} ended at {} with {work:.3} of {runtime} s done, not at its kill time",
                    job.id, rec.end
                ));
            } else if work > runtime + 1.0 + 1e-3 {
                err(format!(
                    "job {} ended at {} with {work:.3} s done: later than its penalized end ({runtime} s)",
                    job.id, rec.end
                ));
            }
            // Killed for its penalty: cut at its kill time short of (or within rounding of) its
            // runtime; a job that did its whole work plainly completes.
            if work < runtime - 1e-3
                || (at_kill && rec.outcome == Outcome::Killed && work < runtime + 1e-3)
            {
                killed = true;
            }
        }
        let expected = match (rejected[j], killed) {
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
    // The processor intervals held now, by first id: (end, run). Intervals, not ids, so that the
    // check costs no memory or time per processor of the machine (a billion is allowed).
    let mut held: BTreeMap<u32, (u32, usize)> = BTreeMap::new();
    for (t, is_start, i) in edges {
        let r = &runs[i];
        for &(lo, hi) in r.procs.intervals() {
            let hi = hi.min(s.procs);
            if lo >= hi {
                continue;
            }
            if is_start {
                // Held intervals are disjoint: only the last one starting below `hi` can overlap.
                if let Some((&olo, &(_, other))) = held
                    .range(..hi)
                    .next_back()
                    .filter(|(_, &(ohi, _))| ohi > lo)
                {
                    err(format!(
                        "processor {} used by jobs {} and {} at t={t}",
                        olo.max(lo),
                        jobs[runs[other].job].id,
                        jobs[r.job].id
                    ));
                }
                held.insert(lo, (hi, i));
            } else if held.get(&lo).is_some_and(|&(_, o)| o == i) {
                held.remove(&lo);
            }
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

/// The node model recomputed from a finished schedule: the work (seconds of its own progress)
/// each job did in its final run, given that between two consecutive start / end instants
/// every node's demand is constant and a job progresses at 1 / (1 + its largest node penalty).
/// Jobs that did not run get 0. Preempted runs count for the demand of their nodes.
pub fn penalized_ends(jobs: &[Job], s: &Schedule) -> Vec<f64> {
    let mut work = vec![0.0; jobs.len()];
    let Some(nodes) = &s.nodes else {
        return work;
    };
    let model = &nodes.model;
    let runs = s.runs();
    let spreads: Vec<Vec<(u32, u32)>> = runs.iter().map(|r| spread(model, &r.procs)).collect();
    let mut edges: Vec<(Time, bool, usize)> = Vec::with_capacity(runs.len() * 2);
    for (i, r) in runs.iter().enumerate().filter(|(_, r)| r.end > r.start) {
        edges.push((r.start, true, i));
        edges.push((r.end, false, i));
    }
    edges.sort_unstable();
    let mut demand = vec![0.0f64; model.node_count(s.procs) as usize + 1];
    let mut running: Vec<usize> = Vec::new();
    let mut done = vec![0.0f64; runs.len()];
    let mut t_prev: Option<Time> = None;
    let mut k = 0;
    while k < edges.len() {
        let t = edges[k].0;
        if let Some(tp) = t_prev {
            let dt = (t - tp) as f64;
            if dt > 0.0 {
                for &i in &running {
                    let f = job_factor(
                        spreads[i]
                            .iter()
                            .map(|&(n, _)| node_penalty(&[(demand[n as usize], model.bandwidth)])),
                    );
                    done[i] += dt / f;
                }
            }
        }
        // Ends before starts at one instant (edges sort `false` first).
        while k < edges.len() && edges[k].0 == t {
            let (_, is_start, i) = edges[k];
            let d = nodes.demand[runs[i].job];
            let sign = if is_start { 1.0 } else { -1.0 };
            for &(n, c) in &spreads[i] {
                if let Some(slot) = demand.get_mut(n as usize) {
                    *slot = (*slot + sign * f64::from(c) * d).max(0.0);
                }
            }
            if is_start {
                running.push(i);
            } else if let Some(pos) = running.iter().position(|&x| x == i) {
                running.swap_remove(pos);
            }
            k += 1;
        }
        if running.is_empty() {
            demand.iter_mut().for_each(|d| *d = 0.0);
        }
        t_prev = Some(t);
    }
    for (i, r) in runs.iter().enumerate() {
        if r.end_kind != RunEnd::Preempted {
            work[r.job] = done[i];
        }
    }
    work
}
