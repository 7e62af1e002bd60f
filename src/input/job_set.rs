//! What the input step hands on: the jobs to simulate with everything it decided
//! ([`JobSet`]), the jobs it left out ([`SkippedJob`]), and its error when nothing is left
//! ([`InputError`]).

use super::InputOptions;
use crate::cluster::Placement;
use crate::job::Job;
use crate::swf::words::Words;
use crate::Time;
use foldhash::HashMap;
use serde::Serialize;

/// A job left out, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedJob {
    pub line: u64,
    pub id: i64,
    pub reason: String,
}

/// The jobs to simulate and everything the input step decided.
#[derive(Debug, Clone, Serialize)]
pub struct JobSet {
    /// Trace name as shown to the user.
    pub name: String,
    pub procs: u32,
    /// Where the machine size came from.
    pub procs_source: String,
    pub jobs: Vec<Job>,
    /// Jobs whose lines parsed but that the input semantics left out.
    pub skipped: Vec<SkippedJob>,
    /// Lines the reader could not use.
    pub reader_skipped: u64,
    /// Non-fatal remarks (sorting, duplicates, clamping).
    pub warnings: Vec<String>,
    /// Absolute trace time of time 0.
    pub origin: Time,
    pub options: InputOptions,
    /// The cluster laid out, with what each job asks of it, when the jobs run on one.
    #[serde(skip)]
    pub placement: Option<std::sync::Arc<Placement>>,
    /// The trace's partition names: a job's [`Request::partition`](crate::job::Request) `k`
    /// is `partitions[k - 1]` (sacct and Batsim names; an SWF field 16 number as text), in
    /// order of first appearance in the file. Empty when no job names a partition.
    pub partitions: Vec<String>,
    /// The earlier runs of requeued jobs (sacct `--duplicates`) as (job index, start, seconds
    /// run), by job: what a replay ([`crate::sim::Policy::recorded_earlier_runs`]) runs and
    /// preempts. Empty for other traces.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub earlier_runs: Vec<(usize, Time, Time)>,
    /// Each job's Slurm account (an sacct log's `Account`; "" when its record has none), by job
    /// index: the association the `slurm` policy charges it to. Empty for other traces.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub accounts: Vec<String>,
    /// Each job's id as the log names it (an sacct log's `JobID`, "" when its line has none),
    /// by job index: the one home of the log's job ids once the input step has read them (the
    /// reader hands them over in [`crate::swf::Workload::job_ids`], which a [`crate::run::Trace`] drops).
    /// The jobs CSV's `log_job_id`; [`JobSet::log_id`] names a job by it for the page, `run
    /// --fidelity` and `replay`. Empty for other traces.
    #[serde(skip)]
    pub log_ids: Vec<String>,
    /// Each job's QOS (an sacct log's `QOS`), by job index: `k` is `qos_names[k - 1]`, 0 none.
    /// Empty when the log has no QOS column (and for other traces).
    #[serde(skip)]
    pub qos: Vec<u16>,
    /// The log's QOS names, in order of first appearance.
    #[serde(skip)]
    pub qos_names: Vec<String>,
    /// Whether Slurm's backfill started each job (an sacct log's `Flags` holds
    /// `SchedBackfill`), by job index; empty when the log has no `Flags` column. The `slurm`
    /// policy reads its backfill grid from these starts (`slurm::phases_from_log`).
    #[serde(skip)]
    pub backfilled: Vec<bool>,
    /// On a cluster, each job's allocation on the nodes of its recorded run (an sacct log's
    /// `NodeList`), by job index: where `historic` starts it
    /// ([`crate::sim::Policy::recorded_nodes`]). Empty off a cluster and for other traces.
    #[serde(skip)]
    pub recorded_nodes: Vec<Option<crate::cluster::Alloc>>,
    /// The names of the trace's users and groups (an sacct log's header notes), for display:
    /// [`Names::user`](crate::workload::names::Names::user) shows a user by name.
    #[serde(skip)]
    pub names: crate::workload::names::Names,
    /// The trace is a Slurm accounting log (sacct, or an SWF converted from one: its header's
    /// [`PEAK_NOTE`](crate::workload::sacct::PEAK_NOTE)): its recorded ends are its
    /// controller's, those its time-limit checks made included
    /// ([`crate::sim::LimitChecks::reaches_limit`]).
    #[serde(skip)]
    pub slurm_log: bool,
    /// How the reports name a job and its fields (the workload's: a Batsim workload's jobs by
    /// their place in `jobs` and Batsim's keys).
    #[serde(skip)]
    pub words: Words,
}

impl JobSet {
    /// Distinct users, in order of first appearance.
    pub fn users(&self) -> Vec<i64> {
        let mut seen = HashMap::default();
        let mut out = Vec::new();
        for j in &self.jobs {
            if seen.insert(j.user, ()).is_none() {
                out.push(j.user);
            }
        }
        out
    }
}

/// Error of the input step: nothing to simulate.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {reason}")]
pub struct InputError {
    pub file: String,
    pub reason: String,
}
