//! What an sacct record's `State` says of its job: its SWF status, or why the record gives no
//! job by the reader's conventions (never started, not ended), which are reported and never
//! fail `--strict`. The names are `job_state_string`'s (src/common/slurm_protocol_defs.c).

/// A `State` read.
pub(super) enum Said {
    /// SWF field 11: 1 completed, 0 failed, 5 cancelled.
    Status(i64),
    /// Left out by a convention, with why.
    LeftOut(&'static str),
    /// No state Slurm writes: a bad line.
    Unknown,
}

/// `state`: `State`'s first word in upper case, without sacct's `+` (`CANCELLED by 12`:
/// `CANCELLED`); `ran`: the record gives both a start and an end.
pub(super) fn said(state: &str, ran: bool) -> Said {
    // A run that `scontrol requeue` ended is recorded REQUEUED, with its end (job_mgr.c
    // `_job_requeue_op`: end_time = now, job_state = JOB_REQUEUE, job_completion_logger), as a
    // preempted one is PREEMPTED: `sacct --duplicates` lists it before the job's next run. It
    // was skipped as "has not ended", its run lost. Slurm 25.11's `EXPEDITING` (a job ending
    // into an expedited requeue) is one too.
    let requeue = matches!(state, "REQUEUED" | "EXPEDITING");
    match state {
        // `RESV_DEL_HOLD`: held pending after its reservation was deleted.
        "PENDING" | "RESV_DEL_HOLD" => Said::LeftOut("never started"),
        // A federation's sibling job, revoked when another cluster started the job.
        "REVOKED" => Said::LeftOut("never started here: another cluster of its federation ran it"),
        _ if requeue && ran => Said::Status(0),
        "RUNNING" | "SUSPENDED" | "REQUEUED" | "EXPEDITING" | "RESIZING" | "COMPLETING"
        | "CONFIGURING" | "STOPPED" | "SIGNALING" | "STAGE_OUT" | "REQUEUE_HOLD"
        | "REQUEUE_FED" | "SPECIAL_EXIT" => Said::LeftOut("has not ended"),
        "COMPLETED" => Said::Status(1),
        "FAILED" | "TIMEOUT" | "OUT_OF_MEMORY" | "NODE_FAIL" | "PREEMPTED" | "BOOT_FAIL"
        | "DEADLINE" => Said::Status(0),
        "CANCELLED" => Said::Status(5),
        _ => Said::Unknown,
    }
}
