//! The metrics catalogue: names, labels and paths are consistent, every metric reads what the
//! JSON report carries at its path, and hand-worked schedules give the expected figures.

use crate::common::{self, trace_dir};
use schedlab::metrics::catalogue::{self, Better, Family, SHORT_WIDTH};
use schedlab::metrics::{MetricOptions, METRICS};
use schedlab::run::Trace;
use schedlab::swf::{read_bytes, ReadOptions};
use std::collections::HashSet;

#[test]
fn names_labels_and_paths_are_unique_and_fit_the_tables() {
    let mut names = HashSet::new();
    let mut paths = HashSet::new();
    let mut shorts = HashSet::new();
    for m in METRICS {
        assert!(names.insert(m.name), "{}: name twice", m.name);
        assert!(paths.insert(m.path), "{}: path twice", m.path);
        assert!(shorts.insert(m.short), "{}: CLI label twice", m.short);
        // The label column is wider than every label, so that each row's values start in
        // the same column (a label as wide as the column ran into its first value).
        assert!(
            m.short.chars().count() < SHORT_WIDTH,
            "{}: CLI label {:?} does not fit the {SHORT_WIDTH}-character column",
            m.name,
            m.short
        );
        assert!(
            m.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{}: names are lowercase words joined by -",
            m.name
        );
        assert!(
            ["", "s", "%", "processor-s", "GPU-h"].contains(&m.unit),
            "{}",
            m.name
        );
        assert_eq!(
            m.family == Family::Penalty,
            m.path.starts_with("penalty."),
            "{}: node-model metrics read the penalty object",
            m.name
        );
        assert_eq!(
            m.family == Family::Cluster,
            m.path.starts_with("cluster."),
            "{}: cluster metrics read the cluster object",
            m.name
        );
    }
    // The names sweeps took before the catalogue keep working (old commands, old scripts).
    for old in [
        "mbs",
        "mwbs",
        "wsld",
        "wait",
        "utilization",
        "delayed",
        "violations",
        "preempted",
        "wasted-load",
        "blocked-big-mbs",
        "blocked-small-mbs",
    ] {
        assert!(catalogue::find(old).is_some(), "{old} is gone");
    }
    let err = catalogue::lookup("speed").unwrap_err();
    assert!(err.contains("\"speed\"") && err.contains("mbs, "), "{err}");
    assert_eq!(
        catalogue::find("utilization").unwrap().better,
        Better::Higher
    );
    assert_eq!(catalogue::find("wait").unwrap().title(), "mean wait (s)");
}

/// The value at a catalogue path of a report: from `metrics` unless the first key names
/// another object of the report (the page's rule, `www/results.js`).
fn at(report: &serde_json::Value, path: &str) -> Option<f64> {
    let mut keys = path.split('.').peekable();
    let first = *keys.peek()?;
    let mut v = if ["eet", "fairness", "penalty", "cluster"].contains(&first) {
        report
    } else {
        &report["metrics"]
    };
    for k in keys {
        v = v.get(k)?;
    }
    v.as_f64()
}

fn check_paths(trace: &Trace, specs: &[&str]) -> usize {
    let mut checked = 0;
    for spec in specs {
        let r = trace.run(spec, 1, None).unwrap();
        let json = serde_json::to_value(trace.report(&r)).unwrap();
        for m in METRICS {
            let want = r.metric(m);
            let got = at(&json, m.path);
            match want {
                Some(w) => {
                    let g = got.unwrap_or_else(|| panic!("{spec}: {} not in the JSON", m.path));
                    assert!(
                        g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-9 * w.abs(),
                        "{spec}: {}: JSON {g}, catalogue {w}",
                        m.name
                    );
                    checked += 1;
                }
                None => assert!(got.is_none(), "{spec}: {} in a run without it", m.name),
            }
        }
    }
    checked
}

#[test]
fn every_metric_reads_what_the_json_report_carries() {
    let Some(dir) = trace_dir() else {
        eprintln!("skipped: no ../shared/data/swf");
        return;
    };
    let read = |input: schedlab::input::InputOptions| {
        Trace::load_path(
            &dir.join("KTH-SP2-1996-2.1-cln.swf.gz"),
            &ReadOptions::default(),
            &schedlab::input::InputOptions {
                max_jobs: Some(3000),
                ..input
            },
            MetricOptions::default(),
        )
        .unwrap()
    };
    let plain = read(Default::default());
    let n = check_paths(&plain, &["easy", "pv-easy", "conservative"]);
    let count = |f: &dyn Fn(Family) -> bool| METRICS.iter().filter(|m| f(m.family)).count();
    // EASY and PV-EASY promise nothing on arrival: no guarantee figures (nor in the JSON);
    // conservative backfilling promises every job a start: all but the node model's. None
    // of the cluster's without a cluster.
    let alone = |f| f != Family::Penalty && f != Family::Cluster;
    assert_eq!(
        n,
        2 * count(&|f| alone(f) && f != Family::Guarantee) + count(&alone)
    );
    let nodes = read(schedlab::input::InputOptions {
        nodes: Some(Default::default()),
        ..Default::default()
    });
    assert_eq!(
        check_paths(&nodes, &["sjbf"]),
        count(&|f| f != Family::Guarantee && f != Family::Cluster)
    );
    let cluster = read(schedlab::input::InputOptions {
        cluster: Some(schedlab::cluster::Cluster::gpu_preset().to_compact()),
        ..Default::default()
    });
    assert_eq!(
        check_paths(&cluster, &["easy"]),
        count(&|f| f != Family::Guarantee && f != Family::Penalty)
    );
}

