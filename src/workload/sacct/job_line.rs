//! One job line of an sacct log (`--parsable2`), its fields cut by the header's columns, read
//! into a [`Row`] by the conventions of [`super`], or why it gives no job.

use super::columns::Columns;
use super::request::{Asked, Col};
use super::state::{self, Said};
use super::{Bad, Row};
use crate::quote::quote;
use crate::workload::slurm_time::{self, Limit};
use crate::workload::slurm_tres::{self, ReqMem, Tres};

/// One job line, or why it is skipped.
pub(super) fn row<'a>(c: &Columns, line: u64, f: &[&'a str]) -> Result<Row<&'a str>, Bad> {
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
        tie: (),
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
        partition_limit: opt(c.timelimit).eq_ignore_ascii_case("Partition_Limit"),
        // A value that is no time, or after the start, says nothing of it.
        deferred: eligible.map_or(0, |e| e - submit),
        user: opt(c.user),
        group: opt(c.group),
        // A job submitted to several partitions (`-p a,b`): its first is its partition, the
        // whole list kept (`number.rs`; told of: `several_partitions`). sacct prints a list only
        // for a job still pending (slurmdbd stores the partition a started job runs in,
        // as_mysql_job.c 523-526 of 22.05.8); slurmctld's form puts the one it ran in first
        // (`rebuild_job_part_list`, job_scheduler.c).
        partition: opt(c.partition),
        account: opt(c.account),
        qos: opt(c.qos),
        name: opt(c.name),
        node_list: opt(c.node_list),
        flags: opt(c.flags),
        earlier: Vec::new(),
    })
}
