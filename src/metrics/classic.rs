//! Classic schedule metrics: wait, response, bounded slowdown, stretch, MBS / MWBS,
//! utilization, makespan, and the counts shown with every result.

use super::job::{per_job, JobMetrics};
use super::options::MetricOptions;
use super::stats::Summary;
use crate::input::JobSet;
use crate::sim::{FinalState, Outcome, Schedule};
use crate::Time;
use serde::Serialize;

/// Counts shown with every result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Jobs that ran (completed or killed).
    pub jobs: u64,
    /// Left out: unreadable lines, jobs skipped by the input semantics, jobs the policy refused.
    pub skipped: u64,
    /// Cut at their requested time.
    pub killed: u64,
    /// Ran their recorded time and failed there, as the trace says (SWF status 0: an sacct
    /// `FAILED`, `NODE_FAIL`, `OUT_OF_MEMORY`...; [`FinalState::Failed`]).
    pub failed: u64,
    /// Ran their recorded time and were cancelled there (SWF status 5: an sacct `CANCELLED`;
    /// [`FinalState::Cancelled`]).
    pub cancelled: u64,
    /// Started while an earlier-arrived job waited.
    pub backfilled: u64,
    /// Were at the head of the queue and could not start.
    pub blocked: u64,
    /// Jobs preempted at least once.
    pub preempted: u64,
    /// Preemptions in all.
    pub preemptions: u64,
}

/// The classic metrics of one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classic {
    pub counts: Counts,
    pub wait: Summary,
    pub response: Summary,
    pub bsld: Summary,
    pub stretch: Summary,
    /// Width-normalized slowdown, Zotkin et al.'s equation 2: response / (processors x
    /// max(run, bound)) per job.
    pub wsld: Summary,
    /// Mean bounded slowdown (= bsld.mean).
    pub mbs: f64,
    /// Mean bounded slowdown weighted by processors (the PV-EASY paper's MWBS).
    pub mwbs: f64,
    /// Busy processor-seconds (all attempts) / (processors x (last end - first submit)).
    pub utilization: f64,
    /// Offered load: processor-seconds of the jobs / (processors x (last submit - first submit)),
    /// the PV-EASY paper's Table 3 definition.
    pub load: f64,
    /// Last end - first submit, seconds.
    pub makespan: Time,
    /// Processor-seconds of all attempts.
    pub cpu_seconds: f64,
    /// Processor-seconds lost to preemption.
    pub wasted_cpu_seconds: f64,
    pub bsld_bound: f64,
}

/// Computes the classic metrics of schedule `s` of job set `set`.
pub fn classic(set: &JobSet, s: &Schedule, opts: &MetricOptions) -> Classic {
    let mut counts = Counts {
        skipped: set.skipped_count() + s.rejected.len() as u64,
        ..Counts::default()
    };
    let (mut weighted, mut weights) = (0.0, 0.0);
    let (mut first_submit, mut last_submit, mut last_end) = (Time::MAX, Time::MIN, Time::MIN);
    let (mut cpu, mut offered) = (0.0, 0.0);
    for (j, (job, rec)) in set.jobs.iter().zip(&s.jobs).enumerate() {
        if rec.preemptions > 0 {
            counts.preempted += 1;
            counts.preemptions += u64::from(rec.preemptions);
        }
        counts.backfilled += u64::from(rec.backfilled && rec.ran());
        counts.blocked += u64::from(rec.blocked);
        let Some(m) = per_job(set, s, j, opts) else {
            continue;
        };
        counts.jobs += 1;
        counts.killed += u64::from(rec.outcome == Outcome::Killed);
        let state = FinalState::of(job, rec);
        counts.failed += u64::from(state == Some(FinalState::Failed));
        counts.cancelled += u64::from(state == Some(FinalState::Cancelled));
        let w = f64::from(job.procs);
        weighted += m.bsld * w;
        weights += w;
        first_submit = first_submit.min(job.submit);
        last_submit = last_submit.max(job.submit);
        last_end = last_end.max(rec.end);
        let area = w * (rec.end - rec.start) as f64;
        cpu += area;
        offered += area;
    }
    // One sample at a time in one buffer (8 bytes a job, not five samples at once), each in
    // job order as the summaries always took them.
    let mut sample = Vec::with_capacity(counts.jobs as usize);
    let mut summary = |value: &dyn Fn(usize, &JobMetrics) -> f64| {
        sample.clear();
        sample.extend(
            (0..set.jobs.len()).filter_map(|j| per_job(set, s, j, opts).map(|m| value(j, &m))),
        );
        Summary::of(&mut sample)
    };
    let wait = summary(&|_, m| m.wait as f64);
    let response = summary(&|_, m| m.response as f64);
    let bsld_summary = summary(&|_, m| m.bsld);
    let stretch = summary(&|_, m| m.stretch);
    let wsld = summary(&|j, m| {
        let rec = &s.jobs[j];
        let run = ((rec.end - rec.start) as f64).max(opts.bsld_bound).max(1.0);
        m.response as f64 / (f64::from(set.jobs[j].procs) * run)
    });
    let wasted: f64 = s
        .preempted_runs
        .iter()
        .map(|r| f64::from(r.procs.len()) * (r.end - r.start) as f64)
        .sum();
    cpu += wasted;
    let procs = f64::from(s.procs);
    let ratio = |num: f64, span: Time| {
        if span > 0 {
            num / (procs * span as f64)
        } else {
            0.0
        }
    };
    let makespan = if counts.jobs > 0 {
        last_end - first_submit
    } else {
        0
    };
    Classic {
        counts,
        wait,
        response,
        mbs: bsld_summary.mean,
        bsld: bsld_summary,
        stretch,
        wsld,
        mwbs: if weights > 0.0 {
            weighted / weights
        } else {
            0.0
        },
        utilization: ratio(cpu, makespan),
        load: ratio(offered, last_submit.saturating_sub(first_submit)),
        makespan,
        cpu_seconds: cpu,
        wasted_cpu_seconds: wasted,
        bsld_bound: opts.bsld_bound,
    }
}
