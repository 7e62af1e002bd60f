//! Job lines in Alea's MetaCentrum form (`wagap-2013.swf` and its kin, Alea's data sets of the
//! MetaCentrum grid): the 18 SWF fields, then three columns, the `{node,...}` list the job
//! ran on, its queue name and its PBS node spec (`2:ppn=12:x86_64#excl`, parts joined by `+`;
//! `2` alone is two nodes).
//! In these files field 10 is not SWF's KB per processor but **bytes per node**: Alea's
//! `SWFLoader` divides it by 1024 into its "KB per node (not CPU)" for these data sets (named
//! `wagap`, `meta`, `zewura`, `ncbr`) and takes the nodes from the `ppn=` spec. schedlab knows
//! such a line by its form instead of by the file name:
//!
//! - the node count is the sum of the spec's parts (`1:ppn=1+3:ppn=2`: 4 nodes; a part named
//!   by a host, `zewura19.cerit-sc.cz:ppn=12`, is one node), at most the job's processors, as
//!   PBS reads a spec (Alea leaves a `+` spec or one without `ppn=` as one node);
//! - field 10 gives the memory per node in whole MB (bytes / 2^20, rounded up), and the job's
//!   memory per processor (`Job::requested_memory`, SWF's KB per processor) is bytes / 1024 x
//!   nodes / processors ([`kb_per_processor`], which the input step reads);
//! - `#excl` in the spec asks for whole nodes (Alea's `ResourceInfo`: a job whose properties
//!   hold `excl` takes no node another job uses).
//!
//! The record keeps field 10 as the file gives it, so that a trace written back (`schedlab
//! convert`) is in Alea's form still and reads back the same jobs, here and in Alea.

use super::record::SwfRecord;
use super::workload::Workload;

/// What the input step says of a trace with lines in Alea's MetaCentrum form (None: none).
pub fn note(w: &Workload) -> Option<String> {
    (w.alea_lines > 0).then(|| {
        format!(
            "{} in Alea's MetaCentrum form (a node list, a queue and a PBS node spec after \
             field 18): nodes from the spec, field 10 read as bytes per node, as Alea reads it",
            crate::plural::count(w.alea_lines, "job line"),
        )
    })
}

/// What an Alea node spec asks.
#[derive(Debug, PartialEq)]
struct Spec {
    nodes: u64,
    exclusive: bool,
}

/// The node spec of a line in Alea's MetaCentrum form, if it is one: exactly three extra
/// columns, the first a `{...}` list, the third a PBS node spec: parts joined by `+`, each a
/// node count or a host name, then `:ppn=N` and properties, if any.
fn spec(extra: &[String]) -> Option<Spec> {
    let [list, _queue, spec] = extra else {
        return None;
    };
    if !(list.starts_with('{') && list.ends_with('}')) {
        return None;
    }
    let mut nodes = 0u64;
    for part in spec.split('+') {
        let first = part.split(':').next().unwrap_or("");
        let n = match first.parse::<u64>() {
            Ok(n) if n > 0 => n,
            Ok(_) => return None,
            // A host name: one node.
            Err(_) if first.starts_with(|c: char| c.is_ascii_alphabetic()) => 1,
            Err(_) => return None,
        };
        nodes = nodes.saturating_add(n);
    }
    Some(Spec {
        nodes,
        exclusive: spec.contains("#excl"),
    })
}

/// Whether a record's extra columns are those of a line in Alea's MetaCentrum form.
pub fn form(extra: &[String]) -> bool {
    spec(extra).is_some()
}

/// Processors of a record: field 5, else field 8 (as the input step counts them).
fn procs(r: &SwfRecord) -> i64 {
    if r.allocated_processors > 0 {
        r.allocated_processors
    } else {
        r.requested_processors
    }
}

/// The nodes a line in Alea's form asks for: its spec's, at most its processors.
fn nodes(r: &SwfRecord, spec: &Spec) -> u64 {
    spec.nodes
        .min(procs(r).max(1) as u64)
        .min(u64::from(u32::MAX))
}

