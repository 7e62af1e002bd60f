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
//! partition names in [`Workload::partition_names`]. Conventions:
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

use crate::quote::quote;
use foldhash::HashMap;

mod columns;
mod finish;
pub mod json;
mod notes;
mod number;
pub use number::{max_procs_is_recorded_peak, PEAK_NOTE, PEAK_SOURCE};
mod request;
pub mod split;

use super::slurm_time::{self, Limit};
use super::slurm_tres::{self, ReqMem, Tres};
use crate::job::Request;
use crate::swf::{LineIssue, ReadOptions, Severity, SwfError, Workload};
use columns::Columns;
pub use columns::EXPORT_FIELDS;
use finish::finish;
use request::{Asked, Col};
use state::Said;

/// A text of a job: borrowed from an sacct log's text, owned when read from JSON.
type Text<'a> = std::borrow::Cow<'a, str>;

/// A job line read, before numbering; its texts borrow from the file's text (an sacct log's)
/// or are its own (JSON, read as a stream).
struct Row<'a> {
    line: u64,
    /// Orders jobs submitted at the same second before `line`: (0, 0) in an sacct log, whose
    /// lines are in sacct's order; a JSON job's (job id, array task), sacct's order of an
    /// array's elements, which `--json` lists by their own job ids.
    tie: (i64, i64),
    id: Text<'a>,
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
    user: Text<'a>,
    group: Text<'a>,
    /// Its `Partition` list as the log gives it (`short,batch`: submitted to several, the one
    /// it ran in first).
    partition: Text<'a>,
    account: Text<'a>,
    qos: Text<'a>,
    name: Text<'a>,
    /// The nodes it ran on (`NodeList`, a hostlist; empty or `None assigned` when none).
    node_list: Text<'a>,
    /// How Slurm started it (`Flags`: `SchedMain`, `SchedBackfill`, ...; empty when none).
    flags: Text<'a>,
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
    let mut rows: Vec<Row> = Vec::new();
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
            Some(&earlier) => requeues.again(id, &mut rows, earlier, row(&cols, no, &f)),
            None => row(&cols, no, &f).map(Some),
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

