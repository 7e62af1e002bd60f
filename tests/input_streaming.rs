//! A trace read straight into jobs (`run::read_bytes`: each record becomes a raw job as it is
//! read, the input rules applied in place) gives the job set that the records read first and
//! then prepared give, under every input option that reads the records differently; and a
//! hand-made trace whose arrival order, skips and warnings were worked out by hand.

use schedlab::input::{self, EstimateSource, InputOptions, JobSet, Origin, Wide};
use schedlab::machine::NodeModel;
use schedlab::run;
use schedlab::swf::ReadOptions;
use schedlab::workload;
use schedlab::workload::transform::Transform;
use std::path::PathBuf;

fn data(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn json(s: &JobSet) -> String {
    serde_json::to_string(s).unwrap()
}

/// Both ways of loading; the job sets (every field of every job, the skips, the warnings) and
/// the reader's counts must agree; or both fail with the same message (`None`).
fn both(name: &str, bytes: &[u8], opts: &InputOptions) -> Option<JobSet> {
    let read = ReadOptions::default();
    let w = workload::read_bytes(name, bytes, &read).unwrap();
    let before = input::prepare(&w, opts).map_err(|e| e.to_string());
    let streamed = run::read_bytes(name, bytes, &read, opts);
    match (before, streamed) {
        (Ok(a), Ok((sw, b))) => {
            assert_eq!(json(&a), json(&b), "{name} {opts:?}");
            assert!(sw.records.is_empty());
            assert_eq!(sw.streamed, w.records.len() as u64, "{name}");
            assert_eq!(
                (&sw.header, &sw.issues, sw.issue_count, sw.skipped_lines),
                (&w.header, &w.issues, w.issue_count, w.skipped_lines)
            );
            assert_eq!(sw.summary(3), w.summary(3));
            Some(b)
        }
        (Err(a), Err(b)) => {
            assert_eq!(a, b.to_string(), "{name} {opts:?}");
            None
        }
        (a, b) => panic!(
            "{name} {opts:?}: {a:?} vs {:?}",
            b.map(|(_, j)| j.jobs.len())
        ),
    }
}

fn option_sets() -> Vec<InputOptions> {
    let d = InputOptions::default;
    vec![
        d(),
        InputOptions {
            wide: Wide::Clamp,
            procs: Some(64),
            skip_status: vec![0, 5],
            skip_zero_runtime: true,
            ..d()
        },
        InputOptions {
            estimate: EstimateSource::Ignore,
            kill: false,
            origin: Origin::Trace,
            max_jobs: Some(5000),
            ..d()
        },
        InputOptions {
            estimate: EstimateSource::Runtime,
            offline: true,
            ..d()
        },
        InputOptions {
            transform: Transform {
                load_scale: Some(1.3),
                from: Some("100000".into()),
                to: Some("9000000".into()),
                exclude_users: vec![1.into(), 2.into(), 3.into()],
                ..Default::default()
            },
            ..d()
        },
        InputOptions {
            // Field 7 (used memory) as the bandwidth: many jobs have none (-1).
            nodes: Some(NodeModel {
                field: Some(7),
                ..NodeModel::default()
            }),
            ..d()
        },
    ]
}

#[test]
fn real_traces_give_the_same_jobs_both_ways() {
    // LANL-CM5 (122,057 jobs, gzip) fills several blocks of raw jobs; hpc2n is plain text (its
    // count told beforehand); KTH-SP2 has submit times out of order.
    for name in [
        "LANL-CM5-1994-4.1-cln.swf.gz",
        "KTH-SP2-1996-2.1-cln.swf.gz",
        "hpc2n.swf",
        "workloads/hand.sacct",
    ] {
        let bytes = data(name);
        let sets = option_sets();
        let loaded = sets.iter().filter_map(|o| both(name, &bytes, o)).count();
        // A window can leave a small trace empty (an error both ways); most options load.
        assert!(
            loaded + 1 >= sets.len(),
            "{name}: {loaded} of {}",
            sets.len()
        );
        assert!(both(name, &bytes, &InputOptions::default()).is_some());
    }
}

#[test]
fn hand_made_trace_in_arrival_order_with_its_skips() {
    // Job 1 appears twice (the second copy, line 6, is skipped), job 5 is wider than the
    // machine, job 7 has its bandwidth in an extra column (field 19), submit times go back.
    let text = "; MaxProcs: 4\n\
        3 10 -1 100 2 -1 -1 2 50 -1 1 7 -1 -1 -1 -1 -1 -1\n\
        1 5 -1 30 1 -1 -1 1 -1 -1 1 8 -1 -1 -1 -1 -1 -1\n\
        2 5 -1 40 4 -1 -1 4 60 -1 1 7 -1 -1 -1 -1 -1 -1\n\
        1 7 -1 30 1 -1 -1 1 40 -1 1 8 -1 -1 -1 -1 -1 -1\n\
        5 5 -1 30 8 -1 -1 8 40 -1 1 8 -1 -1 -1 -1 -1 -1\n\
        4 2 -1 20 -1 -1 -1 3 10 -1 1 9 -1 -1 -1 -1 -1 -1 x\n\
        7 12 -1 20 1 -1 -1 1 30 -1 1 9 -1 -1 -1 -1 -1 -1 250.5\n";
    let s = both("hand.swf", text.as_bytes(), &InputOptions::default()).unwrap();
    let ids: Vec<i64> = s.jobs.iter().map(|j| j.id).collect();
    assert_eq!(ids, [4, 1, 2, 3, 7]);
    let submits: Vec<i64> = s.jobs.iter().map(|j| j.submit).collect();
    assert_eq!(submits, [0, 3, 3, 8, 10]); // origin 2
    assert_eq!(s.origin, 2);
    // Job 3 killed at its requested 50 s; job 4 takes field 8 (3 processors); job 1 has no
    // requested time: planned with its runtime, flagged unknown.
    let j3 = &s.jobs[3];
    assert_eq!((j3.runtime, j3.trace_runtime, j3.killed), (50, 100, true));
    assert_eq!(s.jobs[0].procs, 3);
    let j1 = &s.jobs[1];
    assert_eq!(
        (j1.requested(), j1.estimate, j1.estimate_unknown),
        (None, 30, true)
    );
    let skips: Vec<(u64, i64, &str)> = s
        .skipped
        .iter()
        .map(|k| (k.line, k.id, k.reason.as_str()))
        .collect();
    assert_eq!(
        skips,
        [
            (5, 1, "duplicate job number 1 (first on line 3)"),
            (
                6,
                5,
                "field 5 (allocated_processors): 8 processors, wider than the machine (4)"
            ),
        ]
    );
    // Kept in file order, submit times 10 5 5 2 12 go back twice.
    assert!(s.warnings.contains(
        &"submit times out of order at 2 places: jobs sorted by submit time (stable)".to_string()
    ));
    assert!(s
        .warnings
        .contains(&"1 duplicate job number: later copies skipped".to_string()));
    // The bandwidth field: an extra column (field 19), "x" and a missing column count as 0.
    let opts = InputOptions {
        nodes: Some(NodeModel {
            field: Some(19),
            ..NodeModel::default()
        }),
        ..InputOptions::default()
    };
    let s = both("hand.swf", text.as_bytes(), &opts).unwrap();
    let bw: Vec<f64> = s.jobs.iter().map(|j| j.bandwidth).collect();
    assert_eq!(bw, [0.0, 0.0, 0.0, 0.0, 250.5]);
    assert!(s
        .warnings
        .contains(&"4 jobs have no memory bandwidth in field 19: counted as 0 MB/s".to_string()));
}

#[test]
fn errors_are_the_same_both_ways() {
    let read = ReadOptions::default();
    let text = b"; MaxProcs: 4\n1 0 -1 -1 1 -1 -1 1 10 -1 1 1 -1 -1 -1 -1 -1 -1\n";
    let e = run::read_bytes("t.swf", text, &read, &InputOptions::default())
        .err()
        .unwrap();
    let w = workload::read_bytes("t.swf", text, &read).unwrap();
    let old = input::prepare(&w, &InputOptions::default()).unwrap_err();
    assert_eq!(e.to_string(), old.to_string());
    assert_eq!(
        e.to_string(),
        "t.swf: no job can be simulated (1 skipped; first: line 2: field 4 (run_time): unknown runtime (-1))"
    );
    // A reader error comes before the input rules, as before.
    let e = run::read_bytes(
        "t.swf",
        b"; only a header\n",
        &read,
        &InputOptions::default(),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("header only"), "{e}");
}

/// A count of one is said in the singular: submit times 10 then 5 go back once, and job 1
/// is given twice.
#[test]
fn one_place_out_of_order_and_one_duplicate_are_singular() {
    let swf = "1 10 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 -1 -1 -1 -1\n\
               2 5 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 -1 -1 -1 -1\n\
               1 20 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 -1 -1 -1 -1\n";
    let s = both("t.swf", swf.as_bytes(), &InputOptions::default()).unwrap();
    assert_eq!(
        s.warnings,
        [
            "submit times out of order at 1 place: jobs sorted by submit time (stable)",
            "1 duplicate job number: later copies skipped"
        ]
    );
}
