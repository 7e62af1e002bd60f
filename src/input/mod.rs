//! Input semantics: how SWF records become the jobs a simulation runs (GUIDE section 2).
//!
//! Every rule is an option of [`InputOptions`] so that the CLI, the page and the share link can
//! change it: machine size, which jobs are skipped, the planning estimate, killing at the
//! requested time, and the time origin.

use crate::cluster::Placement;
pub use crate::job::Job;
use crate::swf::words::{Field, Words};
use crate::swf::{LineIssue, Severity, Workload};
use crate::workload::transform;

mod by_job;
mod job_set;
mod machine_size;
mod options;
mod partition_time;
mod raw;
mod recorded_nodes;
mod skip;
mod told;
pub use crate::job::{MAX_HORIZON, MAX_TIME};
use crate::Time;
use by_job::{by_job, earlier_runs, job_backfilled, job_partition_lists, job_qos};
use foldhash::HashMap;
pub use job_set::{InputError, JobSet, SkippedJob};
use machine_size::{machine, Machine};
pub use options::{EstimateSource, InputOptions, Origin, Wide, MAX_NODES, MAX_NODE_PROCS};
pub use raw::RawJobs;
use skip::skip_reason;
pub use told::log_id_or;

/// Applies the input semantics to a parsed workload (its records).
pub fn prepare(workload: &Workload, opts: &InputOptions) -> Result<JobSet, InputError> {
    prepare_raw(workload, RawJobs::of_records(&workload.records, opts), opts)
}

