//! What a conversion keeps of jobs' requests: SWF has a field for processors (5, 8) and
//! memory per processor (10) only, so that GPUs go into an extra column named by a
//! `; GpuField: N` header line, and nodes, memory per node and exclusivity are dropped; Batsim
//! keeps them all (schedlab's keys) but has no key for memory per processor.

use crate::swf::Workload;

/// Puts the jobs' GPUs in an extra SWF column (after every record's extra columns, `-1`
/// filling the gaps) named by a `; GpuField: N` header line, when a job asks for GPUs and the
/// header names no such column yet. Returns the field written.
pub fn gpus_to_column(w: &mut Workload) -> Option<u64> {
    if w.header.gpu_field.is_some() || w.records.iter().all(|r| r.req.gpus == 0) {
        return None;
    }
    Some(add_column(
        w,
        |r| r.req.gpus.to_string(),
        "GPUs of the job (schedlab's GpuField)",
        "GpuField",
    ))
}

/// Appends a column of `value` to every record (after every record's extra columns, `-1`
/// filling the gaps), named by a `; Note: field N = {what}` and a `; {key}: N` header line.
/// Returns N.
fn add_column(
    w: &mut Workload,
    value: impl Fn(&crate::swf::SwfRecord) -> String,
    what: &str,
    key: &str,
) -> u64 {
    let extras = w.records.iter().map(|r| r.extra.len()).max().unwrap_or(0);
    for r in &mut w.records {
        r.extra.resize(extras, "-1".to_owned());
        let v = value(r);
        r.extra.push(v);
    }
    let field = 19 + extras as u64;
    let _ = w
        .header
        .add_comment(&format!("; Note: field {field} = {what}"));
    let _ = w.header.add_comment(&format!("; {key}: {field}"));
    field
}

/// Marks the jobs the controller ended at their time limit (an sacct log's `TIMEOUT`,
/// [`Workload::timed_out`]) in an extra SWF column (1 such a job, 0 any other; after every
/// record's extra columns, `-1` filling the gaps) named by a `; TimeoutField: N` header line,
/// when there is such a job and the header names no such column yet. SWF's status (field 11)
/// has no code for it: 1 completed, 0 failed, 5 cancelled, and with checkpoints 2, 3 and 4
/// for the parts of a job; such a job stays status 0, failed, which a reader without the
/// column keeps. Returns the field written.
pub fn timeouts_to_column(w: &mut Workload) -> Option<u64> {
    if w.header.timeout_field.is_some() || w.timed_out.is_empty() {
        return None;
    }
    let lines: foldhash::HashSet<u64> = w.timed_out.iter().copied().collect();
    Some(add_column(
        w,
        |r| if lines.contains(&r.line) { "1" } else { "0" }.to_owned(),
        "1 for a job ended at its time limit, sacct's TIMEOUT (schedlab's TimeoutField)",
        "TimeoutField",
    ))
}

/// What writing `w` as SWF (`batsim` false) or Batsim drops of the jobs' requests, one
/// sentence per kind (empty: nothing).
pub fn dropped(w: &Workload, batsim: bool) -> Vec<String> {
    let count =
        |f: &dyn Fn(&crate::swf::SwfRecord) -> bool| w.records.iter().filter(|r| f(r)).count();
    let mut out = Vec::new();
    let mut say = |n: usize, what: &str, why: &str| {
        if n > 0 {
            out.push(format!(
                "{what} of {} dropped ({why})",
                crate::plural::count(n, "job")
            ));
        }
    };
    if batsim {
        say(
            count(&|r| r.requested_memory > 0.0 && r.req.mem_per_node_mb == 0),
            "the memory per processor",
            "SWF field 10: Batsim has no key for it",
        );
    } else {
        let none = "SWF has no field for it";
        // A line in Alea's form keeps its node spec and its field 10 (bytes per node), read
        // again from its columns.
        let spec = |r: &crate::swf::SwfRecord| crate::swf::alea_form(&r.extra);
        say(
            count(&|r| r.req.nodes > 0 && !spec(r)),
            "the node count",
            none,
        );
        say(
            count(&|r| r.req.mem_per_node_mb > 0 && !spec(r)),
            "the memory per node",
            "field 10 keeps the memory per processor",
        );
        say(count(&|r| r.req.exclusive && !spec(r)), "exclusivity", none);
        if !w.partition_names.is_empty() {
            say(
                count(&|r| r.partition > 0),
                "the partition name",
                "field 16 keeps its number, a Note line the names",
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swf::{read_bytes, ReadOptions};

    /// A line in Alea's MetaCentrum form written as SWF keeps its node spec and field 10 in
    /// its own columns, read again from them: nothing of its request is said to be dropped
    /// (it was: "the node count of 1 job dropped", "the memory per node of 1 job dropped").
    #[test]
    fn an_alea_line_drops_nothing() {
        let line = "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 \
                    {1241,1241} q_1d 1:ppn=64:x86_64:cl_zewura#excl\n";
        let w = read_bytes("w.swf", line.as_bytes(), &ReadOptions::default()).unwrap();
        assert_eq!(w.records[0].req.nodes, 1);
        assert_eq!(dropped(&w, false), Vec::<String>::new());
    }
}
