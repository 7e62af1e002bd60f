//! Start rules: given the waiting jobs in queue order, which start now (and which hold
//! reservations). `fcfs` (no backfilling), `easy` (EASY backfilling), `conservative` (with
//! guarantees) and `guarantee_free` (rebuilt at every pass; shadow bounds), `pv_easy`
//! (shadow-load preemption and venture backfilling), `easy_select` (EASY with an allocator and
//! shortest-estimate-first backfilling: `sjbf`), `rua` (RUA's threshold rule), `replay` (the
//! trace's own starts).
//!
//! To add a start rule: a file here with a type implementing [`StartRule`] (read the state
//! through `Ctx`, start jobs with `Ctx::start_with`, estimates with `Ctx::estimate`; share
//! mechanisms through `policy::blocks`), then assemble a catalogue entry from it
//! (`policy/catalogue.rs`).
#![warn(missing_docs)]

pub mod conservative;
pub mod easy;
pub mod easy_select;
pub mod fcfs;
pub mod guarantee_free;
pub mod pv_easy;
pub mod replay;
pub mod rua;
pub mod slurm;

use crate::policy::queue::Queue;
use crate::sim::{Ctx, Jobs, SimError};

/// A start / backfill rule.
pub trait StartRule {
    /// Called once before the simulation: the jobs this rule cannot schedule, with the reason.
    fn prepare(&mut self, _jobs: Jobs<'_>, _procs: u32) -> Vec<(usize, String)> {
        Vec::new()
    }

    /// True for a rule that schedules right on a cluster's nodes (see
    /// [`crate::sim::Policy::runs_on_clusters`]); the rules that plan with one pool of
    /// processors say false.
    fn runs_on_clusters(&self) -> bool {
        true
    }

    /// True for a rule that replays the trace (the engine then shows it the recorded starts).
    fn replays_trace(&self) -> bool {
        false
    }

    /// The earlier runs of requeued jobs, for a rule that replays the trace
    /// ([`crate::sim::Policy::recorded_earlier_runs`]).
    fn recorded_earlier_runs(&mut self, _runs: &[(usize, crate::Time, crate::Time)]) {}

    /// The nodes of each job's recorded run, for a rule that replays the trace
    /// ([`crate::sim::Policy::recorded_nodes`]).
    fn recorded_nodes(&mut self, _allocs: &[Option<crate::cluster::Alloc>]) {}

    /// A pass made elsewhere ([`crate::sim::Policy::follow`]), after its starts: a rule that
    /// keeps time of its own (`slurm`'s backfill cycles) sees what happened.
    fn followed(&mut self, _c: &Ctx<'_>) {}

    /// See [`crate::sim::Policy::recorded_backfill`].
    fn recorded_backfill(&mut self, _at: crate::Time) {}

    /// See [`crate::sim::Policy::logged_cycle`].
    fn logged_cycle(&mut self, _ran: bool) {}

    /// See [`crate::sim::Policy::logged_end_sides`].
    fn logged_end_sides(&mut self, _decay: crate::Time, _sides: &[Option<bool>]) {}

    /// See [`crate::sim::Policy::limit_checks`].
    fn limit_checks(&self, _partitions: &[String]) -> Option<crate::sim::LimitChecks> {
        None
    }

    /// One scheduling pass. `queue` holds the waiting jobs in the policy's queue order as they
    /// stood when the pass began (arrival order for a policy composed without one), ordered
    /// only as far as the rule reads it: [`Queue::get`] and [`Queue::from`] for a rule that
    /// stops early (fcfs at the first job that does not fit, EASY's backfilling when no
    /// processor is left), [`Queue::all`] for one that reads it whole. Jobs the pass starts
    /// stay in it: read on from the position after them.
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError>;
}
