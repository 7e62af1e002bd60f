//! What a Batsim workload written by schedlab carries of SWF beyond Batsim's own fields, and
//! what it cannot hold. Batsim ignores keys it does not know, so each job also gets
//! `swf_requested_procs`, `swf_status`, `swf_wait` and `swf_group` when known, and the
//! workload `swf_header` (the SWF header's lines): SWF -> Batsim -> SWF then keeps requested
//! processors, failed and cancelled jobs, waits (what `historic` replays), groups and the header
//! (`UnixStartTime`, which `--from DATE` needs). The other SWF fields have no place: each one
//! dropped is a note with the number of jobs that had a value.

use serde_json::{json, Map, Value};

use super::batsim_doc::{Fields, Scalar};
use crate::swf::{SwfRecord, FIELD_NAMES};

/// The record's values Batsim has no field for but a key of ours can carry.
pub(super) fn put(r: &SwfRecord, res: i64, job: &mut Map<String, Value>) {
    if r.requested_processors > 0 && r.requested_processors != res {
        job.insert("swf_requested_procs".into(), json!(r.requested_processors));
    }
    for (key, v) in [
        ("swf_status", r.status),
        ("swf_wait", r.wait_time),
        ("swf_group", r.group_id),
    ] {
        if v >= 0 && !(key == "swf_status" && v == 1) {
            job.insert(key.into(), json!(v));
        }
    }
}

/// The values [`put`] wrote, back into the record (others are left as read).
pub(super) fn take(job: &Fields, r: &mut SwfRecord) {
    let whole = |key: &str| match job.get(key) {
        Some(Scalar::Number(n)) => n.as_i64(),
        _ => None,
    };
    if let Some(p) = whole("swf_requested_procs").filter(|p| *p > 0) {
        r.requested_processors = p;
    }
    if let Some(s) = whole("swf_status") {
        r.status = s;
    }
    if let Some(w) = whole("swf_wait").filter(|w| *w >= 0) {
        r.wait_time = w;
    }
    if let Some(g) = whole("swf_group") {
        r.group_id = g;
    }
}

/// Whether a record knows a field.
type Known = fn(&SwfRecord) -> bool;

/// Per SWF field that has no place in a Batsim workload, how many of `records` have a value
/// in it (fields no record knows are left out).
pub fn dropped(records: &[SwfRecord]) -> Vec<(String, usize)> {
    let fields: [(usize, Known); 8] = [
        (6, |r| r.average_cpu_time >= 0.0),
        (7, |r| r.used_memory >= 0.0),
        (10, |r| r.requested_memory >= 0.0),
        (14, |r| r.executable >= 0),
        (15, |r| r.queue >= 0),
        (16, |r| r.partition >= 0),
        (17, |r| r.preceding_job >= 0),
        (18, |r| r.think_time >= 0),
    ];
    let mut out: Vec<(String, usize)> = fields
        .iter()
        .map(|&(f, known)| {
            let name = FIELD_NAMES.get(f - 1).copied().unwrap_or("?");
            (
                format!("field {f} ({name})"),
                records.iter().filter(|r| known(r)).count(),
            )
        })
        .collect();
    out.push((
        "extra columns (19 and up)".into(),
        records.iter().filter(|r| !r.extra.is_empty()).count(),
    ));
    out.retain(|(_, n)| *n > 0);
    out
}
