//! A job of `sacct --json` as a job line of an sacct log ([`Row`]): the same conventions, so
//! that a JSON dump and a `--parsable2` export of one run give the same jobs
//! (docs/workloads.md, "Slurm's JSON").

use super::job::{Job, TresEntry};
use super::value::{Num, Text, Texts};
use crate::quote::quote;
use crate::workload::sacct::request::{Asked, Col};
use crate::workload::sacct::state::{said, Said};
use crate::workload::sacct::{Bad, Row};
use crate::workload::slurm_tres::{self, ReqMem, Tres};

/// `job_state_string`'s order (src/common/slurm_protocol_defs.c): a state flag before the base
/// state, so that a list (23.11's `["CANCELLED", "REQUEUED"]`) reads as sacct prints it.
const FLAG_STATES: &[&str] = &[
    "COMPLETING",
    "STAGE_OUT",
    "CONFIGURING",
    "RESIZING",
    "REQUEUED",
    "REQUEUE_FED",
    "REQUEUE_HOLD",
    "SPECIAL_EXIT",
    "STOPPED",
    "REVOKED",
    "RESV_DEL_HOLD",
    "SIGNALING",
];

/// Slurm's start flags as `sacct --json` names them (`STARTED_ON_BACKFILL`), or as sacct's
/// `Flags` field does (`SchedBackfill`).
const BACKFILL_FLAGS: &[&str] = &["STARTED_ON_BACKFILL", "SchedBackfill"];

fn bad(field: &str, why: String) -> Bad {
    (Some(field.to_owned()), why, true)
}

/// The latest time read (2^53 s, as the input rules' bound): beyond, differences of times
/// could overflow.
const MAX_TIME: i64 = 1 << 53;

/// A number that is a time: `Some` when set and positive (0 is sacct's `Unknown`).
fn instant(n: &Num, field: &str) -> Result<Option<i64>, Bad> {
    match n {
        Num::Value(v) if *v > MAX_TIME => Err(bad(field, format!("{v} s is beyond 2^53 s"))),
        Num::Value(v) if *v > 0 => Ok(Some(*v)),
        Num::Value(v) if *v < 0 => Err(bad(field, format!("negative time: {v}"))),
        Num::Bad(b) => Err(bad(field, format!("not a time: {b}"))),
        _ => Ok(None),
    }
}

/// A count: `None` when not given.
fn count(n: &Num, field: &str) -> Result<Option<i64>, Bad> {
    match n {
        Num::Value(v) if *v < 0 => Err(bad(field, format!("negative: {v}"))),
        Num::Value(v) => Ok(Some(*v)),
        Num::Bad(b) => Err(bad(field, format!("not a count: {b}"))),
        _ => Ok(None),
    }
}

fn text<'t>(t: &'t Text, field: &str) -> Result<&'t str, Bad> {
    t.get()
        .map(str::trim)
        .map_err(|b| bad(field, format!("not a text: {b}")))
}

/// The job's id as sacct prints it: `123`, an array element `123_4` (the array's id and the
/// task), a pending array not yet split `123_[5-10]`, a heterogeneous component `123+1`.
/// With the order sacct lists it in among jobs submitted at the same second: (its job id, -1),
/// an array element's (the array's id, its task), a component's (the het job's id, offset).
pub(super) fn job_id(j: &Job) -> Result<(String, (i64, i64)), Bad> {
    let id = match count(&j.job_id, "job_id")? {
        Some(id) => id,
        None => return Err(bad("job_id", "no job id".into())),
    };
    let array = count(&j.array.job_id, "array.job_id")?.unwrap_or(0);
    if array > 0 {
        if let Some(task) = count(&j.array.task_id, "array.task_id")? {
            return Ok((format!("{array}_{task}"), (array, task)));
        }
        let tasks = text(&j.array.task, "array.task")?;
        if !tasks.is_empty() {
            return Ok((format!("{array}_[{tasks}]"), (array, i64::MAX)));
        }
    }
    let het = count(&j.het.job_id, "het.job_id")?.unwrap_or(0);
    if het > 0 {
        if let Some(offset) = count(&j.het.job_offset, "het.job_offset")? {
            return Ok((format!("{het}+{offset}"), (het, offset)));
        }
    }
    Ok((id.to_string(), (id, -1)))
}

