//! The job lines read, numbered: jobs 1, 2, ... in submit order, users, groups, job names,
//! QOS and partitions in order of first appearance, and the SWF header that says so.

use super::{Row, Text};
use crate::swf::{EarlierRun, SwfRecord, Workload};
use crate::workload::Numbering;
use foldhash::HashMap;

/// The header's note on where an sacct log's `MaxProcs` comes from (the machine's size, as the
/// reports say it, names it: `input::machine_size`).
pub const PEAK_NOTE: &str = "MaxProcs is the most CPUs the recorded schedule held at once, the \
     smallest machine it fits (sacct names no machine size; give the cluster for its own)";

/// Where a machine size read from [`PEAK_NOTE`]'s `MaxProcs` comes from, as the reports say it.
pub const PEAK_SOURCE: &str = "the sacct log's recorded peak of CPUs";

/// Is this header's `MaxProcs` an sacct log's recorded peak ([`PEAK_NOTE`])?
pub fn max_procs_is_recorded_peak(h: &crate::swf::SwfHeader) -> bool {
    h.notes.iter().any(|n| n == PEAK_NOTE)
}

/// Sorts by submit time, numbers jobs and names, fills the header.
pub(super) fn number<S: Text>(
    mut rows: Vec<Row<S>>,
    w: &mut Workload,
    source: &str,
    flags_column: bool,
) {
    rows.sort_by_key(|r| (r.submit, r.tie, r.line));
    w.requeued = rows
        .iter()
        .flat_map(|r| {
            r.earlier.iter().map(|&(start, run)| EarlierRun {
                line: r.line,
                start: start.saturating_sub(r.submit),
                run,
            })
        })
        .collect();
    w.accounts = rows
        .iter()
        .filter(|r| !r.account.is_empty())
        .map(|r| (r.line, r.account.to_string()))
        .collect();
    w.node_lists = rows
        .iter()
        .map(|r| r.node_list.trim())
        .zip(rows.iter().map(|r| r.line))
        .filter(|(n, _)| !n.is_empty() && !n.eq_ignore_ascii_case("None assigned"))
        .map(|(n, line)| (line, n.to_owned()))
        .collect();
    if flags_column {
        w.backfilled = rows
            .iter()
            .map(|r| {
                (
                    r.line,
                    r.flags.split(',').any(|f| f.trim() == "SchedBackfill"),
                )
            })
            .collect();
    }
    w.timed_out = rows
        .iter()
        .filter(|r| r.timed_out)
        .map(|r| r.line)
        .collect();
    w.partition_limit = rows
        .iter()
        .filter(|r| r.partition_limit)
        .map(|r| r.line)
        .collect();
    w.partition_lists = rows
        .iter()
        .filter(|r| r.partition.contains(','))
        .map(|r| (r.line, partition_list(&r.partition)))
        .filter(|(_, list)| list.len() > 1)
        .collect();
    w.job_ids = rows
        .iter()
        .map(|r| (r.line, r.id.trim().to_owned()))
        .collect();
    let header = &mut w.header;
    let t0 = rows.first().map(|r| r.submit).unwrap_or(0);
    let mut maps: [Numbering; 5] = Default::default();
    let records: Vec<SwfRecord> = rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| SwfRecord {
            line: r.line,
            job_number: i as i64 + 1,
            submit_time: r.submit - t0,
            wait_time: r.start - r.submit,
            run_time: r.run,
            allocated_processors: r.cpus,
            average_cpu_time: r.cpu_time,
            used_memory: -1.0,
            requested_processors: r.req_cpus,
            requested_time: r.req_time,
            requested_memory: r.req_mem,
            status: r.status,
            user_id: maps[0].id(&r.user),
            group_id: maps[1].id(&r.group),
            executable: maps[2].id(&r.name),
            queue: maps[3].id(&r.qos),
            partition: maps[4].id(r.partition.split(',').next().unwrap_or("")),
            preceding_job: -1,
            think_time: -1,
            extra: vec![r.id.into()],
            req: r.req,
        })
        .collect();
    let mut add = |line: String| {
        let _ = header.add_comment(&line);
    };
    add("; Version: 2.2".into());
    add(format!(
        "; Note: converted by schedlab from Slurm accounting (sacct) file {source}; field 19 = Slurm JobID"
    ));
    add("; Note: timestamps without a time zone read as UTC".into());
    add(format!("; UnixStartTime: {t0}"));
    add("; TimeZoneString: UTC".into());
    add(format!("; MaxJobs: {}", records.len()));
    if let Some(peak) = recorded_peak(&records, &w.requeued) {
        add(format!("; MaxProcs: {peak}"));
        add(format!("; Note: {PEAK_NOTE}"));
    }
    add(format!("; MaxRecords: {}", records.len()));
    for (k, what) in [
        "users",
        "groups",
        "job names (field 14)",
        "QOS (field 15)",
        "partitions (field 16)",
    ]
    .iter()
    .enumerate()
    {
        if !maps[k].names.is_empty() {
            add(format!(
                "; Note: {what} numbered in order of first appearance: {}",
                maps[k].listing()
            ));
        }
    }
    if !maps[4].names.is_empty() {
        add(format!("; MaxPartitions: {}", maps[4].names.len()));
    }
    if !maps[3].names.is_empty() {
        add(format!("; MaxQueues: {}", maps[3].names.len()));
    }
    // Each job's QOS (field 15's number), kept only when the log names one (and while the
    // names fit a u16).
    if !maps[3].names.is_empty() && maps[3].names.len() < usize::from(u16::MAX) {
        w.qos = (records.iter())
            .map(|r| (r.line, u16::try_from(r.queue.max(0)).unwrap_or(0)))
            .collect();
        w.qos_names = std::mem::take(&mut maps[3].names);
    }
    w.records = records;
    w.partition_names = std::mem::take(&mut maps[4].names);
}

/// The most CPUs the recorded schedule held at once (every run, the requeued jobs' earlier
/// ones too): the smallest machine on which that schedule fits. `None` when no job ran.
fn recorded_peak(records: &[SwfRecord], earlier: &[EarlierRun]) -> Option<i64> {
    // (submit, CPUs) of the requeued jobs, by line.
    let requeued: HashMap<u64, (i64, i64)> = if earlier.is_empty() {
        HashMap::default()
    } else {
        records
            .iter()
            .map(|r| (r.line, (r.submit_time, r.allocated_processors)))
            .collect()
    };
    let runs = records
        .iter()
        .map(|r| {
            (
                r.submit_time + r.wait_time,
                r.run_time,
                r.allocated_processors,
            )
        })
        .chain(earlier.iter().map(|e| {
            let (submit, cpus) = requeued.get(&e.line).copied().unwrap_or((0, 0));
            (submit + e.start, e.run, cpus)
        }));
    // +cpus at a start, -cpus at an end; at one instant the ends come first.
    let mut steps: Vec<(i64, i64)> = runs
        .filter(|&(_, run, cpus)| run > 0 && cpus > 0)
        .flat_map(|(start, run, cpus)| [(start, cpus), (start.saturating_add(run), -cpus)])
        .collect();
    steps.sort_unstable();
    let mut held = 0i64;
    let peak = steps
        .iter()
        .map(|&(_, d)| {
            held += d;
            held
        })
        .max()?;
    (peak > 0).then_some(peak)
}

/// The names of a `Partition` list (`short,batch`), in its order, each once, blanks dropped.
fn partition_list(list: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    }
    names
}
