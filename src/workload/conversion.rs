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
        say(count(&|r| r.req.nodes > 0), "the node count", none);
        say(
            count(&|r| r.req.mem_per_node_mb > 0),
            "the memory per node",
            "field 10 keeps the memory per processor",
        );
        say(count(&|r| r.req.exclusive), "exclusivity", none);
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
