//! The papers gallery's definitions (`www/gallery/entries.json`, read by `papers.html` and
//! `scripts/gallery.py`): their shape, valid specs, the documents showing the same numbers as
//! the gallery, and a native re-run of every entry (the CLI, `--json`).

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

/// Every entry's recorded numbers (`ours`) are what the CLI gives today, as
/// `scripts/gallery.py BIN --check` checks them: a change that moves a figure of the gallery
/// (a schedule, or only a count such as `penalty.killed_by_penalty`) fails here until the entry
/// is re-recorded (`gallery.py --update ID`) and its document and verdict follow. Every
/// mismatch is listed at once.
#[test]
fn every_entry_reproduces_its_recorded_numbers() {
    let mut failures = Vec::new();
    let all = entries();
    for e in &all {
        let got = rerun(e, &root());
        for (r, x) in e["rows"].as_array().unwrap().iter().zip(got) {
            let digits = num(r, e, "digits", 2.0) as usize;
            let (now, recorded) = (
                format!("{x:.digits$}"),
                format!("{:.digits$}", r["ours"].as_f64().unwrap()),
            );
            if now != recorded {
                failures.push(format!(
                    "{}: {}: entries.json {recorded}, CLI {now}",
                    e["id"].as_str().unwrap(),
                    r["label"].as_str().unwrap_or("")
                ));
            }
        }
    }
    assert!(all.len() >= 12, "only {} entries", all.len());
    assert!(
        failures.is_empty(),
        "recorded numbers the CLI no longer gives (re-record with scripts/gallery.py --update ID \
         once the change is understood):\n{}",
        failures.join("\n")
    );
}

/// The numbers a text quotes: `(token, value, decimals, suffix)` where the token is as written
/// (thousands separators dropped) and the suffix is `x` or `%` when one follows. Numbers glued
/// to a letter (`p95`, `2R`, `5K_sample`, `VEET_u`) are names, not figures, and are skipped.
fn quoted_numbers(text: &str) -> Vec<(String, f64, usize, Option<char>)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let glued_before = i > 0 && (b[i - 1].is_ascii_alphabetic() || b[i - 1] == b'_');
        let mut j = i;
        let mut token = String::new();
        loop {
            while j < b.len() && b[j].is_ascii_digit() {
                token.push(b[j] as char);
                j += 1;
            }
            // A thousands separator: a comma followed by exactly three digits.
            let three = b.get(j) == Some(&b',')
                && b.len() >= j + 4
                && b[j + 1..j + 4].iter().all(u8::is_ascii_digit)
                && !b.get(j + 4).is_some_and(u8::is_ascii_digit);
            if three {
                j += 1;
                continue;
            }
            break;
        }
        let mut decimals = 0;
        if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
            token.push('.');
            j += 1;
            while j < b.len() && b[j].is_ascii_digit() {
                token.push(b[j] as char);
                decimals += 1;
                j += 1;
            }
        }
        let next = b.get(j).copied();
        let glued_after = next.is_some_and(|c| (c.is_ascii_alphabetic() && c != b'x') || c == b'_');
        let suffix = match next {
            Some(b'x') => Some('x'),
            Some(b'%') => Some('%'),
            _ => None,
        };
        if !glued_before && !glued_after {
            out.push((token.clone(), token.parse().unwrap(), decimals, suffix));
        }
        i = j;
    }
    out
}

/// Every number in a string (for the paper's values and the entry's own parameters).
fn numbers_in(text: &str) -> Vec<f64> {
    let mut v: Vec<f64> = quoted_numbers(text).into_iter().map(|t| t.1).collect();
    // Names such as `r=1` and `LCT=1.5` carry parameters too.
    for part in text.split(|c: char| !(c.is_ascii_digit() || c == '.')) {
        if let Ok(x) = part.trim_matches('.').parse::<f64>() {
            v.push(x);
        }
    }
    v
}

#[test]
fn quoted_numbers_reads_figures_and_skips_names() {
    let got: Vec<(String, Option<char>)> =
        quoted_numbers("p95 1,308 -> 1,150 (1.14x), 27.9%; 5K_sample 2R, 4/3 and 2,000 MB/s")
            .into_iter()
            .map(|t| (t.0, t.3))
            .collect();
    let want = [
        ("1308", None),
        ("1150", None),
        ("1.14", Some('x')),
        ("27.9", Some('%')),
        ("4", None),
        ("3", None),
        ("2000", None),
    ];
    assert_eq!(
        got,
        want.iter()
            .map(|(a, b)| (a.to_string(), *b))
            .collect::<Vec<_>>()
    );
}

/// Every figure a verdict quotes comes from the entry: a recorded value (`ours`, at the
/// precision the verdict writes it), a paper value, a parameter of the entry (its title,
/// source, paper trace, arguments, seeds, row labels and specs), a number in one of the
/// entry's `cited` phrases (each of which its document must show as written: figures of other
/// traces or tables, section numbers), or,
/// written as a ratio (`1.14x`) or a percentage (`22%`), the ratio of two recorded or paper
/// values (a / b, 100 a / b or 100 |a / b - 1|). A verdict typed by hand with a figure that is
/// none of these fails here.
#[test]
fn every_number_in_a_verdict_comes_from_the_entry() {
    let mut failures = Vec::new();
    for e in entries() {
        let id = e["id"].as_str().unwrap();
        let doc = std::fs::read_to_string(root().join(e["doc"].as_str().unwrap())).unwrap();
        let rows = e["rows"].as_array().unwrap();
        let mut values: Vec<f64> = Vec::new();
        let mut context: Vec<f64> = Vec::new();
        for r in rows {
            values.push(r["ours"].as_f64().unwrap());
            match &r["paper"] {
                Value::Number(n) => values.push(n.as_f64().unwrap()),
                Value::String(s) => values.extend(numbers_in(s)),
                _ => {}
            }
            for key in ["label", "spec"] {
                context.extend(numbers_in(r[key].as_str().unwrap_or("")));
            }
        }
        for key in ["title", "source", "paperTrace"] {
            context.extend(numbers_in(e[key].as_str().unwrap()));
        }
        for a in e["args"].as_array().unwrap() {
            context.extend(numbers_in(a.as_str().unwrap()));
        }
        if let Some(n) = e["seeds"].as_f64() {
            context.push(n);
        }
        // Phrases of the entry's document the verdict repeats (figures of other traces or
        // tables, section numbers): each must be in the document as written.
        for c in e["cited"].as_array().into_iter().flatten() {
            let c = c.as_str().expect("cited phrases are strings");
            assert!(doc.contains(c), "{id}: cited '{c}' is not in {}", e["doc"]);
            context.extend(numbers_in(c));
        }
        let shows = |x: f64, d: usize, token: &str| format!("{x:.d$}") == token;
        for (token, _, d, suffix) in quoted_numbers(e["verdict"].as_str().unwrap()) {
            let direct = values.iter().chain(&context).any(|&x| shows(x, d, &token));
            let derived = suffix.is_some()
                && values.iter().any(|&a| {
                    values.iter().any(|&b| {
                        b != 0.0
                            && match suffix {
                                Some('x') => shows(a / b, d, &token),
                                _ => {
                                    shows(100.0 * a / b, d, &token)
                                        || shows(100.0 * (a / b - 1.0).abs(), d, &token)
                                }
                            }
                    })
                });
            if !direct && !derived {
                failures.push(format!(
                    "{id}: {token}{}",
                    suffix.map_or(String::new(), String::from)
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "verdict figures not recorded in their entry:\n{}",
        failures.join("\n")
    );
}
