//! The schedule a simulation produces: the contract between engine, metrics, charts and exports.

use super::nodes::NodeOutcome;
use super::procset::ProcSet;
use super::reason::StartReason;
use super::series::Series;
use crate::Time;
use serde::Serialize;

/// How a job ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Not finished (only seen while a simulation runs).
    Pending,
    /// Ran to its end.
    Completed,
    /// Cut at its requested time.
    Killed,
    /// The policy refused it (e.g. `historic` without a recorded wait); see [`Schedule::rejected`].
    Rejected,
}

/// How one execution attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunEnd {
    Completed,
    Killed,
    /// Stopped by the policy; its work is lost and the job waits again.
    Preempted,
}

/// Per-job result. Times are simulation seconds; `start`/`end` are those of the final attempt.
/// 64 bytes: the first reservation is kept without a separate flag
/// ([`JobRecord::first_reservation`]), the time a preempted job lost beside the records
/// ([`Schedule::wasted`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobRecord {
    pub start: Time,
    pub end: Time,
    pub procs: ProcSet,
    pub outcome: Outcome,
    /// Started while an earlier-arrived job was waiting.
    pub backfilled: bool,
    /// Was at the head of the queue (in arrival order) after a scheduling pass and had not started.
    pub blocked: bool,
    /// The first reservation (planned start) a policy gave it, or [`JobRecord::NO_RESERVATION`]
    /// ([`JobRecord::first_reservation`]).
    #[serde(serialize_with = "ser_reservation")]
    first_reservation: Time,
    /// How its final start came about (stated by the policy, checked by the engine).
    pub reason: StartReason,
    /// The running job whose planned end its first reservation was (job index), or
    /// [`JobRecord::NONE`]: the first running job, in (planned end, index) order, planned to end
    /// at that time, when the reservation was made.
    pub waited_for: u32,
    pub preemptions: u32,
}

impl JobRecord {
    /// No job (in [`JobRecord::waited_for`]).
    pub const NONE: u32 = u32::MAX;
    /// No reservation: the one time no policy can plan a start at (its reservations are at the
    /// current time or later).
    const NO_RESERVATION: Time = Time::MIN;

    /// The first reservation (planned start) a policy gave it.
    pub fn first_reservation(&self) -> Option<Time> {
        (self.first_reservation != Self::NO_RESERVATION).then_some(self.first_reservation)
    }

    pub(crate) fn set_first_reservation(&mut self, at: Time) {
        self.first_reservation = at.max(Self::NO_RESERVATION + 1);
    }

    /// The running job whose planned end defined its first reservation, if any.
    pub fn waited_for(&self) -> Option<usize> {
        (self.waited_for != Self::NONE).then_some(self.waited_for as usize)
    }

    pub(crate) fn pending() -> Self {
        Self {
            start: -1,
            end: -1,
            procs: ProcSet::default(),
            outcome: Outcome::Pending,
            backfilled: false,
            blocked: false,
            first_reservation: Self::NO_RESERVATION,
            reason: StartReason::None,
            waited_for: Self::NONE,
            preemptions: 0,
        }
    }

    /// True when the job ran (completed or killed).
    pub fn ran(&self) -> bool {
        matches!(self.outcome, Outcome::Completed | Outcome::Killed)
    }
}

fn ser_reservation<S: serde::Serializer>(v: &Time, s: S) -> Result<S::Ok, S::Error> {
    (*v != JobRecord::NO_RESERVATION).then_some(*v).serialize(s)
}

/// One execution attempt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    pub job: usize,
    pub start: Time,
    pub end: Time,
    pub procs: ProcSet,
    pub end_kind: RunEnd,
}

/// A complete schedule of one policy on one job set.
#[derive(Debug, Clone, Serialize)]
pub struct Schedule {
    /// The policy spec string as canonicalised by the parser.
    pub policy: String,
    pub seed: u64,
    pub procs: u32,
    /// Indexed like [`crate::input::JobSet::jobs`].
    pub jobs: Vec<JobRecord>,
    /// Attempts that were preempted (the final attempt of each job is in `jobs`).
    pub preempted_runs: Vec<Run>,
    /// (job, seconds of execution its preempted attempts lost), by job, for the jobs with a
    /// preemption only ([`Schedule::wasted`]; from `preempted_runs`).
    #[serde(skip)]
    pub(crate) wasted: Vec<(u32, Time)>,
    /// Jobs the policy refused, with the reason.
    pub rejected: Vec<(usize, String)>,
    /// The policy's own start-reason words ([`StartReason::Word`] indexes them).
    pub reason_words: Vec<String>,
    /// Busy processors and queue length over time (one point per instant with a change).
    pub series: Series,
    /// The node model's demands and work done, when the model was on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<NodeOutcome>,
    /// On a cluster: each job's allocation (of its last attempt), by job index; empty
    /// otherwise.
    #[serde(skip)]
    pub allocs: Vec<crate::cluster::PackedAlloc>,
    /// On a cluster: the allocation of each preempted attempt, indexed like
    /// `preempted_runs`; empty otherwise.
    #[serde(skip)]
    pub preempted_allocs: Vec<crate::cluster::PackedAlloc>,
    /// The time-limit checks that ended jobs ([`super::simulate_checked`]); `None`: a job
    /// with a limit is killed at it (the input cut its runtime there).
    #[serde(skip)]
    pub checks: Option<super::LimitChecks>,
}

