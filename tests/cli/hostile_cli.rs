//! Inputs that cannot hurt (issue 37): refused with the page's message, one policy's failure
//! kept to that policy, no file overwritten, and clear messages for values out of range.

use crate::common;
use common::{schedlab, tmpdir};
use schedlab::input::InputOptions;
use schedlab::swf::ReadOptions;

/// 1,100 jobs of 2^53 - 1 s on 4 processors: their sum wraps an i64 from job 1025.
fn huge_runtimes() -> String {
    let jobs: Vec<common::J> = (0..1100)
        .map(|_| (0, 9_007_199_254_740_991, 4, -1))
        .collect();
    common::swf_text(4, &jobs)
}

#[test]
fn work_beyond_2_60_is_refused_with_the_pages_message() {
    let d = tmpdir("hostile", "wrap");
    let t = d.join("huge.swf");
    std::fs::write(&t, huge_runtimes()).unwrap();
    // The page's path: bytes read in memory, the input rules.
    let page = schedlab::run::read_bytes(
        "huge.swf",
        huge_runtimes().as_bytes(),
        &ReadOptions::default(),
        &InputOptions::default(),
    )
    .expect_err("the page refuses the trace")
    .to_string();
    assert!(page.contains("beyond 2^60 s"), "{page}");
    let reason = page.strip_prefix("huge.swf: ").unwrap();
    for p in ["fcfs", "conservative"] {
        let (ok, out, err) = schedlab(&["run", t.to_str().unwrap(), "-p", p, "--json"]);
        assert!(!ok, "{p}: {out}");
        assert!(err.contains(reason), "{p}: {err}");
    }
}

#[test]
fn one_policys_failure_keeps_the_others_results() {
    let d = tmpdir("hostile", "isolate");
    let t = d.join("t.swf");
    std::fs::write(&t, common::swf_text(4, &[(0, 10, 2, 20), (5, 10, 4, 20)])).unwrap();
    // fcfs's jobs CSV cannot be written: a folder has its name.
    std::fs::create_dir_all(d.join("j.fcfs.csv")).unwrap();
    let j = d.join("j.csv");
    let (ok, out, err) = schedlab(&[
        "run",
        t.to_str().unwrap(),
        "-p",
        "fcfs",
        "-p",
        "easy",
        "--jobs-csv",
        j.to_str().unwrap(),
    ]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("schedlab: fcfs:") && err.contains("j.fcfs.csv"),
        "{err}"
    );
    assert!(err.contains("1 of 2 policies failed: fcfs"), "{err}");
    assert!(out.contains("easy"), "the other results are printed: {out}");
    assert!(d.join("j.easy.csv").is_file());
}

