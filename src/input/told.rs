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
