//! The fuzz targets: one function per input surface, each taking raw bytes. A target returns
//! normally on any input the product must accept or refuse with an error, and panics on a bug:
//! a panic inside the engine, or a broken invariant it checks (the schedule checker, a round
//! trip). Shared by the libFuzzer binary (`tests/fuzz/libfuzzer.rs`, built by
//! `scripts/fuzz.sh`) and the stable regression test (`tests/fuzz_inputs.rs`), which runs every
//! committed seed and regression input through the same functions.
#![allow(dead_code)]

use schedlab::expr::{self, Expr, Vars};
use schedlab::input::{self, EstimateSource, InputOptions, Wide};
use schedlab::machine::NodeModel;
use schedlab::metrics::{MetricOptions, METRICS};
use schedlab::options::SessionOptions;
use schedlab::run::Trace;
use schedlab::sim::check::check;
use schedlab::swf::{self, ReadOptions};
use schedlab::{output, policy, trace_stats};

#[path = "jsproto.rs"]
mod jsproto;
#[path = "readers.rs"]
mod readers;

use readers::{batsim_text, check_set, gzip_bytes, sacct_text, swf_bytes, text};

/// The readers' memory bound: no input makes loading it (a reader, then the input rules)
/// allocate more at peak than `LOAD_BYTES_PER_BYTE` times the size of its text (decompressed,
/// for gzip) plus `READER_SLACK` (buffers, the issue list, tables); `tests/memory/swf_memory.rs`.
pub const LOAD_BYTES_PER_BYTE: usize = 32;
/// The same for a whole reader target, which reads twice, writes and reads again: what the fuzz
/// binary checks on every input.
pub const TARGET_BYTES_PER_BYTE: usize = 64;
pub const READER_SLACK: usize = 16 << 20;

/// The size of the text a reader target reads from `data`: the bytes, or for the gzip target's
/// raw streams the bytes plus what they decompress to.
pub fn text_size(target: &Target, data: &[u8]) -> usize {
    if target.name != "gzip" || data.first().is_none_or(|m| m & 1 == 1) {
        return data.len();
    }
    let mut gz = vec![0x1f, 0x8b];
    gz.extend_from_slice(&data[1..]);
    let mut decoder = flate2::read::MultiGzDecoder::new(&gz[..]);
    let mut counted = 0;
    let mut buf = [0u8; 16 << 10];
    loop {
        match std::io::Read::read(&mut decoder, &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => counted += n,
        }
    }
    data.len() + counted
}

/// A fuzz target.
pub struct Target {
    pub name: &'static str,
    /// What it feeds and what it checks.
    pub what: &'static str,
    /// True for the readers: the fuzz binary holds their allocations to a bound.
    pub reader: bool,
    pub run: fn(&[u8]),
}

/// Every target (`scripts/fuzz.sh TARGET`), with its seed corpus in `tests/fuzz/corpus/NAME/`.
pub const TARGETS: &[Target] = &[
    Target {
        name: "swf",
        what: "SWF bytes -> reader (tolerant, strict) -> input rules; writer round trip",
        reader: true,
        run: swf_bytes,
    },
    Target {
        name: "gzip",
        what: "gzip bytes -> SWF reader; gzip(text) reads as text does",
        reader: true,
        run: gzip_bytes,
    },
    Target {
        name: "sacct",
        what: "Slurm sacct --parsable2 text -> reader -> input rules",
        reader: true,
        run: sacct_text,
    },
    Target {
        name: "batsim",
        what: "Batsim JSON -> reader -> input rules",
        reader: true,
        run: batsim_text,
    },
    Target {
        name: "spec",
        what: "policy spec -> catalogue build, canonical form; a valid one runs on 12 jobs",
        reader: false,
        run: spec_text,
    },
    Target {
        name: "expr",
        what: "priority expression -> parse -> evaluate on a job set; queue=expr(...) runs",
        reader: false,
        run: expr_text,
    },
    Target {
        name: "options",
        what: "session options JSON (what the page hands Session::new) -> validation -> a run",
        reader: false,
        run: options_json,
    },
    Target {
        name: "sweep",
        what: "sweep values KEY=a,b,...,z + spec + shard I/N -> expansion, specs per value",
        reader: false,
        run: sweep_text,
    },
    Target {
        name: "generate",
        what: "generator parameters (model, processors, jobs, seed) -> workload -> SWF -> reader",
        reader: false,
        run: generate_params,
    },
    Target {
        name: "pipeline",
        what: "options byte + spec line + tiny trace -> simulate -> every metric, checker",
        reader: false,
        run: pipeline,
    },
    Target {
        name: "jsproto",
        what: "a JavaScript policy's answers per pass (lengths, ids, NaN, reasons) -> External -> checker",
        reader: false,
        run: jsproto::js_protocol,
    },
];

pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Twelve hand-made jobs on 8 processors from 4 users: narrow and wide, short and long,
/// under- and over-estimated, two submitted together.
const SMALL_TRACE: &str = "; MaxProcs: 8
1 0 -1 100 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1
2 0 -1 50 8 -1 -1 8 40 -1 1 2 1 -1 -1 -1 -1 -1
3 10 -1 300 4 -1 -1 4 600 -1 1 3 1 -1 -1 -1 -1 -1
4 15 -1 0 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1
5 20 -1 1000 6 -1 -1 6 1000 -1 1 4 1 -1 -1 -1 -1 -1
6 20 -1 5 1 -1 -1 1 3600 -1 1 2 1 -1 -1 -1 -1 -1
7 60 -1 250 3 -1 -1 3 250 -1 1 1 1 -1 -1 -1 -1 -1
8 61 -1 70 5 -1 -1 5 -1 -1 1 3 1 -1 -1 -1 -1 -1
9 200 -1 400 2 -1 -1 2 500 -1 1 4 1 -1 -1 -1 -1 -1
10 500 -1 20 8 -1 -1 8 30 -1 1 1 1 -1 -1 -1 -1 -1
11 900 -1 600 1 -1 -1 1 700 -1 1 2 1 -1 -1 -1 -1 -1
12 901 -1 60 7 -1 -1 7 120 -1 1 3 1 -1 -1 -1 -1 -1
";

fn small_trace(nodes: bool) -> Trace {
    let input = InputOptions {
        nodes: nodes.then(NodeModel::default),
        ..InputOptions::default()
    };
    Trace::load_bytes(
        "small.swf",
        SMALL_TRACE.as_bytes(),
        &ReadOptions::default(),
        &input,
        MetricOptions::default(),
    )
    .expect("the small trace loads")
}

/// Runs `spec` on `trace`, checks the schedule and reads every metric and the report.
fn run_checked(trace: &Trace, spec: &str, seed: u64) {
    let Ok(r) = trace.run(spec, seed, None) else {
        return;
    };
    if let Err(e) = check(&trace.jobs.jobs, &r.schedule) {
        panic!("{spec}: invariants violated:\n{}", e.join("\n"));
    }
    for m in METRICS {
        let _ = r.metric(m);
    }
    serde_json::to_string(&trace.report(&r)).expect("the report serializes");
    output::jobs_csv(std::io::sink(), &trace.jobs, &r.schedule).expect("jobs CSV");
    output::runs_csv(std::io::sink(), &trace.jobs, &r.schedule).expect("runs CSV");
}

/// A spec string: build, canonical form (a fixed point), and a run of a valid one.
pub fn spec_text(data: &[u8]) {
    let Ok(spec) = std::str::from_utf8(data) else {
        return;
    };
    let built = policy::build(spec);
    let canonical = policy::canonical(spec);
    assert_eq!(
        built.is_ok(),
        canonical.is_ok(),
        "build and canonical disagree on {spec:?}"
    );
    let Ok(c) = canonical else { return };
    let again = policy::canonical(&c)
        .unwrap_or_else(|e| panic!("canonical {c:?} of {spec:?} is refused: {e}"));
    assert_eq!(c, again, "canonical form of {spec:?} is not a fixed point");
    run_checked(&small_trace(data.len() % 2 == 1), spec, 1);
}

/// Variable values that cover the corners: zeros, negatives, huge, tiny.
const VALUES: [f64; 6] = [0.0, 1.0, -3.0, 1e300, 5e-324, 86_400.0];

/// An expression: parse, evaluate over a grid of variable values (never panics, the same value
/// twice; a NaN sorts last), then as a queue order in a run.
pub fn expr_text(data: &[u8]) {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(e) = Expr::parse(src) else { return };
    let mut stack = Vec::new();
    for (i, &a) in VALUES.iter().enumerate() {
        for &b in &VALUES {
            let vars = Vars([a, b, VALUES[(i + 1) % 6], b.abs(), a, -b, a + b]);
            let v = e.eval_with(&vars, &mut stack);
            let key = expr::order_key(v);
            assert!(
                !(key.is_nan() && key.is_sign_negative()),
                "{src:?}: a NaN key that would sort first"
            );
            assert_eq!(
                v.to_bits(),
                e.eval(&vars).to_bits(),
                "{src:?}: two evaluations differ"
            );
        }
    }
    if !src.contains([']', ',', '[']) {
        run_checked(&small_trace(false), &format!("easy[queue=expr({src})]"), 1);
    }
}

/// The options object the page's worker hands `Session::new`, as JSON (serde_wasm_bindgen
/// and serde_json deserialize through the same derived code), then the same steps as
/// `Session::new` and a run.
pub fn options_json(data: &[u8]) {
    let Ok(opts) = serde_json::from_slice::<SessionOptions>(data) else {
        return;
    };
    let read = ReadOptions {
        strict: opts.strict,
        ..ReadOptions::default()
    };
    let Ok(trace) = Trace::load_bytes(
        "small.swf",
        SMALL_TRACE.as_bytes(),
        &read,
        &opts.input,
        opts.metrics,
    ) else {
        return;
    };
    check_set(&trace.jobs);
    let _ = trace_stats::trace_stats(&trace.jobs, &trace.workload.header);
    run_checked(&trace, "easy", 1);
    run_checked(&trace, "pv-easy[predictor=virtual]", 2);
}

