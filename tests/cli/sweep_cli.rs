//! `schedlab sweep` and `plot` through the command line: a sweep's mean, min and max per value,
//! its values and model estimates, its chart, and the plot files.

use super::run_cli::hand_trace;
use crate::common;
use common::{schedlab, tmpdir};

#[test]
fn sweep_prints_mean_min_max_per_value() {
    let d = tmpdir("cli", "sweep");
    let t = hand_trace(&d);
    let t = t.to_str().unwrap();
    // Waits 0, 99, 0 and 49 (J3 backfilled at 2, J4 at 52 on the extra processors): mean 37.
    let args = [
        "sweep",
        t,
        "-p",
        "easy",
        "--vary",
        "order=fcfs,sjf",
        "--seeds",
        "2",
    ];
    let (ok, out, err) = schedlab(&[&args[..], &["--metric", "wait"]].concat());
    assert!(ok, "{err}");
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows[0].starts_with("easy ") && rows[1].starts_with("easy[order=sjf] "));
    for r in rows {
        assert_eq!(r.matches("37.0000").count(), 3, "{r}");
    }
    // The metric by its path in `run --json`, as `plot --metric` takes it: the same table
    // (`--metric wait.mean` was refused, "valid: jobs, skipped, wait, ...").
    let (ok, by_path, err) = schedlab(&[&args[..], &["--metric", "wait.mean"]].concat());
    assert!(ok, "{err}");
    let (_, by_name, _) = schedlab(&[&args[..], &["--metric", "wait"]].concat());
    assert_eq!(by_path, by_name);
    let (ok, _, err) = schedlab(&[&args[..], &["--metric", "speed"]].concat());
    assert!(
        !ok && err.contains("--metric") && err.contains("valid: ") && err.contains("mbs, mwbs"),
        "{err}"
    );
}

