//! The node model's outputs: the CLI's penalty metrics and its refusals, and the Gantt chart's
//! rows grouped by node and jobs coloured by penalty factor, on hand-made cases (nodes of 4
//! cores sharing 6000 MB/s, as in `engine_nodes.rs`).

use crate::common;
use crate::engine_nodes::close;
use common::{node_job_set, run_nodes};

#[test]
fn cli_reports_penalty_metrics_only_with_the_node_model_and_refuses_bad_options() {
    let dir = common::tmpdir("nodes", "cli");
    let trace = dir.join("t.swf");
    std::fs::write(
        &trace,
        "; MaxProcs: 4\n1 0 -1 300 2 -1 -1 2 1000 -1 1 1 1 -1 -1 -1 -1 -1 2000\n\
         2 0 -1 300 2 -1 -1 2 1000 -1 1 1 1 -1 -1 -1 -1 -1 2000\n",
    )
    .unwrap();
    let t = trace.to_str().unwrap();
    let (ok, out, err) = common::schedlab(&["run", t, "-p", "sjbf", "--json"]);
    assert!(ok, "{err}");
    assert!(!out.contains("\"penalty\""), "{out}");
    let (ok, out, err) =
        common::schedlab(&["run", t, "-p", "sjbf", "--bandwidth-field", "19", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let p = &v[0]["penalty"];
    // Both jobs: 300 s at 4/3 -> 400 s, 100 s penalized: 33.3%.
    assert!((p["penalized_pct"]["mean"].as_f64().unwrap() - 100.0 / 3.0).abs() < 1e-9);
    assert_eq!(p["killed_by_penalty"], 0);
    assert_eq!(v[0]["input"]["nodes"]["cores"], 4);
    let (ok, out, _) = common::schedlab(&["run", t, "-p", "rua", "--bandwidth-field", "19"]);
    assert!(ok && out.contains("[nodes] mean penalized %"), "{out}");
    // A mix with every demand 1500: 4 x 1500 = 6000, no penalty; with 2000: 8000, 1/3.
    for (demands, pct) in [("1500,1500,1500", 0.0), ("2000,2000,2000", 100.0 / 3.0)] {
        let (ok, out, err) =
            common::schedlab(&["run", t, "-p", "sjbf", "--demands", demands, "--json"]);
        assert!(ok, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let got = v[0]["penalty"]["penalized_pct"]["mean"].as_f64().unwrap();
        assert!((got - pct).abs() < 1e-9, "{demands}: {got}");
    }
    for bad in [
        &["--cores", "0"][..],
        &["--bandwidth", "-5"],
        &["--bandwidth-field", "0"],
        &["--max-jobs", "0"],
        &["--demands", "500,1000"],
        &["--demands", "500,x,2000"],
        &["--demands", "500,1000,-1"],
    ] {
        let mut args = vec!["run", t, "-p", "sjbf"];
        args.extend_from_slice(bad);
        let (ok, _, err) = common::schedlab(&args);
        assert!(!ok && !err.contains("panicked"), "{bad:?}: {err}");
    }
    let (ok, _, err) = common::schedlab(&["run", t, "-p", "rua[thresholds=0.5]"]);
    assert!(!ok && err.contains("thresholds=0.5"), "{err}");
}

#[test]
fn gantt_groups_rows_by_node() {
    use schedlab::charts::{gantt, native};
    let set = node_job_set(16, 4, &[(0, 100, 6, 200, 500.0), (0, 100, 2, 200, 500.0)]);
    let s = run_nodes(&set, "fcfs", 1);
    let rects = gantt::rects(&set, &s);
    let svg = |cores: u32| {
        native::svg((800, 400), |root| {
            gantt::draw_nodes(root, &rects, 16, cores, 0.0, 100.0, "t")
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .unwrap()
    };
    let (plain, nodes) = (svg(0), svg(4));
    // 16 processors in nodes of 4: three separators between the four nodes.
    let lines = |s: &str| s.matches("<polyline").count();
    assert_eq!(lines(&nodes), lines(&plain) + 3);
    let texts = common::svg_texts(&nodes);
    assert!(
        texts.iter().any(|t| t == "processors (4 per node)"),
        "{texts:?}"
    );
    assert!(!common::svg_texts(&plain)
        .iter()
        .any(|t| t.contains("per node")));
}

#[test]
fn gantt_colours_jobs_by_penalty_factor() {
    use schedlab::charts::gantt::{self, penalty_class};
    use schedlab::charts::native;
    assert_eq!(
        [1.0, 1.05, 1.2, 4.0 / 3.0, 1.6].map(penalty_class),
        [0, 1, 2, 3, 4]
    );
    // Two saturated jobs (factor 4/3: class "<= 1.5") and one alone (factor 1) on two nodes.
    let set = node_job_set(
        8,
        4,
        &[
            (0, 300, 2, 1000, 2000.0),
            (0, 300, 2, 1000, 2000.0),
            (0, 300, 4, 1000, 500.0),
        ],
    );
    let s = run_nodes(&set, "fcfs", 1);
    let f = schedlab::metrics::penalty::factors(&s).unwrap();
    assert!(
        close(f[0], 4.0 / 3.0) && close(f[1], 4.0 / 3.0) && f[2] == 1.0,
        "{f:?}"
    );
    let rects = gantt::rects(&set, &s);
    let svg = native::svg((800, 400), |root| {
        gantt::draw_coloured(root, &rects, 8, 4, &f, 0.0, 400.0, "t")
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap();
    let texts = common::svg_texts(&svg);
    assert!(texts.iter().any(|t| t == "penalty factor"), "{texts:?}");
    // The fills of the classes used: "<= 1.5" (215, 80, 40) and "factor 1" (120, 170, 120).
    assert!(
        svg.contains("#D75028") && svg.contains("#78AA78"),
        "fills missing"
    );
    // The CLI: with the node model it writes the chart; without it, it says what is missing.
    let dir = common::tmpdir("nodes", "plot");
    let trace = dir.join("t.swf");
    std::fs::write(
        &trace,
        "; MaxProcs: 4\n1 0 -1 300 2 -1 -1 2 1000 -1 1 1 1 -1 -1 -1 -1 -1\n",
    )
    .unwrap();
    let (t, out) = (trace.to_str().unwrap(), dir.join("g.svg"));
    let args = [
        "plot",
        t,
        "-p",
        "sjbf",
        "--by-penalty",
        "--out",
        out.to_str().unwrap(),
    ];
    let (ok, _, err) = common::schedlab(&args);
    assert!(!ok && err.contains("needs the node model"), "{err}");
    let (ok, _, err) = common::schedlab(&[&args[..], &["--nodes"]].concat());
    assert!(
        ok && std::fs::read_to_string(&out)
            .unwrap()
            .contains("penalty factor"),
        "{err}"
    );
}