/// One job line, or why it is skipped.
fn row<'a>(c: &Columns, line: u64, f: &[&'a str]) -> Result<Row<'a>, Bad> {
    let get = |i: usize| f.get(i).map(|s| s.trim()).unwrap_or("");
    let opt = |i: Option<usize>| i.map(get).unwrap_or("");
    let field = |i: usize, e: String| (Some(c.label(i)), e, true);
    let id = get(c.job_id);
    let state_text = get(c.state);
    let state = state_text
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches('+')
        .to_ascii_uppercase();
    let submit = slurm_time::timestamp(get(c.submit)).map_err(|e| field(c.submit, e))?;
    let start = slurm_time::timestamp(get(c.start)).map_err(|e| field(c.start, e))?;
    let end = match c.end {
        Some(i) => slurm_time::timestamp(get(i)).map_err(|e| field(i, e))?,
        None => None,
    };
    let tres_at = |i: Option<usize>| match i {
        Some(i) => slurm_tres::tres(get(i)).map_err(|e| field(i, e)),
        None => Ok(Tres::default()),
    };
    let (req_tres, alloc_tres) = (tres_at(c.req_tres)?, tres_at(c.alloc_tres)?);
    let count_at = |i: Option<usize>| -> Result<Option<i64>, Bad> {
        match i.map(get) {
            Some(t) if !t.is_empty() => t
                .parse::<i64>()
                .map(Some)
                .map_err(|_| field(i.unwrap_or(0), format!("not a number: {}", quote(t)))),
            _ => Ok(None),
        }
    };
    let asked_cpus = match count_at(c.req_cpus)? {
        Some(n) => Some(n),
        None => req_tres.cpu.map(|n| n as i64),
    };
    // The CPUs it ran on: AllocCPUS / NCPUS, else AllocTRES (empty for a job that never ran),
    // else what it asked.
    let cpus_col = c
        .cpus
        .or(c.alloc_tres)
        .or(c.req_cpus)
        .or(c.req_tres)
        .unwrap_or(0);
    let cpus: i64 = match (count_at(c.cpus)?, c.alloc_tres) {
        (Some(n), _) => n,
        (None, Some(_)) => alloc_tres.cpu.unwrap_or(0) as i64,
        (None, None) => asked_cpus.unwrap_or(0),
    };
    let Some(submit) = submit else {
        return Err(field(c.submit, "unknown submit time".into()));
    };
    let never = |why: &str| Err((None, format!("job {id} {why} ({state_text})"), false));
    let status = match state::said(&state, end.is_some() && start.is_some()) {
        Said::Status(status) => status,
        Said::LeftOut(why) => return never(why),
        Said::Unknown => {
            return Err(field(
                c.state,
                format!(
                    "unknown state {} (COMPLETED, FAILED, CANCELLED, ...)",
                    quote(state_text)
                ),
            ))
        }
    };
    // A bad count is a bad line, before "no CPUs: never started" (NCPUS -4 was called never
    // started, even under --strict); 2^32 CPUs converted to an SWF nothing could run.
    if cpus < 0 {
        return Err(field(cpus_col, format!("negative: {cpus}")));
    }
    if cpus > i64::from(u32::MAX / 2) {
        return Err(field(
            cpus_col,
            format!("{cpus} CPUs: at most {} on one machine", u32::MAX / 2),
        ));
    }
    let Some(start) = start.filter(|_| cpus > 0) else {
        return never("never started");
    };
    // A job cancelled while pending gets Start = End = the cancel (job_mgr.c: `start_time =
    // now; end_time = now`). Without a column of the CPUs allocated (0 for it) or of the nodes
    // it ran on, its CPUs were those it asked, and it read as a run of 0 s that waited.
    let allocated = c.cpus.is_some() || c.alloc_tres.is_some();
    let nodes = opt(c.node_list);
    let on_nodes = !nodes.is_empty() && !nodes.eq_ignore_ascii_case("None assigned");
    if state == "CANCELLED" && end == Some(start) && !allocated && !on_nodes {
        return never("never started");
    }
    let run = match c.elapsed {
        Some(i) => {
            let t = get(i);
            if t.bytes().all(|b| b.is_ascii_digit()) && !t.is_empty() {
                t.parse::<i64>()
                    .map_err(|_| field(i, format!("not a duration: {}", quote(t))))?
            } else {
                slurm_time::duration(t).map_err(|e| field(i, e))?
            }
        }
        None => match (end, c.end) {
            (Some(e), _) if e >= start => e - start,
            (Some(_), Some(i)) => return Err(field(i, "End before Start".into())),
            _ => return Err(field(c.end.unwrap_or(c.start), "unknown end time".into())),
        },
    };
    if start < submit {
        return Err(field(c.start, "Start before Submit".into()));
    }
    let req_time = match c.timelimit {
        Some(i) => match slurm_time::limit(get(i)).map_err(|e| field(i, e))? {
            Limit::Seconds(s) => s,
            Limit::None => -1,
        },
        None => -1,
    };
    let req_cpus = asked_cpus.unwrap_or(cpus);
    let ran_on = opt(c.nnodes).parse::<u64>().ok().or(alloc_tres.node);
    let nodes = match req_tres.node {
        Some(n) => Some(n),
        None => count_at(c.req_nodes)?.map(|n| n.max(0) as u64),
    }
    .or(ran_on);
    // Slurm <= 19.05 has no TRES columns: `ReqGRES` / `AllocGRES` give GPUs per node, times
    // the nodes asked for / run on (one when unknown).
    let gres = |col: Option<usize>, on: Option<u64>| match col {
        Some(i) => slurm_tres::gres_gpus_per_node(get(i))
            .map(|g| g.map(|per_node| per_node.saturating_mul(on.unwrap_or(1))))
            .map_err(|e| field(i, e)),
        None => Ok(None),
    };
    let asked = Asked {
        cpus,
        asked_cpus,
        alloc_cpus: c.cpus.map(|_| cpus).or(alloc_tres.cpu.map(|n| n as i64)),
        nodes,
        ran_on,
        gpus: match req_tres.gpus.or(alloc_tres.gpus) {
            Some(g) => Some(g),
            None => match gres(c.req_gres, nodes)? {
                Some(g) => Some(g),
                None => gres(c.alloc_gres, ran_on)?,
            },
        },
    };
    let mem = match c.req_mem {
        Some(i) => slurm_tres::req_mem(get(i)).map_err(|e| field(i, e))?,
        None => None,
    }
    .or(req_tres.mem_mb.or(alloc_tres.mem_mb).map(ReqMem::Total));
    let mem_col = c.req_mem.or(c.req_tres).or(c.alloc_tres).unwrap_or(0);
    let (req, req_mem) = asked.request(mem).map_err(|(e, col)| {
        let col = match col {
            Col::Mem => mem_col,
            Col::Gpus => (c.req_tres.or(c.alloc_tres).or(c.req_gres).or(c.alloc_gres)).unwrap_or(0),
            Col::Nodes => c.req_tres.or(c.req_nodes).or(c.nnodes).unwrap_or(0),
        };
        field(col, e)
    })?;
    let cpu_time = match c.total_cpu {
        Some(i) if !get(i).is_empty() => {
            slurm_time::duration(get(i)).map_err(|e| field(i, e))? as f64 / cpus.max(1) as f64
        }
        _ => -1.0,
    };
    // A job held by a dependency, `--begin` or a hold arrives when it became eligible (sacct's
    // `Eligible`, at most its start): a policy may not start it before, and its wait counts
    // from there, as Slurm's own `Planned` (`Reserved` before 23.02) does.
    let eligible = slurm_time::timestamp(opt(c.eligible))
        .ok()
        .flatten()
        .filter(|&e| e > submit && e <= start);
    Ok(Row {
        line,
        tie: (0, 0),
        id: id.into(),
        submit: eligible.unwrap_or(submit),
        start,
        run,
        cpus,
        req_cpus,
        req_time,
        req_mem,
        req,
        cpu_time,
        status,
        timed_out: state == "TIMEOUT",
        partition_limit: opt(c.timelimit).eq_ignore_ascii_case("Partition_Limit"),
        // A value that is no time, or after the start, says nothing of it.
        deferred: eligible.map_or(0, |e| e - submit),
        user: opt(c.user).into(),
        group: opt(c.group).into(),
        // A job submitted to several partitions (`-p a,b`): its first is its partition, the
        // whole list kept (`number.rs`; told of: `several_partitions`). sacct prints a list only
        // for a job still pending (slurmdbd stores the partition a started job runs in,
        // as_mysql_job.c 523-526 of 22.05.8); slurmctld's form puts the one it ran in first
        // (`rebuild_job_part_list`, job_scheduler.c).
        partition: opt(c.partition).into(),
        account: opt(c.account).into(),
        qos: opt(c.qos).into(),
        name: opt(c.name).into(),
        node_list: opt(c.node_list).into(),
        flags: opt(c.flags).into(),
        earlier: Vec::new(),
    })
}

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
