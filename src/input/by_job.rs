//! What a reader records of jobs by the line of their record (an sacct log's accounts, JobIDs,
//! QOS and requeued runs: `Workload::accounts`, `job_ids`, `qos`, `requeued`), laid out by job
//! index once the input rules have kept and sorted the jobs.

use super::Job;
use crate::Time;
use foldhash::HashMap;

/// A text of each job (its account, its id in the log) from the workload's (line, text) list,
/// by job index ("" for a job without one); empty when the workload names none.
pub(super) fn by_job(jobs: &[Job], by_line: &[(u64, String)]) -> Vec<String> {
    if by_line.is_empty() {
        return Vec::new();
    }
    let by_line: HashMap<u64, &str> = by_line.iter().map(|(l, a)| (*l, a.as_str())).collect();
    let account = |j: &Job| by_line.get(&j.line).copied().unwrap_or("").to_string();
    jobs.iter().map(account).collect()
}

/// Each job's QOS from the workload's (line, QOS) list, by job index; empty when the workload
/// names no QOS.
pub(super) fn job_qos(jobs: &[Job], by_line: &[(u64, u16)]) -> Vec<u16> {
    if by_line.is_empty() {
        return Vec::new();
    }
    let by_line: HashMap<u64, u16> = by_line.iter().copied().collect();
    jobs.iter()
        .map(|j| by_line.get(&j.line).copied().unwrap_or(0))
        .collect()
}

/// The partition lists of the jobs submitted to several partitions (the workload's (line,
/// names)), as (job index, names) by job index; empty when no job names several.
pub(super) fn job_partition_lists(
    jobs: &[Job],
    by_line: &[(u64, Vec<String>)],
) -> Vec<(usize, Vec<String>)> {
    if by_line.is_empty() {
        return Vec::new();
    }
    let by_line: HashMap<u64, &Vec<String>> = by_line.iter().map(|(l, n)| (*l, n)).collect();
    (jobs.iter().enumerate())
        .filter_map(|(j, job)| by_line.get(&job.line).map(|n| (j, (*n).clone())))
        .collect()
}

/// Whether backfill started each job (an sacct log's `Flags`), by job index; empty when the
/// workload says for no job.
pub(super) fn job_backfilled(jobs: &[Job], by_line: &[(u64, bool)]) -> Vec<bool> {
    if by_line.is_empty() {
        return Vec::new();
    }
    let by_line: HashMap<u64, bool> = by_line.iter().copied().collect();
    jobs.iter()
        .map(|j| by_line.get(&j.line).copied().unwrap_or(false))
        .collect()
}

/// The earlier runs the workload records of requeued jobs, as (job index, start, seconds run)
/// by job, found by line; those as long as the job's last run or longer (which would complete
/// it) are left out.
pub(super) fn earlier_runs(
    jobs: &[Job],
    runs: &[crate::swf::EarlierRun],
) -> Vec<(usize, Time, Time)> {
    if runs.is_empty() {
        return Vec::new();
    }
    let mut by_line: HashMap<u64, Vec<(Time, Time)>> = HashMap::default();
    for r in runs {
        by_line.entry(r.line).or_default().push((r.start, r.run));
    }
    let mut out = Vec::new();
    for (j, job) in jobs.iter().enumerate() {
        for &(after, run) in by_line.get(&job.line).map_or(&[][..], |v| &v[..]) {
            if run > 0 && run < job.runtime {
                out.push((j, job.submit.saturating_add(after), run));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(line: u64, submit: Time, runtime: Time) -> Job {
        Job {
            line,
            submit,
            runtime,
            ..Job::default()
        }
    }

    /// Jobs on lines 5 and 3 (sorted: line 5 first). Texts by line: line 3 has one, line 9 is no
    /// job's: job 0 gets "", job 1 "b". QOS likewise, 0 for none. Requeued runs of line 3's job
    /// (submitted at 100, last run 60 s): started 10 s after submit for 20 s, kept at 110; one
    /// of 60 s (as long as its last run: it would have completed it) and one of 0 s left out.
    #[test]
    fn records_by_line_are_laid_out_by_job() {
        let jobs = [job(5, 0, 30), job(3, 100, 60)];
        let texts = [(3, "b".to_string()), (9, "x".to_string())];
        assert_eq!(by_job(&jobs, &texts), ["", "b"]);
        assert!(by_job(&jobs, &[]).is_empty());
        assert_eq!(job_qos(&jobs, &[(3, 2), (9, 1)]), [0, 2]);
        assert!(job_qos(&jobs, &[]).is_empty());
        let run = |start, run| crate::swf::EarlierRun {
            line: 3,
            start,
            run,
        };
        assert_eq!(
            earlier_runs(&jobs, &[run(10, 20), run(40, 60), run(50, 0)]),
            [(1, 110, 20)]
        );
    }
}
