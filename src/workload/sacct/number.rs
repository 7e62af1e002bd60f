//! The job lines read, numbered: jobs 1, 2, ... in submit order, users, groups, job names,
//! QOS and partitions in order of first appearance, and the SWF header that says so.

use super::Row;
use crate::swf::{EarlierRun, SwfRecord, Workload};
use crate::workload::Numbering;

/// Sorts by submit time, numbers jobs and names, fills the header.
pub(super) fn number(mut rows: Vec<Row>, w: &mut Workload, source: &str) {
    rows.sort_by_key(|r| (r.submit, r.line));
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
        .map(|r| (r.line, r.account.to_owned()))
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
            user_id: maps[0].id(r.user),
            group_id: maps[1].id(r.group),
            executable: maps[2].id(r.name),
            queue: maps[3].id(r.qos),
            partition: maps[4].id(r.partition),
            preceding_job: -1,
            think_time: -1,
            extra: vec![r.id.to_owned()],
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
    w.records = records;
    w.partition_names = std::mem::take(&mut maps[4].names);
}
