//! How the reports name a job set's jobs and count the jobs left out: the one wording the CLI,
//! the page and the replay share.

use super::JobSet;
use std::borrow::Cow;

/// Job `k` as the log names it, so that a person finds it there: its Slurm `JobID` (`log_ids[k]`:
/// an sacct log's `1234`, `1234_5`), else its job number in the trace (`number`). The one home
/// of this fallback: [`JobSet::log_id`], the input step's notes and the replay's errors.
pub fn log_id_or<'a>(log_ids: &'a [String], k: usize, number: i64) -> Cow<'a, str> {
    match log_ids.get(k).filter(|id| !id.is_empty()) {
        Some(id) => Cow::Borrowed(id.as_str()),
        None => Cow::Owned(number.to_string()),
    }
}

impl JobSet {
    /// Job `k` as the log names it ([`log_id_or`]).
    pub fn log_id(&self, k: usize) -> Cow<'_, str> {
        log_id_or(&self.log_ids, k, self.jobs[k].id)
    }

    /// Every job's [`JobSet::log_id`], in job order.
    pub fn log_id_list(&self) -> Vec<String> {
        (0..self.jobs.len())
            .map(|k| self.log_id(k).into_owned())
            .collect()
    }

    /// Every job left out by the input step: unreadable lines plus skipped jobs.
    pub fn skipped_count(&self) -> u64 {
        self.reader_skipped + self.skipped.len() as u64
    }

    /// The jobs that can never run on the cluster ([`crate::cluster::Placement::never`]): left
    /// out of every run, counted as skipped by the reports. 0 off a cluster.
    pub fn never_count(&self) -> usize {
        self.placement.as_ref().map_or(0, |p| p.never.len())
    }

    /// The jobs every run simulates: those the cluster can run.
    pub fn simulated_count(&self) -> usize {
        self.jobs.len() - self.never_count()
    }

    /// The jobs every run simulates ([`JobSet::simulated_count`]), in job order: all but
    /// those the cluster can never run.
    pub fn simulated(&self) -> impl Iterator<Item = &crate::job::Job> {
        let never: Vec<usize> = (self.placement.iter())
            .flat_map(|p| p.never.iter().map(|&(k, _)| k))
            .collect();
        (self.jobs.iter().enumerate())
            .filter(move |(k, _)| never.binary_search(k).is_err())
            .map(|(_, j)| j)
    }

    /// The distinct users of the jobs simulated, and the span of their submits (the last
    /// one's less the first one's, seconds): the page's facts, beside its `jobs` row
    /// ([`JobSet::simulated_count`]); a job the cluster can never run counts in neither.
    pub fn simulated_users_and_span(&self) -> (usize, crate::Time) {
        let mut users = std::collections::HashSet::new();
        let mut span: Option<(crate::Time, crate::Time)> = None;
        for j in self.simulated() {
            users.insert(j.user);
            span = Some(span.map_or((j.submit, j.submit), |(lo, hi)| {
                (lo.min(j.submit), hi.max(j.submit))
            }));
        }
        (users.len(), span.map_or(0, |(lo, hi)| hi - lo))
    }

    /// The jobs skipped as the reports count them (the metrics' `skipped`: those the input step
    /// left out and those the cluster can never run), and how many of them can never run on
    /// the cluster in words when some can: `(4, Some("2 can never run on the cluster"))`. The
    /// CLI's trace line ("4 skipped (2 can never run on the cluster)") and the page's facts.
    pub fn skipped_split(&self) -> (u64, Option<String>) {
        let never = self.never_count();
        (
            self.skipped_count() + never as u64,
            (never > 0).then(|| format!("{never} can never run on the cluster")),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::log_id_or;
    use crate::input::{prepare, InputOptions};
    use crate::swf::{read_bytes, ReadOptions};

    /// Two nodes of 4 cores, one partition of MaxTime 1 minute: job 3 (user 8, submitted 9)
    /// asks for 120 s, over it, and can never run. The jobs simulated are jobs 1 and 2, both
    /// user 7's, submitted at 0 and 5: 1 user, a span of 5 s (the whole trace: 2 users, 9 s).
    #[test]
    fn the_facts_count_the_jobs_simulated() {
        let text = "; MaxProcs: 8\n1 0 -1 30 2 -1 -1 2 60 -1 1 7 1 -1 -1 -1 -1 -1\n\
                    2 5 -1 30 2 -1 -1 2 60 -1 1 7 1 -1 -1 -1 -1 -1\n\
                    3 9 -1 30 4 -1 -1 4 120 -1 1 8 1 -1 -1 -1 -1 -1\n";
        let w = read_bytes("never.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
        let opts = InputOptions {
            cluster: Some("1/n[1-2]:c4/p=batch:ALL:default:t1".into()),
            ..InputOptions::default()
        };
        let set = prepare(&w, &opts).unwrap();
        assert_eq!((set.jobs.len(), set.simulated_count()), (3, 2));
        assert_eq!(set.simulated_users_and_span(), (1, 5));
        assert_eq!(set.users().len(), 2);
    }

    /// Job 1 of a log whose line for it has a JobID (`103_7`) is named so; job 0's line has none
    /// (""), and job 2 is past the ids (a trace without them: empty): both by their number.
    #[test]
    fn a_job_is_named_by_its_jobid_else_its_number() {
        let ids = ["".to_string(), "103_7".to_string()];
        assert_eq!(log_id_or(&ids, 0, 102), "102");
        assert_eq!(log_id_or(&ids, 1, 2), "103_7");
        assert_eq!(log_id_or(&ids, 2, 3), "3");
        assert_eq!(log_id_or(&[], 0, 5), "5");
    }
}