#[test]
fn no_file_is_overwritten() {
    let d = tmpdir("hostile", "files");
    let t = d.join("t.swf");
    let text = common::swf_text(4, &[(0, 10, 2, 20), (5, 10, 4, 20), (6, 1, 1, 20)]);
    std::fs::write(&t, &text).unwrap();
    let j = d.join("j.csv");
    let specs = [
        "easy[queue=expr(wait*procs)]",
        "easy[queue=expr(wait/procs)]",
        "easy[queue=expr(wait+procs)]",
    ];
    let mut args = vec![
        "run",
        t.to_str().unwrap(),
        "--jobs-csv",
        j.to_str().unwrap(),
    ];
    for s in &specs {
        args.extend(["-p", s]);
    }
    let (ok, _, err) = schedlab(&args);
    assert!(ok, "{err}");
    let mut written: Vec<String> = err
        .lines()
        .filter_map(|l| l.strip_prefix("wrote "))
        .map(String::from)
        .collect();
    assert_eq!(written.len(), 3, "{err}");
    written.sort();
    written.dedup();
    assert_eq!(written.len(), 3, "one file per spec: {err}");
    for w in &written {
        assert!(std::path::Path::new(w).is_file(), "{w}");
    }
    // Never the trace itself, however the path is spelled.
    let again = d.join(".").join("t.swf");
    for flag in ["--jobs-csv", "--runs-csv", "--heatmap-csv"] {
        let (ok, _, err) = schedlab(&[
            "run",
            t.to_str().unwrap(),
            "-p",
            "fcfs",
            flag,
            again.to_str().unwrap(),
        ]);
        assert!(
            !ok && err.contains("the same file as the trace"),
            "{flag}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&t).unwrap(), text, "{flag}");
    }
    // Nor one file for two outputs.
    let (ok, _, err) = schedlab(&[
        "run",
        t.to_str().unwrap(),
        "-p",
        "fcfs",
        "--jobs-csv",
        j.to_str().unwrap(),
        "--runs-csv",
        j.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("--runs-csv") && err.contains("the same file as --jobs-csv"),
        "{err}"
    );
}

#[test]
fn input_values_out_of_range_say_why() {
    let d = tmpdir("hostile", "values");
    let t = d.join("t.swf");
    std::fs::write(
        &t,
        common::swf_text(4, &[(0, 10, 2, 20), (5000, 10, 4, 20)]),
    )
    .unwrap();
    let t = t.to_str().unwrap();
    let (ok, _, err) = schedlab(&["run", t, "-p", "fcfs", "--load-scale", "1e-300"]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("load scale 1e-300")
            && err.contains("beyond 2^53 s")
            && !err.contains("negative"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&["run", t, "-p", "fcfs", "--from", "100000"]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("the selection left none") && err.contains("2 jobs outside"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&["run", t, "-p", "fcfs", "--procs", "2147483648"]);
    assert!(!ok, "{err}");
    let (ok2, _, err2) = schedlab(&["run", t, "-p", "fcfs", "--procs", "4294967295"]);
    assert!(!ok2, "{err2}");
    for e in [err, err2] {
        assert!(e.contains("2147483647"), "the limit is named: {e}");
    }
}

#[test]
fn option_values_neither_panic_nor_hang() {
    let d = tmpdir("hostile", "options");
    let t = d.join("t.swf");
    std::fs::write(&t, common::swf_text(4, &[(0, 10, 2, 20), (5, 10, 4, 20)])).unwrap();
    let t = t.to_str().unwrap();
    let svg = d.join("g.svg");
    let svg = svg.to_str().unwrap();
    for (flag, v) in [
        ("--view-from", "NaN"),
        ("--view-to", "inf"),
        ("--view-to", "-inf"),
    ] {
        let arg = format!("{flag}={v}");
        let (ok, _, err) = schedlab(&[
            "plot", t, "-p", "fcfs", "--chart", "gantt", "--out", svg, &arg,
        ]);
        assert!(!ok && err.contains(&format!("{flag} {v}")), "{err}");
        assert!(
            err.contains("-2^53 to 2^53") && !err.contains("panicked"),
            "{err}"
        );
    }
    let (ok, _, err) = schedlab(&[
        "plot",
        t,
        "-p",
        "fcfs",
        "--chart",
        "gantt",
        "--out",
        svg,
        "--view-from",
        "1e15",
    ]);
    assert!(
        !ok && err.contains("is empty") && !err.contains("panicked"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&[
        "run",
        t,
        "-p",
        "fcfs",
        "--procs",
        "2147483647",
        "--cores",
        "2048",
    ]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("at most 16777216 with the node model"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&["sweep", t, "-p", "easy", "--seeds", "18446744073709551615"]);
    assert!(
        !ok && err.contains("more than 16777216 runs in one sweep"),
        "{err}"
    );
    let part = d.join("part.json");
    let (ok, _, err) = schedlab(&[
        "sweep",
        t,
        "-p",
        "easy",
        "--shard",
        "1/18446744073709551615",
        "--out",
        part.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let (ok, _, err) = schedlab(&["merge", part.to_str().unwrap()]);
    assert!(
        !ok && err.contains("shard 2/18446744073709551615 is missing"),
        "{err}"
    );
}

/// Issue 37 item 3: a shard of another file at the same relative path (same job count) merged
/// silently into wrong numbers. The parts carry the trace's content hash and the version.
#[test]
fn merge_checks_the_traces_content() {
    let d = tmpdir("hostile", "merge");
    let sweep_in = |dir: &str, shard: &str, runtime: i64| {
        let here = d.join(dir);
        std::fs::create_dir_all(&here).unwrap();
        let jobs = [(0, runtime, 2, 100), (5, 10, 4, 100), (6, 30, 2, 100)];
        std::fs::write(here.join("t.swf"), common::swf_text(4, &jobs)).unwrap();
        let part = here.join(format!("part-{}.json", &shard[..1]));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .current_dir(&here)
            .args([
                "sweep", "t.swf", "-p", "easy", "--seeds", "2", "--shard", shard, "--out",
            ])
            .arg(&part)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        part
    };
    let (a1, a2) = (sweep_in("a", "1/2", 50), sweep_in("a", "2/2", 50));
    let b2 = sweep_in("b", "2/2", 90);
    let (ok, _, err) = schedlab(&["merge", a1.to_str().unwrap(), a2.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, _, err) = schedlab(&["merge", a1.to_str().unwrap(), b2.to_str().unwrap()]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("another sweep than") && err.contains("trace_hash is \""),
        "{err}"
    );
    let text = std::fs::read_to_string(&a2).unwrap();
    assert!(
        text.contains(&format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION"))),
        "{text}"
    );
}

/// Issue 37 item 6: no command writes over its input.
#[test]
fn no_command_writes_over_its_input() {
    let d = tmpdir("hostile", "input");
    let t = d.join("t.swf");
    let text = common::swf_text(4, &[(0, 10, 2, 20), (5, 10, 4, 20)]);
    std::fs::write(&t, &text).unwrap();
    let t = t.to_str().unwrap();
    for args in [
        vec!["convert", t, "--to", "batsim", "--out", t],
        vec!["plot", t, "-p", "fcfs", "--chart", "gantt", "--out", t],
        vec!["sweep", t, "-p", "easy", "--out", t],
        vec!["trace", t, "--chart", "week", "--out", t],
    ] {
        let (ok, _, err) = schedlab(&args);
        assert!(
            !ok && err.contains("the same file as the input"),
            "{args:?}: {err}"
        );
        assert_eq!(std::fs::read_to_string(t).unwrap(), text, "{args:?}");
    }
}

/// Issue 37 item 11: Batsim jobs have no lines; messages named "line 0".
#[test]
fn batsim_messages_name_jobs_not_line_0() {
    let d = tmpdir("hostile", "batsim");
    let t = d.join("w.json");
    std::fs::write(
        &t,
        r#"{"nb_res": 4, "jobs": [
        {"id": 1, "subtime": 0, "res": 1, "profile": "d"},
        {"id": 1, "subtime": 5, "res": 2, "profile": "d"},
        {"id": 2, "subtime": 6, "res": 9, "profile": "d"}],
        "profiles": {"d": {"type": "delay", "delay": 10}}}"#,
    )
    .unwrap();
    let (ok, _, err) = schedlab(&["run", t.to_str().unwrap(), "-p", "fcfs"]);
    assert!(ok, "{err}");
    assert!(!err.contains("line 0"), "{err}");
    assert!(
        err.contains("jobs[1] (job 1): id: duplicate job number 1 (first at jobs[0])")
            && err.contains("jobs[2] (job 2): res: 9 processors"),
        "{err}"
    );
}
