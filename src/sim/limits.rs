//! Time limits enforced by periodic checks, as Slurm's controller does (every run of a policy
//! that models them, `Policy::limit_checks`: `slurm`, through `crate::run::simulate_set`): a
//! job that reaches its limit is not ended there but at the first check at or after it.
//! Slurm 22.05's background thread (`_slurmctld_background`, controller.c) calls
//! `job_time_limit` (job_mgr.c) every `PERIODIC_TIMEOUT` (30 s) from its own start, and that
//! ends a running job once `end_time <= now - OverTimeLimit` (its partition's
//! `OverTimeLimit`, else the cluster's; `UNLIMITED`: a year). Without checks the engine kills
//! a job at start + requested time (the input's rule).
#![warn(missing_docs)]

use crate::job::Job;
use crate::Time;

/// When the limit checks run, and how long past its limit a job may run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitChecks {
    /// Seconds between two checks (Slurm: 30).
    pub period: Time,
    /// A check runs at every `phase + k * period`.
    pub phase: Time,
    /// Seconds a job may run past its limit before a check ends it (`OverTimeLimit`), by the
    /// job's partition as the job names it (`Job::req.partition`, 0: the default).
    pub over: Vec<Time>,
    /// The trace is a log of a Slurm run under these checks (`crate::input::JobSet::slurm_log`,
    /// set by `crate::run::simulate_set`): which jobs a check ended is read from its recorded
    /// ends ([`LimitChecks::reaches_limit`]).
    pub logged: bool,
}

impl LimitChecks {
    /// The first check at or after `t`.
    pub fn at_or_after(&self, t: Time) -> Time {
        let p = self.period.max(1);
        t + (self.phase - t).rem_euclid(p)
    }

    /// When a check ends `job` started at `start` (`None`: it has no limit).
    pub fn kill(&self, job: &Job, start: Time) -> Option<Time> {
        let limit = job.requested()?;
        let over = self
            .over
            .get(usize::from(job.req.partition))
            .or(self.over.first())
            .copied()
            .unwrap_or(0);
        Some(self.at_or_after(start + limit + over))
    }

    /// When `job` started at `start` ends: a job `killed` (it reaches its limit: its own end
    /// is unknown and later, [`LimitChecks::reaches_limit`]) at its check; any other at its
    /// own end (`start + runtime`) or the check, the earlier.
    pub fn end(&self, job: &Job, start: Time) -> Time {
        let own = start + job.runtime;
        match self.kill(job, start) {
            Some(k) if job.killed => k,
            Some(k) => own.min(k),
            None => own,
        }
    }

    /// Whether a check ends `job` wherever it starts: its own end is unknown, later than the
    /// check (the rule of every trace, docs/slurm.md "Time limits"). A job with a time limit
    /// does when its log says the controller ended it there ([`Job::timed_out`]: sacct's
    /// `TIMEOUT`; its recorded end is where Slurm's check caught it, which need not be where
    /// the model's checks fall). Another with a time limit `L` and a recorded runtime `R` does
    /// when
    /// - in a Slurm log ([`LimitChecks::logged`]) that records its start: its recorded end
    ///   (start + `R`) is at or after the check that came due at that start (the log shows a
    ///   check ending it; Slurm marks `TIMEOUT` any job that ends past its limit, also one
    ///   that ended by itself before the check: it keeps its own end);
    /// - in any other trace, or a job without a recorded start: the input's kill at the
    ///   requested time cuts it (`R > L`, or `R = L` with status 0: failed at its limit, a
    ///   `TIMEOUT` there), the jobs every other policy kills at their limit.
    ///
    /// Any other job, and every job without a limit, runs its recorded time (`R <= L`: it
    /// ends before any check could).
    pub fn reaches_limit(&self, job: &Job) -> bool {
        let Some(limit) = job.requested() else {
            return false;
        };
        if job.timed_out {
            return true;
        }
        let ran = job.trace_runtime;
        match job.trace_wait().filter(|_| self.logged) {
            Some(wait) => {
                let start = job.submit + wait;
                self.kill(job, start).is_some_and(|k| start + ran >= k)
            }
            None => ran > limit || (ran == limit && job.status == 0),
        }
    }

