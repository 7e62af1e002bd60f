//! Fairness, reservation and preemption metrics of the PV-EASY paper (Yuan et al., HPDC'10):
//! strict-fairness delay (Table 1), reservation violations (Table 2), preemption and waste
//! (Tables 5 and 6), MBS / MWBS of blocked jobs split big / small (Figures 2 and 3).
//!
//! Priority is arrival order (job index). The strict-fairness delay comes from a sweep over the
//! schedule's events: after each instant, the head is the waiting job of highest priority; while
//! it cannot start (more processors than are free) it is blocked, and it is *delayed by later
//! jobs* for the time during which the free processors plus those of running jobs of lower
//! priority would let it start.

use super::job::per_job;
use super::options::MetricOptions;
use super::strict_delay::delays;
use crate::input::JobSet;
use crate::sim::Schedule;
use crate::Time;
use serde::Serialize;

/// Table 1: blocked jobs delayed by lower-priority jobs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StrictFairness {
    /// Jobs that were at the head of the queue after an instant and had not started.
    pub blocked: u64,
    /// Blocked jobs delayed by lower-priority running jobs for some time.
    pub delayed: u64,
    /// Mean delay of the delayed jobs, seconds.
    pub mean_delay: f64,
    pub max_delay: Time,
}

/// Table 2: jobs started after their first reservation.
///
/// A violation is counted when a job starts after its first reservation *and* it was delayed by
/// lower-priority running jobs (strict-fairness delay) at some time after that reservation.
/// Lateness caused only by higher-priority jobs outliving their planned end (the paper's
/// "benign" case) is not a violation; it is counted in `late` only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Violations {
    /// Jobs that started after their first reservation, for whatever reason.
    pub late: u64,
    /// Reservation violations as defined above.
    pub count: u64,
    /// Mean processors of the violated jobs.
    pub mean_procs: f64,
    /// Delay from the reservation (start - first reservation), seconds: mean and max.
    pub mean_delay: f64,
    pub max_delay: Time,
    /// Slowdown increment (delay / max(runtime, bsld bound)): mean and max.
    pub mean_si: f64,
    pub max_si: f64,
}

/// Tables 5 and 6: kill/restart preemption.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Preemption {
    /// Jobs preempted at least once.
    pub preempted: u64,
    /// preempted / jobs that ran, %.
    pub rate_pct: f64,
    /// Mean killed times: preemptions per preempted job.
    pub mkt: f64,
    /// Mean run-time waste of the preempted jobs, %: wasted time / runtime (runtime >= 1 s).
    pub mean_rtw_pct: f64,
    /// Processor-seconds lost to preemption / (processors x (last end - first submit)), %.
    pub wasted_load_pct: f64,
    /// All processor-seconds (wasted included) over the same capacity, %.
    pub total_load_pct: f64,
}

/// MBS and MWBS of the blocked jobs, big (> 1/4 of the machine) and small.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct BlockedSlowdown {
    pub big_jobs: u64,
    pub big_mbs: f64,
    pub big_mwbs: f64,
    pub small_jobs: u64,
    pub small_mbs: f64,
    pub small_mwbs: f64,
}

/// The fairness metrics of one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Fairness {
    pub strict: StrictFairness,
    pub violations: Violations,
    pub preemption: Preemption,
    pub blocked: BlockedSlowdown,
    /// Guarantee accuracy: promised start on arrival against the actual start (Zotkin et al.).
    /// In the JSON report only for runs that promised every job a start (conservative
    /// backfilling with guarantees, shadow bounds): see [`super::guarantee::Guarantee::applies`].
    #[serde(skip_serializing_if = "super::guarantee::Guarantee::not_applicable")]
    pub guarantee: super::guarantee::Guarantee,
}

