//! Input semantics: how SWF records become the jobs a simulation runs (GUIDE section 2).
//!
//! Every rule is an option of [`InputOptions`] so that the CLI, the page and the share link can
//! change it: machine size, which jobs are skipped, the planning estimate, killing at the
//! requested time, and the time origin.

pub use crate::job::Job;
use crate::machine::NodeModel;
use crate::swf::{LineIssue, Severity, SwfRecord, Workload};
use crate::workload::transform::{self, Transform};
use crate::Time;
use foldhash::HashMap;
use serde::{Deserialize, Serialize};

/// What to do with a job wider than the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Wide {
    /// Skip it and report it (the default).
    #[default]
    Skip,
    /// Shrink it to the machine size.
    Clamp,
}

/// Which runtime the policies plan with by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum EstimateSource {
    /// The requested time (field 9) when > 0, else the runtime (flagged unknown).
    #[default]
    Requested,
    /// The actual runtime (perfect estimates).
    Runtime,
    /// Field 9 ignored, as in a trace without requested times: no kill time, estimates are the
    /// runtime, predictions are not capped (mutate them with the `rfactor` predictor).
    Ignore,
}

/// Where time 0 is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// The first submit time of the kept jobs (the default).
    #[default]
    First,
    /// The trace's own time axis, unchanged.
    Trace,
}

/// Longest time a job's submit, run or requested time may be (2^53 s, what a JavaScript number
/// holds exactly): later jobs are skipped, so that the engine's sums of times never overflow
/// (found by fuzzing: a load scale of 1e-300 pushed submit times to the end of `i64`).
pub const MAX_TIME: Time = 1 << 53;

/// Most nodes the node model simulates.
pub const MAX_NODES: u32 = 1 << 20;

/// The input semantics, each one an option. `Default` is GUIDE section 2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InputOptions {
    /// Machine size override; otherwise MaxProcs, MaxNodes, then the widest job.
    pub procs: Option<u32>,
    pub wide: Wide,
    /// Skip jobs whose status (field 11) is in this list (e.g. 5 = cancelled).
    pub skip_status: Vec<i64>,
    /// Skip jobs with a runtime of 0.
    pub skip_zero_runtime: bool,
    pub estimate: EstimateSource,
    /// Jobs run for min(runtime, requested time) and count as killed when cut.
    pub kill: bool,
    pub origin: Origin,
    /// Offline mode (Zotkin et al., section 4): every job is submitted at time 0, in arrival
    /// order.
    pub offline: bool,
    /// Keep only the first N jobs in arrival order (after skipping).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_jobs: Option<usize>,
    /// The node model (nodes sharing memory bandwidth; penalized runtimes), off when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<NodeModel>,
    /// Load scaling, time window, users: applied to the records before every rule above.
    #[serde(skip_serializing_if = "Transform::is_identity")]
    pub transform: Transform,
}

impl Default for InputOptions {
    fn default() -> Self {
        Self {
            procs: None,
            wide: Wide::Skip,
            skip_status: Vec::new(),
            skip_zero_runtime: false,
            estimate: EstimateSource::Requested,
            kill: true,
            origin: Origin::First,
            offline: false,
            max_jobs: None,
            nodes: None,
            transform: Transform::default(),
        }
    }
}

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
}