#[test]
fn guarantee_figures_only_for_runs_that_promise_every_job() {
    // 10 processors (tests/paper_readings.rs works the ratios out): A (10 procs, 100 s,
    // requested 1000 s) from 0; B and C (10 procs, 10 s each) arrive at 1 and 2, are promised
    // 1000 and 1010 and start at 100 and 110: ratios 999 / 99 and 1008 / 108, one job of three
    // at once, none later than promised.
    let text = common::swf_text(10, &[(0, 100, 10, 1000), (1, 10, 10, 10), (2, 10, 10, 10)]);
    let w = read_bytes("hand.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
    let trace = Trace::new(w, &Default::default(), MetricOptions::default()).unwrap();
    let r = trace.run("conservative", 1, None).unwrap();
    let get = |name: &str| r.metric(catalogue::find(name).unwrap());
    let (b, c) = (999.0 / 99.0, 1008.0 / 108.0);
    assert!((get("guarantee-median").unwrap() - (b + c) / 2.0).abs() < 1e-9);
    assert!((get("guarantee-p80").unwrap() - (c + 0.8 * (b - c))).abs() < 1e-9);
    assert!((get("guarantee-at-once").unwrap() - 100.0 / 3.0).abs() < 1e-9);
    assert_eq!(get("guarantee-late"), Some(0.0));
    // EASY reserves only for the blocked head (B, later C): not every job was promised.
    let e = trace.run("easy", 1, None).unwrap();
    assert!(e.fairness.guarantee.promised > 0);
    assert_eq!(e.metric(catalogue::find("guarantee-median").unwrap()), None);
    let json = serde_json::to_value(trace.report(&e)).unwrap();
    assert!(json["fairness"].get("guarantee").is_none());
    assert!(json["fairness"].get("strict").is_some());
}

#[test]
fn hand_worked_fcfs_figures() {
    // One processor; jobs (submit, run): A (0, 10), B (0, 5), C (20, 4). FCFS: A 0-10,
    // B 10-15, C 20-24. Waits 0, 10, 0: mean 10/3, max 10; makespan 24; bounded slowdowns
    // (bound 10 s): A (0+10)/10 = 1, B (10+10)/10 = 2, C (0+10)/10 = 1: MBS 4/3;
    // utilization = 19 busy processor-seconds / 24.
    let text = common::swf_text(1, &[(0, 10, 1, 10), (0, 5, 1, 5), (20, 4, 1, 4)]);
    let w = read_bytes("hand.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
    let trace = Trace::new(w, &Default::default(), MetricOptions::default()).unwrap();
    let r = trace.run("fcfs", 1, None).unwrap();
    let get = |name: &str| r.metric(catalogue::find(name).unwrap()).unwrap();
    assert!((get("wait") - 10.0 / 3.0).abs() < 1e-12);
    assert_eq!(get("wait-max"), 10.0);
    assert_eq!(get("wait-median"), 0.0);
    assert_eq!(get("makespan"), 24.0);
    assert_eq!(get("jobs"), 3.0);
    assert!((get("mbs") - 4.0 / 3.0).abs() < 1e-12);
    assert!((get("utilization") - 19.0 / 24.0).abs() < 1e-12);
    assert_eq!(get("preempted"), 0.0);
    // No node model: its metrics have no value.
    assert_eq!(r.metric(catalogue::find("nodes-bsld").unwrap()), None);
    // The bound is a metrics option: at 1 s, B's slowdown is (10 + 5) / 5 = 3, A's and C's 1.
    let w = read_bytes("hand.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
    let tight = Trace::new(
        w,
        &Default::default(),
        MetricOptions {
            bsld_bound: 1.0,
            ..Default::default()
        },
    )
    .unwrap();
    let r = tight.run("fcfs", 1, None).unwrap();
    assert!((r.metric(catalogue::find("mbs").unwrap()).unwrap() - 5.0 / 3.0).abs() < 1e-12);
}
