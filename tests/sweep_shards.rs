//! `schedlab sweep --shard I/N --out part.json` + `schedlab merge`: the merged parts print
//! exactly what the whole sweep prints (table and chart), whatever N, on a real trace and on a
//! hand-made one; the threads do not change the output; bad merges are refused clearly.

use crate::common;
use common::{schedlab, tmpdir, trace_dir};
use std::path::Path;

/// The whole sweep's stdout and chart, then for each N the merge of its N shards' output.
fn check_shards(dir: &Path, sweep: &[&str], ns: &[usize]) {
    let chart = dir.join("whole.svg");
    let (ok, whole, err) = schedlab(&[sweep, &["--out", chart.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    let whole_svg = std::fs::read_to_string(&chart).unwrap();
    assert!(whole.lines().count() > 1, "{whole}");
    for &n in ns {
        let mut parts = Vec::new();
        for i in 1..=n {
            let part = dir.join(format!("part{i}of{n}.json"));
            let shard = format!("{i}/{n}");
            let (ok, out, err) =
                schedlab(&[sweep, &["--shard", &shard, "--out", part.to_str().unwrap()]].concat());
            assert!(ok && out.is_empty(), "{err}");
            assert!(err.contains(&format!("shard {i}/{n}")), "{err}");
            parts.push(part.to_str().unwrap().to_string());
        }
        parts.reverse(); // the order of the parts does not matter
        let merged_chart = dir.join(format!("merged{n}.svg"));
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        args.extend(["--out", merged_chart.to_str().unwrap()]);
        let (ok, merged, err) = schedlab(&args);
        assert!(ok, "{err}");
        assert_eq!(merged, whole, "N = {n}");
        assert_eq!(
            std::fs::read_to_string(&merged_chart).unwrap(),
            whole_svg,
            "N = {n}"
        );
    }
}

#[test]
fn shards_merged_equal_the_whole_sweep_on_kth() {
    let Some(traces) = trace_dir() else { return };
    let d = tmpdir("shards", "kth");
    let kth = traces.join("KTH-SP2-1996-2.1-cln.swf.gz");
    // 2 policies x 2 values x 2 seeds = 8 points: 3 does not divide them.
    let sweep = [
        "sweep",
        kth.to_str().unwrap(),
        "--max-jobs",
        "3000",
        "-p",
        "easy[predictor=virtual]",
        "-p",
        "conservative[predictor=virtual]",
        "--vary",
        "err=0.2,0.6",
        "--seeds",
        "2",
        "--metric",
        "wait",
    ];
    check_shards(&d, &sweep, &[1, 2, 3]);
    // One thread prints the same table as every core.
    let (ok, one, err) = schedlab(&[&sweep[..], &["--threads", "1"]].concat());
    assert!(ok, "{err}");
    let (ok, all, _) = schedlab(&sweep);
    assert!(ok && one == all);
    // The virtual predictor's noise reaches the metric: seeds differ, so min < max.
    let row = one.lines().nth(1).unwrap();
    let f: Vec<f64> = row
        .split_whitespace()
        .skip(2)
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(f[1] < f[2], "{row}");
}

#[test]
fn shards_merged_equal_the_whole_sweep_by_hand() {
    let d = tmpdir("shards", "hand");
    let t = d.join("hand.swf");
    let jobs = [
        (0, 100, 6, 100),
        (1, 50, 8, 50),
        (2, 50, 4, 50),
        (3, 200, 2, 200),
    ];
    std::fs::write(&t, common::swf_text(10, &jobs)).unwrap();
    // 1 x 3 x 1 = 3 points in 2, 3 and 5 shards (two of the five are empty). Waits by hand
    // (cli.rs): EASY 0, 99, 0, 49, mean 37 for fcfs order and sjf.
    let sweep = [
        "sweep",
        t.to_str().unwrap(),
        "-p",
        "easy",
        "--vary",
        "order=fcfs,sjf,spf",
        "--metric",
        "wait",
    ];
    check_shards(&d, &sweep, &[1, 2, 3, 5]);
    let (_, whole, _) = schedlab(&sweep);
    assert_eq!(
        whole.lines().nth(1).unwrap().matches("37.0000").count(),
        3,
        "{whole}"
    );

    // Bad merges: a missing shard, a shard twice, parts of another sweep, not a part.
    let part = |i: usize, n: usize, extra: &[&str]| {
        let p = d.join(format!("bad{i}of{n}{}.json", extra.len()));
        let shard = format!("{i}/{n}");
        let (ok, _, err) = schedlab(
            &[
                &sweep[..],
                extra,
                &["--shard", &shard, "--out", p.to_str().unwrap()],
            ]
            .concat(),
        );
        assert!(ok, "{err}");
        p.to_str().unwrap().to_string()
    };
    let (p1, p2) = (part(1, 2, &[]), part(2, 2, &[]));
    let (ok, _, err) = schedlab(&["merge", &p1]);
    assert!(!ok && err.contains("shard 2/2 is missing"), "{err}");
    let (ok, _, err) = schedlab(&["merge", &p1, &p1]);
    assert!(!ok && err.contains("shard 1/2 is also"), "{err}");
    let other = part(2, 2, &["--seeds", "2"]);
    let (ok, _, err) = schedlab(&["merge", &p1, &other]);
    assert!(!ok && err.contains("another sweep than"), "{err}");
    let (ok, _, err) = schedlab(&["merge", &p1, t.to_str().unwrap()]);
    assert!(!ok && err.contains("hand.swf: not a sweep part"), "{err}");
    // A gzip'd trace is no text: said as the same mistake ("stream did not contain valid
    // UTF-8" before).
    let gz = t.with_extension("swf.gz");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/KTH-SP2-1996-2.1-cln.swf.gz"
        ),
        &gz,
    )
    .unwrap();
    let (ok, _, err) = schedlab(&["merge", &p1, gz.to_str().unwrap()]);
    assert!(
        !ok && err.contains("swf.gz: not a sweep part (schedlab sweep --shard): not text"),
        "{err}"
    );
    let (ok, _, _) = schedlab(&["merge", &p1, &p2]);
    assert!(ok);
    let (ok, _, err) = schedlab(&[&sweep[..], &["--shard", "1/2"]].concat());
    assert!(
        !ok && err.contains("--shard needs --out PART.json"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&[&sweep[..], &["--shard", "3/2"]].concat());
    assert!(!ok && err.contains("1 <= I <= N"), "{err}");
    // A part into a folder that does not exist is refused before the trace is even read (here
    // a trace that does not exist either): the part was written only after every point had
    // run, and then failed with "No such file or directory".
    let lost = d.join("no-such-folder").join("part-1.json");
    let missing = d.join("no-such-trace.swf");
    let (ok, _, err) = schedlab(&[
        "sweep",
        missing.to_str().unwrap(),
        "-p",
        "easy",
        "--shard",
        "1/2",
        "--out",
        lost.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("no-such-folder does not exist (make it first: mkdir -p ")
            && err.contains("nothing was run")
            && !err.contains("no-such-trace"),
        "{err}"
    );
}

/// A sweep of the `slurm` policy reads the site as `schedlab run` does (the slurm.conf's
/// scheduler parameters, the sshare's shares): each row's mean wait is the run's, and its label
/// keeps a key set to Slurm's default, which overrides the slurm.conf's value
/// (`PriorityWeightFairshare=0`; the canonical spec dropped it, and both policies' rows read
/// `slurm[bf_window=1]`); its shards merge into the whole; a part made with another site is
/// another sweep.
#[test]
fn slurm_sweep_reads_the_site_as_run_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm/gpu-3/run1");
    let file = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let (log, conf, sshare) = (
        file("sacct.txt"),
        file("slurm.conf"),
        file("sshare-start.txt"),
    );
    let site = ["--slurm-conf", &conf, "--sshare", &sshare];
    let no_fairshare = "slurm[PriorityWeightFairshare=0]";
    let base = [
        "sweep",
        &log,
        "-p",
        "slurm",
        "-p",
        no_fairshare,
        "--vary",
        "bf_window=1,1440",
        "--metric",
        "wait",
    ];
    let sweep = [&base[..], &site[..]].concat();
    let (ok, whole, err) = schedlab(&sweep);
    assert!(ok, "{err}");
    let specs = [
        "slurm[bf_window=1]",
        "slurm[bf_window=1440]",
        "slurm[PriorityWeightFairshare=0,bf_window=1]",
        "slurm[PriorityWeightFairshare=0,bf_window=1440]",
    ];
    assert_eq!(whole.lines().count(), 5, "{whole}");
    let mut means = Vec::new();
    for (row, spec) in whole.lines().skip(1).zip(specs) {
        assert_eq!(row.split_whitespace().next(), Some(spec), "{whole}");
        let (ok, out, err) = schedlab(&[&["run", &log, "-p", spec, "--json"][..], &site].concat());
        assert!(ok, "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let mean = report[0]["metrics"]["wait"]["mean"].as_f64().unwrap();
        let swept: f64 = row.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(
            (swept - mean).abs() < 1e-3,
            "{spec}: sweep {swept}, run {mean}"
        );
        means.push(mean);
    }
    // Fairshare's weight matters on this log: the two policies are two schedules.
    assert_ne!(means[0], means[2], "{whole}");
    let d = tmpdir("shards", "slurm");
    check_shards(&d, &sweep, &[2]);
    // The same sweep without the sshare is another sweep.
    let part = |extra: &[&str], name: &str| {
        let p = d.join(name).to_str().unwrap().to_string();
        let (ok, _, err) = schedlab(&[&base[..], extra, &["--shard", "1/2", "--out", &p]].concat());
        assert!(ok, "{err}");
        p
    };
    let (a, b) = (part(&site, "a.json"), part(&site[..2], "b.json"));
    let (ok, _, err) = schedlab(&["merge", &a, &b]);
    assert!(!ok && err.contains("site_hash"), "{err}");
}
