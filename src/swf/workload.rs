//! A parsed trace and the options for reading one.

use serde::{Deserialize, Serialize};

use super::header::SwfHeader;
use super::issue::LineIssue;
use super::record::SwfRecord;

/// How to read a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadOptions {
    /// Turn the first issue (even a warning) into [`super::SwfError::Strict`].
    pub strict: bool,
    /// How many issues to keep in [`Workload::issues`] (all are counted). Default 1000.
    pub max_issues: usize,
    /// Longer lines are skipped without being buffered. Default 1 MiB.
    pub max_line_bytes: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            strict: false,
            max_issues: 1000,
            max_line_bytes: 1 << 20,
        }
    }
}

/// A parsed SWF trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// The file name as given by the caller (used in every message).
    pub source: String,
    pub header: SwfHeader,
    /// In file order; nothing is re-sorted.
    pub records: Vec<SwfRecord>,
    /// The first [`ReadOptions::max_issues`] issues: whole-file ones (`line == 0`, such as a
    /// truncated gzip stream) first, then the others in file order.
    pub issues: Vec<LineIssue>,
    /// All issues, including those not kept.
    pub issue_count: u64,
    /// Job lines that produced no record.
    pub skipped_lines: u64,
    /// The input was gzip-compressed.
    pub gzip: bool,
    /// Records handed to a [`super::RecordSink`] as they were read instead of kept in
    /// `records` (0 when they are kept).
    #[serde(default)]
    pub streamed: u64,
    /// The names of the partitions field 16 numbers: partition `k` is `partition_names[k - 1]`
    /// (sacct's `Partition`, Batsim's `partition`); empty when field 16 holds plain numbers
    /// (SWF), each then named by its number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partition_names: Vec<String>,
    /// The earlier runs of jobs that were requeued (sacct `--duplicates`: a job's records
    /// before its last), which the trace's fields cannot hold: the replay draws them as
    /// preempted runs. Empty for every other format.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requeued: Vec<EarlierRun>,
    /// Each job's Slurm account (an sacct log's `Account`), by the line of its record; empty
    /// for other formats. The `slurm` policy charges a job to its user's association in it.
    pub accounts: Vec<(u64, String)>,
    /// The nodes each job ran on (an sacct log's `NodeList`, a hostlist), by the line of its
    /// record; empty for other formats. `historic` starts a job on them on a cluster.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub node_lists: Vec<(u64, String)>,
    /// Each job's Slurm `JobID` (an sacct log's, as sacct prints it: `1234`, `1234_5`,
    /// `1234+0`), by the line of its record; empty for other formats. The reader's hand-over
    /// to the input step, which keeps them by job in `JobSet::log_ids` (their one home: a
    /// `Trace` drops these once its jobs hold them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub job_ids: Vec<(u64, String)>,
    /// Whether Slurm's backfill started each job (an sacct log's `Flags` holds
    /// `SchedBackfill`), by the line of its record; empty when the log has no `Flags` column,
    /// and for other formats. The `slurm` policy reads its backfill grid from them
    /// (`slurm::phases_from_log`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backfilled: Vec<(u64, bool)>,
    /// The lines of the records whose job the controller ended at its time limit (an sacct
    /// log's `TIMEOUT`); empty for other formats. Such a job is killed at its
    /// limit by every policy's own rule, whatever its recorded runtime (`Job::timed_out`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timed_out: Vec<u64>,
    /// The lines of the records whose log gives no time limit of their own (an sacct log's
    /// `Timelimit=Partition_Limit`); empty for other formats. On a cluster each gets its
    /// partition's `DefaultTime`, else `MaxTime`, as Slurm does when it starts one
    /// (`input::partition_time`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partition_limit: Vec<u64>,
    /// The jobs submitted to several partitions (an sacct log's `Partition` a list, `short,batch`)
    /// as (line of its record, the names in the log's order: in slurmctld's form, for a started
    /// job the one it ran in first, `rebuild_job_part_list`; sacct itself keeps a list only for a
    /// job still pending); empty when no job names more than one, and for other
    /// formats. Field 16 holds the first; the input step hands the lists to the cluster
    /// (`crate::cluster::Placement::parts_of`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partition_lists: Vec<(u64, Vec<String>)>,
    /// Each job's QOS (an sacct log's `QOS`) as (line of its record, `k`): QOS `k` is
    /// `qos_names[k - 1]`; empty when the log has no QOS column, and for other formats. The
    /// `slurm` policy's QOS factor reads it.
    pub qos: Vec<(u64, u16)>,
    /// The QOS names `qos` numbers, in order of first appearance.
    pub qos_names: Vec<String>,
    /// Job lines in Alea's MetaCentrum form (`super::alea`: field 10 in bytes per node, a
    /// node spec); 0 for every other trace.
    #[serde(default, skip_serializing_if = "no_lines")]
    pub alea_lines: u64,
    /// How the reports name a job and its fields: by line and SWF field, or (a Batsim
    /// workload) by its place in `jobs` and Batsim's keys.
    #[serde(default)]
    pub words: super::Words,
}

