//! A job's outcome as the outputs tell it (the jobs CSV's `success` and `final_state`, the runs
//! CSV's `outcome`, the counts): the simulation's end of its final run, completed or killed at
//! its requested time, with the trace's word on how a run of its recorded time ended
//! ([`Job::trace_end`]). The schedule itself does not depend on it.

use super::schedule::{JobRecord, Outcome};
use crate::job::{Job, TraceEnd};

/// How a job that ran ended. Batsim's `final_state` words: `COMPLETED_SUCCESSFULLY`,
/// `COMPLETED_FAILED`, `COMPLETED_KILLED`, `COMPLETED_WALLTIME_REACHED`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalState {
    /// Ran its recorded time, which the trace says completed (or does not say failed).
    Succeeded,
    /// Ran its recorded time and failed there (SWF status 0; sacct `FAILED`, `NODE_FAIL`,
    /// `OUT_OF_MEMORY`, a `TIMEOUT` with the kill at the requested time off, ...).
    Failed,
    /// Ran its recorded time and was cancelled there (SWF status 5; sacct `CANCELLED`).
    Cancelled,
    /// Killed at its requested time (one the trace runs past it, a `TIMEOUT` at it, or one
    /// the node model slowed down past it).
    WalltimeReached,
}

impl FinalState {
    /// The final state of job `job` whose record is `rec`; `None` when it did not run.
    pub fn of(job: &Job, rec: &JobRecord) -> Option<FinalState> {
        match rec.outcome {
            Outcome::Killed => Some(FinalState::WalltimeReached),
            Outcome::Completed => Some(match job.trace_end() {
                TraceEnd::Completed => FinalState::Succeeded,
                TraceEnd::Failed => FinalState::Failed,
                TraceEnd::Cancelled => FinalState::Cancelled,
            }),
            Outcome::Pending | Outcome::Rejected => None,
        }
    }

    /// Batsim's word (the jobs CSV's `final_state`).
    pub fn batsim(self) -> &'static str {
        match self {
            FinalState::Succeeded => "COMPLETED_SUCCESSFULLY",
            FinalState::Failed => "COMPLETED_FAILED",
            FinalState::Cancelled => "COMPLETED_KILLED",
            FinalState::WalltimeReached => "COMPLETED_WALLTIME_REACHED",
        }
    }

    /// The runs CSV's word for the final run: `completed`, `failed`, `cancelled` or `killed`.
    pub fn word(self) -> &'static str {
        match self {
            FinalState::Succeeded => "completed",
            FinalState::Failed => "failed",
            FinalState::Cancelled => "cancelled",
            FinalState::WalltimeReached => "killed",
        }
    }

    /// Batsim's `success`: completed before its walltime and returned 0.
    pub fn success(self) -> bool {
        self == FinalState::Succeeded
    }
}
