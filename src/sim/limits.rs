//! Time limits enforced by periodic checks, as Slurm's controller does (a replay's whole run,
//! `crate::replay::whole`): a job that reaches its limit is not ended there but at the first
//! check at or after it. Slurm 22.05's background thread (`_slurmctld_background`,
//! controller.c) calls `job_time_limit` (job_mgr.c) every `PERIODIC_TIMEOUT` (30 s) from its
//! own start, and that ends a running job once `end_time <= now - OverTimeLimit` (its
//! partition's `OverTimeLimit`, else the cluster's; `UNLIMITED`: a year). Without checks the
//! engine kills a job at start + requested time (the input's rule).
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

    /// When `job` started at `start` ends: a job `killed` (the log shows a check ending it,
    /// so its own end is unknown and later) at its check; any other at its own end
    /// (`start + runtime`) or the check, the earlier.
    pub fn end(&self, job: &Job, start: Time) -> Time {
        let own = start + job.runtime;
        match self.kill(job, start) {
            Some(k) if job.killed => k,
            Some(k) => own.min(k),
            None => own,
        }
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
}