fn no_lines(n: &u64) -> bool {
    *n == 0
}

/// An earlier run of a requeued job: of the record on `line`, started `start` seconds after
/// the job's submit time and ended `run` seconds later (preempted, failed, requeued).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EarlierRun {
    pub line: u64,
    pub start: i64,
    pub run: i64,
}

impl Workload {
    /// One line for a person: `file: 120 jobs, 3 lines skipped, 1 warning; first: line 5,
    /// field 4 (run_time): not a number: "x"; ...`, citing at most `n` issues.
    pub fn summary(&self, n: usize) -> String {
        let jobs = self.records.len() as u64 + self.streamed;
        let mut s = format!("{}: {} job{}", self.source, jobs, plural(jobs));
        if self.issue_count == 0 {
            s.push_str(", no issues");
            return s;
        }
        if self.skipped_lines > 0 {
            let k = self.skipped_lines;
            s.push_str(&format!(", {k} {} skipped", self.words.records(k)));
        }
        let warnings = self.issue_count.saturating_sub(self.skipped_lines);
        if warnings > 0 {
            s.push_str(&format!(", {warnings} warning{}", plural(warnings)));
        }
        let shown: Vec<String> = self.issues.iter().take(n).map(|i| i.to_string()).collect();
        if !shown.is_empty() {
            s.push_str("; first: ");
            s.push_str(&shown.join("; "));
        }
        let more = self.issue_count.saturating_sub(shown.len() as u64);
        if more > 0 && !shown.is_empty() {
            s.push_str(&format!("; and {more} more"));
        }
        s
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swf::Severity;

    #[test]
    fn summary_forms() {
        let mut w = Workload {
            source: "t.swf".into(),
            header: SwfHeader::default(),
            records: vec![],
            issues: vec![],
            issue_count: 0,
            skipped_lines: 0,
            gzip: false,
            streamed: 0,
            partition_names: vec![],
            requeued: vec![],
            accounts: vec![],
            node_lists: vec![],
            backfilled: vec![],
            timed_out: vec![],
            partition_limit: vec![],
            partition_lists: vec![],
            job_ids: vec![],
            qos: vec![],
            qos_names: vec![],
            alea_lines: 0,
            words: Default::default(),
        };
        assert_eq!(w.summary(3), "t.swf: 0 jobs, no issues");
        for line in [5, 9] {
            w.issues.push(LineIssue {
                line,
                field: None,
                reason: "binary data".into(),
                severity: Severity::Skipped,
            });
        }
        w.issue_count = 3;
        w.skipped_lines = 2;
        assert_eq!(
            w.summary(1),
            "t.swf: 0 jobs, 2 lines skipped, 1 warning; first: line 5: binary data; and 2 more"
        );
    }
}