/// Most jobs the pipeline target simulates.
const PIPELINE_JOBS: usize = 40;

/// Byte 0 chooses input options, the first line is a policy spec, the rest a trace (any
/// format): read, prepare, simulate, check, measure.
pub fn pipeline(data: &[u8]) {
    let Some((&bits, rest)) = data.split_first() else {
        return;
    };
    let (spec, trace) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => return,
    };
    let Ok(spec) = std::str::from_utf8(spec) else {
        return;
    };
    let input = InputOptions {
        nodes: (bits & 1 == 1).then(NodeModel::default),
        estimate: [
            EstimateSource::Requested,
            EstimateSource::Runtime,
            EstimateSource::Ignore,
            EstimateSource::Requested,
        ][usize::from(bits >> 1 & 3)],
        kill: bits & 8 == 0,
        wide: if bits & 16 == 0 {
            Wide::Skip
        } else {
            Wide::Clamp
        },
        offline: bits & 32 != 0,
        procs: (bits & 64 != 0).then_some(4),
        max_jobs: Some(PIPELINE_JOBS),
        ..InputOptions::default()
    };
    let Ok(trace) = Trace::load_bytes(
        "fuzz.swf",
        trace,
        &ReadOptions::default(),
        &input,
        MetricOptions::default(),
    ) else {
        return;
    };
    check_set(&trace.jobs);
    let _ = trace_stats::trace_stats(&trace.jobs, &trace.workload.header);
    run_checked(&trace, spec, u64::from(bits >> 7));
}

/// Four lines: the sweep's `KEY=values` (links carry it), a policy spec, a shard `I/N`, a
/// number of seeds. A part of that shard (without results) is merged alone.
pub fn sweep_text(data: &[u8]) {
    use schedlab::sweep::plan::{merge, Part, Plan, Shard, PART_FORMAT};
    let text = text(data);
    let mut lines = text.lines();
    let (vary, spec, shard, seeds) = (
        lines.next().unwrap_or(""),
        lines.next().unwrap_or("easy"),
        lines.next().unwrap_or("1/1"),
        lines.next().unwrap_or("1"),
    );
    let Ok((key, values)) = schedlab::sweep::parse_vary(vary) else {
        return;
    };
    if let Ok(s) = Shard::parse(shard) {
        assert!(
            s.contains(s.index - 1),
            "shard {shard} holds not its first point"
        );
        let plan = Plan {
            trace: "t.swf".into(),
            jobs: 1,
            read: ReadOptions::default(),
            input: InputOptions::default(),
            metrics: MetricOptions::default(),
            policies: vec![spec.to_string()],
            key: Some(key.clone()),
            values: values.clone(),
            seeds: seeds.trim().parse().unwrap_or(1),
            metric: "mbs".into(),
            trace_hash: String::new(),
            site_hash: String::new(),
            version: String::new(),
        };
        if plan.specs().is_ok() || plan.check_size().is_err() {
            let part = Part {
                format: PART_FORMAT.into(),
                plan,
                shard: s,
                results: Vec::new(),
            };
            let _ = merge(vec![("part.json".into(), part)]);
        }
    }
    assert!(!values.is_empty() && values.len() <= schedlab::sweep::MAX_VALUES);
    for v in values.iter().take(20) {
        if let Ok(with) = schedlab::sweep::with_key(spec, &key, v) {
            let _ = policy::canonical(&with);
        }
    }
}

/// Generator parameters from bytes: model name after 13 bytes of processors (4), jobs (1, at
/// most 63) and seed (8). What is generated must read back as SWF.
pub fn generate_params(data: &[u8]) {
    use schedlab::workload::generate::{generate, GenerateSpec};
    if data.len() < 13 {
        return;
    }
    let procs = u32::from_le_bytes([data[0], data[1], data[2], data[3]]);
    let jobs = usize::from(data[4] & 63);
    let mut seed = [0u8; 8];
    seed.copy_from_slice(&data[5..13]);
    let spec = GenerateSpec::new(&text(&data[13..]), procs, jobs, u64::from_le_bytes(seed));
    let Ok(w) = generate(&spec) else { return };
    assert_eq!(w.records.len(), jobs, "{spec:?}: other number of jobs");
    let mut out = Vec::new();
    swf::write(&mut out, &w).expect("writing to memory");
    let back = swf::read_bytes("gen.swf", &out, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{spec:?}: the generated workload does not read: {e}"));
    assert_eq!(
        back.issue_count, 0,
        "{spec:?}: the generated workload has bad lines"
    );
    if let Ok(set) = input::prepare(&back, &InputOptions::default()) {
        check_set(&set);
    }
}
