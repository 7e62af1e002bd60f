//! The user-aware metrics through the `schedlab` command line: table rows, JSON, the jobs and
//! heatmap CSVs, the capacity options, the plots and the bench step.

use crate::common;
use common::{schedlab, tmpdir};
use common::{swf_text_users, ujob, UJob};

/// Fig. 1 (a) of the paper as a recorded schedule (replayed by `historic`): users 1 and 2 on
/// 2 processors; user 2's first job (job 5) has EET 2 and ends at 4.
fn fig_1a(dir: &std::path::Path) -> String {
    let jobs: Vec<UJob> = [
        (1, 1, 0),
        (1, 1, 0),
        (1, 1, 1),
        (1, 1, 1),
        (2, 2, 2),
        (2, 2, 2),
    ]
    .iter()
    .map(|&(run, user, wait)| UJob {
        wait,
        ..ujob(0, run, 1, user)
    })
    .collect();
    let p = dir.join("fig1a.swf");
    std::fs::write(&p, swf_text_users(2, &jobs)).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn run_reports_user_aware_metrics() {
    let d = tmpdir("eet", "run");
    let t = fig_1a(&d);
    let (ok, out, err) = schedlab(&["run", &t, "-p", "historic"]);
    assert!(ok, "{err}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row in\n{out}"))
            .split_whitespace()
            .last()
            .unwrap()
            .to_string()
    };
    // One of 6 jobs violated; VEET_u of 0 and 50: max 50.
    assert_eq!(row("violated EETs (%)"), "16.67");
    assert_eq!(row("VEET_u max (%)"), "50.0");

    let (ok, out, err) = schedlab(&["run", &t, "-p", "historic", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let users = v[0]["eet"]["users"].as_array().unwrap();
    assert_eq!(users[1]["veet"], 50.0);
    assert_eq!(v[0]["eet"]["options"]["capacity"], "equal");

    // With 2 processors per user, orange expects both its jobs side by side (EETs 2 and 2)
    // and both end at 4: two violated.
    let (ok, out, err) = schedlab(&["run", &t, "-p", "historic", "--json", "--eet-capacity", "2"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["eet"]["violated"], 2);
    assert_eq!(v[0]["eet"]["users"][1]["wt"], 4.0);
    // An override for user 2 only: 0.5 processors makes its EETs 4 and 8: still none late.
    let (ok, out, err) = schedlab(&[
        "run",
        &t,
        "-p",
        "historic",
        "--json",
        "--eet-user-capacity",
        "2=0.5",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["eet"]["users"][1]["capacity"], 0.5);
    assert_eq!(v[0]["eet"]["violated"], 0);

    for bad in [
        ["--eet-capacity", "lots"],
        ["--eet-capacity", "0"],
        ["--eet-user-capacity", "2"],
        ["--eet-user-capacity", "x=1"],
    ] {
        let (ok, _, err) = schedlab(&["run", &t, "-p", "historic", bad[0], bad[1]]);
        assert!(
            !ok && (err.contains("capacity") || err.contains("USER")),
            "{bad:?}: {err}"
        );
    }
}

#[test]
fn jobs_and_heatmap_csv() {
    let d = tmpdir("eet", "csv");
    let t = fig_1a(&d);
    let jobs = d.join("jobs.csv");
    let heat = d.join("heat.csv");
    let (ok, _, err) = schedlab(&[
        "run",
        &t,
        "-p",
        "historic",
        "--jobs-csv",
        jobs.to_str().unwrap(),
        "--heatmap-csv",
        heat.to_str().unwrap(),
        "--heatmap-bin",
        "1",
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&jobs).unwrap();
    let job5 = text.lines().nth(5).unwrap();
    assert!(
        job5.starts_with("5,") && job5.ends_with(",2,2,replay,,"),
        "{job5}"
    );
    // Job 5: EET 2, runtime 2: x = 0, T = 2: bins [0, 1) and [1, 2) of user 2.
    let heat = std::fs::read_to_string(&heat).unwrap();
    assert_eq!(heat, "user,bin_start,count\n2,0,1\n2,1,1\n");
    let (ok, _, err) = schedlab(&[
        "run",
        &t,
        "-p",
        "historic",
        "--heatmap-csv",
        "/dev/null",
        "--heatmap-bin",
        "0",
    ]);
    assert!(!ok && err.contains("heatmap-bin"), "{err}");
}

#[test]
fn plots_of_the_user_aware_metrics() {
    let d = tmpdir("eet", "plot");
    let t = fig_1a(&d);
    for chart in ["veet", "wt", "heatmap"] {
        let out = d.join(format!("{chart}.svg"));
        let (ok, _, err) = schedlab(&[
            "plot",
            &t,
            "-p",
            "historic",
            "-p",
            "fcfs",
            "--chart",
            chart,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(ok, "{chart}: {err}");
        let svg = std::fs::read_to_string(&out).unwrap();
        assert!(svg.starts_with("<svg"), "{chart}");
    }
    let png = d.join("heat.png");
    let (ok, _, err) = schedlab(&[
        "plot",
        &t,
        "-p",
        "fcfs",
        "--chart",
        "heatmap",
        "--heat-log",
        "--only-users",
        "2",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(std::fs::metadata(&png).unwrap().len() > 0);
}

#[test]
fn bench_has_an_eet_step() {
    let d = tmpdir("eet", "bench");
    let t = fig_1a(&d);
    let (ok, out, err) = schedlab(&["bench", &t, "-p", "fcfs", "--repeat", "1"]);
    assert!(ok, "{err}");
    let eet = out
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("eet"));
    assert!(
        eet.is_some_and(|l| l.split_whitespace().nth(2) == Some("6")),
        "{out}"
    );
    // The memory line: heap per job held with one run of the first policy, and its peak.
    let mem = out
        .lines()
        .find(|l| l.contains("memory with one fcfs run:"))
        .unwrap_or_else(|| panic!("no memory line: {out}"));
    let words: Vec<&str> = mem.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "run:").unwrap();
    let held: usize = words[at + 1].parse().unwrap();
    let peak: usize = words[at + 6].parse().unwrap();
    assert!(held > 0 && peak >= held, "{mem}");
    assert!(mem.contains("(6 jobs,"), "{mem}");
}
