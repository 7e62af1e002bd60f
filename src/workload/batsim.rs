//! Batsim JSON workloads (`nb_res`, `jobs`, `profiles`), read into SWF records and written
//! from them.
//!
//! Reading: a job's runtime is the `delay` of its profile (`"type": "delay"`, Batsim 5's
//! `"DelayProfile"`); jobs with another profile type (their duration depends on a platform)
//! are skipped with that reason. `id` (a number, a string, or `workload!number`) gives the
//! job number when it is a whole number, else the job's rank; `subtime` the submit time;
//! `walltime` (or `wall_time`) the requested time (absent or negative = -1); `res` the
//! processors; `user_id` / `user` the user (numbers kept, names numbered in order of first
//! appearance); a profile's `ret` other than 0 fails the job (SWF status 0), as in Batsim.
//! `nb_res` becomes `MaxProcs`. Times are rounded to whole seconds. A number written as a
//! string (`"res": "4"`) is refused, as Batsim refuses it, with how to write it. schedlab's
//! own keys say what a job asks of a cluster beyond its `res` cores: `nodes`, `gpus`,
//! `mem_per_node_mb`, `exclusive`, `partition` (see `request` below; Batsim itself ignores
//! them).
//!
//! Writing: one delay profile per distinct runtime (`"delay<seconds>"`), `walltime` when the
//! requested time is known, `user_id` when the user is, the request keys when given; jobs
//! without a runtime or processors are left out (counted in the result).

use crate::quote::quote;
use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};

use serde_json::{json, Map, Value};

use super::batsim_doc::{self, Fields, Scalar};
use super::batsim_swf;
use super::Numbering;
use crate::job::{Request, MAX_TIME};
use crate::swf::{Budget, LineIssue, ReadOptions, Severity, SwfError, SwfRecord, Words, Workload};

/// Does this text start like a JSON object?
pub fn looks_like(first_line: &str) -> bool {
    first_line
        .trim_start_matches('\u{feff}')
        .trim_start()
        .starts_with('{')
}

fn no_jobs(source: &str, detail: String) -> SwfError {
    SwfError::NoJobs {
        file: source.to_owned(),
        detail,
    }
}

/// Reads a Batsim workload. `source` names it in every message.
pub fn read(source: &str, text: &str, opts: &ReadOptions) -> Result<Workload, SwfError> {
    let budget = Budget::of_size(text.len() as u64);
    read_stream(source, text.as_bytes(), opts, &budget)
}