/// Computes the fairness metrics of schedule `s` of job set `set`.
pub fn fairness(set: &JobSet, s: &Schedule, opts: &MetricOptions) -> Fairness {
    let mut delays = delays(set, s, set.jobs.len() / 8).reader();
    let mut f = Fairness::default();
    let (mut delay_sum, mut v_procs, mut v_delay, mut v_si) = (0.0, 0.0, 0.0, 0.0);
    let (mut rtw_sum, mut kills) = (0.0, 0u64);
    let (mut first_submit, mut last_end, mut ran) = (Time::MAX, Time::MIN, 0u64);
    let mut cpu = 0.0;
    // (jobs, sum bsld, sum bsld x procs, sum procs) for big and small blocked jobs.
    let mut groups = [(0u64, 0.0, 0.0, 0.0); 2];
    for (j, (job, rec)) in set.jobs.iter().zip(&s.jobs).enumerate() {
        if !rec.ran() {
            continue;
        }
        ran += 1;
        first_submit = first_submit.min(job.submit);
        last_end = last_end.max(rec.end);
        cpu += f64::from(job.procs) * (rec.end - rec.start + s.wasted(j)) as f64;
        let run = rec.end - rec.start;
        if rec.blocked {
            f.strict.blocked += 1;
            if let Some(m) = per_job(set, s, j, opts) {
                let g = &mut groups[usize::from(u64::from(job.procs) * 4 <= u64::from(s.procs))];
                let w = f64::from(job.procs);
                *g = (g.0 + 1, g.1 + m.bsld, g.2 + m.bsld * w, g.3 + w);
            }
        }
        let (delay, after) = delays(j);
        if delay > 0 {
            f.strict.delayed += 1;
            delay_sum += delay as f64;
            f.strict.max_delay = f.strict.max_delay.max(delay);
        }
        if let Some(res) = rec.first_reservation().filter(|&r| rec.start > r) {
            f.violations.late += 1;
            if after > 0 {
                let d = rec.start - res;
                let si = d as f64 / (run as f64).max(opts.bsld_bound).max(f64::MIN_POSITIVE);
                f.violations.count += 1;
                v_procs += f64::from(job.procs);
                v_delay += d as f64;
                v_si += si;
                f.violations.max_delay = f.violations.max_delay.max(d);
                f.violations.max_si = f.violations.max_si.max(si);
            }
        }
        if rec.preemptions > 0 {
            f.preemption.preempted += 1;
            kills += u64::from(rec.preemptions);
            rtw_sum += s.wasted(j) as f64 / run.max(1) as f64;
        }
    }
    let mean = |sum: f64, n: u64| if n > 0 { sum / n as f64 } else { 0.0 };
    f.strict.mean_delay = mean(delay_sum, f.strict.delayed);
    let v = f.violations.count;
    f.violations.mean_procs = mean(v_procs, v);
    f.violations.mean_delay = mean(v_delay, v);
    f.violations.mean_si = mean(v_si, v);
    let p = &mut f.preemption;
    p.rate_pct = 100.0 * mean(p.preempted as f64, ran);
    p.mkt = mean(kills as f64, p.preempted);
    p.mean_rtw_pct = 100.0 * mean(rtw_sum, p.preempted);
    let wasted: f64 = s.preempted_runs.iter().fold(0.0, |a, r| {
        a + f64::from(r.procs.len()) * (r.end - r.start) as f64
    });
    let capacity = f64::from(s.procs) * (last_end.saturating_sub(first_submit)) as f64;
    if ran > 0 && capacity > 0.0 {
        p.wasted_load_pct = 100.0 * wasted / capacity;
        p.total_load_pct = 100.0 * cpu / capacity;
    }
    let [big, small] = groups;
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    f.blocked = BlockedSlowdown {
        big_jobs: big.0,
        big_mbs: mean(big.1, big.0),
        big_mwbs: ratio(big.2, big.3),
        small_jobs: small.0,
        small_mbs: mean(small.1, small.0),
        small_mwbs: ratio(small.2, small.3),
    };
    f.guarantee = super::guarantee::guarantee(set, s);
    f
}
