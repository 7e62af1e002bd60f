//! Slurm accounting (`sacct --parsable2`, or `--parsable` with its trailing `|`) read into SWF
//! records, following the Parallel Workloads Archive's conversions.
//!
//! The first non-blank line names the fields (case-insensitive, in any order), cut by `|` or by
//! the delimiter of `--delimiter=X` (`split.rs`: `,`, a tab or `;`). Needed: `JobID`
//! (or `JobIDRaw`), `Submit`, `Start`, `State`, `Elapsed` (or `End`), and the CPUs: `AllocCPUS`
//! (or `NCPUS`), else `AllocTRES`, `ReqCPUS` or `ReqTRES`. Used when present: `User`, `Group`,
//! `Timelimit`, `ReqCPUS`, `ReqMem`, `NNodes`, `ReqNodes`, `ReqTRES`, `AllocTRES`, `TotalCPU`,
//! `Partition`, `QOS`, `JobName`, `Eligible` (a job's arrival when later than `Submit`: `notes.rs`);
//! without TRES GPUs (Slurm <= 19.05) `ReqGRES`, `AllocGRES`
//! (GPUs per node, times the nodes). The job's request of a cluster (nodes, GPUs, memory per node,
//! exclusivity: `request.rs`) goes in [`SwfRecord::req`](crate::swf::SwfRecord::req), the
//! partition names in [`Workload::partition_names`]. Each job line is read in `job_line.rs`.
//! Conventions:
//! - A JobID on several job lines (`--duplicates`: a job requeued) is one job, its last record
//!   its outcome (`requeue.rs`).
//! - Steps (`123.batch`, `123.extern`, `123.0`) fold into their job: they make no job of their
//!   own; a step whose job line is missing is skipped with that reason.
//! - Array elements (`123_4`) and heterogeneous components (`123+1`) are jobs of their own.
//! - A `Partition` list (`a,b`: a job submitted to several) is the first of it, where Slurm
//!   puts the partition the job ran in when it starts.
//! - `State`: `COMPLETED` -> status 1; `FAILED`, `TIMEOUT`, `OUT_OF_MEMORY`, `NODE_FAIL`,
//!   `PREEMPTED`, `BOOT_FAIL`, `DEADLINE`, and `REQUEUED` (25.11: `EXPEDITING`) with a start
//!   and an end (a run that `scontrol requeue` ended) -> 0; `CANCELLED` (`CANCELLED by N`)
//!   after it started -> 5 with its runtime. A job never started (`Start` unknown, or no CPUs
//!   allocated: cancelled while pending (Start = End without an allocation column), `PENDING`,
//!   `RESV_DEL_HOLD`, a federation's `REVOKED` sibling) or not ended (`RUNNING`, `SUSPENDED`, `REQUEUED` without an end...) is skipped
//!   with the reason. A `TIMEOUT` job's line is kept in [`Workload::timed_out`]:
//!   the controller ended it at its time limit, its runtime beyond is unknown (docs/slurm.md
//!   "Time limits").
//! - Times: see [`super::slurm_time`] (no time zone = UTC). Submit times become seconds after
//!   the first kept submit (`; UnixStartTime:` in the header), a job eligible after its
//!   submission (`Eligible`: a dependency, `--begin`, a hold) submitted when it became
//!   eligible; wait = Start - Submit; runtime =
//!   Elapsed (else End - Start); requested time = Timelimit (`UNLIMITED` and
//!   `Partition_Limit` = -1; a `Partition_Limit` job's line is kept in
//!   [`Workload::partition_limit`]: on a cluster it gets its partition's `DefaultTime`, else
//!   `MaxTime`).
//! - Jobs are numbered 1, 2, ... in submit order (ties: file order); the Slurm JobID is kept as
//!   an extra column (field 19). Users, groups, partitions (field 16), QOS (field 15) and job
//!   names (field 14) are numbered from 1 in order of first appearance in that order; the
//!   mappings are `; Note:` lines of the header.
//! - `MaxProcs`: the most CPUs the recorded schedule held at once (every run, a requeued job's
//!   earlier ones too), the smallest machine on which the recorded schedule fits; sacct names
//!   no machine size. (The widest job, used before, made the recorded schedule itself
//!   infeasible: `historic` delayed jobs Slurm ran.) A cluster given replaces it.

mod requeue;
mod state;

use foldhash::HashMap;