/// Reads a Batsim workload from a stream of JSON text, building only what it uses and keeping
/// no more than `budget` allows (`batsim_doc.rs`).
pub fn read_stream<R: Read>(
    source: &str,
    text: R,
    opts: &ReadOptions,
    budget: &Budget,
) -> Result<Workload, SwfError> {
    // A UTF-8 BOM is skipped, as the SWF and sacct readers skip it.
    let mut text = BufReader::with_capacity(64 << 10, text);
    let head = text.fill_buf().map_err(|e| SwfError::Io {
        file: source.to_owned(),
        source: e,
    })?;
    if head.starts_with(b"\xEF\xBB\xBF") {
        text.consume(3);
    }
    let doc = batsim_doc::read(source, text, budget).map_err(|e| match e {
        Ok(too_large) => too_large,
        Err(e) => {
            // serde's message ends with the place again (" at line 19 column 12"): once is
            // enough.
            let (line, column) = (e.line(), e.column());
            let text = e.to_string();
            let what = text
                .strip_suffix(&format!(" at line {line} column {column}"))
                .unwrap_or(&text);
            no_jobs(
                source,
                format!("not a Batsim JSON workload: line {line}, column {column}: {what}"),
            )
        }
    })?;
    if !doc.object {
        return Err(no_jobs(
            source,
            "not a Batsim workload: not a JSON object".into(),
        ));
    }
    // The machine size, when given, must be one (-8, 0 or 1e308 were taken as absent).
    let nb_res = match &doc.nb_res {
        None | Some(Scalar::Null) => None,
        Some(v) => match v
            .as_u64()
            .filter(|&n| n >= 1 && n <= u64::from(u32::MAX / 2))
        {
            Some(n) => Some(n),
            None => {
                return Err(no_jobs(
                    source,
                    format!(
                        "not a usable Batsim workload: nb_res {v} is not a number of resources (a whole number from 1 to {})",
                        u32::MAX / 2
                    ),
                ))
            }
        },
    };
    let jobs = doc
        .jobs
        .as_ref()
        .ok_or_else(|| no_jobs(source, "not a Batsim workload: no \"jobs\" array".into()))?;
    if let Some(why) = doc.slurm_json() {
        return Err(no_jobs(source, why));
    }
    let mut w = Workload {
        words: Words::Batsim,
        ..Workload::empty(source)
    };
    let mut users: HashMap<String, i64> = HashMap::new();
    let mut next_user = 1;
    let mut partitions = Numbering::default();
    for (k, job) in jobs.iter().enumerate() {
        match record(
            k,
            job,
            &doc.profiles,
            &mut users,
            &mut next_user,
            &mut partitions,
        ) {
            // A job's place in `jobs` is its record's line (`Words::Batsim`).
            Ok(r) => w.records.push(SwfRecord {
                line: k as u64 + 1,
                ..r
            }),
            Err((field, reason)) => {
                let issue = LineIssue {
                    line: 0,
                    field: Some(field),
                    reason,
                    severity: Severity::Skipped,
                };
                if opts.strict {
                    return Err(SwfError::Strict {
                        file: source.to_owned(),
                        issue,
                    });
                }
                w.issue_count += 1;
                w.skipped_lines += 1;
                if w.issues.len() < opts.max_issues {
                    w.issues.push(issue);
                }
            }
        }
    }
    if w.records.is_empty() {
        let detail = match w.issues.first() {
            Some(i) => format!("none of the {} jobs could be read; first: {i}", jobs.len()),
            None => "the \"jobs\" array is empty".into(),
        };
        return Err(no_jobs(source, detail));
    }
    w.partition_names = partitions.names.clone();
    if !doc.swf_header.is_empty() {
        // The header of the SWF it was written from (schedlab wrote it), as it was; nb_res
        // replaces its MaxProcs when they differ. Written again, the same workload.
        let max_procs = |l: &String| {
            l.trim_start_matches(';')
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("maxprocs:")
        };
        let keep_max = nb_res.is_none()
            || doc.swf_header.iter().any(|l| {
                max_procs(l)
                    && l.split(':').nth(1).map(str::trim)
                        == nb_res.map(|n| n.to_string()).as_deref()
            });
        for line in &doc.swf_header {
            if keep_max || !max_procs(line) {
                let _ = w.header.add_comment(line);
            }
        }
        if !keep_max {
            let _ = w
                .header
                .add_comment(&format!("; MaxProcs: {}", nb_res.unwrap_or(0)));
        }
        return Ok(w);
    }
    let mut add = |line: String| {
        let _ = w.header.add_comment(&line);
    };
    add("; Version: 2.2".into());
    add(format!("; Note: {CONVERTED_NOTE} {source}"));
    match nb_res {
        Some(n) => add(format!("; MaxProcs: {n}")),
        None => add("; Note: no nb_res in the workload".into()),
    }
    if !partitions.names.is_empty() {
        add(format!(
            "; Note: partitions (field 16) numbered in order of first appearance: {}",
            partitions.listing()
        ));
        add(format!("; MaxPartitions: {}", partitions.names.len()));
    }
    Ok(w)
}

/// The start of the header note of an SWF read from a Batsim workload (its `MaxProcs` is the
/// workload's `nb_res`).
pub const CONVERTED_NOTE: &str = "converted by schedlab from the Batsim workload";

/// Where a machine size read from a Batsim workload comes from, as the reports say it.
pub const NB_RES_SOURCE: &str = "the Batsim workload's nb_res";

/// Is this the header of an SWF read from a Batsim workload?
pub fn is_converted(h: &crate::swf::SwfHeader) -> bool {
    h.notes.iter().any(|n| n.starts_with(CONVERTED_NOTE))
}

type Bad = (String, String);

