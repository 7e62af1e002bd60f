//! The one path from prepared jobs and a policy to a schedule, for every front end: `schedlab
//! run`, `sweep` (and its shards), `plot`, `bench`, `replay --whole-run`, the page's runs and
//! sweeps (the wasm facade, its workers). A policy that models a controller's periodic
//! time-limit checks ([`crate::sim::Policy::limit_checks`]: `slurm`) has a job that reaches
//! its limit ended at the first check at or after it, plus its partition's `OverTimeLimit`
//! ([`crate::sim::LimitChecks::reaches_limit`] says which jobs reach it, on every trace);
//! any other policy, and any run with the node model or with the kill at the requested time
//! off, runs the jobs as the input prepared them (a job with a limit killed at it).

use super::Error;
use crate::input::JobSet;
use crate::job::Job;
use crate::policy;
use crate::sim::{self, LimitChecks, Progress, Schedule, SimError};

/// The schedule of the policy named by `spec` on `jobs` (with the node model of their input
/// options, when it is on).
pub fn simulate(
    jobs: &JobSet,
    spec: &str,
    seed: u64,
    progress: Option<Progress<'_>>,
) -> Result<Schedule, Error> {
    let mut policy = policy::build(spec)?;
    simulate_with(jobs, policy.as_mut(), seed, progress)
}

/// A policy that replays the trace (`historic`) is shown what the trace records beyond each
/// job's start: its requeued jobs' earlier runs and the nodes each job ran on.
pub(crate) fn show_recorded(jobs: &JobSet, policy: &mut dyn policy::Policy) {
    if policy.replays_trace() {
        policy.recorded_earlier_runs(&jobs.earlier_runs);
        policy.recorded_nodes(&jobs.recorded_nodes);
    }
}

/// The schedule of a policy built beforehand on `jobs` (with the node model of their input
/// options, when it is on; with its time-limit checks, when it models them: [`simulate_set`]).
pub fn simulate_with(
    jobs: &JobSet,
    policy: &mut dyn policy::Policy,
    seed: u64,
    progress: Option<Progress<'_>>,
) -> Result<Schedule, Error> {
    show_recorded(jobs, policy);
    let machine = jobs.options.nodes.as_ref().map(|nodes| sim::Machine {
        nodes,
        kill: jobs.options.kill,
    });
    Ok(simulate_set(
        jobs, &jobs.jobs, machine, policy, seed, progress,
    )?)
}

/// The time-limit checks a run of `policy` on `set` ends jobs at: the policy's own
/// ([`crate::sim::Policy::limit_checks`]), when the input kills jobs at their limit (the
/// `kill` option: off, no limit ends a job) and the node model is off (`nodes`: the engine
/// runs checks without it only), read against the trace's recorded ends when it is a Slurm
/// log (`JobSet::slurm_log`: [`LimitChecks::logged`]).
pub fn limit_checks(set: &JobSet, nodes: bool, policy: &dyn policy::Policy) -> Option<LimitChecks> {
    if nodes || !set.options.kill {
        return None;
    }
    let checks = policy.limit_checks(&set.partitions)?;
    Some(LimitChecks {
        logged: set.slurm_log,
        ..checks
    })
}

/// The engine's run of `policy` on `jobs` (the jobs of `set`, or the same jobs with their
/// recorded runtimes: a replay's), on `set`'s machine and cluster: with the policy's
/// time-limit checks ([`limit_checks`]) each job runs its recorded runtime, those that reach
/// their limit ([`LimitChecks::reaches_limit`]) until the first check at or after it
/// ([`LimitChecks::jobs`], [`sim::simulate_checked`]); without, the engine runs `jobs` as they
/// are ([`sim::simulate_placed`]).
pub fn simulate_set(
    set: &JobSet,
    jobs: &[Job],
    machine: Option<sim::Machine<'_>>,
    policy: &mut dyn policy::Policy,
    seed: u64,
    progress: Option<Progress<'_>>,
) -> Result<Schedule, SimError> {
    let place = set.placement.as_deref();
    if let Some(checks) = limit_checks(set, machine.is_some(), policy) {
        let run = checks.jobs(jobs);
        return sim::simulate_checked(&run, set.procs, place, policy, (seed, &checks), progress);
    }
    sim::simulate_placed(jobs, set.procs, machine, place, policy, seed, progress)
}
