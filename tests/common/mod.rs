//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod swfkit;

use schedlab::input::{prepare, InputOptions, JobSet};
use schedlab::metrics::{classic, Classic, ClassicOptions};
use schedlab::policy;
use schedlab::sim::{check::check, simulate, Schedule};
use schedlab::swf::{read_bytes, ReadOptions};
use std::path::PathBuf;

/// A hand-made job: (submit, runtime, processors, requested time); -1 requested = unknown.
pub type J = (i64, i64, i64, i64);

/// SWF text for hand-made jobs on a machine of `procs` processors (job numbers 1, 2, ...).
pub fn swf_text(procs: u32, jobs: &[J]) -> String {
    let mut s = format!("; MaxProcs: {procs}\n");
    for (i, &(submit, run, p, req)) in jobs.iter().enumerate() {
        s.push_str(&format!(
            "{} {submit} -1 {run} {p} -1 -1 {p} {req} -1 1 {} 1 -1 -1 -1 -1 -1\n",
            i + 1,
            i % 3 + 1
        ));
    }
    s
}

/// The job set of hand-made jobs, through the real reader and input semantics.
pub fn job_set(procs: u32, jobs: &[J]) -> JobSet {
    let w = read_bytes(
        "hand.swf",
        swf_text(procs, jobs).as_bytes(),
        &ReadOptions::default(),
    )
    .expect("hand-made trace parses");
    prepare(&w, &InputOptions::default()).expect("hand-made trace has jobs")
}

/// Runs `spec` on `set` with seed 1 and checks the schedule's invariants.
pub fn run(set: &JobSet, spec: &str) -> Schedule {
    let mut p = policy::build(spec).expect("valid spec");
    let s = simulate(&set.jobs, set.procs, p.as_mut(), 1, None).expect("simulation runs");
    if let Err(e) = check(&set.jobs, &s) {
        panic!("{spec}: invariants violated:\n{}", e.join("\n"));
    }
    s
}

pub fn metrics(set: &JobSet, s: &Schedule) -> Classic {
    classic(set, s, &ClassicOptions::default())
}

/// Start times in job-number order.
pub fn starts(s: &Schedule) -> Vec<i64> {
    s.jobs.iter().map(|r| r.start).collect()
}

/// The shared trace folder, if present.
pub fn trace_dir() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/swf");
    d.is_dir().then_some(d)
}