fn record(
    k: usize,
    job: &Fields,
    profiles: &HashMap<String, Fields>,
    users: &mut HashMap<String, i64>,
    next_user: &mut i64,
    partitions: &mut Numbering,
) -> Result<SwfRecord, Bad> {
    let id_text = match job.get("id") {
        Some(Scalar::Str(s)) => s.clone(),
        Some(Scalar::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let at = |field: &str| {
        if id_text.is_empty() {
            format!("jobs[{k}].{field}")
        } else {
            format!("jobs[{k}] (id {id_text}).{field}")
        }
    };
    if !job.object {
        return Err((format!("jobs[{k}]"), "not a JSON object".into()));
    }
    if id_text.is_empty() {
        return Err((at("id"), "missing (a string or a number)".into()));
    }
    let number = |field: &str, v: Option<&Scalar>| -> Result<Option<f64>, Bad> {
        match v {
            None | Some(Scalar::Null) => Ok(None),
            Some(Scalar::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() => Ok(Some(x)),
                _ => Err((at(field), format!("not a finite number: {n}"))),
            },
            // Batsim refuses a number written as a string (its jobs.cpp asks rapidjson's
            // IsNumber / IsInt), and so does schedlab, saying how to write it.
            Some(Scalar::Str(s)) => match s.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => Err((
                    at(field),
                    format!(
                        "{} is a string, not a number (Batsim reads {field} as a JSON number: write {})",
                        Scalar::Str(s.clone()),
                        s.trim()
                    ),
                )),
                _ => Err((at(field), format!("not a number: {}", Scalar::Str(s.clone())))),
            },
            Some(other) => Err((at(field), format!("not a number: {other}"))),
        }
    };
    // A time beyond 2^53 s (the latest the simulation reads) is refused here, in the file's
    // own digits: as a job's field it would reach the input rules as 2^63 - 1.
    let seconds = |field: &str, v: Option<&Scalar>| -> Result<Option<f64>, Bad> {
        match (number(field, v)?, v) {
            (Some(x), Some(Scalar::Number(n))) if x > MAX_TIME as f64 => {
                Err((at(field), format!("{n} s is beyond 2^53 s")))
            }
            (x, _) => Ok(x),
        }
    };
    let subtime = seconds("subtime", job.get("subtime"))?
        .ok_or_else(|| (at("subtime"), "missing".to_owned()))?;
    if subtime < 0.0 {
        return Err((at("subtime"), format!("negative: {subtime}")));
    }
    let walltime = seconds("walltime", job.get("walltime").or(job.get("wall_time")))?;
    let res = number("res", job.get("res"))?.ok_or_else(|| (at("res"), "missing".to_owned()))?;
    if res < 1.0 || res.fract() != 0.0 || res > u32::MAX as f64 {
        return Err((at("res"), format!("not a positive whole number: {res}")));
    }
    let profile_name = match job.get("profile") {
        Some(Scalar::Str(s)) => s.clone(),
        Some(Scalar::Number(n)) => n.to_string(),
        _ => return Err((at("profile"), "missing".into())),
    };
    let profile = profiles.get(&profile_name).ok_or_else(|| {
        (
            at("profile"),
            format!("no profile named {} in \"profiles\"", quote(&profile_name)),
        )
    })?;
    let kind = match profile.get("type") {
        Some(Scalar::Str(s)) => s.as_str(),
        _ => "",
    };
    // Batsim 4's `delay` is Batsim 5's `DelayProfile`.
    if kind != "delay" && kind != "DelayProfile" {
        return Err((
            at("profile"),
            format!(
                "profile {} is of type {}: only delay profiles have a runtime of their own",
                quote(&profile_name),
                quote(kind)
            ),
        ));
    }
    let delay = seconds("profile.delay", profile.get("delay"))?.ok_or_else(|| {
        (
            at("profile"),
            format!("profile {} has no delay", quote(&profile_name)),
        )
    })?;
    if delay < 0.0 {
        return Err((
            at("profile"),
            format!("profile {}: negative delay {delay}", quote(&profile_name)),
        ));
    }
    let user = match job.get("user_id").or(job.get("user")) {
        Some(Scalar::Number(n)) => n.as_i64().unwrap_or(-1),
        Some(Scalar::Str(s)) if !s.is_empty() => *users.entry(s.clone()).or_insert_with(|| {
            let u = *next_user;
            *next_user += 1;
            u
        }),
        _ => -1,
    };
    let tail = id_text.rsplit('!').next().unwrap_or(&id_text);
    // A numeric id that is not a job number (1e308, 2^64) is refused: numbered by position, it
    // took the number of another job, which was then dropped as a duplicate.
    let job_number = match tail.parse::<i64>() {
        Ok(n) => n,
        Err(_) if tail.parse::<f64>().is_ok() || tail.bytes().all(|b| b.is_ascii_digit()) => {
            return Err((
                at("id"),
                format!("{tail} is not a job number (a whole number from -2^63 to 2^63 - 1)"),
            ))
        }
        Err(_) => k as i64 + 1,
    };
    let procs = res as i64;
    let requested = walltime
        .filter(|w| *w >= 0.0)
        .map(|w| w.round() as i64)
        .unwrap_or(-1);
    let (req, partition) = request(job, &at, partitions)?;
    let mut r = super::simple_record(
        job_number,
        subtime.round() as i64,
        delay.round() as i64,
        procs,
        requested,
        user,
    );
    r.req = req;
    r.partition = partition;
    // The profile's return code (`ret`, 0 by default): another makes Batsim fail the job.
    if let Some(Scalar::Number(ret)) = profile.get("ret") {
        if ret.as_f64() != Some(0.0) {
            r.status = 0;
        }
    }
    batsim_swf::take(job, &mut r);
    Ok(r)
}

/// schedlab's keys of a job beyond `res` (its cores): `nodes`, `gpus` (over the whole job),
/// `mem_per_node_mb`, `exclusive` and `partition` (a name, numbered in order of first
/// appearance as field 16), each optional.
fn request(
    job: &Fields,
    at: &dyn Fn(&str) -> String,
    partitions: &mut Numbering,
) -> Result<(Request, i64), Bad> {
    let count = |key: &str, max: u32| -> Result<u32, Bad> {
        match job.get(key) {
            None | Some(Scalar::Null) => Ok(0),
            Some(v) => match v {
                Scalar::Number(n) => n.as_f64(),
                _ => None,
            }
            .filter(|x| *x >= 0.0 && x.fract() == 0.0 && *x <= f64::from(max))
            .map(|x| x as u32)
            .ok_or_else(|| (at(key), format!("not a whole number from 0 to {max}: {v}"))),
        }
    };
    let exclusive = match job.get("exclusive") {
        None | Some(Scalar::Null) => false,
        Some(Scalar::Bool(b)) => *b,
        Some(v) => return Err((at("exclusive"), format!("not true or false: {v}"))),
    };
    let partition = match job.get("partition") {
        None | Some(Scalar::Null) => -1,
        Some(Scalar::Str(s)) if !s.trim().is_empty() => partitions.id(s.trim()),
        Some(v) => {
            return Err((
                at("partition"),
                format!("not a partition name (a non-empty string): {v}"),
            ))
        }
    };
    let req = Request {
        nodes: count("nodes", u32::MAX / 2)?,
        gpus: count("gpus", u32::MAX / 2)?,
        mem_per_node_mb: count("mem_per_node_mb", u32::MAX)?,
        partition: 0,
        exclusive,
    };
    Ok((req, partition))
}

/// schedlab's request keys of a job, each when given (see [`request`]).
fn write_request(job: &mut Map<String, Value>, r: &SwfRecord, names: &[String]) {
    let q = &r.req;
    for (key, v) in [
        ("nodes", q.nodes),
        ("gpus", q.gpus),
        ("mem_per_node_mb", q.mem_per_node_mb),
    ] {
        if v > 0 {
            job.insert(key.into(), json!(v));
        }
    }
    if q.exclusive {
        job.insert("exclusive".into(), json!(true));
    }
    if r.partition >= 0 {
        let name = usize::try_from(r.partition - 1)
            .ok()
            .and_then(|i| names.get(i))
            .cloned()
            .unwrap_or_else(|| r.partition.to_string());
        job.insert("partition".into(), json!(name));
    }
}

/// What [`write()`] left out.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Written {
    pub jobs: usize,
    /// Jobs without a runtime (-1) or processors.
    pub left_out: usize,
    /// SWF fields with no place in a Batsim workload: (field, jobs that had a value).
    pub dropped: Vec<(String, usize)>,
}

