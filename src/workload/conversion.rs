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
    let extras = w.records.iter().map(|r| r.extra.len()).max().unwrap_or(0);
    for r in &mut w.records {
        r.extra.resize(extras, "-1".to_owned());
        r.extra.push(r.req.gpus.to_string());
    }
    let field = 19 + extras as u64;
    let _ = w.header.add_comment(&format!(
        "; Note: field {field} = GPUs of the job (schedlab's GpuField)"
    ));
    let _ = w.header.add_comment(&format!("; GpuField: {field}"));
    Some(field)
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
    let extras = w.records.iter().map(|r| r.extra.len()).max().unwrap_or(0);
    for r in &mut w.records {
        r.extra.resize(extras, "-1".to_owned());
        r.extra
            .push(if lines.contains(&r.line) { "1" } else { "0" }.to_owned());
    }
    let field = 19 + extras as u64;
    let _ = w.header.add_comment(&format!(
        "; Note: field {field} = 1 for a job ended at its time limit, sacct's TIMEOUT (schedlab's TimeoutField)"
    ));
    let _ = w.header.add_comment(&format!("; TimeoutField: {field}"));
    Some(field)
}

/// Declares field 10 as SWF's KB per processor (`; AleaMemory: No`, with a `Note:` line) on a
/// workload whose lines in Alea's MetaCentrum form were read with field 10 in bytes per node
/// (and kept as KB per processor), so that the SWF written is not read as bytes again.
/// Returns whether it did.
pub fn alea_memory_declared(w: &mut Workload) -> bool {
    if w.alea_lines == 0 || w.header.alea_memory.is_some() {
        return false;
    }
    let _ = w.header.add_comment(
        "; Note: field 10 = KB per processor, from Alea's bytes per node (schedlab's AleaMemory)",
    );
    let _ = w.header.add_comment("; AleaMemory: No");
    true
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
        // A line in Alea's form keeps its node spec, read again from its columns.
        let spec = |r: &crate::swf::SwfRecord| crate::swf::alea_form(&r.extra);
        say(
            count(&|r| r.req.nodes > 0 && !spec(r)),
            "the node count",
            none,
        );
        say(
            count(&|r| r.req.mem_per_node_mb > 0),
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
    use crate::swf::{read_bytes, write, ReadOptions};

    /// wagap-2013.swf's first two jobs, converted to SWF and read back: field 10 written as
    /// KB per processor (68719476736 bytes on 1 node / 64 processors / 1024 = 1048576 KB; job
    /// 1, 91268055040 bytes / 12 / 1024 = 7427413.33 KB) under `; AleaMemory: No`, so that
    /// reading it back gives the same records: 1048576 KB per processor (not 1048576 bytes
    /// per node, 1 MB), 65536 MB per node (1048576 KB x 64 / 1024) and the spec's node and
    /// `#excl`; job 1 87040 MB per node.
    #[test]
    fn an_alea_trace_converted_reads_back_the_same_memory() {
        let line = "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 \
                    {1241,1241} q_1d 1:ppn=64:x86_64:cl_zewura#excl\n\
                    1 1356996695 71 1164297 12 1 1024 12 1209600 91268055040 1 101 1 1 -1 1 1 1 \
                    {1129,1129} q_2w 1:ppn=12\n";
        let mut w = read_bytes("w.swf", line.as_bytes(), &ReadOptions::default()).unwrap();
        assert!(dropped(&w, false).iter().all(|d| !d.contains("node count")));
        assert!(alea_memory_declared(&mut w));
        assert!(!alea_memory_declared(&mut w), "once");
        let mut out = Vec::new();
        write(&mut out, &w).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("; AleaMemory: No\n0 1356996147 0 56011 64 1 1024 64 86400 1048576 "));
        let back = read_bytes("back.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
        let r = &back.records[0];
        assert_eq!(r.requested_memory, 1_048_576.0);
        assert_eq!(
            (r.req.nodes, r.req.exclusive, r.req.mem_per_node_mb),
            (1, true, 65536)
        );
        assert_eq!(back.records[1].req.mem_per_node_mb, 87040);
        let lines = |w: &Workload| w.records.iter().map(|r| r.line).collect::<Vec<_>>();
        let unnumbered = |w: &Workload| {
            let mut rs = w.records.clone();
            rs.iter_mut().for_each(|r| r.line = 0);
            rs
        };
        assert_eq!(unnumbered(&back), unnumbered(&w));
        assert_eq!(lines(&back), [3, 4], "after the two header lines");
    }
}