mod columns;
mod finish;
mod job_line;
pub mod json;
mod notes;
mod number;
pub use number::{max_procs_is_recorded_peak, PEAK_NOTE, PEAK_SOURCE};
mod request;
pub mod split;

use crate::job::Request;
use crate::swf::{LineIssue, ReadOptions, Severity, SwfError, Workload};
use columns::Columns;
pub use columns::EXPORT_FIELDS;
use finish::finish;

/// What a reader's job lines hold: their texts (`Self`), `&str` borrowed from an sacct log's
/// text or `String` of a JSON job (read as a stream, its text dropped), and what orders jobs
/// submitted at the same second before their line (`Tie`).
trait Text: std::ops::Deref<Target = str> + Into<String> + std::fmt::Display {
    type Tie: Ord + Copy;
}

/// An sacct log's lines are in sacct's order: nothing orders them before their line.
impl Text for &str {
    type Tie = ();
}

/// A JSON job's (job id, array task): sacct's order of an array's elements, which `--json`
/// lists by their own job ids.
impl Text for String {
    type Tie = (i64, i64);
}

/// A job line read, before numbering; its texts (`S`: [`Text`]) borrow from the file's text (an
/// sacct log's, 16 bytes each, no tie) or are its own (JSON, read as a stream). (A `Cow` served
/// both at 24 bytes each, and every row held a JSON job's tie: 86 MB more at the peak of a
/// million-job log.)
struct Row<S: Text> {
    line: u64,
    /// Orders jobs submitted at the same second before `line` ([`Text::Tie`]).
    tie: S::Tie,
    id: S,
    submit: i64,
    start: i64,
    run: i64,
    cpus: i64,
    req_cpus: i64,
    req_time: i64,
    req_mem: f64,
    /// Nodes, GPUs, memory per node, exclusivity (the partition is numbered later).
    req: Request,
    cpu_time: f64,
    status: i64,
    /// `State` is `TIMEOUT`: the controller ended it at its time limit.
    timed_out: bool,
    /// `Timelimit` is `Partition_Limit`: the job gave none (`notes::partition_limit`).
    partition_limit: bool,
    /// Seconds from its submission until it became eligible (`Eligible`; 0 when not later or
    /// not given: `notes::deferred`).
    deferred: i64,
    user: S,
    group: S,
    /// Its `Partition` list as the log gives it (`short,batch`: submitted to several, the one
    /// it ran in first).
    partition: S,
    account: S,
    qos: S,
    name: S,
    /// The nodes it ran on (`NodeList`, a hostlist; empty or `None assigned` when none).
    node_list: S,
    /// How Slurm started it (`Flags`: `SchedMain`, `SchedBackfill`, ...; empty when none).
    flags: S,
    /// The job's earlier runs (requeued): (start, run) in Slurm's times.
    earlier: Vec<(i64, i64)>,
}

/// Is this the first line of an sacct file? (a `|`-separated line: SWF never holds `|`; or a
/// header cut by another delimiter, `--delimiter=,`: [`split::delimiter`]; or the header of
/// sacct's table, which [`read`] refuses saying how to export: `columns::is_table_header`).
pub fn looks_like(first_line: &str) -> bool {
    split::delimiter(first_line).is_some() || columns::is_table_header(first_line)
}

