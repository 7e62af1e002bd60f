//! The limit reasons Slurm records for the waiting jobs, as far as they tell the backfill
//! thread that something changed (job_scheduler.c `build_job_queue`, 579-592 in 22.05.8).
//!
//! A job that a QOS or association limit holds gets the limit's reason from
//! `acct_policy_job_runnable_pre_select` or `_post_select` (in a main scheduler run or a
//! backfill cycle), which sets no `last_job_update`. The next queue build (each main run and
//! each cycle begins with `build_job_queue`) compares every waiting job's limit reason with
//! the one it last recorded (`state_reason_prev_db`, never cleared while the job waits) and,
//! when they differ, records it and sets `last_job_update`: a change for the backfill thread
//! ([`super::agent::Agent`]). A reason of Priority or Resources is never recorded, so a job
//! held again after waiting for nodes changes nothing. The model does not tell one limit from
//! another: a job's first hold is the one change it records.

use std::collections::HashSet;

/// The jobs whose limit reason a queue build recorded, and whether one got a reason since
/// the last build.
#[derive(Debug, Default)]
pub(super) struct LimitReasons {
    noted: HashSet<usize>,
    new: bool,
}

impl LimitReasons {
    /// Job `j` was held by a limit: its reason is the limit's.
    pub(super) fn held(&mut self, j: usize) {
        if self.noted.insert(j) {
            self.new = true;
        }
    }

    /// A queue build: true when it records a reason no build recorded before
    /// (`last_job_update`).
    pub(super) fn build(&mut self) -> bool {
        std::mem::take(&mut self.new)
    }
}

#[cfg(test)]
mod tests {
    use super::LimitReasons;

    /// Worked by hand: job 3 is held by a limit in a main run at 10; the cycle at 12 builds
    /// the queue and records its reason (a change at 12, so the thread's look at 17 runs a
    /// cycle); job 3 waits for nodes, then is held again at 20: its reason is the one
    /// recorded, so the builds after change nothing. Job 4 held at 25: a change at the next
    /// build.
    #[test]
    fn a_limit_reason_changes_something_once_at_the_next_queue_build() {
        let mut r = LimitReasons::default();
        assert!(!r.build()); // the run at 10 builds its queue first
        r.held(3); // and holds job 3
        assert!(r.build()); // the cycle at 12
        assert!(!r.build()); // the run at 15
        r.held(3); // held again at 20
        assert!(!r.build());
        r.held(4);
        assert!(r.build());
        assert!(!r.build());
    }
}
