//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod clusterkit;
pub mod sitekit;
pub mod swfkit;

use schedlab::input::{prepare, InputOptions, JobSet};
use schedlab::metrics::{classic, Classic, MetricOptions};
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
    classic(set, s, &MetricOptions::default())
}

/// Start times in job-number order.
pub fn starts(s: &Schedule) -> Vec<i64> {
    s.jobs.iter().map(|r| r.start).collect()
}

/// The repository's trace folder, `tests/data/` (KTH-SP2 and LANL-CM5 are links to the page's
/// demo copies in `www/demo/`). Always `Some`: a missing folder fails the test instead of
/// skipping it (the `Option` keeps older callers compiling).
pub fn trace_dir() -> Option<PathBuf> {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    assert!(
        d.join("KTH-SP2-1996-2.1-cln.swf.gz").is_file(),
        "{}: the repository's traces are missing (see tests/data/SOURCES.md)",
        d.display()
    );
    Some(d)
}

/// The path of a trace of the repository by file name (`"KTH-SP2-1996-2.1-cln.swf.gz"`,
/// `"nonstandard/wagap-2013.swf"`); panics, failing the test, when it is missing.
pub fn trace(name: &str) -> PathBuf {
    let p = trace_dir().expect("trace folder").join(name);
    assert!(p.is_file(), "{}: trace missing", p.display());
    p
}

/// A hand-made job with a user, a recorded wait and memory: requested time = runtime; `wait`
/// -1 = unknown; `mem` (field 10) and `used_mem` (field 7) in KB per processor, -1 = unknown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UJob {
    pub submit: i64,
    pub run: i64,
    pub procs: i64,
    pub user: i64,
    pub wait: i64,
    pub mem: i64,
    pub used_mem: i64,
}

/// A job of `user` without recorded wait or memory.
pub fn ujob(submit: i64, run: i64, procs: i64, user: i64) -> UJob {
    UJob {
        submit,
        run,
        procs,
        user,
        wait: -1,
        mem: -1,
        used_mem: -1,
    }
}

/// SWF text for [`UJob`]s on a machine of `procs` processors (job numbers 1, 2, ...).
pub fn swf_text_users(procs: u32, jobs: &[UJob]) -> String {
    let mut s = format!("; MaxProcs: {procs}\n");
    for (i, j) in jobs.iter().enumerate() {
        s.push_str(&format!(
            "{} {} {} {} {} -1 {} {} {} {} 1 {} 1 -1 -1 -1 -1 -1\n",
            i + 1,
            j.submit,
            j.wait,
            j.run,
            j.procs,
            j.used_mem,
            j.procs,
            j.run.max(1),
            j.mem,
            j.user
        ));
    }
    s
}

/// The job set of [`UJob`]s, through the real reader and input semantics.
pub fn job_set_users(procs: u32, jobs: &[UJob]) -> JobSet {
    let w = read_bytes(
        "users.swf",
        swf_text_users(procs, jobs).as_bytes(),
        &ReadOptions::default(),
    )
    .expect("hand-made trace parses");
    prepare(&w, &InputOptions::default()).expect("hand-made trace has jobs")
}

/// Runs the `schedlab` binary of this build: (success, stdout, stderr).
pub fn schedlab(args: &[&str]) -> (bool, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .args(args)
        .output()
        .expect("the schedlab binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh folder for one test's files: `schedlab-{tag}-{name}-{pid}` under the temp dir.
pub fn tmpdir(tag: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("schedlab-{tag}-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// The text labels of an SVG, trimmed.
pub fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().to_string())
        })
        .collect()
}

/// A hand-made job for the node model: (submit, runtime, processors, requested time, memory
/// bandwidth per process in MB/s, written as a 19th SWF column).
pub type NJ = (i64, i64, i64, i64, f64);

/// The job set of [`NJ`]s with the node model on (`cores` per node, 6000 MB/s per node, demands
/// from field 19), through the real reader and input semantics.
pub fn node_job_set(procs: u32, cores: u32, jobs: &[NJ]) -> JobSet {
    let mut s = format!("; MaxProcs: {procs}\n");
    for (i, &(submit, run, p, req, bw)) in jobs.iter().enumerate() {
        s.push_str(&format!(
            "{} {submit} -1 {run} {p} -1 -1 {p} {req} -1 1 1 1 -1 -1 -1 -1 -1 {bw}\n",
            i + 1
        ));
    }
    let w = read_bytes("nodes.swf", s.as_bytes(), &ReadOptions::default()).expect("parses");
    let opts = InputOptions {
        nodes: Some(schedlab::machine::NodeModel {
            cores,
            field: Some(19),
            ..Default::default()
        }),
        ..InputOptions::default()
    };
    prepare(&w, &opts).expect("hand-made trace has jobs")
}

/// The node model of `set`'s input options, as the engine takes it.
pub fn machine(set: &JobSet) -> Option<schedlab::sim::Machine<'_>> {
    set.options
        .nodes
        .as_ref()
        .map(|nodes| schedlab::sim::Machine {
            nodes,
            kill: set.options.kill,
        })
}

/// Runs `spec` on `set` with the node model of its input options (seed `seed`) and checks the
/// schedule's invariants.
pub fn run_nodes(set: &JobSet, spec: &str, seed: u64) -> Schedule {
    let mut p = policy::build(spec).expect("valid spec");
    let machine = machine(set);
    let s = schedlab::sim::simulate_on(&set.jobs, set.procs, machine, p.as_mut(), seed, None)
        .expect("simulation runs");
    if let Err(e) = check(&set.jobs, &s) {
        panic!("{spec}: invariants violated:\n{}", e.join("\n"));
    }
    s
}