/// Reads `r` as a line in Alea's MetaCentrum form when it is one: its nodes, exclusivity and
/// memory per node (field 10 as bytes per node) in its request. Returns whether it was one.
pub(super) fn read(r: &mut SwfRecord) -> bool {
    let Some(spec) = spec(&r.extra) else {
        return false;
    };
    r.req.nodes = nodes(r, &spec) as u32;
    r.req.exclusive |= spec.exclusive;
    if r.requested_memory > 0.0 {
        let mb = (r.requested_memory / 1_048_576.0).ceil();
        r.req.mem_per_node_mb = mb.min(f64::from(u32::MAX)) as u32;
    }
    true
}

/// A record's memory per processor in KB (SWF's field 10): as the file gives it, or for a line
/// in Alea's MetaCentrum form its bytes per node / 1024 x nodes / processors.
pub fn kb_per_processor(r: &SwfRecord) -> f64 {
    match spec(&r.extra) {
        Some(spec) if r.requested_memory > 0.0 && procs(r) > 0 => {
            r.requested_memory / 1024.0 * nodes(r, &spec) as f64 / procs(r) as f64
        }
        _ => r.requested_memory,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swf::{read_bytes, ReadOptions};

    fn extra(spec: &str) -> Vec<String> {
        vec!["{1,2}".into(), "q_1d".into(), spec.into()]
    }

    #[test]
    fn node_specs() {
        let s = |t: &str| spec(&extra(t));
        let one = |nodes, exclusive| Some(Spec { nodes, exclusive });
        assert_eq!(s("1:ppn=64:x86_64:cl_zewura#excl"), one(1, true));
        assert_eq!(s("1:ppn=1+3:ppn=2"), one(4, false));
        assert_eq!(s("zewura19.cerit-sc.cz:ppn=12:brno"), one(1, false));
        assert_eq!(s("1:ppn=1.5:brno"), one(1, false));
        assert_eq!(s("2:infiniband"), one(2, false));
        assert_eq!(s("1:zegox17.cerit-sc.cz"), one(1, false));
        // Not the form: a zero count, an empty part, or not three columns.
        assert_eq!(s("-2"), None);
        assert_eq!(s("0:ppn=2"), None);
        assert_eq!(s("1:ppn=2+"), None);
        assert_eq!(spec(&["{1}".to_owned(), "q".to_owned()]), None);
        assert_eq!(
            spec(&["1".to_owned(), "q".to_owned(), "1:ppn=2".to_owned()]),
            None
        );
    }

    /// Worked by hand on wagap-2013.swf's first two jobs. Job 0: 64 processors, spec
    /// `1:ppn=64...#excl`, field 10 = 68719476736 bytes = 64 GiB = 65536 MB per node; as SWF
    /// 67108864 KB x 1 node / 64 processors = 1048576 KB per processor; whole nodes. Job 1:
    /// 12 processors, `1:ppn=12`, 91268055040 bytes = 87040 MB exactly; 89128960 KB / 12 =
    /// 7427413.33 KB per processor. The records keep field 10 as the file gives it.
    #[test]
    fn reads_wagap_lines() {
        let lines = "0 1356996147 0 56011 64 1 1024 64 86400 68719476736 1 62 1 1 -1 1 1 1 \
                     {1241,1241} q_1d 1:ppn=64:x86_64:cl_zewura#excl\n\
                     1 1356996695 71 1164297 12 1 1024 12 1209600 91268055040 1 101 1 1 -1 1 1 1 \
                     {1129,1129} q_2w 1:ppn=12\n";
        let w = read_bytes("w.swf", lines.as_bytes(), &ReadOptions::default()).unwrap();
        assert_eq!(w.alea_lines, 2);
        let (a, b) = (&w.records[0], &w.records[1]);
        assert_eq!(
            (a.req.nodes, a.req.mem_per_node_mb, a.req.exclusive),
            (1, 65536, true)
        );
        assert_eq!(a.requested_memory, 68_719_476_736.0);
        assert_eq!(kb_per_processor(a), 1_048_576.0);
        assert_eq!(
            (b.req.nodes, b.req.mem_per_node_mb, b.req.exclusive),
            (1, 87040, false)
        );
        assert!((kb_per_processor(b) - 7_427_413.333).abs() < 0.001);
        // Written and read back: the same records.
        let mut out = Vec::new();
        crate::swf::write(&mut out, &w).unwrap();
        let back = read_bytes("b.swf", &out, &ReadOptions::default()).unwrap();
        assert_eq!(back.records, w.records);
    }
}
