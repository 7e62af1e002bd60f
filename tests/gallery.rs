//! The papers gallery's definitions (`www/gallery/entries.json`, read by `papers.html` and
//! `scripts/gallery.py`): their shape, valid specs, the documents showing the same numbers as
//! the gallery, and a native re-run of the cheap entries (the CLI, `--json`).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const PAPERS: [&str; 4] = ["pv-easy", "rua", "orders", "eet"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn entries() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("www/gallery/entries.json")).unwrap();
    let v: Value = serde_json::from_str(&text).expect("entries.json is JSON");
    v["entries"].as_array().expect("an entries array").clone()
}

/// A row's key, else the entry's, else `default`.
fn field<'a>(row: &'a Value, entry: &'a Value, key: &str) -> Option<&'a Value> {
    row.get(key).or_else(|| entry.get(key))
}

fn num(row: &Value, entry: &Value, key: &str, default: f64) -> f64 {
    field(row, entry, key)
        .and_then(Value::as_f64)
        .unwrap_or(default)
}

fn trace_file(trace: &str) -> &'static str {
    match trace {
        "kth" => "KTH-SP2-1996-2.1-cln.swf.gz",
        "lanl" => "LANL-CM5-1994-4.1-cln.swf.gz",
        "hpc2n" => "hpc2n.swf.gz",
        "5K_sample" => "5K_sample.swf.gz",
        other => panic!("unknown gallery trace {other}"),
    }
}

/// `12345.678` with `digits` decimals, plain and with thousands separators.
fn shown(x: f64, digits: usize) -> [String; 2] {
    let plain = format!("{x:.digits$}");
    let (int, frac) = plain
        .split_once('.')
        .map_or((plain.as_str(), ""), |(a, b)| (a, b));
    let (sign, int) = int.strip_prefix('-').map_or(("", int), |i| ("-", i));
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let grouped = if frac.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{frac}")
    };
    [plain, grouped]
}

#[test]
fn the_gallery_covers_the_four_papers_with_complete_entries() {
    let all = entries();
    assert!(all.len() >= 12, "{} entries", all.len());
    let mut ids = std::collections::HashSet::new();
    for e in &all {
        let id = e["id"].as_str().unwrap();
        assert!(ids.insert(id), "duplicate id {id}");
        assert!(
            PAPERS.contains(&e["paper"].as_str().unwrap()),
            "{id}: paper"
        );
        for key in ["title", "source", "paperTrace", "verdict"] {
            let text = e[key].as_str().unwrap_or("");
            assert!(text.len() > 10, "{id}: {key} missing or too short");
        }
        assert!(e["seconds"].as_f64().unwrap() > 0.0, "{id}: seconds");
        assert!(
            root().join(e["doc"].as_str().unwrap()).is_file(),
            "{id}: doc"
        );
        let trace = root()
            .join("www/demo")
            .join(trace_file(e["trace"].as_str().unwrap()));
        assert!(trace.is_file(), "{id}: {}", trace.display());
        let rows = e["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "{id}: no rows");
        for r in rows {
            let spec = r["spec"].as_str().unwrap();
            schedlab::policy::canonical(spec).unwrap_or_else(|err| panic!("{id}: {spec}: {err}"));
            assert!(field(r, e, "metric").is_some(), "{id}: {spec}: no metric");
            assert!(!r["paper"].is_null(), "{id}: {spec}: no paper value");
            assert!(r["ours"].is_number(), "{id}: {spec}: no recorded value");
        }
    }
    for p in PAPERS {
        assert!(all.iter().any(|e| e["paper"] == p), "no entry for {p}");
    }
}

#[test]
fn the_documents_show_the_gallerys_numbers() {
    for e in entries() {
        let id = e["id"].as_str().unwrap();
        let doc = std::fs::read_to_string(root().join(e["doc"].as_str().unwrap())).unwrap();
        for r in e["rows"].as_array().unwrap() {
            let digits = num(r, &e, "digits", 2.0) as usize;
            let [plain, grouped] = shown(r["ours"].as_f64().unwrap(), digits);
            // Tables drop a whole number's ".0" (VEET_u 100).
            let trimmed = plain.strip_suffix(".0").unwrap_or(&plain);
            assert!(
                doc.contains(&plain)
                    || doc.contains(&grouped)
                    || doc.contains(&format!(" {trimmed} ")),
                "{id}: {} = {plain} is not in {}",
                r["label"],
                e["doc"]
            );
        }
    }
}

/// The metric at a dotted path of a `--json` report (top-level objects by name, else in
/// `metrics`), as the page and scripts/gallery.py read it.
fn metric(report: &Value, path: &str) -> f64 {
    let first = path.split('.').next().unwrap();
    let mut node = if first != "metrics" && report.get(first).is_some() {
        report
    } else {
        &report["metrics"]
    };
    for k in path.split('.') {
        node = &node[k];
    }
    node.as_f64()
        .unwrap_or_else(|| panic!("no number at {path}"))
}

fn rerun(e: &Value, dir: &Path) -> Vec<f64> {
    let rows = e["rows"].as_array().unwrap();
    let seeds = |r: &Value| num(r, e, "seeds", 1.0) as u64;
    let top = rows.iter().map(seeds).max().unwrap();
    let mut reports = std::collections::HashMap::new();
    for seed in 1..=top {
        let mut specs: Vec<&str> = Vec::new();
        for r in rows.iter().filter(|r| seeds(r) >= seed) {
            let s = r["spec"].as_str().unwrap();
            if !specs.contains(&s) {
                specs.push(s);
            }
        }
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_schedlab"));
        cmd.current_dir(dir).arg("run").arg(format!(
            "www/demo/{}",
            trace_file(e["trace"].as_str().unwrap())
        ));
        for a in e["args"].as_array().unwrap() {
            cmd.arg(a.as_str().unwrap());
        }
        cmd.args(["--seed", &seed.to_string(), "--json"]);
        for s in &specs {
            cmd.args(["-p", s]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        for (s, rep) in specs.iter().zip(v.as_array().unwrap()) {
            reports.insert((s.to_string(), seed), rep.clone());
        }
    }
    rows.iter()
        .map(|r| {
            let n = seeds(r);
            let path = field(r, e, "metric").unwrap().as_str().unwrap();
            let sum: f64 = (1..=n)
                .map(|s| {
                    metric(
                        &reports[&(r["spec"].as_str().unwrap().to_string(), s)],
                        path,
                    )
                })
                .sum();
            sum / n as f64 / num(r, e, "scale", 1.0)
        })
        .collect()
}

#[test]
fn the_cheap_entries_reproduce_their_recorded_numbers() {
    // The HPC2N entries of a few seconds (this test runs the debug build; scripts/gallery.py
    // --check re-runs every entry with a release build).
    let mut checked = 0;
    for e in entries() {
        if e["trace"] != "hpc2n" || e["seconds"].as_f64().unwrap() > 5.0 {
            continue;
        }
        let got = rerun(&e, &root());
        for (r, x) in e["rows"].as_array().unwrap().iter().zip(got) {
            let digits = num(r, &e, "digits", 2.0) as usize;
            assert_eq!(
                format!("{x:.digits$}"),
                format!("{:.digits$}", r["ours"].as_f64().unwrap()),
                "{}: {}",
                e["id"],
                r["label"]
            );
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} cheap entries");
}