/// Reads sacct `--parsable2` text. `source` names it in every message.
pub fn read(source: &str, text: &str, opts: &ReadOptions) -> Result<Workload, SwfError> {
    let mut st = State::new(source, opts);
    let mut lines = text.split('\n').enumerate().map(|(i, l)| {
        let l = l.strip_suffix('\r').unwrap_or(l);
        (
            i as u64 + 1,
            if i == 0 {
                l.trim_start_matches('\u{feff}')
            } else {
                l
            },
        )
    });
    let (head_no, head) = lines
        .by_ref()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| no_jobs(source, "empty file".into()))?;
    let delim = match split::delimiter(head) {
        Some(d) => d,
        None if columns::is_table_header(head) => {
            let why = format!(
                "line {head_no}: sacct's table output (fields padded to their columns' widths, \
                 longer values cut: OUT_OF_ME+), which cannot be read back whole: export with \
                 --parsable2, for example: sacct --allusers --duplicates --parsable2 --format \
                 {}",
                EXPORT_FIELDS
            );
            return Err(no_jobs(source, why));
        }
        None => '|',
    };
    let names = split::Splitter::names(head, delim);
    let splitter = split::Splitter::new(delim, &names);
    let cols =
        Columns::parse(names).map_err(|e| no_jobs(source, format!("line {head_no}, {e}")))?;
    let mut rows: Vec<Row<&str>> = Vec::new();
    // Job id -> its row, if its (last) job line gave one.
    let mut by_id: HashMap<&str, Option<usize>> = HashMap::default();
    // One line's fields, reused from line to line.
    let mut f: Vec<&str> = Vec::new();
    let mut requeues = requeue::Requeues::default();
    let mut steps: Vec<(u64, &str)> = Vec::new();
    let mut job_lines = 0u64;
    for (no, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        job_lines += 1;
        st.line = no;
        // As SWF lines: a field of 100 MB was accepted and kept (926 MB).
        if line.len() > opts.max_line_bytes {
            let why = format!("line longer than {} bytes", opts.max_line_bytes);
            st.skip(None, why)?;
            continue;
        }
        if let Err(why) = splitter.split(line, &mut f) {
            st.skip(None, why)?;
            continue;
        }
        let id = f[cols.job_id].trim();
        if id.is_empty() {
            st.skip(Some(cols.label(cols.job_id)), "empty job id".into())?;
            continue;
        }
        if let Some((parent, _)) = id.split_once('.') {
            steps.push((no, parent));
            continue;
        }
        let parsed = match by_id.get(id) {
            // A job requeued: this record is its latest run.
            Some(&earlier) => requeues.again(id, &mut rows, earlier, job_line::row(&cols, no, &f)),
            None => job_line::row(&cols, no, &f).map(Some),
        };
        match parsed {
            Ok(None) => {}
            Ok(Some(r)) => {
                by_id.insert(id, Some(rows.len()));
                rows.push(r);
            }
            Err((field, why, bad)) => {
                // Remember skipped jobs too, so that their steps are not reported again.
                by_id.insert(id, None);
                if bad {
                    st.skip(field, why)?
                } else {
                    st.leave_out(why)
                }
            }
        }
    }
    for (no, parent) in steps {
        if !by_id.contains_key(parent) {
            st.line = no;
            let why = format!("step of job {parent}, whose job line is missing");
            st.skip(Some(cols.label(cols.job_id)), why)?;
        }
    }
    let rows = requeues.kept(rows);
    if rows.is_empty() {
        let detail = match (job_lines, st.w.issues.first()) {
            (0, _) => format!("header only (line {head_no}), no job lines"),
            (1, Some(i)) => format!("its one line gave no job; first: {i}"),
            (1, None) => "its one line gave no job".to_string(),
            (_, Some(i)) => format!("none of the {job_lines} lines gave a job; first: {i}"),
            _ => format!("none of the {job_lines} lines gave a job"),
        };
        return Err(no_jobs(source, detail));
    }
    Ok(finish(rows, &requeues, st.w, source, cols.flags.is_some()))
}

fn no_jobs(source: &str, detail: String) -> SwfError {
    SwfError::NoJobs {
        file: source.to_owned(),
        detail,
    }
}

/// Why a line gives no job: (field, reason, a bad line rather than a convention). Jobs left out
/// by a convention (never started, not ended) are reported but never fail `--strict`.
type Bad = (Option<String>, String, bool);

struct State<'a> {
    opts: &'a ReadOptions,
    w: Workload,
    line: u64,
}

impl<'a> State<'a> {
    fn new(source: &str, opts: &'a ReadOptions) -> Self {
        State {
            opts,
            w: Workload::empty(source),
            line: 0,
        }
    }

    /// A job left out by a convention: reported, never an error.
    fn leave_out(&mut self, reason: String) {
        let opts = ReadOptions {
            strict: false,
            ..*self.opts
        };
        let _ = self.record(None, reason, &opts);
    }

    fn skip(&mut self, field: Option<String>, reason: String) -> Result<(), SwfError> {
        self.record(field, reason, self.opts)
    }

    fn record(
        &mut self,
        field: Option<String>,
        reason: String,
        opts: &ReadOptions,
    ) -> Result<(), SwfError> {
        let issue = LineIssue {
            line: self.line,
            field,
            reason,
            severity: Severity::Skipped,
        };
        if opts.strict {
            return Err(SwfError::Strict {
                file: self.w.source.clone(),
                issue,
            });
        }
        self.w.issue_count += 1;
        self.w.skipped_lines += 1;
        if self.w.issues.len() < opts.max_issues {
            self.w.issues.push(issue);
        }
        Ok(())
    }
}
