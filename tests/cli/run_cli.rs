//! The `schedlab` command line: comparison table, JSON, CSV exports, the policies' list, the
//! Slurm site's flags, the fidelity section and clear errors.

use crate::common;
use common::{schedlab, tmpdir};

/// Four jobs on 10 processors (submit, runtime, processors, requested time), worked by hand in
/// the tests that read it (here and in `sweep_cli.rs`).
pub(super) fn hand_trace(dir: &std::path::Path) -> std::path::PathBuf {
    let p = dir.join("hand.swf");
    let jobs = [
        (0, 100, 6, 100),
        (1, 50, 8, 50),
        (2, 50, 4, 50),
        (3, 200, 2, 200),
    ];
    std::fs::write(&p, common::swf_text(10, &jobs)).unwrap();
    p
}

#[test]
fn cluster_rows_only_on_a_cluster() {
    let d = tmpdir("cli", "cluster-rows");
    let t = hand_trace(&d);
    let t = t.to_str().unwrap();
    let (ok, out, err) = schedlab(&["run", t, "-p", "easy"]);
    assert!(ok, "{err}");
    assert!(
        !out.contains("[cluster]") && !out.contains("\ncluster:"),
        "{out}"
    );
    let (ok, out, _) = schedlab(&["run", t, "-p", "easy", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v[0].get("cluster").is_none());
    let (ok, out, err) = schedlab(&["run", t, "-p", "easy", "--cluster", "gpu"]);
    assert!(ok, "{err}");
    // The gpu preset: 16 nodes of 64 cores, 512,000 MB and 4 GPUs.
    assert!(
        out.contains("cluster: 1024 cores, 8000 GB of memory, 64 GPUs on its usable nodes"),
        "{out}"
    );
    for row in [
        "[cluster] cores util.",
        "[cluster] GPU util.",
        "[cluster] frag. GPUs %",
    ] {
        assert!(out.lines().any(|l| l.starts_with(row)), "{row}: {out}");
    }
    let (ok, out, _) = schedlab(&["run", t, "-p", "easy", "--cluster", "gpu", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["cluster"]["gpus"], 64);
    assert_eq!(v[0]["cluster"]["gpu_jobs"], 0);
}

#[test]
fn a_trace_whose_partitions_the_cluster_lacks_runs_in_its_default_partition() {
    // HPC2N's SWF numbers every job's partition 1 (field 16); the gpu preset has no partition
    // "1". Every job runs in the preset's default partition, and stderr says so, once.
    let t = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hpc2n.swf");
    let (ok, out, err) = schedlab(&["run", t, "-p", "easy", "--cluster", "gpu", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // 25 of its 3,170 jobs have no runtime (skipped by the input rules); of the other 3,145,
    // 54 ask for more than 5 days, over the preset's MaxTime of 2 days: left out, and said so
    // (`awk '$4 != -1 && $9 > 172800'` on the file counts them).
    assert_eq!(v[0]["counts"]["jobs"], 3145 - 54, "{err}");
    assert_eq!(v[0]["counts"]["skipped"], 25 + 54, "{err}");
    let notes: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("not in the cluster"))
        .collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(notes[0].contains("1 (3145 jobs)"), "{err}");
    assert!(
        err.contains(
            "54 jobs can never run on the cluster and are left out; first: job 17: \
             requested time 432000 s is over partition gpu's MaxTime (172800 s)"
        ),
        "{err}"
    );
}

#[test]
fn comparison_table_and_json() {
    let d = tmpdir("cli", "table");
    let t = hand_trace(&d);
    let t = t.to_str().unwrap();
    let (ok, out, err) = schedlab(&[
        "run",
        t,
        "--policy",
        "easy",
        "--policy",
        "fcfs",
        "-p",
        "easy[order=sjf]",
    ]);
    assert!(ok, "{err}");
    let header = out.lines().find(|l| l.starts_with("metric")).unwrap();
    assert!(
        header.contains("easy") && header.contains("fcfs") && header.contains("easy[order=sjf]")
    );
    // EASY backfills two jobs (hand-worked in policy_by_hand), FCFS none.
    assert!(out.lines().any(|l| l.starts_with("delayed by later jobs")));
    let backfilled = out.lines().find(|l| l.starts_with("backfilled")).unwrap();
    assert_eq!(
        backfilled.split_whitespace().skip(1).collect::<Vec<_>>(),
        vec!["2", "0", "2"]
    );

    let (ok, out, _) = schedlab(&[
        "run", t, "--policy", "easy", "--policy", "fcfs", "--json", "--seed", "9",
    ]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let runs = v.as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["policy"], "easy");
    assert_eq!(runs[0]["seed"], 9);
    assert_eq!(runs[0]["machine_procs"], 10);
    assert_eq!(runs[0]["counts"]["jobs"], 4);
    assert_eq!(runs[0]["input"]["kill"], true);
    // EASY waits: 0, 99, 0, 49 -> mean 37.
    assert_eq!(runs[0]["metrics"]["wait"]["mean"], 37.0);
    assert_eq!(runs[1]["counts"]["backfilled"], 0);
    // Blocked: J2 under EASY; J2 then J3 (100 -> 150) under FCFS; no later job delays them.
    assert_eq!(runs[0]["fairness"]["strict"]["blocked"], 1);
    assert_eq!(runs[1]["fairness"]["strict"]["blocked"], 2);
    assert_eq!(runs[1]["fairness"]["strict"]["delayed"], 0);
    assert_eq!(runs[0]["fairness"]["violations"]["count"], 0);
}

#[test]
fn csv_exports_per_policy() {
    let d = tmpdir("cli", "csv");
    let t = hand_trace(&d);
    let jobs = d.join("jobs.csv");
    let runs = d.join("runs.csv");
    let (ok, _, err) = schedlab(&[
        "run",
        t.to_str().unwrap(),
        "-p",
        "easy",
        "-p",
        "easy[order=sjf]",
        "--jobs-csv",
        jobs.to_str().unwrap(),
        "--runs-csv",
        runs.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let easy = std::fs::read_to_string(d.join("jobs.easy.csv")).unwrap();
    assert!(d.join("jobs.easy_order-sjf.csv").exists());
    let mut lines = easy.lines();
    assert_eq!(
        lines.next().unwrap(),
        "job_id,workload_name,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,user_id,backfilled,preemptions,wasted_time,eet,tardiness,start_reason,first_reservation,waited_for"
    );
    // Job 4 (2 procs) backfilled at 52 on the processors freed by job 3 (ids 6-7 after job 1's 0-5).
    // It started on the extra processors of job 2's reservation (start_reason extra).
    // EET: 3 users share 10 processors (10/3 each); user 1's job 1 (6 x 100) takes all of it
    // until 180, then job 4 gets 2 a second for 200 s: EET 380; it ends at 252, tardiness 0.
    let j4 = lines.find(|l| l.starts_with("4,")).unwrap();
    assert_eq!(
        j4,
        "4,hand,3,2,200,1,COMPLETED_SUCCESSFULLY,52,200,252,49,249,1.245,6-7,1,1,0,0,380,0,extra,,"
    );
    let r = std::fs::read_to_string(d.join("runs.easy.csv")).unwrap();
    assert_eq!(
        r.lines().next().unwrap(),
        "job_id,attempt,start,end,processors,allocated_resources,outcome"
    );
    assert_eq!(r.lines().count(), 5);
    assert!(r.lines().any(|l| l == "3,1,2,52,4,6-9,completed"));
}

#[test]
fn clear_errors() {
    let d = tmpdir("cli", "err");
    let t = hand_trace(&d);
    let t = t.to_str().unwrap();
    let (ok, _, err) = schedlab(&["run", t, "-p", "easy[order=ljf]"]);
    assert!(!ok);
    assert!(
        err.contains("order=ljf is not valid") && err.contains("fcfs, sjf"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&["run", t, "-p", "backfill"]);
    assert!(
        !ok && err.contains("unknown policy \"backfill\"") && err.contains("conservative"),
        "{err}"
    );
    let missing = d.join("nope.swf");
    let (ok, _, err) = schedlab(&["run", missing.to_str().unwrap(), "-p", "easy"]);
    assert!(!ok && err.contains("nope.swf"), "{err}");
    let bad = d.join("bad.swf");
    std::fs::write(
        &bad,
        format!("{}1 2 x\n", common::swf_text(4, &[(0, 10, 1, 10)])),
    )
    .unwrap();
    let (ok, _, err) = schedlab(&["run", bad.to_str().unwrap(), "-p", "easy"]);
    assert!(ok, "tolerant by default: {err}");
    assert!(err.contains("bad.swf") && err.contains("line 3"), "{err}");
    let (ok, _, err) = schedlab(&["run", bad.to_str().unwrap(), "-p", "easy", "--strict"]);
    assert!(
        !ok && err.contains("bad.swf") && err.contains("line 3"),
        "{err}"
    );
}

#[test]
fn policies_lists_keys_defaults_and_sources() {
    let (ok, out, _) = schedlab(&["policies"]);
    assert!(ok);
    for name in ["fcfs", "easy", "conservative", "historic"] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name} missing");
    }
    assert!(out.contains("order=fcfs|sjf|spf  (default fcfs)"));
    let (ok, out, _) = schedlab(&["policies", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[1]["keys"][0]["name"], "queue");
    assert_eq!(v[1]["keys"][2]["name"], "halflife");
    assert_eq!(v[1]["keys"][3]["name"], "order");
    // the queue key lists the stored priority expressions
    let presets = v[1]["keys"][0]["presets"].as_array().unwrap();
    assert!(presets
        .iter()
        .any(|p| p["name"] == "wfp3" && p["expr"] == "-(wait/requested)^3*procs"));
    assert_eq!(presets.len(), 7);
}

/// `--slurm-conf` and `--sshare` give the `slurm` policy its site: the canonical spec carries
/// slurm.conf's parameters (the spec's own keys win), other policies are unchanged, and a bad
/// sshare file is an error naming its file and line.
#[test]
fn slurm_site_flags() {
    let run =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm/fairshare-1/run1");
    let p = |f: &str| run.join(f).to_str().unwrap().to_string();
    let (sacct, conf, sshare) = (p("sacct.txt"), p("slurm.conf"), p("sshare-start.txt"));
    let site = [
        "run",
        &sacct,
        "-p",
        "slurm[bf_window=5]",
        "-p",
        "easy",
        "--slurm-conf",
        &conf,
    ];
    let json = ["--procs", "32", "--sshare", &sshare, "--json"];
    let (ok, out, err) = schedlab(&[&site[..], &json[..]].concat());
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let spec = v[0]["policy"].as_str().unwrap();
    assert!(
        spec.contains("PriorityWeightFairshare=100000")
            && spec.contains("PriorityDecayHalfLife=00:10:00")
            && spec.contains("bf_window=5")
            && spec.contains("bf_interval=5"),
        "{spec}"
    );
    assert_eq!(v[1]["policy"], "easy");
    // The table labels that long spec as written and gives it in full under the table.
    let (ok, out, err) = schedlab(&site);
    assert!(ok, "{err}");
    let header = out.lines().find(|l| l.starts_with("metric")).unwrap();
    let labels: Vec<&str> = header
        .split("  ")
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .collect();
    assert_eq!(
        labels,
        ["metric", "slurm[bf_window=5] (1)", "easy"],
        "{out}"
    );
    let full = out.lines().find_map(|l| l.strip_prefix("(1) ")).unwrap();
    assert!(
        full.starts_with("slurm[") && full.contains("bf_window=5"),
        "{out}"
    );
    assert!(full.contains("PriorityWeightFairshare=100000"), "{out}");
    let d = tmpdir("cli", "sshare");
    let bad = d.join("bad.txt");
    std::fs::write(
        &bad,
        "Account|User|RawShares|RawUsage\nroot|||0\n a||many|0\n",
    )
    .unwrap();
    let (ok, _, err) = schedlab(&[
        "run",
        &sacct,
        "-p",
        "slurm",
        "--sshare",
        bad.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("bad.txt:3: RawShares"), "{err}");
}

/// `--fidelity N`: the recorded waits against fcfs's, worked by hand. Jobs on 4 processors:
/// 1 (submit 0, 4 procs, 100 s, recorded wait 0), 2 (submit 10, 2 procs, 50 s, recorded 200),
/// 3 (submit 20, 2 procs, 50 s, recorded 80). fcfs starts 2 and 3 at 100: waits 90 and 80.
/// Errors 0, -110, 0: mean |e| 36.7, median 0, p90 110, 2 of 3 within 60 s; recorded waits
/// 0, 80, 200 against 0, 80, 90: CDF gap 1/3. The furthest job is 2.
#[test]
fn fidelity_against_the_recorded_waits() {
    let d = tmpdir("cli", "fidelity");
    let t = d.join("fid.swf");
    let line = |id: u32, submit: u32, wait: u32, run: u32, procs: u32| {
        format!("{id} {submit} {wait} {run} {procs} -1 -1 {procs} 100 -1 1 1 1 -1 1 -1 -1 -1\n")
    };
    let text = format!(
        "; MaxProcs: 4\n{}{}{}",
        line(1, 0, 0, 100, 4),
        line(2, 10, 200, 50, 2),
        line(3, 20, 80, 50, 2)
    );
    std::fs::write(&t, text).unwrap();
    let (ok, out, err) = schedlab(&["run", t.to_str().unwrap(), "-p", "fcfs", "--fidelity", "1"]);
    assert!(ok, "{err}");
    let row = out.lines().find(|l| l.starts_with("fcfs ")).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        cells,
        ["fcfs", "3", "93.3", "56.7", "36.7", "0", "110", "66.7%", "0.333"],
        "{out}"
    );
    let far: Vec<&str> = out.lines().last().unwrap().split_whitespace().collect();
    assert_eq!(&far[..4], ["2", "200", "90", "-110"], "{out}");
    // Without recorded waits: a note, not zeros.
    let t2 = d.join("nowait.swf");
    std::fs::write(
        &t2,
        "; MaxProcs: 4\n1 0 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n",
    )
    .unwrap();
    let (ok, out, err) = schedlab(&["run", t2.to_str().unwrap(), "-p", "fcfs", "--fidelity", "3"]);
    assert!(ok, "{err}");
    assert!(out.contains("the trace records no wait"), "{out}");
}
