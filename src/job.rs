//! The job record: one job of a trace as the simulation runs it (a leaf module: the input step
//! makes jobs, the engine, predictors, metrics and outputs read them).

use crate::Time;
use serde::Serialize;

/// One job as the simulation sees it. Jobs are indexed by their position in [`JobSet::jobs`],
/// which is arrival order: (submit, job number, line).
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// Requested time (field 9) when > 0.
    pub requested: Option<Time>,
    /// The default planning estimate (see [`EstimateSource`]).
    pub estimate: Time,
    /// No requested time was known: the estimate fell back to the runtime.
    pub estimate_unknown: bool,
    /// The runtime was cut at the requested time.
    pub killed: bool,
    pub user: i64,
    /// The trace's own wait time (field 3) when >= 0.
    pub trace_wait: Option<Time>,
    pub status: i64,
    /// Used and requested memory in KB per processor (fields 7 and 10), -1 when unknown.
    pub used_memory: f64,
    pub requested_memory: f64,
    /// Memory bandwidth per process (MB/s) from the field the node model names, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bandwidth: Option<f64>,
}

impl Job {
    /// The time at which the job is killed if it is still running (start + requested time).
    pub fn kill_after(&self) -> Option<Time> {
        self.requested
    }
}