/// A TRES list as sacct prints it (`cpu=8,gres/gpu=2,mem=16000M,node=1`), read by the same
/// rules ([`slurm_tres::tres`]). Slurm keeps memory in MB.
fn tres(list: &[TresEntry], field: &str) -> Result<Tres, Bad> {
    let mut s = String::new();
    for (i, e) in list.iter().enumerate() {
        let at = |what: &str| format!("{field}[{i}].{what}");
        let kind = text(&e.kind, &at("type"))?;
        let name = text(&e.name, &at("name"))?;
        let n = match &e.count {
            Num::Value(v) if *v >= 0 => *v,
            Num::Value(v) => return Err(bad(&at("count"), format!("negative: {v}"))),
            Num::Bad(b) => return Err(bad(&at("count"), format!("not a count: {b}"))),
            _ => continue,
        };
        if kind.is_empty() || kind.contains([',', '=']) || name.contains([',', '=']) {
            continue;
        }
        if !s.is_empty() {
            s.push(',');
        }
        s.push_str(kind);
        if !name.is_empty() {
            s.push('/');
            s.push_str(name);
        }
        s.push_str(&format!("={n}"));
        if kind.eq_ignore_ascii_case("mem") {
            s.push('M');
        }
    }
    slurm_tres::tres(&s).map_err(|e| bad(field, e))
}

/// The state as sacct's `State` prints it: the flag `job_state_string` names first, else the
/// base state (a list's first), in upper case.
fn state(t: &Texts) -> Result<String, Bad> {
    let list = match t {
        Texts::List(l) => l,
        Texts::None => return Err(bad("state.current", "no state".into())),
        Texts::Bad(b) => return Err(bad("state.current", format!("not a state: {b}"))),
    };
    let upper: Vec<String> = list.iter().map(|s| s.trim().to_ascii_uppercase()).collect();
    let flag = FLAG_STATES
        .iter()
        .find(|f| upper.iter().any(|s| s == *f))
        .map(|f| f.to_string());
    flag.or_else(|| upper.first().cloned())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| bad("state.current", "an empty list".into()))
}