impl JobSet {
    /// Every job left out: unreadable lines plus skipped jobs.
    pub fn skipped_count(&self) -> u64 {
        self.reader_skipped + self.skipped.len() as u64
    }

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

/// Applies the input semantics to a parsed workload.
pub fn prepare(workload: &Workload, opts: &InputOptions) -> Result<JobSet, InputError> {
    let err = |reason: String| InputError {
        file: workload.source.clone(),
        reason,
    };
    let transformed = transform::apply(workload, &opts.transform).map_err(err)?;
    let (workload, transform_notes) = match &transformed {
        Some((w, notes)) => (w, notes.clone()),
        None => (workload, Vec::new()),
    };
    let h = &workload.header;
    let widest = workload
        .records
        .iter()
        .map(record_procs)
        .max()
        .unwrap_or(0)
        .max(0);
    let (procs, procs_source) = if let Some(p) = opts.procs {
        (u64::from(p), "override".to_string())
    } else if let Some(p) = h.max_procs.filter(|&p| p > 0) {
        (p, "MaxProcs header".to_string())
    } else if let Some(p) = h.max_nodes.filter(|&p| p > 0) {
        (p, "MaxNodes header".to_string())
    } else {
        (
            widest as u64,
            "widest job (no MaxProcs/MaxNodes header)".to_string(),
        )
    };
    if procs == 0 || procs > u64::from(u32::MAX / 2) {
        return Err(err(format!(
            "machine size {procs} is not usable ({procs_source})"
        )));
    }
    let procs = procs as u32;
    if let Some(m) = &opts.nodes {
        m.validate().map_err(|e| err(format!("node model: {e}")))?;
        // The engine keeps state per node (found by fuzzing: a billion one-core nodes took
        // more than 23 GB).
        let nodes = m.node_count(procs);
        if nodes > MAX_NODES {
            return Err(err(format!(
                "node model: {procs} processors in nodes of {} cores make {nodes} nodes (at most {MAX_NODES})",
                m.cores
            )));
        }
    }
    if opts.max_jobs == Some(0) {
        return Err(err("max jobs must be at least 1".to_string()));
    }

    let mut warnings = transform_notes;
    let mut skipped = Vec::new();
    let mut kept: Vec<&SwfRecord> = Vec::with_capacity(workload.records.len());
    // Job numbers rising in file order (most traces) cannot repeat: no map of them is needed
    // (it would take about 30 bytes per job).
    let rising = workload
        .records
        .windows(2)
        .all(|w| w[0].job_number < w[1].job_number);
    let mut first_line_of: HashMap<i64, u64> = HashMap::default();
    if !rising {
        first_line_of.reserve(workload.records.len());
    }
    let mut clamped = 0u64;
    for r in &workload.records {
        let skip = |reason: String| SkippedJob {
            line: r.line,
            id: r.job_number,
            reason,
        };
        let p = record_procs(r);
        let reason = if let Some(&first) = (!rising)
            .then(|| first_line_of.get(&r.job_number))
            .flatten()
        {
            Some(format!(
                "duplicate job number {} (first on line {first})",
                r.job_number
            ))
        } else if r.run_time < 0 {
            Some(format!(
                "field 4 (run_time): unknown runtime ({})",
                r.run_time
            ))
        } else if let Some((field, v)) = [
            ("field 2 (submit_time)", r.submit_time),
            ("field 4 (run_time)", r.run_time),
            ("field 9 (requested_time)", r.requested_time),
        ]
        .into_iter()
        .find(|&(_, v)| v > MAX_TIME)
        {
            Some(format!("{field}: {v} s is beyond 2^53 s"))
        } else if r.submit_time < 0 {
            Some(format!(
                "field 2 (submit_time): negative submit time ({})",
                r.submit_time
            ))
        } else if p <= 0 {
            Some("fields 5 and 8 (processors): no processor count".to_string())
        } else if p > i64::from(procs) && opts.wide == Wide::Skip {
            Some(format!(
                "field 5 (allocated_processors): {p} processors, wider than the machine ({procs})"
            ))
        } else if opts.skip_status.contains(&r.status) {
            Some(format!(
                "field 11 (status): status {} is skipped by option",
                r.status
            ))
        } else if opts.skip_zero_runtime && r.run_time == 0 {
            Some("field 4 (run_time): zero runtime is skipped by option".to_string())
        } else {
            None
        };
        match reason {
            Some(reason) => skipped.push(skip(reason)),
            None => {
                if p > i64::from(procs) {
                    clamped += 1;
                }
                if !rising {
                    first_line_of.insert(r.job_number, r.line);
                }
                kept.push(r);
            }
        }
    }
    if clamped > 0 {
        warnings.push(format!(
            "{clamped} jobs wider than the machine were clamped to {procs} processors"
        ));
    }
    if kept.is_empty() {
        let first = skipped
            .first()
            .map(|s| format!("; first: line {}: {}", s.line, s.reason))
            .unwrap_or_default();
        return Err(err(format!(
            "no job can be simulated ({} skipped{first})",
            skipped.len()
        )));
    }
    let out_of_order = kept
        .windows(2)
        .filter(|w| w[1].submit_time < w[0].submit_time)
        .count();
    if out_of_order > 0 {
        warnings.push(format!(
            "submit times out of order at {out_of_order} places: jobs sorted by submit time (stable)"
        ));
    }
    let dups = skipped
        .iter()
        .filter(|s| s.reason.starts_with("duplicate"))
        .count();
    if dups > 0 {
        warnings.push(format!(
            "{dups} duplicate job numbers: later copies skipped"
        ));
    }
    kept.sort_by_key(|r| (r.submit_time, r.job_number, r.line));
    let origin = match opts.origin {
        Origin::First => kept[0].submit_time,
        Origin::Trace => 0,
    };
    if let Some(max) = opts.max_jobs {
        kept.truncate(max);
    }
    let field = opts.nodes.as_ref().and_then(|m| m.field);
    // A demand per process above this would slow jobs down more than the model allows.
    let cap = opts.nodes.as_ref().map_or(f64::INFINITY, |m| {
        m.bandwidth * crate::machine::MAX_SLOWDOWN / f64::from(m.cores)
    });
    let mut capped = 0;
    let jobs: Vec<Job> = kept
        .iter()
        .map(|r| {
            let mut job = make_job(r, procs, origin, opts);
            if let Some(f) = field {
                let v = field_value(r, f).filter(|v| *v >= 0.0).unwrap_or(0.0);
                capped += usize::from(v > cap);
                job.bandwidth = v.min(cap);
            }
            job
        })
        .collect();
    if capped > 0 {
        warnings.push(format!(
            "{capped} jobs demand more than {cap:.6e} MB/s per process: counted as that much"
        ));
    }
    if let Some(f) = field {
        let missing = kept
            .iter()
            .filter(|r| field_value(r, f).is_none_or(|v| v < 0.0))
            .count();
        if missing > 0 {
            warnings.push(format!(
                "{missing} jobs have no memory bandwidth in field {f}: counted as 0 MB/s"
            ));
        }
    }
    Ok(JobSet {
        name: workload.source.clone(),
        procs,
        procs_source,
        jobs,
        skipped,
        reader_skipped: workload.skipped_lines,
        warnings,
        origin,
        options: opts.clone(),
    })
}

/// The numeric value of SWF field `f` (1-based; 19 and up are extra columns), if any.
fn field_value(r: &SwfRecord, f: u32) -> Option<f64> {
    let v = match f {
        1 => r.job_number as f64,
        2 => r.submit_time as f64,
        3 => r.wait_time as f64,
        4 => r.run_time as f64,
        5 => r.allocated_processors as f64,
        6 => r.average_cpu_time,
        7 => r.used_memory,
        8 => r.requested_processors as f64,
        9 => r.requested_time as f64,
        10 => r.requested_memory,
        11 => r.status as f64,
        12 => r.user_id as f64,
        13 => r.group_id as f64,
        14 => r.executable as f64,
        15 => r.queue as f64,
        16 => r.partition as f64,
        17 => r.preceding_job as f64,
        18 => r.think_time as f64,
        _ => r.extra.get(f as usize - 19)?.parse::<f64>().ok()?,
    };
    v.is_finite().then_some(v)
}

/// Processors of a record: field 5, else field 8.
fn record_procs(r: &SwfRecord) -> i64 {
    if r.allocated_processors > 0 {
        r.allocated_processors
    } else {
        r.requested_processors
    }
}

fn make_job(r: &SwfRecord, procs: u32, origin: Time, opts: &InputOptions) -> Job {
    let p = record_procs(r).min(i64::from(procs)) as u32;
    let requested = (r.requested_time > 0 && opts.estimate != EstimateSource::Ignore)
        .then_some(r.requested_time);
    let trace_runtime = r.run_time;
    let (runtime, killed) = match requested {
        Some(req) if opts.kill && trace_runtime > req => (req, true),
        _ => (trace_runtime, false),
    };
    let (estimate, estimate_unknown) = match (opts.estimate, requested) {
        (EstimateSource::Requested, Some(req)) => (req, false),
        (EstimateSource::Requested, None) => (runtime, true),
        (EstimateSource::Runtime | EstimateSource::Ignore, _) => (runtime, false),
    };
    let mut job = Job {
        id: r.job_number,
        line: r.line,
        submit: if opts.offline {
            0
        } else {
            r.submit_time - origin
        },
        runtime,
        trace_runtime,
        procs: p,
        estimate,
        estimate_unknown,
        killed,
        user: r.user_id,
        status: r.status,
        used_memory: r.used_memory,
        requested_memory: r.requested_memory,
        ..Job::default()
    };
    job.set_requested(requested);
    job.set_trace_wait(Some(r.wait_time));
    job
}

/// Reader issues that made a line produce no job, as user-facing strings.
pub fn describe_issues(workload: &Workload, n: usize) -> Vec<String> {
    workload
        .issues
        .iter()
        .filter(|i| i.severity == Severity::Skipped)
        .take(n)
        .map(|i: &LineIssue| format!("{}: {i}", workload.source))
        .collect()
}
