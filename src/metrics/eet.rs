//! User-aware metrics of Tóth & Klusáček ("User-aware metrics for measuring quality of parallel
//! job schedules"): every job gets an expected end time (EET, [`expected_end_times`], Algorithm
//! 1); a schedule is then judged per user.
//!
//! - per job: `EET_j`, tardiness `T_j = max(0, C_j - EET_j)` (Formula 2) with `C_j` the job's
//!   end in the schedule; the EET is violated when `T_j > 0`;
//! - per user: jobs, violated jobs, `VEET_u` = violated / jobs x 100 % (Formula 1), and
//!   `WT_u = sum of w_j x T_j` with `w_j` = the job's processors (Formula 3);
//! - across users: the quartiles (min, q1, median, q3, max) of `VEET_u` and of `WT_u`.
//!
//! Only jobs that ran count (a job a policy rejected has no `C_j`); a user with no job that ran
//! is left out of the per-user figures. The EETs depend on the job set only, not on the policy:
//! compute them once per trace and measure every schedule against them.

pub use super::eet_expected::{
    expected_end_times, memory_kb, parse_user_capacity, Capacity, EetError, EetOptions, Expected,
};
use super::stats::Quartiles;
use crate::input::JobSet;
use crate::sim::Schedule;
use crate::Time;
use foldhash::HashMap;
use serde::Serialize;

/// One job's EET and tardiness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct JobEet {
    pub eet: Time,
    /// `max(0, end - EET)`, or `None` when the job did not run.
    pub tardiness: Option<Time>,
}

impl JobEet {
    pub fn violated(&self) -> bool {
        self.tardiness.is_some_and(|t| t > 0)
    }
}

/// One user's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UserEet {
    pub user: i64,
    /// The capacity (processors) the user's EETs were computed with.
    pub capacity: f64,
    /// Jobs of the user that ran.
    pub jobs: u64,
    /// Of those, jobs that ended after their EET.
    pub violated: u64,
    /// violated / jobs x 100 (Formula 1).
    pub veet: f64,
    /// Sum of processors x tardiness, processor-seconds (Formula 3).
    pub wt: f64,
}

/// The user-aware metrics of one schedule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UserAware {
    pub options: EetOptions,
    /// Whether memory counted in the EETs (a machine memory was given and the trace has memory).
    pub memory_used: bool,
    /// Jobs that ran.
    pub jobs: u64,
    /// Jobs that ended after their EET.
    pub violated: u64,
    /// violated / jobs x 100, over all jobs.
    pub violated_percent: f64,
    /// Sum of the tardiness of every job, seconds.
    pub total_tardiness: f64,
    /// Sum of every user's WT_u, processor-seconds.
    pub total_weighted_tardiness: f64,
    /// Quartiles of VEET_u across users (percent).
    pub veet: Quartiles,
    /// Quartiles of WT_u across users (processor-seconds).
    pub wt: Quartiles,
    /// Per user, in order of first appearance in the trace.
    pub users: Vec<UserEet>,
}

/// Job `j`'s EET and tardiness in schedule `s` (computed when asked: a schedule's metrics keep
/// no per-job copy; the jobs CSV and the heatmap read them through here).
pub fn job_eet(expected: &Expected, s: &Schedule, j: usize) -> JobEet {
    let eet = expected.eet[j];
    let rec = &s.jobs[j];
    JobEet {
        eet,
        tardiness: rec.ran().then(|| (rec.end - eet).max(0)),
    }
}

/// Every job's EET and tardiness in schedule `s`, in job order (see [`job_eet`]).
pub fn per_job<'a>(expected: &'a Expected, s: &'a Schedule) -> impl Iterator<Item = JobEet> + 'a {
    (0..s.jobs.len()).map(|j| job_eet(expected, s, j))
}

/// Measures schedule `s` of `set` against the expected end times `expected`.
pub fn user_aware(set: &JobSet, s: &Schedule, expected: &Expected) -> UserAware {
    let capacity: HashMap<i64, f64> = expected.capacities.iter().copied().collect();
    let mut slot: HashMap<i64, usize> = HashMap::default();
    let mut users: Vec<UserEet> = Vec::new();
    let (mut jobs, mut violated, mut total_t) = (0u64, 0u64, 0f64);
    for (j, job) in set.jobs.iter().enumerate() {
        let Some(t) = job_eet(expected, s, j).tardiness else {
            continue;
        };
        let i = *slot.entry(job.user).or_insert_with(|| {
            users.push(UserEet {
                user: job.user,
                capacity: capacity.get(&job.user).copied().unwrap_or(0.0),
                jobs: 0,
                violated: 0,
                veet: 0.0,
                wt: 0.0,
            });
            users.len() - 1
        });
        let u = &mut users[i];
        u.jobs += 1;
        jobs += 1;
        if t > 0 {
            u.violated += 1;
            violated += 1;
            u.wt += f64::from(job.procs) * t as f64;
            total_t += t as f64;
        }
    }
    for u in &mut users {
        u.veet = percent(u.violated, u.jobs);
    }
    let mut veet: Vec<f64> = users.iter().map(|u| u.veet).collect();
    let mut wt: Vec<f64> = users.iter().map(|u| u.wt).collect();
    UserAware {
        options: expected.options.clone(),
        memory_used: expected.memory_used(),
        jobs,
        violated,
        violated_percent: percent(violated, jobs),
        total_tardiness: total_t,
        total_weighted_tardiness: wt.iter().sum(),
        veet: Quartiles::of(&mut veet),
        wt: Quartiles::of(&mut wt),
        users,
    }
}

/// EETs under `opts`, then the user-aware metrics of `s`.
pub fn compute(set: &JobSet, s: &Schedule, opts: &EetOptions) -> Result<UserAware, EetError> {
    Ok(user_aware(set, s, &expected_end_times(set, opts)?))
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}