/// One job of the `jobs` array (`place`: its index + 1), or why it gives none.
pub(super) fn row(place: u64, j: Job) -> Result<Row<String>, Bad> {
    let (id, tie) = job_id(&j)?;
    let submit = instant(&j.time.submission, "time.submission")?;
    let start = instant(&j.time.start, "time.start")?;
    let end = instant(&j.time.end, "time.end")?;
    let lists = j.tres.as_ref();
    let req_tres = match lists.and_then(|t| t.requested.as_deref()) {
        Some(l) => tres(l, "tres.requested")?,
        None => Tres::default(),
    };
    let alloc_list = lists.and_then(|t| t.allocated.as_deref());
    let alloc_tres = match alloc_list {
        Some(l) => tres(l, "tres.allocated")?,
        None => Tres::default(),
    };
    let asked_cpus = match count(&j.required.cpus, "required.CPUs")? {
        Some(n) => Some(n),
        None => req_tres.cpu.map(|n| n as i64),
    };
    // The CPUs it ran on: its allocated TRES (none for a job that never ran), as sacct's
    // AllocCPUS; without the list, what it asked.
    let allocated = alloc_list.is_some();
    let cpus_field = if allocated {
        "tres.allocated (cpu)"
    } else {
        "required.CPUs"
    };
    let cpus = match alloc_list {
        Some(_) => alloc_tres.cpu.map_or(0, |n| n.min(i64::MAX as u64) as i64),
        None => asked_cpus.unwrap_or(0),
    };
    let Some(submit) = submit else {
        return Err(bad("time.submission", "unknown submit time".into()));
    };
    let state = state(&j.state.current)?;
    let never = |why: &str| Err((None, format!("job {id} {why} ({state})"), false));
    let status = match said(&state, end.is_some() && start.is_some()) {
        Said::Status(s) => s,
        Said::LeftOut(why) => return never(why),
        Said::Unknown => {
            return Err(bad(
                "state.current",
                format!(
                    "unknown state {} (COMPLETED, FAILED, CANCELLED, ...)",
                    quote(&state)
                ),
            ))
        }
    };
    if cpus > i64::from(u32::MAX / 2) {
        return Err(bad(
            cpus_field,
            format!("{cpus} CPUs: at most {} on one machine", u32::MAX / 2),
        ));
    }
    let Some(start) = start.filter(|_| cpus > 0) else {
        return never("never started");
    };
    let node_list = text(&j.nodes, "nodes")?;
    let on_nodes = !node_list.is_empty() && !node_list.eq_ignore_ascii_case("None assigned");
    if state == "CANCELLED" && end == Some(start) && !allocated && !on_nodes {
        return never("never started");
    }
    let run = match (count(&j.time.elapsed, "time.elapsed")?, end) {
        (Some(e), _) if e > MAX_TIME => {
            return Err(bad("time.elapsed", format!("{e} s is beyond 2^53 s")))
        }
        (Some(e), _) => e,
        (None, Some(e)) if e >= start => e - start,
        (None, Some(_)) => return Err(bad("time.end", "end before start".into())),
        (None, None) => return Err(bad("time.end", "unknown end time".into())),
    };
    if start < submit {
        return Err(bad("time.start", "start before submission".into()));
    }
    // Minutes; 22.05's null is NO_VAL or INFINITE, read as no limit (a job that ran holds its
    // partition's limit when it had none of its own); 23.02's unset one is NO_VAL, which sacct
    // prints Partition_Limit.
    let (req_time, partition_limit) = match &j.time.limit {
        Num::Value(m) if *m >= 0 => (m.saturating_mul(60), false),
        Num::Value(m) => return Err(bad("time.limit", format!("negative: {m}"))),
        Num::Bad(b) => return Err(bad("time.limit", format!("not minutes: {b}"))),
        Num::Unset => (-1, true),
        _ => (-1, false),
    };
    let req_cpus = asked_cpus.unwrap_or(cpus);
    let ran_on = count(&j.allocation_nodes, "allocation_nodes")?
        .filter(|&n| n > 0)
        .map(|n| n as u64)
        .or(alloc_tres.node);
    let asked = Asked {
        cpus,
        asked_cpus,
        alloc_cpus: alloc_tres.cpu.map(|n| n as i64),
        nodes: req_tres.node.or(ran_on),
        ran_on,
        gpus: req_tres.gpus.or(alloc_tres.gpus),
    };
    // The TRES memory (the job's total, as sacct's ReqMem prints it since 21.08), else 23.02's
    // memory per CPU or per node.
    let mem = match req_tres.mem_mb.or(alloc_tres.mem_mb) {
        Some(mb) => Some(ReqMem::Total(mb)),
        None => match (
            count(&j.required.memory_per_cpu, "required.memory_per_cpu")?,
            count(&j.required.memory_per_node, "required.memory_per_node")?,
        ) {
            (Some(mb), _) if mb > 0 => Some(ReqMem::PerCpu(mb as f64)),
            (_, Some(mb)) if mb > 0 => Some(ReqMem::PerNode(mb as f64)),
            _ => None,
        },
    };
    let (req, req_mem) = asked.request(mem).map_err(|(e, col)| {
        let field = match col {
            Col::Mem => "tres.requested (mem)",
            Col::Gpus => "tres.requested (gres/gpu)",
            Col::Nodes => "tres.requested (node)",
        };
        bad(field, e)
    })?;
    let cpu_time = match count(&j.time.total.seconds, "time.total.seconds")? {
        Some(s) => s as f64 / cpus.max(1) as f64,
        None => -1.0,
    };
    let eligible = instant(&j.time.eligible, "time.eligible")
        .ok()
        .flatten()
        .filter(|&e| e > submit && e <= start);
    let flags: String = match &j.flags {
        Some(Texts::List(l)) if l.iter().any(|f| BACKFILL_FLAGS.contains(&f.as_str())) => {
            "SchedBackfill".into()
        }
        _ => "".into(),
    };
    let owned = |t: &Text, field: &str| text(t, field).map(str::to_owned);
    let or_assoc = |t: &Text, a: &Text, field: &str| match text(t, field)? {
        "" => owned(a, &format!("association.{field}")),
        s => Ok(s.to_owned()),
    };
    Ok(Row {
        line: place,
        tie,
        id,
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
        partition_limit,
        deferred: eligible.map_or(0, |e| e - submit),
        user: or_assoc(&j.user, &j.association.user, "user")?,
        group: owned(&j.group, "group")?,
        partition: owned(&j.partition, "partition")?,
        account: or_assoc(&j.account, &j.association.account, "account")?,
        qos: owned(&j.qos, "qos")?,
        name: owned(&j.name, "name")?,
        node_list: node_list.to_owned(),
        flags,
        earlier: Vec::new(),
    })
}