/// Applies the input semantics to the raw jobs of a workload read into them
/// ([`crate::swf::read_bytes_into`]; `workload` gives the name, header and reader counts, its
/// records are not read), in place: no second copy of the trace is made.
pub fn prepare_raw(
    workload: &Workload,
    raw: RawJobs,
    opts: &InputOptions,
) -> Result<JobSet, InputError> {
    let err = |reason: String| InputError {
        file: workload.source.clone(),
        reason,
    };
    let (mut jobs, partitions) = raw.into_vec();
    let transform_notes =
        transform::apply_jobs(&mut jobs, &workload.header, &opts.transform).map_err(err)?;
    // A selection that left no job makes the machine size of a trace without a header 0: the
    // selection is the reason to give, not "machine size 0 is not usable".
    if jobs.is_empty()
        && !opts.transform.is_identity()
        && machine(&jobs, &workload.header, opts).is_err()
    {
        return Err(err(format!(
            "no job can be simulated: the selection left none ({})",
            transform_notes.join("; ")
        )));
    }
    let Machine {
        procs,
        source: procs_source,
        layout,
    } = machine(&jobs, &workload.header, opts).map_err(err)?;
    let part_names = partitions.names(&workload.partition_names);
    let partition_time = partition_time::apply(&mut jobs, workload, &part_names, layout.as_ref());
    if opts.max_jobs == Some(0) {
        return Err(err("max jobs must be at least 1".to_string()));
    }

    let mut warnings = transform_notes;
    warnings.extend(partition_time);
    if partitions.beyond > 0 {
        warnings.push(format!(
            "{}: {} {} a partition beyond the first {} distinct ones: counted as giving none",
            workload.words.field(Field::Partition),
            crate::plural::count(partitions.beyond, "job"),
            if partitions.beyond == 1 {
                "names"
            } else {
                "name"
            },
            u16::MAX
        ));
    }
    let mut skipped = Vec::new();
    // Job numbers rising in file order (most traces) cannot repeat: no map of them is needed
    // (it would take about 30 bytes per job).
    let rising = jobs.windows(2).all(|w| w[0].id < w[1].id);
    let mut first_line_of: HashMap<i64, u64> = HashMap::default();
    if !rising {
        first_line_of.reserve(jobs.len());
    }
    let mut clamped = 0u64;
    // Raw jobs (see `raw`): `runtime` is the processor count, `trace_runtime` field 4,
    // `estimate` field 9, `submit` field 2.
    jobs.retain(|r| {
        let p = r.runtime;
        let first_line = (!rising)
            .then(|| first_line_of.get(&r.id).copied())
            .flatten();
        let reason = skip_reason(r, procs, opts, first_line, workload.words);
        match reason {
            Some(reason) => {
                skipped.push(SkippedJob {
                    line: r.line,
                    id: r.id,
                    reason,
                });
                false
            }
            None => {
                if p > i64::from(procs) {
                    clamped += 1;
                }
                if !rising {
                    first_line_of.insert(r.id, r.line);
                }
                true
            }
        }
    });
    drop(first_line_of);
    if clamped > 0 {
        warnings.push(format!(
            "{} wider than the machine {} clamped to {procs} processors",
            crate::plural::count(clamped, "job"),
            if clamped == 1 { "was" } else { "were" }
        ));
    }
    if jobs.is_empty() && skipped.is_empty() && !opts.transform.is_identity() {
        return Err(err(format!(
            "no job can be simulated: the selection left none ({})",
            warnings.join("; ")
        )));
    }
    if jobs.is_empty() {
        let first = skipped
            .first()
            .map(|s| {
                // An SWF line alone (its job number is in the line); a Batsim job by its place
                // and number.
                let job = match (workload.words, s.line) {
                    (Words::Swf, line @ 1..) => workload.words.place(line),
                    (words, line) => words.job(line, s.id),
                };
                format!("; first: {job}: {}", s.reason)
            })
            .unwrap_or_default();
        return Err(err(format!(
            "no job can be simulated ({} skipped{first})",
            skipped.len()
        )));
    }
    let out_of_order = jobs
        .windows(2)
        .filter(|w| w[1].submit < w[0].submit)
        .count();
    if out_of_order > 0 {
        warnings.push(format!(
            "submit times out of order at {}: jobs sorted by submit time (stable)",
            crate::plural::count(out_of_order, "place")
        ));
    }
    let dups = skipped
        .iter()
        .filter(|s| s.reason.starts_with("duplicate"))
        .count();
    if dups > 0 {
        warnings.push(format!(
            "{}: later copies skipped",
            crate::plural::count(dups, "duplicate job number")
        ));
    }
    // Arrival order. The kept job numbers are distinct (later copies were skipped), so the key
    // orders them totally: an unstable sort (in place, no buffer of half the jobs) gives the
    // order a stable one would.
    let key = |j: &Job| (j.submit, j.id, j.line);
    if !jobs.is_sorted_by_key(key) {
        jobs.sort_unstable_by_key(key);
    }
    let origin = match opts.origin {
        Origin::First => jobs[0].submit,
        Origin::Trace => 0,
    };
    if let Some(max) = opts.max_jobs {
        jobs.truncate(max);
    }
    // Much room left unused by skipped and cut jobs is given back (a realloc to a smaller size:
    // in place for the allocators of wasm32 and of large blocks natively).
    if jobs.capacity() - jobs.len() > jobs.len() / 8 {
        jobs.shrink_to_fit();
    }
    let field = opts.nodes.as_ref().and_then(|m| m.field);
    // A demand per process above this would slow jobs down more than the model allows.
    let cap = opts.nodes.as_ref().map_or(f64::INFINITY, |m| {
        m.bandwidth * crate::machine::MAX_SLOWDOWN / f64::from(m.cores)
    });
    let (mut capped, mut missing) = (0, 0);
    // The latest a schedule can end: the last submission plus every job run one after the
    // other, each for the longer of its runtime and its estimate (what a plan reserves).
    // In i128: the sum of up to 2^64 jobs of 2^53 s each cannot overflow.
    let (mut last_submit, mut work) = (0 as Time, 0i128);
    let mut max_demand = 0f64;
    let timed_out: foldhash::HashSet<u64> = workload.timed_out.iter().copied().collect();
    for job in &mut jobs {
        job.timed_out = timed_out.contains(&job.line);
        make_job(job, procs, origin, opts);
        // `historic` starts a job at its recorded start, submit + wait.
        last_submit = last_submit.max(job.submit + job.trace_wait().unwrap_or(0));
        work += i128::from(job.runtime.max(job.estimate));
        if field.is_some() {
            // NaN (no value) and negative values count as 0 MB/s.
            let v = job.bandwidth;
            let known = v >= 0.0;
            missing += usize::from(!known);
            let v = if known { v } else { 0.0 };
            capped += usize::from(v > cap);
            job.bandwidth = v.min(cap);
            max_demand = max_demand.max(job.bandwidth);
        }
    }
    // The node model slows jobs down at most this many times.
    let slowdown = opts.nodes.as_ref().map_or(1.0, |m| {
        let demand = m.low.max(m.medium).max(m.high).max(max_demand);
        (f64::from(m.cores) * demand / m.bandwidth).max(1.0)
    });
    let horizon = i128::from(last_submit) + work;
    if horizon > i128::from(MAX_HORIZON)
        || last_submit as f64 + work as f64 * slowdown > MAX_HORIZON as f64
    {
        return Err(err(format!(
            "jobs too long to simulate together: the last submission or recorded start ({last_submit} s) plus every \
             job's runtime or requested time, whichever is longer ({work} s in all{}), is beyond \
             2^60 s (the latest time simulated)",
            if slowdown > 1.0 {
                format!(", slowed down up to {slowdown} times by the node model")
            } else {
                String::new()
            }
        )));
    }
    if capped > 0 {
        warnings.push(format!(
            "{} {} more than {cap:.6e} MB/s per process: counted as that much",
            crate::plural::count(capped, "job"),
            if capped == 1 { "demands" } else { "demand" }
        ));
    }
    if let Some(f) = field {
        if missing > 0 {
            warnings.push(format!(
                "{} {} no memory bandwidth in field {f}: counted as 0 MB/s",
                crate::plural::count(missing, "job"),
                if missing == 1 { "has" } else { "have" }
            ));
        }
    }
    warnings.extend(crate::swf::alea_note(workload));
    let partitions = part_names;
    let lists = job_partition_lists(&jobs, &workload.partition_lists);
    let placement = layout.map(|l| Placement::new(l, &jobs, &partitions).with_lists(&jobs, &lists));
    let placement = placement.map(std::sync::Arc::new);
    let log_ids = by_job(&jobs, &workload.job_ids);
    match &placement {
        // A job is named as the log names it (its Slurm JobID), as `JobSet::log_id` does.
        Some(p) => {
            warnings.extend(p.notes_named(|j| log_id_or(&log_ids, j, jobs[j].id).into_owned()))
        }
        None => warnings.extend(unplaced_gpus(&jobs)),
    }
    // Jobs without a requested time plan with their runtime, which no scheduler knows: a
    // backfill on them is one with exact estimates, and none is killed. Said, as a trace
    // without any (NASA-iPSC, a log exported without Timelimit) reads alike otherwise. Of the
    // jobs simulated, as the trace line counts them: not those the cluster can never run.
    let never: foldhash::HashSet<usize> = placement
        .as_ref()
        .map(|p| p.never.iter().map(|&(k, _)| k).collect())
        .unwrap_or_default();
    let unknown = jobs
        .iter()
        .enumerate()
        .filter(|(k, j)| j.estimate_unknown && !never.contains(k))
        .count();
    if unknown > 0 {
        let field = match (workload.job_ids.is_empty(), workload.words) {
            (true, _) | (_, Words::SlurmJson) => workload.words.field(Field::Requested),
            (false, _) => "Timelimit",
        };
        warnings.push(format!(
            "{unknown} of {} jobs simulated give no requested time in {field}: each plans with \
             its runtime, as if its user had known it, and none is killed at a limit",
            jobs.len() - never.len()
        ));
    }
    let earlier_runs = earlier_runs(&jobs, &workload.requeued);
    let accounts = by_job(&jobs, &workload.accounts);
    let qos = job_qos(&jobs, &workload.qos);
    let backfilled = job_backfilled(&jobs, &workload.backfilled);
    let recorded_nodes = recorded_nodes::recorded_allocs(
        &jobs,
        &workload.node_lists,
        placement.as_deref(),
        &mut warnings,
    );
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
        partitions,
        placement,
        earlier_runs,
        accounts,
        log_ids,
        qos_names: if qos.is_empty() {
            Vec::new()
        } else {
            workload.qos_names.clone()
        },
        qos,
        backfilled,
        recorded_nodes,
        names: crate::workload::names::Names::of_header(
            workload.header.lines.iter().map(String::as_str),
        ),
        slurm_log: crate::workload::sacct::max_procs_is_recorded_peak(&workload.header),
        words: workload.words,
    })
}