#[test]
fn sweep_values_keep_their_commas_inside_parentheses() {
    // Each value of `--vary queue=...` is one priority expression, commas and all: the list is
    // split as a spec's parameters are (brackets and parentheses counted). The expressions
    // order as sjf and fcfs, so each row gives the mean wait of its built-in.
    let d = tmpdir("cli", "sweep-expr");
    let t = hand_trace(&d);
    let t = t.to_str().unwrap();
    let sweep = |vary: &str| {
        let (ok, out, err) =
            schedlab(&["sweep", t, "-p", "easy", "--vary", vary, "--metric", "wait"]);
        assert!(ok, "{err}");
        out.lines().skip(1).map(str::to_string).collect::<Vec<_>>()
    };
    let exprs = sweep("queue=expr(max(estimate, min(0,1))),expr(pow(submit,1))");
    assert_eq!(exprs.len(), 2, "{exprs:?}");
    assert!(exprs[0].contains("expr(max(estimate"), "{exprs:?}");
    assert!(exprs[1].contains("expr(pow(submit"), "{exprs:?}");
    let builtins = sweep("queue=sjf,fcfs");
    let figures = |row: &str| {
        row.split_whitespace()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(figures(&exprs[0]), figures(&builtins[0]));
    assert_eq!(figures(&exprs[1]), figures(&builtins[1]));
    let (ok, _, err) = schedlab(&["sweep", t, "-p", "easy", "--vary", "queue=expr(max(wait,1)"]);
    assert!(
        !ok && err.contains("--vary") && err.contains("unbalanced '('"),
        "{err}"
    );
}

#[test]
fn sweep_over_r_with_model_estimates() {
    // 4 processors, no requested times used: J1 (2 procs, 10 s) runs from 0, J2 (4 procs)
    // waits for it, J3 (2 procs, 9 s) arrives at 2. Planned with R x runtime, J3 ends by J2's
    // shadow time (10 R) when 2 + 9 R <= 10 R, i.e. R >= 2: at R = 1 it waits for J2 (waits
    // 0, 9, 18: mean 9); at R = 2 it backfills at 2, J2 starts when it ends at 11 (mean 10/3).
    let d = tmpdir("cli", "sweep-r");
    let t = d.join("r.swf");
    std::fs::write(
        &t,
        common::swf_text(4, &[(0, 10, 2, 15), (1, 10, 4, 15), (2, 9, 2, 15)]),
    )
    .unwrap();
    let (ok, out, err) = schedlab(&[
        "sweep",
        t.to_str().unwrap(),
        "--estimate",
        "ignore",
        "-p",
        "easy[predictor=rfactor]",
        "--vary",
        "r=1,2",
        "--metric",
        "wait",
    ]);
    assert!(ok, "{err}");
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert_eq!(rows[0].matches("9.0000").count(), 3, "{out}");
    assert_eq!(rows[1].matches("3.3333").count(), 3, "{out}");
}

#[test]
fn sweep_out_draws_the_chart() {
    let d = tmpdir("cli", "sweep-out");
    let t = hand_trace(&d);
    let svg = d.join("s.svg");
    let (ok, _, err) = schedlab(&[
        "sweep",
        t.to_str().unwrap(),
        "-p",
        "easy",
        "--vary",
        "order=fcfs,sjf",
        "--metric",
        "wait",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("mean wait (s) over order"));
    assert!(text.contains("sjf") && text.contains("<polyline"));
    let (ok, _, err) = schedlab(&[
        "sweep",
        t.to_str().unwrap(),
        "-p",
        "easy",
        "--vary",
        "order",
    ]);
    assert!(!ok && err.contains("--vary: write KEY=v1,v2"), "{err}");
}

#[test]
fn plot_writes_svg_and_png() {
    let d = tmpdir("cli", "plot");
    let t = hand_trace(&d);
    let svg = d.join("g.svg");
    let (ok, _, err) = schedlab(&[
        "plot",
        t.to_str().unwrap(),
        "-p",
        "easy",
        "--chart",
        "gantt",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("hand: easy"));
    let png = d.join("u.png");
    let (ok, _, err) = schedlab(&[
        "plot",
        t.to_str().unwrap(),
        "-p",
        "easy",
        "-p",
        "fcfs",
        "--chart",
        "utilization",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert_eq!(&std::fs::read(&png).unwrap()[..4], b"\x89PNG");
}

/// `sweep` says the loops' phases the `slurm` policy reads from an sacct log, as `run` says them
/// (its figures are `run`'s, phases and all); it said nothing, and its points were run with
/// `bf_phase=2,sched_phase=8` no line named.
#[test]
fn sweep_says_the_phases_slurm_reads_from_the_log() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/slurm/gpu-3/run1");
    let (sacct, conf) = (format!("{dir}/sacct.txt"), format!("{dir}/slurm.conf"));
    let site = ["--slurm-conf", conf.as_str()];
    let (ok, _, run) = schedlab(&[&["run", sacct.as_str(), "-p", "slurm"][..], &site].concat());
    assert!(ok, "{run}");
    let note = run
        .lines()
        .find(|l| l.starts_with("sacct log: the loops' phases"))
        .unwrap();
    assert!(
        note.contains("bf_phase=2") && note.contains("sched_phase=8"),
        "{note}"
    );
    let args = [
        "sweep",
        sacct.as_str(),
        "-p",
        "slurm",
        "--vary",
        "bf_window=30,60",
        "--seeds",
        "1",
    ];
    let (ok, _, err) = schedlab(&[&args[..], &site].concat());
    assert!(ok, "{err}");
    assert!(err.lines().any(|l| l == note), "{err}");
    // Without a slurm.conf too (the phases under Slurm's default intervals).
    let (ok, _, err) = schedlab(&args);
    assert!(ok, "{err}");
    assert!(err.contains("sacct log: the loops' phases"), "{err}");
    // No slurm policy, no note.
    let (ok, _, err) = schedlab(&[
        "sweep",
        sacct.as_str(),
        "-p",
        "easy",
        "--vary",
        "queue=fcfs,sjf",
    ]);
    assert!(ok, "{err}");
    assert!(!err.contains("loops' phases"), "{err}");
}

/// A value of `--vary` its policy refuses (`PriorityWeightAge=1e400`) was an error only when
/// its point ran: a shard without that point wrote its part, and the other failed later
/// (hours later on a cluster). Every point's spec is checked before any runs.
#[test]
fn a_bad_swept_value_fails_every_shard_before_any_point_runs() {
    let d = tmpdir("cli", "sweep-bad-value");
    let t = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/workloads/hand.sacct"
    );
    for shard in ["1/2", "2/2"] {
        let out = d.join(format!("part{}.json", &shard[..1]));
        let (ok, _, err) = schedlab(&[
            "sweep",
            t,
            "-p",
            "slurm",
            "--vary",
            "PriorityWeightAge=0,1e400",
            "--shard",
            shard,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(!ok, "shard {shard}");
        assert!(
            err.contains("PriorityWeightAge=1e400: \"1e400\" is not a weight >= 0"),
            "{err}"
        );
        assert!(!out.exists(), "shard {shard} wrote its part");
    }
}