/// Writes `w` as a Batsim workload on a machine of `nb_res` resources.
pub fn write<W: Write>(out: &mut W, w: &Workload, nb_res: u64) -> io::Result<Written> {
    let mut profiles = Map::new();
    let mut jobs = Vec::with_capacity(w.records.len());
    let mut left_out = 0;
    for r in &w.records {
        let procs = if r.allocated_processors > 0 {
            r.allocated_processors
        } else {
            r.requested_processors
        };
        if r.run_time < 0 || procs <= 0 {
            left_out += 1;
            continue;
        }
        let name = format!("delay{}", r.run_time);
        profiles
            .entry(name.clone())
            .or_insert_with(|| json!({"type": "delay", "delay": r.run_time}));
        let mut job = Map::new();
        job.insert("id".into(), json!(r.job_number));
        job.insert("subtime".into(), json!(r.submit_time));
        if r.requested_time >= 0 {
            job.insert("walltime".into(), json!(r.requested_time));
        }
        job.insert("res".into(), json!(procs));
        job.insert("profile".into(), json!(name));
        if r.user_id >= 0 {
            job.insert("user_id".into(), json!(r.user_id));
        }
        write_request(&mut job, r, &w.partition_names);
        batsim_swf::put(r, procs, &mut job);
        jobs.push(Value::Object(job));
    }
    let n = jobs.len();
    let doc = json!({
        "description": format!("converted by schedlab from {}", w.source),
        "nb_res": nb_res,
        "jobs": jobs,
        "profiles": profiles,
        "swf_header": w.header.lines,
    });
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(Written {
        jobs: n,
        left_out,
        dropped: batsim_swf::dropped(&w.records),
    })
}