/// Turns a raw job (see `raw`) into the job the simulation runs, in place.
fn make_job(job: &mut Job, procs: u32, origin: Time, opts: &InputOptions) {
    let p = job.runtime.min(i64::from(procs)) as u32;
    let requested =
        (job.estimate > 0 && opts.estimate != EstimateSource::Ignore).then_some(job.estimate);
    let trace_runtime = job.trace_runtime;
    // Killed at its requested time: a job the trace runs past it (cut there), one that ran
    // exactly that long without completing (status 0: Slurm's TIMEOUT at the limit, an SWF
    // job failed at it) — its work was not done, the limit ended it — and one its log says
    // the controller ended at its limit (sacct's TIMEOUT, `Job::timed_out`: at its recorded
    // end should that come before the limit, a limit lowered after it started).
    let (runtime, killed) = match requested {
        Some(req) if opts.kill && job.timed_out => (trace_runtime.min(req), true),
        Some(req) if opts.kill && trace_runtime > req => (req, true),
        Some(req) if opts.kill && trace_runtime == req && job.status == 0 => (req, true),
        _ => (trace_runtime, false),
    };
    let (estimate, estimate_unknown) = match (opts.estimate, requested) {
        (EstimateSource::Requested, Some(req)) => (req, false),
        (EstimateSource::Requested, None) => (runtime, true),
        (EstimateSource::Runtime | EstimateSource::Ignore, _) => (runtime, false),
    };
    if opts.offline {
        job.submit = 0;
    } else {
        job.submit -= origin;
    }
    job.runtime = runtime;
    job.procs = p;
    job.estimate = estimate;
    job.estimate_unknown = estimate_unknown;
    job.killed = killed;
    job.set_requested(requested);
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

/// Without a cluster the jobs run on processors alone: a trace whose jobs ask for GPUs says so,
/// since its schedule then ignores them.
fn unplaced_gpus(jobs: &[Job]) -> Option<String> {
    let asking = jobs.iter().filter(|j| j.req.gpus > 0).count();
    (asking > 0).then(|| {
        format!(
            "{} {} for GPUs, which run on processors alone without a cluster: give one \
             (--cluster FILE or --slurm-conf FILE; the page's Cluster panel) to place {}",
            crate::plural::count(asking, "job"),
            if asking == 1 { "asks" } else { "ask" },
            if asking == 1 { "it" } else { "them" }
        )
    })
}
