//! `schedlab convert`, `schedlab generate` and the transform flags through the binary.

use crate::common;
use common::{schedlab, tmpdir};

#[test]
fn convert_sacct_to_swf_and_batsim_and_back() {
    let d = tmpdir("workload-cli", "convert");
    let sacct = common::trace("workloads/hand.sacct");
    let swf = d.join("hand.swf");
    let (ok, _, err) = schedlab(&[
        "convert",
        sacct.to_str().unwrap(),
        "--to",
        "swf",
        "--out",
        swf.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    // Job 102 (64 CPUs, 12:00 to 14:00 the next day) runs alone: the recorded peak is 64.
    assert!(
        err.contains(
            "6 jobs written as SWF (MaxProcs 64 from the sacct log's recorded peak of CPUs); \
             the TIMEOUT mark in field 20 (TimeoutField)"
        ),
        "{err}"
    );
    assert!(err.contains("job 106 never started (PENDING)"), "{err}");
    let text = std::fs::read_to_string(&swf).unwrap();
    assert!(text.contains("; MaxProcs: 64\n"));
    assert!(text.contains("; Note: converted by schedlab from Slurm accounting (sacct) file"));
    assert!(
        text.contains("4 3000 6000 93600 64 -1 -1 64 172800 -1 5 3 2 3 -1 2 -1 -1 102 0\n"),
        "{text}"
    );
    // Job 101_2, a TIMEOUT, is marked in field 20 (SWF's status 0 says failed only).
    assert!(
        text.contains("; TimeoutField: 20\n")
            && text.contains(" 3600 -1 0 1 1 1 -1 1 -1 -1 101_2 1\n"),
        "{text}"
    );
    // --procs sets MaxProcs; stdout when no --out.
    let (ok, out, err) = schedlab(&[
        "convert",
        sacct.to_str().unwrap(),
        "--to",
        "swf",
        "--procs",
        "128",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("; MaxProcs: 128\n") && !out.contains("; MaxProcs: 64"));
    // To Batsim and back to SWF: the same jobs.
    let json = d.join("hand.json");
    let (ok, _, err) = schedlab(&[
        "convert",
        swf.to_str().unwrap(),
        "--to",
        "batsim",
        "--out",
        json.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let (ok, back, err) = schedlab(&["convert", json.to_str().unwrap(), "--to", "swf"]);
    assert!(ok, "{err}");
    let jobs = |t: &str| -> Vec<Vec<String>> {
        t.lines()
            .filter(|l| !l.starts_with(';'))
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                [0, 1, 3, 4, 8, 11]
                    .iter()
                    .map(|&i| f[i].to_owned())
                    .collect()
            })
            .collect()
    };
    assert_eq!(jobs(&back), jobs(&text));
    // `run` reads the sacct file directly, whatever its name.
    let renamed = d.join("accounting.txt");
    std::fs::copy(&sacct, &renamed).unwrap();
    let (ok, out, err) = schedlab(&["run", renamed.to_str().unwrap(), "-p", "easy", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["counts"]["jobs"], 6, "{out}");
    // --strict stops at the orphan step.
    let (ok, _, err) = schedlab(&[
        "convert",
        sacct.to_str().unwrap(),
        "--to",
        "swf",
        "--strict",
    ]);
    assert!(!ok && err.contains("line 17"), "{err}");
}

#[test]
fn generate_and_transform_flags() {
    let d = tmpdir("workload-cli", "generate");
    let w = d.join("w.swf");
    let args = [
        "generate", "--model", "lublin", "--procs", "64", "--jobs", "500", "--seed", "3",
    ];
    let (ok, out, err) = schedlab(&args);
    assert!(ok, "{err}");
    let (ok, _, err) = schedlab(&[&args[..], &["--out", w.to_str().unwrap()]].concat());
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read_to_string(&w).unwrap(),
        out,
        "seeded: same output"
    );
    let submits = |extra: &[&str]| -> Vec<i64> {
        let (ok, out, err) = schedlab(
            &[
                &[
                    "run",
                    w.to_str().unwrap(),
                    "-p",
                    "fcfs",
                    "--jobs-csv",
                    d.join("j.csv").to_str().unwrap(),
                ][..],
                extra,
            ]
            .concat(),
        );
        assert!(ok, "{err}");
        let _ = out;
        let csv = std::fs::read_to_string(d.join("j.csv")).unwrap();
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let k = head.iter().position(|h| *h == "submission_time").unwrap();
        lines
            .map(|l| l.split(',').nth(k).unwrap().parse::<f64>().unwrap() as i64)
            .collect()
    };
    let base = submits(&[]);
    let scaled = submits(&["--load-scale", "2"]);
    assert_eq!(base.len(), 500);
    let want: Vec<i64> = base
        .iter()
        .map(|s| ((*s as f64) / 2.0).round() as i64)
        .collect();
    assert_eq!(scaled, want);
    let window = submits(&["--from", "3600", "--to", "86400"]);
    assert!(!window.is_empty() && window.len() < 500);
    let (ok, _, err) = schedlab(&["run", w.to_str().unwrap(), "-p", "fcfs", "--load-scale=-1"]);
    assert!(
        !ok && err.contains("load scale -1: must be a number > 0"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&["generate", "--jobs", "0"]);
    assert!(!ok && err.contains("jobs 0"), "{err}");
}

#[test]
fn convert_and_trace_tell_the_requests() {
    let d = tmpdir("workload-cli", "requests");
    let sacct = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm/gpu-3/run1/sacct.txt");
    let swf = d.join("gpu.swf");
    let (ok, _, err) = schedlab(&[
        "convert",
        sacct.to_str().unwrap(),
        "--to",
        "swf",
        "--out",
        swf.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("the node count of 60 jobs dropped (SWF has no field for it)"),
        "{err}"
    );
    assert!(err.contains("GPUs in field 20 (GpuField)"), "{err}");
    // The sacct file and its SWF: the same GPUs (78 in the ReqTRES column, summed with awk).
    for file in [&sacct, &swf] {
        let (ok, out, err) = schedlab(&["trace", file.to_str().unwrap()]);
        assert!(ok, "{err}");
        assert!(
            out.contains("42 GPU jobs (78 GPUs; jobs by GPUs 1: 24, 2: 13, 4: 3, 8: 2)"),
            "{out}"
        );
    }
    let (_, out, _) = schedlab(&["trace", sacct.to_str().unwrap()]);
    assert!(
        out.contains("(up to 16000 MB per node); 15 on several nodes; 0 exclusive"),
        "{out}"
    );
    assert!(out.contains("jobs per partition: batch (60)"), "{out}");
}
