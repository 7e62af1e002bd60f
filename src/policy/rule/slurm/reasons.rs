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
//! held again by the limit it was held by before changes nothing, and a job held by another
//! limit than the one recorded (`QOSGrpJobsLimit`, then `QOSGrpCpuLimit`) is a change each
//! time its reason differs from the recorded one. Slurm's behaviour after a held job does not
//! otherwise depend on which limit holds it: without `assoc_limit_stop` (not read) neither
//! loop skips anything for it (backfill.c 2745-2751, job_scheduler.c 1913-1917).

use std::collections::HashMap;

/// Which limit holds a job, as far as its pending reason tells them apart
/// (`job_state_reason`: one reason per kind of limit, QOS or association, and TRES,
/// `_get_tres_state_reason` in acct_policy.c; an association's reason does not say which
/// association of the walk holds it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Reason {
    /// A QOS's limit (else an association's).
    qos: bool,
    limit: Limit,
    /// The TRES's index in the TRES counts (0 for a limit of jobs or wall time).
    tres: usize,
}

/// A kind of limit, for [`Reason`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Limit {
    GrpJobs,
    MaxJobs,
    MaxWall,
    GrpTresMins,
    GrpTres,
    GrpTresRunMins,
    MaxTresMins,
    /// `MaxTRESPU` of a QOS, `MaxTRES` (per job) of an association.
    MaxTres,
}

impl Reason {
    /// The reason of limit `limit` of a QOS (`qos`) or an association, on TRES `tres` (its
    /// index in the TRES counts; 0 for a limit of jobs or wall time).
    pub(super) fn of(qos: bool, limit: Limit, tres: usize) -> Reason {
        Reason { qos, limit, tres }
    }
}

/// The jobs whose limit reason a queue build recorded, and whether one got a reason since
/// the last build.
#[derive(Debug, Default)]
pub(super) struct LimitReasons {
    /// Each job's reason as the last queue build recorded it (`state_reason_prev_db`).
    recorded: HashMap<usize, Reason>,
    /// The reasons given since the last build, the last one per job.
    given: HashMap<usize, Reason>,
}

impl LimitReasons {
    /// Job `j` was held by a limit: its reason is `r`.
    pub(super) fn held(&mut self, j: usize, r: Reason) {
        self.given.insert(j, r);
    }

    /// A queue build: true when it records a reason other than the one it recorded for that
    /// job before (`last_job_update`).
    pub(super) fn build(&mut self) -> bool {
        let mut new = false;
        for (j, r) in self.given.drain() {
            new |= self.recorded.insert(j, r) != Some(r);
        }
        new
    }
}

#[cfg(test)]
mod tests {
    use super::{Limit, LimitReasons, Reason};

    /// Worked by hand: job 3 is held by a limit in a main run at 10; the cycle at 12 builds
    /// the queue and records its reason (a change at 12, so the thread's look at 17 runs a
    /// cycle); job 3 waits for nodes, then is held again at 20 by the same limit: its reason
    /// is the one recorded, so the builds after change nothing. Job 4 held at 25: a change at
    /// the next build.
    #[test]
    fn a_limit_reason_changes_something_once_at_the_next_queue_build() {
        let jobs = Reason::of(true, Limit::GrpJobs, 0);
        let mut r = LimitReasons::default();
        assert!(!r.build()); // the run at 10 builds its queue first
        r.held(3, jobs); // and holds job 3
        assert!(r.build()); // the cycle at 12
        assert!(!r.build()); // the run at 15
        r.held(3, jobs); // held again at 20
        assert!(!r.build());
        r.held(4, jobs);
        assert!(r.build());
        assert!(!r.build());
    }

    /// Worked by hand (qoslimits-10's QOS low: `GrpJobs=3`, `GrpTRES=cpu=12`): job 5 is held
    /// by `QOSGrpJobsLimit` at 10 (recorded at 12), then, one of the three jobs ended, by
    /// `QOSGrpCpuLimit` at 20: another reason, recorded by the next build, a change
    /// (`state_reason != state_reason_prev_db`). Held by the jobs limit again at 30: a change
    /// again, as the recorded reason is the CPU one; held by it once more, none. An
    /// association's `GrpJobs` is another reason than the QOS's; one CPU limit on another
    /// TRES (memory) another still.
    #[test]
    fn a_job_held_by_another_limit_than_the_recorded_one_is_a_change() {
        let jobs = Reason::of(true, Limit::GrpJobs, 0);
        let cpu = Reason::of(true, Limit::GrpTres, 0);
        let mut r = LimitReasons::default();
        r.held(5, jobs);
        assert!(r.build()); // 12
        r.held(5, cpu);
        assert!(r.build()); // the build after 20
        r.held(5, jobs);
        assert!(r.build()); // the build after 30
        r.held(5, jobs);
        assert!(!r.build());
        // Two reasons given between two builds: the build reads the job's last one.
        r.held(5, cpu);
        r.held(5, jobs);
        assert!(!r.build());
        assert_ne!(jobs, Reason::of(false, Limit::GrpJobs, 0));
        assert_ne!(cpu, Reason::of(true, Limit::GrpTres, 1));
        // A site with many TRES: the 17th is not the first of another limit.
        assert_ne!(
            Reason::of(true, Limit::GrpTres, 16),
            Reason::of(true, Limit::GrpTresRunMins, 0)
        );
    }
}
