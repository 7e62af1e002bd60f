//! The whole pipeline as the CLI and the page use it: read a trace, prepare the jobs, run
//! policies, measure the schedules.

use crate::input::{self, InputError, InputOptions, JobSet};
use crate::metrics::eet::{self, EetError, EetOptions, Expected, UserAware};
use crate::metrics::{self, Classic, ClassicOptions};
use crate::policy::{self, SpecError};
use crate::sim::{self, Progress, Schedule, SimError};
use crate::swf::{self, ReadOptions, SwfError, Workload};
use serde::Serialize;

/// Any error of the pipeline; every message names what it concerns (file, policy, time).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Swf(#[from] SwfError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Sim(#[from] SimError),
    #[error(transparent)]
    Eet(#[from] EetError),
}

/// A trace read and prepared for simulation.
pub struct Trace {
    pub workload: Workload,
    pub jobs: JobSet,
}

/// Reads a trace from bytes (plain or gzip) and applies the input semantics.
pub fn load_bytes(
    name: &str,
    bytes: &[u8],
    read: &ReadOptions,
    opts: &InputOptions,
) -> Result<Trace, Error> {
    let workload = swf::read_bytes(name, bytes, read)?;
    let jobs = input::prepare(&workload, opts)?;
    Ok(Trace { workload, jobs })
}

/// Reads a trace file (plain or gzip) and applies the input semantics.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_path(
    path: &std::path::Path,
    read: &ReadOptions,
    opts: &InputOptions,
) -> Result<Trace, Error> {
    let workload = swf::read_path(path, read)?;
    let jobs = input::prepare(&workload, opts)?;
    Ok(Trace { workload, jobs })
}

/// One policy run: its schedule and metrics.
pub struct RunResult {
    pub spec: String,
    pub schedule: Schedule,
    pub classic: Classic,
    /// The user-aware (EET) metrics.
    pub eet: UserAware,
    /// Strict fairness, reservation violations, preemption (the PV-EASY paper's tables).
    pub fairness: metrics::Fairness,
    /// The resource-sharing metrics, when the node model is on.
    pub penalty: Option<metrics::penalty::Penalty>,
}

/// Runs the policy named by `spec` on `jobs`; the EET metrics use the default options.
pub fn run_policy(
    jobs: &JobSet,
    spec: &str,
    seed: u64,
    metrics: &ClassicOptions,
    progress: Option<Progress<'_>>,
) -> Result<RunResult, Error> {
    let expected = eet::expected_end_times(jobs, &EetOptions::default())?;
    run_policy_expecting(jobs, spec, seed, metrics, &expected, progress)
}

/// Runs the policy named by `spec` on `jobs` and measures it against EETs computed beforehand
/// ([`eet::expected_end_times`], once per trace and EET options).
pub fn run_policy_expecting(
    jobs: &JobSet,
    spec: &str,
    seed: u64,
    metrics: &ClassicOptions,
    expected: &Expected,
    progress: Option<Progress<'_>>,
) -> Result<RunResult, Error> {
    if expected.eet.len() != jobs.jobs.len() {
        return Err(EetError(format!(
            "{} expected end times for {} jobs: computed for another job set",
            expected.eet.len(),
            jobs.jobs.len()
        ))
        .into());
    }
    let mut policy = policy::build(spec)?;
    run_built(jobs, policy.as_mut(), seed, metrics, expected, progress)
}

/// Runs a policy built beforehand (a built-in from [`policy::build`], or an
/// [`policy::External`] one) on `jobs` and measures it against `expected`.
pub fn run_built(
    jobs: &JobSet,
    policy: &mut dyn policy::Policy,
    seed: u64,
    metrics: &ClassicOptions,
    expected: &Expected,
    progress: Option<Progress<'_>>,
) -> Result<RunResult, Error> {
    if expected.eet.len() != jobs.jobs.len() {
        return Err(EetError(format!(
            "{} expected end times for {} jobs: computed for another job set",
            expected.eet.len(),
            jobs.jobs.len()
        ))
        .into());
    }
    let machine = jobs.options.nodes.as_ref().map(|nodes| sim::Machine {
        nodes,
        kill: jobs.options.kill,
    });
    let schedule = sim::simulate_on(&jobs.jobs, jobs.procs, machine, policy, seed, progress)?;
    let penalty = metrics::penalty::penalty(jobs, &schedule, metrics, metrics.window);
    let classic = metrics::classic(jobs, &schedule, metrics);
    let eet = eet::user_aware(jobs, &schedule, expected);
    let fairness = metrics::fairness(jobs, &schedule, metrics);
    Ok(RunResult {
        spec: schedule.policy.clone(),
        schedule,
        classic,
        eet,
        fairness,
        penalty,
    })
}

/// The metrics JSON of one run (GUIDE section 4).
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub trace: &'a str,
    pub policy: &'a str,
    pub seed: u64,
    pub machine_procs: u32,
    pub machine_procs_source: &'a str,
    pub input: &'a InputOptions,
    pub counts: &'a metrics::Counts,
    pub metrics: &'a Classic,
    /// User-aware metrics: EET options, VEET_u / WT_u quartiles and per-user figures.
    pub eet: &'a UserAware,
    /// Strict-fairness delay, reservation violations, preemption and blocked jobs' slowdowns.
    pub fairness: &'a metrics::Fairness,
    /// Penalized runtime, killed jobs, bounded slowdown and wait over the measured window
    /// (node model only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalty: Option<&'a metrics::penalty::Penalty>,
    pub warnings: &'a [String],
}

impl RunResult {
    pub fn report<'a>(&'a self, jobs: &'a JobSet) -> Report<'a> {
        Report {
            trace: &jobs.name,
            policy: &self.spec,
            seed: self.schedule.seed,
            machine_procs: jobs.procs,
            machine_procs_source: &jobs.procs_source,
            input: &jobs.options,
            counts: &self.classic.counts,
            metrics: &self.classic,
            eet: &self.eet,
            fairness: &self.fairness,
            penalty: self.penalty.as_ref(),
            warnings: &jobs.warnings,
        }
    }
}