    /// `jobs` as a run with these checks runs them: each its recorded runtime (never cut at
    /// the limit: a check cuts it), `killed` when it reaches its limit
    /// ([`LimitChecks::reaches_limit`]).
    pub fn jobs(&self, jobs: &[Job]) -> Vec<Job> {
        let mut out = jobs.to_vec();
        for job in &mut out {
            job.killed = self.reaches_limit(job);
            job.runtime = job.trace_runtime.max(0);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(runtime: Time, limit: Time, killed: bool) -> Job {
        let mut j = Job {
            runtime,
            killed,
            ..Job::default()
        };
        j.set_requested(Some(limit));
        j
    }

    /// Worked by hand: checks every 30 s at 26 + 30k (fairshare-1's grid). A job of limit 60
    /// started at 91 reaches it at 151: the check at 176 ends it (Slurm's log: job 25 of
    /// fairshare-1, 85 s). Started at 95: 155 -> 176 (81 s). Started at 116: 176 is the check
    /// itself (`end_time <= now`): 60 s. With OverTimeLimit 1 minute: 151 + 60 = 211 -> 236.
    /// A job that completes by itself 84 s after its start (not killed: its limit is 60) ends
    /// at the check when that comes first: started at 64, limit at 124, check at 146, its own
    /// end 148: 146; started at 61, limit at 121, check at 146, its own end 145: 145.
    #[test]
    fn a_check_ends_a_job_at_or_after_its_limit() {
        let ch = LimitChecks {
            period: 30,
            phase: 26,
            over: vec![0],
            logged: true,
        };
        assert_eq!(ch.at_or_after(151), 176);
        assert_eq!(ch.at_or_after(176), 176);
        assert_eq!(ch.at_or_after(-5), -4);
        let killed = job(85, 60, true);
        assert_eq!(ch.end(&killed, 91), 176);
        assert_eq!(ch.end(&killed, 95), 176);
        assert_eq!(ch.end(&killed, 116), 176);
        let own = job(84, 60, false);
        assert_eq!(ch.end(&own, 64), 146);
        assert_eq!(ch.end(&own, 61), 145);
        // A job that ends before its limit never meets a check.
        assert_eq!(ch.end(&job(40, 60, false), 100), 140);
        let late = LimitChecks {
            over: vec![60],
            ..ch.clone()
        };
        assert_eq!(late.end(&killed, 91), 236);
    }

    /// Worked by hand, the same grid (26 + 30k, no OverTimeLimit), limit 60. A Slurm log's
    /// job submitted at 0 and started at 91 (wait 91) reached its limit at 151, the check due
    /// at 176: a recorded end at 176 or later (runtime 85; 90, whatever its status) was that
    /// check's (reaches it); runtime 84 (end 175) ended by itself, `TIMEOUT` as it is. Runtime
    /// 60 with status 0 ended at 151, before the check: by itself too. Any other trace, or a
    /// job without a recorded start: the kill rule (61 reaches it; 60 with status 0, failed
    /// at its limit, too; 60 completed does not; 84 reaches it). No limit: never. A `TIMEOUT`
    /// of 84 s started at 91 reaches it (its recorded end, 175, is where Slurm's check caught
    /// it): ends at the model's check, 176.
    #[test]
    fn which_jobs_reach_their_limit() {
        let ch = LimitChecks {
            period: 30,
            phase: 26,
            over: vec![0],
            logged: true,
        };
        let at = |runtime: Time, status: i64, wait: Option<Time>, logged: bool| {
            let mut j = job(runtime, 60, false);
            j.trace_runtime = runtime;
            j.status = status;
            j.set_trace_wait(wait);
            LimitChecks {
                logged,
                ..ch.clone()
            }
            .reaches_limit(&j)
        };
        assert!(at(85, 0, Some(91), true));
        assert!(at(90, 1, Some(91), true));
        assert!(!at(84, 0, Some(91), true));
        assert!(!at(60, 0, Some(91), true));
        assert!(at(84, 0, Some(91), false));
        assert!(at(61, 1, None, true));
        assert!(at(60, 0, Some(91), false));
        assert!(!at(60, 1, Some(91), false));
        assert!(!at(59, 0, None, false));
        // Slurm's `TIMEOUT` (the controller ended it at its limit): whatever its recorded end,
        // 84 s (175, before the check at 176) included, in a log or not.
        let mut timed_out = job(84, 60, false);
        timed_out.trace_runtime = 84;
        timed_out.status = 0;
        timed_out.set_trace_wait(Some(91));
        timed_out.timed_out = true;
        assert!(ch.reaches_limit(&timed_out));
        let run = ch.jobs(&[timed_out]);
        assert_eq!(ch.end(&run[0], 91), 176);
        let mut free = job(500, 60, false);
        free.set_requested(None);
        free.trace_runtime = 500;
        assert!(!ch.reaches_limit(&free));
        // The jobs a checked run runs: the recorded runtime, uncut.
        let mut cut = job(60, 60, true);
        cut.trace_runtime = 84;
        cut.set_trace_wait(Some(91));
        let run = ch.jobs(&[cut.clone()]);
        assert_eq!((run[0].runtime, run[0].killed), (84, false));
        assert_eq!(ch.end(&run[0], 91), 175);
        let other = LimitChecks {
            logged: false,
            ..ch.clone()
        };
        let run = other.jobs(&[cut]);
        assert_eq!((run[0].runtime, run[0].killed), (84, true));
        assert_eq!(other.end(&run[0], 91), 176);
    }
}