/// The [`Schedule::wasted`] list of these preempted attempts.
pub(crate) fn wasted_by_job(preempted: &[Run]) -> Vec<(u32, Time)> {
    let mut lost: Vec<(u32, Time)> = preempted
        .iter()
        .map(|r| (r.job as u32, r.end - r.start))
        .collect();
    lost.sort_unstable_by_key(|l| l.0);
    lost.dedup_by(|later, first| {
        let same = later.0 == first.0;
        if same {
            first.1 += later.1;
        }
        same
    });
    lost
}

impl Schedule {
    /// What a reader should know of the jobs the policy left out before the run (a job the
    /// `slurm` policy's QOS limits hold for ever, one `historic` cannot replay): how many, the
    /// first few with their ids and reasons; `None` when it left none. The jobs a cluster never
    /// fits (`never`, also in `rejected`) are not counted: the trace's notes give them.
    /// Each job is named by `name` (its index): an sacct log's by its Slurm `JobID`.
    pub fn rejected_note(
        &self,
        name: impl Fn(usize) -> String,
        never: &[(usize, String)],
    ) -> Option<String> {
        let on_cluster: std::collections::HashSet<usize> = never.iter().map(|n| n.0).collect();
        let own: Vec<&(usize, String)> = (self.rejected.iter())
            .filter(|(j, _)| !on_cluster.contains(j))
            .collect();
        if own.is_empty() {
            return None;
        }
        let first: Vec<String> = (own.iter().take(3))
            .map(|(j, why)| format!("job {}: {why}", name(*j)))
            .collect();
        Some(format!(
            "{} left out by the policy, never run (counted as skipped); first: {}",
            crate::plural::count(own.len(), "job"),
            first.join("; ")
        ))
    }

    /// Seconds of execution job `j` lost to preemptions (sum over its preempted attempts).
    pub fn wasted(&self, j: usize) -> Time {
        if self.jobs[j].preemptions == 0 {
            return 0;
        }
        let at = self.wasted.binary_search_by_key(&(j as u32), |l| l.0);
        at.map_or(0, |i| self.wasted[i].1)
    }

    /// The word of job `j`'s start reason (`""` when it did not start).
    pub fn reason_word(&self, j: usize) -> &str {
        self.jobs[j].reason.word(&self.reason_words)
    }

    /// Every execution attempt (preempted ones and final ones), ordered by (start, job).
    pub fn runs(&self) -> Vec<Run> {
        let mut runs = self.preempted_runs.clone();
        runs.extend(
            self.jobs
                .iter()
                .enumerate()
                .filter(|(_, r)| r.ran())
                .map(|(j, r)| Run {
                    job: j,
                    start: r.start,
                    end: r.end,
                    procs: r.procs.clone(),
                    end_kind: if r.outcome == Outcome::Killed {
                        RunEnd::Killed
                    } else {
                        RunEnd::Completed
                    },
                }),
        );
        runs.sort_by_key(|r| (r.start, r.job));
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_lost_is_summed_per_job_in_job_order() {
        let run = |job, start, end| Run {
            job,
            start,
            end,
            procs: ProcSet::default(),
            end_kind: RunEnd::Preempted,
        };
        // In preemption order: job 5 twice (10 s, then 20 s), job 2 once (7 s) between.
        let runs = [run(5, 0, 10), run(2, 3, 10), run(5, 40, 60)];
        assert_eq!(wasted_by_job(&runs), [(2, 7), (5, 30)]);
        assert_eq!(wasted_by_job(&[]), []);
    }

    #[test]
    fn a_record_is_compact_and_keeps_its_reservation() {
        assert_eq!(std::mem::size_of::<JobRecord>(), 64);
        let mut r = JobRecord::pending();
        assert_eq!(r.first_reservation(), None);
        r.set_first_reservation(0);
        assert_eq!(r.first_reservation(), Some(0));
        // The one value that means "none" is never stored.
        r.set_first_reservation(Time::MIN);
        assert_eq!(r.first_reservation(), Some(Time::MIN + 1));
    }
}
