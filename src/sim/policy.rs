//! The policy trait: what the engine calls. A policy reads the state through [`Ctx`] and decides
//! through its validated calls; the engine applies the decisions.
#![warn(missing_docs)]

use super::{Ctx, Jobs, SimError};

/// The starts of a [`Policy::follow`] pass, made through the context it is given.
pub type Starts<'s> = &'s mut dyn FnMut(&mut Ctx<'_>) -> Result<(), SimError>;

/// A scheduling policy.
pub trait Policy {
    /// The canonical spec string of this configured policy.
    fn spec(&self) -> String;

    /// The runtime estimate this policy plans with: a predictor spec (`last`,
    /// `virtual[err=0.2]`) the engine runs and reports through [`Ctx::estimate`]; `None`: the
    /// input's planning estimate.
    fn predictor(&self) -> Option<&str> {
        None
    }

    /// True for a policy that replays the trace's own schedule: the engine shows it the
    /// recorded starts and leaves out the jobs without one.
    fn replays_trace(&self) -> bool {
        false
    }

    /// For a policy that replays the trace, before the simulation: the earlier runs of
    /// requeued jobs as (job index, start, seconds run), by job
    /// ([`crate::input::JobSet::earlier_runs`]).
    fn recorded_earlier_runs(&mut self, _runs: &[(usize, crate::Time, crate::Time)]) {}

    /// For a policy that replays the trace on a cluster, before the simulation: each job's
    /// allocation on the nodes of its recorded run, by job index, when the log names them
    /// ([`crate::input::JobSet::recorded_nodes`]; empty when none does).
    fn recorded_nodes(&mut self, _allocs: &[Option<crate::cluster::Alloc>]) {}

    /// True for a policy that schedules right on a cluster's nodes (the default: the engine
    /// gives every start its nodes, or checks the ones the policy gives). A policy that plans
    /// with one pool of processors says false, and the engine refuses to run it on a cluster.
    fn runs_on_clusters(&self) -> bool {
        true
    }

    /// Called once before the simulation: the jobs this policy cannot schedule, with the reason.
    fn prepare(&mut self, _jobs: Jobs<'_>, _procs: u32) -> Vec<(usize, String)> {
        Vec::new()
    }

    /// One scheduling pass at `ctx.now()`.
    fn schedule(&mut self, ctx: &mut Ctx<'_>) -> Result<(), SimError>;

    /// A pass whose starts are decided elsewhere (the replay of a recorded schedule,
    /// `schedlab replay`): `start` makes them through `ctx`, and the policy keeps its own
    /// state (priorities, usage) as if it had made them, starting nothing itself. The
    /// default only calls `start`.
    fn follow(&mut self, ctx: &mut Ctx<'_>, start: Starts<'_>) -> Result<(), SimError> {
        start(ctx)
    }

    /// The log records that a backfill cycle started jobs at `at` (a replay's history, told
    /// before the followed pass at `at`): a policy that times its own cycles (`slurm`) takes
    /// it as its last cycle. The default ignores it.
    fn recorded_backfill(&mut self, _at: crate::Time) {}

    /// Told before a replay's decision pass when the replay is given the controller's debug
    /// log (`schedlab replay --debug-log`): whether Slurm's backfill thread began a cycle
    /// within the instant decided (`ran`). A policy that times its own cycles (`slurm`) runs
    /// one in that pass exactly then, whatever its own clock says. The default ignores it.
    fn logged_cycle(&mut self, _ran: bool) {}

    /// Told once after [`Policy::prepare`] when a replay is given the controller's debug log:
    /// the second of Slurm's decay thread's start (`decay`: its priority periods fall on it
    /// modulo `PriorityCalcPeriod`) and per job whether its recorded end came after
    /// (`Some(true)`) or before (`Some(false)`) the fraction of its second at which the
    /// periods run, `None` when the log does not tell. A policy that counts usage at such
    /// periods (`slurm`) counts the last part of a job ending in a period's second by it.
    /// The default ignores it.
    fn logged_end_sides(&mut self, _decay: crate::Time, _sides: &[Option<bool>]) {}

    /// The periodic time-limit checks of the controller this policy models (`slurm`: every
    /// 30 s from the controller's start), which a replay's whole run ends jobs at
    /// ([`super::simulate_checked`]), for jobs that name `partitions` (a job's
    /// `req.partition` `k` names `partitions[k - 1]`, 0 none: the default partition); `None`
    /// (the default): a job is killed at its limit.
    fn limit_checks(&self, _partitions: &[String]) -> Option<super::LimitChecks> {
        None
    }
}
