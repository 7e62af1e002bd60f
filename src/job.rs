//! The job record: one job of a trace as the simulation runs it (a leaf module: the input step
//! makes jobs, the engine, predictors, metrics and outputs read them).

use crate::Time;
use serde::{Deserialize, Serialize};
use std::num::NonZeroI64;

/// Longest time a job's submit, run or requested time may be (2^53 s, what a JavaScript number
/// holds exactly): later jobs are skipped, so that the engine's sums of times never overflow
/// (found by fuzzing: a load scale of 1e-300 pushed submit times to the end of `i64`).
pub const MAX_TIME: Time = 1 << 53;

/// Latest time a schedule may reach: the input rules refuse a trace whose last submission plus
/// all its work goes beyond (1,100 jobs of 2^53 - 1 s in a row wrapped an `i64`); far enough
/// from `i64::MAX` that the engine's sums of a time and a duration cannot overflow.
pub const MAX_HORIZON: Time = 1 << 60;

/// One job as the simulation sees it. Jobs are indexed by their position in [`JobSet::jobs`],
/// which is arrival order: (submit, job number, line).
///
/// Compact (128 bytes: a trace of 10 M jobs holds a million of them per 128 MB): the optional
/// times are kept without a separate flag (a requested time is > 0, a wait >= 0) and read
/// through [`Job::requested`] and [`Job::trace_wait`].
///
/// [`JobSet::jobs`]: crate::input::JobSet::jobs
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct Job {
    /// SWF job number (field 1).
    pub id: i64,
    /// Line of the trace it came from.
    pub line: u64,
    pub submit: Time,
    /// How long it runs in this simulation (the trace runtime, cut at the requested time if killed).
    pub runtime: Time,
    /// The runtime the trace records (field 4).
    pub trace_runtime: Time,
    pub procs: u32,
    /// Requested time (field 9) when > 0 ([`Job::requested`]).
    #[serde(serialize_with = "ser_requested")]
    pub(crate) requested: Option<NonZeroI64>,
    /// The default planning estimate (see [`crate::input::EstimateSource`]).
    pub estimate: Time,
    /// No requested time was known: the estimate fell back to the runtime.
    pub estimate_unknown: bool,
    /// The runtime was cut at the requested time.
    pub killed: bool,
    /// The trace says its controller ended it at its time limit (an sacct log's `TIMEOUT`):
    /// its recorded runtime is where a limit check caught it, its own runtime is unknown
    /// beyond. Every policy kills it at its limit by its own rule (the input's kill at the
    /// requested time; `slurm`'s limit checks: `crate::sim::LimitChecks::reaches_limit`).
    pub timed_out: bool,
    pub user: i64,
    /// The trace's own wait time (field 3) when >= 0, else -1 ([`Job::trace_wait`]).
    #[serde(serialize_with = "ser_wait")]
    pub(crate) trace_wait: Time,
    pub status: i64,
    /// Used and requested memory in KB per processor (fields 7 and 10), -1 when unknown.
    pub used_memory: f64,
    pub requested_memory: f64,
    /// Memory bandwidth per process (MB/s) from the field the node model names (0 when the
    /// model names no field, or the job has no value in it).
    pub bandwidth: f64,
    /// What the job asks of a cluster's nodes beyond its processors (nodes, GPUs, memory per
    /// node, partition, exclusivity); all zero when the trace says nothing of them.
    pub req: Request,
}

/// A job's request of a cluster, beside its processors ([`Job::procs`], the cores over the
/// whole job) and its memory per processor ([`Job::requested_memory`], SWF field 10). Read by
/// the cluster allocation only; a run without a cluster ignores it. Zero means "not given".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Request {
    /// Nodes asked for (Slurm `-N`), 0 when not given (as few as the cores fit on).
    pub nodes: u32,
    /// GPUs over the whole job.
    pub gpus: u32,
    /// Memory per node in MB (Slurm `--mem`); 0: from the memory per processor, if any.
    pub mem_per_node_mb: u32,
    /// The partition: 1 + its index in the trace's partition names; 0 when not given (the
    /// cluster's default partition).
    pub partition: u16,
    /// Whole nodes (Slurm `--exclusive`).
    pub exclusive: bool,
}

impl Request {
    /// Nothing asked beyond processors (every field zero).
    pub fn is_empty(&self) -> bool {
        *self == Request::default()
    }
}

impl Job {
    /// Requested time (field 9) when > 0.
    pub fn requested(&self) -> Option<Time> {
        self.requested.map(NonZeroI64::get)
    }

    /// Sets the requested time; `None` (or a time <= 0: none known) clears it.
    pub fn set_requested(&mut self, requested: Option<Time>) {
        self.requested = requested.filter(|&r| r > 0).and_then(NonZeroI64::new);
    }

    /// The trace's own wait time (field 3) when >= 0.
    pub fn trace_wait(&self) -> Option<Time> {
        (self.trace_wait >= 0).then_some(self.trace_wait)
    }

    /// Sets the trace's wait time; `None` (or a negative wait: unknown) clears it.
    pub fn set_trace_wait(&mut self, wait: Option<Time>) {
        self.trace_wait = wait.filter(|&w| w >= 0).unwrap_or(-1);
    }

    /// The time at which the job is killed if it is still running (start + requested time).
    pub fn kill_after(&self) -> Option<Time> {
        self.requested()
    }

    /// How the trace says the job ended, from its status (SWF field 11): 0 (an sacct `FAILED`,
    /// `TIMEOUT`, `NODE_FAIL`, `OUT_OF_MEMORY`, ...) and 4 (the last partial run of a job that
    /// failed) [`TraceEnd::Failed`]; 5 (`CANCELLED` after it started) [`TraceEnd::Cancelled`];
    /// anything else (1, the partial runs 2 and 3, -1 unknown) [`TraceEnd::Completed`].
    pub fn trace_end(&self) -> TraceEnd {
        match self.status {
            0 | 4 => TraceEnd::Failed,
            5 => TraceEnd::Cancelled,
            _ => TraceEnd::Completed,
        }
    }
}

/// How a trace says a job ended ([`Job::trace_end`]): the outcome of a job that runs its
/// recorded time in a simulation (one the kill at the requested time cuts is killed instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceEnd {
    /// Completed, or not known to have failed.
    Completed,
    /// Failed: its work was not done.
    Failed,
    /// Cancelled by its user or an administrator while it ran.
    Cancelled,
}

fn ser_requested<S: serde::Serializer>(v: &Option<NonZeroI64>, s: S) -> Result<S::Ok, S::Error> {
    v.map(NonZeroI64::get).serialize(s)
}

fn ser_wait<S: serde::Serializer>(v: &Time, s: S) -> Result<S::Ok, S::Error> {
    (*v >= 0).then_some(*v).serialize(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_and_exact() {
        assert_eq!(std::mem::size_of::<Job>(), 128);
        assert_eq!(std::mem::size_of::<Request>(), 16);
        let mut j = Job::default();
        assert_eq!((j.requested(), j.trace_wait()), (None, Some(0)));
        j.set_requested(Some(7));
        j.set_trace_wait(None);
        assert_eq!((j.requested(), j.trace_wait()), (Some(7), None));
        j.set_requested(Some(0));
        j.set_trace_wait(Some(i64::MAX));
        assert_eq!((j.requested(), j.trace_wait()), (None, Some(i64::MAX)));
    }
}
