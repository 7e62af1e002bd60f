//! Slurm's JSON (`sacct --json`) read as a trace: a real Slurm 22.05 run dumped both ways gives
//! the jobs and the `slurm` schedule of its `--parsable2` export; a hand-written file of
//! 23.02's layout gives the jobs worked out by hand; bad input is named by file, job and field.

use std::io::Write;
use std::path::Path;

use schedlab::job::Request;
use schedlab::swf::{ReadOptions, SwfRecord, Workload};
use schedlab::workload::{self, Format};

use crate::common::{schedlab, tmpdir};

const RUN: &str = "tests/data/slurm/json-16";
const HAND: &str = "tests/data/workloads/sacct-2302.json";

fn read(path: &str) -> Workload {
    workload::read_path(Path::new(path), &ReadOptions::default()).unwrap()
}

fn read_text(name: &str, text: &str, strict: bool) -> Result<Workload, String> {
    let opts = ReadOptions {
        strict,
        ..ReadOptions::default()
    };
    workload::read_bytes(name, text.as_bytes(), &opts).map_err(|e| e.to_string())
}

/// The same run dumped as `sacct -X -P -a --format=...` and as `sacct -X -a --json` gives the
/// same jobs: count, submit, wait (start), runtime (end), CPUs asked and allocated, requested
/// time, memory, GPUs, nodes, status, user, partition, QOS, job id, node list, timeouts
/// (everything but the CPU time and the group, which the -P export does not hold).
#[test]
fn a_real_run_gives_the_same_jobs_both_ways() {
    let p = read(&format!("{RUN}/sacct.txt"));
    let j = read(&format!("{RUN}/sacct.json"));
    assert_eq!(
        workload::detect(&std::fs::read(format!("{RUN}/sacct.json")).unwrap()),
        Format::SacctJson
    );
    assert!(p.records.len() >= 50, "{}", p.records.len());
    assert_eq!(p.records.len(), j.records.len());
    // The array's four elements and a job that ran into its limit are there.
    let ids: Vec<&str> = j.records.iter().map(|r| r.extra[0].as_str()).collect();
    assert_eq!(ids.iter().filter(|i| i.contains('_')).count(), 4, "{ids:?}");
    assert!(!j.timed_out.is_empty());
    let same = |r: &SwfRecord| SwfRecord {
        line: 0,
        average_cpu_time: 0.0,
        group_id: 0,
        ..r.clone()
    };
    for (a, b) in p.records.iter().zip(&j.records) {
        assert_eq!(same(a), same(b), "job {}", a.extra[0]);
    }
    assert!(j.records.iter().any(|r| r.req.gpus > 0));
    assert!(j.records.iter().all(|r| r.req.mem_per_node_mb > 0));
    let lines = |w: &Workload, of: &[u64]| -> Vec<String> {
        let at = |l: &u64| w.records.iter().position(|r| r.line == *l).unwrap();
        of.iter()
            .map(|l| w.records[at(l)].extra[0].clone())
            .collect()
    };
    assert_eq!(lines(&p, &p.timed_out), lines(&j, &j.timed_out));
    let nodes =
        |w: &Workload| -> Vec<String> { w.node_lists.iter().map(|n| n.1.clone()).collect() };
    assert_eq!(nodes(&p), nodes(&j));
    let flags = |w: &Workload| -> Vec<bool> { w.backfilled.iter().map(|b| b.1).collect() };
    assert_eq!(flags(&p), flags(&j));
    assert_eq!(p.partition_names, j.partition_names);
    assert_eq!(p.qos_names, j.qos_names);
    let max = |w: &Workload| {
        w.header
            .lines
            .iter()
            .find(|l| l.contains("MaxProcs"))
            .cloned()
    };
    assert_eq!(max(&p), max(&j));
    // The job cancelled while it waited gives no job, both ways.
    let left = |w: &Workload| {
        (w.issues.iter())
            .filter(|i| i.reason.contains("never started"))
            .count()
    };
    assert_eq!(left(&p), 1, "{:?}", p.issues);
    assert_eq!(left(&j), 1, "{:?}", j.issues);
}

/// The `slurm` policy on the run's own cluster (its slurm.conf and sshare file) replays the JSON
/// dump as it replays the -P export: the jobs CSVs are the same, byte for byte, but for the
/// file's name.
#[test]
fn a_real_run_gives_the_same_slurm_schedule_both_ways() {
    let d = tmpdir("sacct-json", "schedule");
    let csv = |file: &str| {
        let out = d.join(format!("{file}.csv"));
        let (ok, _, err) = schedlab(&[
            "run",
            &format!("{RUN}/{file}"),
            "-p",
            "slurm",
            "--slurm-conf",
            &format!("{RUN}/slurm.conf"),
            "--sshare",
            &format!("{RUN}/sshare-start.txt"),
            "--jobs-csv",
            out.to_str().unwrap(),
        ]);
        assert!(ok, "{file}: {err}");
        let text = std::fs::read_to_string(out).unwrap();
        // Every column but the second, the workload's name.
        (text.lines())
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(1);
                f.join(",")
            })
            .collect::<Vec<_>>()
    };
    let (p, j) = (csv("sacct.txt"), csv("sacct.json"));
    assert!(p.len() > 50, "{}", p.len());
    assert_eq!(p, j);
    std::fs::remove_dir_all(&d).unwrap();
}

/// 23.02's layout, written by hand from Slurm's data_parser v0.0.39 (numbers as `{"set",
/// "infinite", "number"}`, states as lists as 23.11 writes them, one as 23.02's text); its
/// jobs worked out by hand (docs/workloads.md, "Slurm's JSON").
#[test]
fn the_2302_layout_gives_the_jobs_worked_by_hand() {
    let w = read(HAND);
    let t0 = 1000;
    // (job id, (submit, wait, run, CPUs, CPU time per CPU, requested time, memory per CPU in
    // KB, status), (user, group, name, QOS, partition), (nodes, GPUs, MB per node))
    type Want = (
        &'static str,
        (i64, i64, i64, i64, f64, i64, f64, i64),
        [i64; 5],
        (u32, u32, u32),
    );
    let want: [Want; 4] = [
        // 101: submitted at t0, started 10 s later, 60 s; 4 CPUs, 8000 MB over 2 nodes: 4000
        // per node, 8000 * 1024 / 4 KB per CPU; 5 min; 200 CPU-s over 4 CPUs.
        (
            "101",
            (0, 10, 60, 4, 50.0, 300, 2_048_000.0, 1),
            [1, 1, 1, 1, 1],
            (2, 2, 4000),
        ),
        // 104_2 (job 105, the array 104's task 2): same second as 101, after it (104 > 101);
        // cancelled after it started: status 5; no limit (infinite); 1000 MB on one node.
        (
            "104_2",
            (0, 100, 30, 1, -1.0, -1, 1_024_000.0, 5),
            [2, 1, 2, 1, 1],
            (1, 0, 1000),
        ),
        // 106 was cancelled while pending (nothing allocated): left out. 107: eligible 60 s
        // after its submission (1260): arrives then, waits 40 s; TIMEOUT after its 1 min:
        // status 0; 500 MB per CPU (no TRES memory) is 512000 KB, none per node.
        (
            "107",
            (260, 40, 60, 2, -1.0, 60, 512_000.0, 0),
            [1, -1, 3, 2, 2],
            (1, 0, 0),
        ),
        // 108's start is no time: skipped. 109: no user or account of its own: its
        // association's (frank); its limit unset: Partition_Limit, no requested time.
        (
            "109",
            (400, 0, 10, 1, -1.0, -1, -1.0, 1),
            [3, -1, 4, -1, 1],
            (1, 0, 0),
        ),
    ];
    assert_eq!(w.records.len(), want.len());
    for (k, (r, x)) in w.records.iter().zip(want).enumerate() {
        let got: Want = (
            x.0,
            (
                r.submit_time,
                r.wait_time,
                r.run_time,
                r.allocated_processors,
                r.average_cpu_time,
                r.requested_time,
                r.requested_memory,
                r.status,
            ),
            [r.user_id, r.group_id, r.executable, r.queue, r.partition],
            (r.req.nodes, r.req.gpus, r.req.mem_per_node_mb),
        );
        assert_eq!(r.extra, vec![x.0.to_string()], "job {k}");
        assert_eq!(got, x, "job {}", x.0);
        assert_eq!(r.job_number, k as i64 + 1);
        assert_eq!(r.requested_processors, r.allocated_processors);
        assert_eq!(
            r.req,
            Request {
                nodes: x.3 .0,
                gpus: x.3 .1,
                mem_per_node_mb: x.3 .2,
                partition: r.req.partition,
                exclusive: false,
            }
        );
    }
    let header = w.header.lines.join("\n");
    assert!(
        header.contains(&format!("; UnixStartTime: {t0}")),
        "{header}"
    );
    assert!(header.contains("; MaxProcs: 4"), "{header}");
    assert!(header.contains("users numbered in order of first appearance: 1=alice, 2=bob, 3=frank"));
    assert_eq!(w.partition_names, ["batch", "debug"]);
    assert_eq!(w.qos_names, ["normal", "high"]);
    let line_of = |id: &str| w.records.iter().find(|r| r.extra[0] == id).unwrap().line;
    assert_eq!(w.timed_out, [line_of("107")]);
    assert_eq!(w.partition_limit, [line_of("109")]);
    // Its place in `jobs`, from 1.
    assert_eq!(line_of("109"), 6);
    let backfilled: Vec<bool> = w.backfilled.iter().map(|b| b.1).collect();
    assert_eq!(backfilled, [false, true, false, false]);
    let accounts: Vec<&str> = w.accounts.iter().map(|a| a.1.as_str()).collect();
    assert_eq!(accounts, ["phys", "chem", "phys", "eng"]);
    let issues: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
    assert!(
        issues.contains(&"jobs[2] (job 106): job 106 never started (CANCELLED)".to_string()),
        "{issues:?}"
    );
    assert!(
        issues.contains(
            &"jobs[4] (job 108), time.start: not a time: the string \"soon\"".to_string()
        ),
        "{issues:?}"
    );
    // Gzipped, the same.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&std::fs::read(HAND).unwrap()).unwrap();
    let z =
        workload::read_bytes("h.json.gz", &gz.finish().unwrap(), &ReadOptions::default()).unwrap();
    assert_eq!(z.records, w.records);
    assert!(z.gzip);
}

/// A bad job is named by the file, its place and id, and the field; `--strict` stops there;
/// broken JSON stops the read naming where; nothing panics on any cut of the file.
#[test]
fn bad_input_names_file_job_and_field() {
    let text = std::fs::read_to_string(HAND).unwrap();
    let e = read_text("h.json", &text, true).unwrap_err();
    assert_eq!(
        e,
        "h.json: jobs[4] (job 108), time.start: not a time: the string \"soon\" (strict mode)"
    );
    let bad = text.replacen(
        r#""count": 4}, {"type": "mem""#,
        r#""count": "four"}, {"type": "mem""#,
        1,
    );
    let w = read_text("h.json", &bad, false).unwrap();
    let first = w
        .issues
        .iter()
        .map(|i| i.to_string())
        .find(|i| i.contains("job 101"));
    assert_eq!(
        first.as_deref(),
        Some("jobs[0] (job 101), tres.allocated[0].count: not a count: the string \"four\"")
    );
    let bad = text.replacen(r#""current": ["TIMEOUT"]"#, r#""current": ["ASLEEP"]"#, 1);
    let w = read_text("h.json", &bad, false).unwrap();
    assert!(
        w.issues.iter().any(|i| i.to_string()
            == "jobs[3] (job 107), state.current: unknown state \"ASLEEP\" (COMPLETED, FAILED, CANCELLED, ...)"),
        "{:?}",
        w.issues
    );
    let e = read_text("h.json", &text[..text.len() / 2], false).unwrap_err();
    assert!(
        e.starts_with("h.json: no jobs: not sacct's JSON: at jobs["),
        "{e}"
    );
    assert!(e.contains("line ") && e.contains("column "), "{e}");
    let e = read_text("h.json", r#"{"meta": {}, "jobs": {"job_id": 1}}"#, false).unwrap_err();
    assert!(
        e.contains("not sacct's JSON: invalid type: map, expected a list of jobs"),
        "{e}"
    );
    let e = read_text("h.json", r#"{"meta": {}, "job_id": 1}"#, false).unwrap_err();
    assert!(e.contains("without a \"jobs\" array"), "{e}");
    let e = read_text("h.json", r#"{"meta": {"job_id": 1}, "jobs": []}"#, false).unwrap_err();
    assert!(e.contains("the \"jobs\" array is empty"), "{e}");
    for cut in (1..text.len()).step_by(53) {
        if text.is_char_boundary(cut) {
            let _ = read_text("h.json", &text[..cut], false);
        }
    }
    // Values at their edges, and bytes replaced all over (a fixed sequence): read or refused,
    // never a panic.
    for edge in [
        "9223372036854775807",
        "-9223372036854775808",
        "1e300",
        "[]",
        "{}",
        "\"\"",
    ] {
        for key in [
            "\"start\": 1010",
            "\"count\": 4",
            "\"CPUs\": 4",
            "\"elapsed\": 60",
        ] {
            let (k, _) = key.split_once(": ").unwrap();
            let t = text.replace(key, &format!("{k}: {edge}"));
            let _ = read_text("h.json", &t, false);
        }
    }
    let mut x: u64 = 7;
    let bytes = text.as_bytes();
    for _ in 0..300 {
        let mut b = bytes.to_vec();
        for _ in 0..4 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let at = (x >> 33) as usize % b.len();
            b[at] = b"{}[],:\"0123456789-.ex "[(x >> 20) as usize % 22];
        }
        let _ = workload::read_bytes("h.json", &b, &ReadOptions::default());
    }
}

/// What the jobs keep is held to the input's size: a small gzip of jobs with long names (100
/// KB each, 1,500 of them: 150 MB kept from about 300 KB) is refused as too large for its size,
/// naming the jobs read so far, natively from a file (streamed) and from bytes (the page).
#[test]
fn a_small_gzip_of_long_names_is_refused() {
    let name = "x".repeat(100_000);
    let mut text = String::from(r#"{"meta": {}, "jobs": ["#);
    for k in 1..=1500 {
        if k > 1 {
            text.push(',');
        }
        text.push_str(&format!(
            r#"{{"job_id": {k}, "name": "{name}", "state": {{"current": "COMPLETED"}},
              "time": {{"submission": 1000, "start": 1000, "end": 1010}},
              "tres": {{"allocated": [{{"type": "cpu", "count": 1}}]}}}}"#
        ));
    }
    text.push_str("]}");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(text.as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    assert!(bytes.len() < 400_000, "{}", bytes.len());
    let read = workload::read_bytes("bomb.json.gz", &bytes, &ReadOptions::default());
    let e = match read {
        Ok(w) => panic!("{} jobs read from {} bytes", w.records.len(), bytes.len()),
        Err(e) => e.to_string(),
    };
    assert!(
        e.starts_with("bomb.json.gz: too large for its size: its ")
            && e.contains("jobs read so far"),
        "{e}"
    );
    let d = tmpdir("sacct-json", "bomb");
    let path = d.join("bomb.json.gz");
    std::fs::write(&path, &bytes).unwrap();
    let e = match workload::read_path(&path, &ReadOptions::default()) {
        Ok(w) => panic!("{} jobs read", w.records.len()),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("too large for its size"), "{e}");
    // The same jobs plain are no bomb: read whole.
    let w = workload::read_bytes("big.json", text.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(w.records.len(), 1500);
    std::fs::remove_dir_all(&d).unwrap();
}

/// A job submitted to several partitions: the JSON's `partition` string is a list as sacct's
/// `Partition` is (`short,batch`), kept whole as the `-P` export's (its first in field 16), and
/// told of under the JSON's key.
#[test]
fn a_partition_list_is_kept_from_json_too() {
    let text = std::fs::read_to_string(HAND).unwrap();
    let listed = text.replacen(
        r#""partition": "batch""#,
        r#""partition": "short,batch""#,
        1,
    );
    assert_ne!(listed, text);
    let w = read_text("h.json", &listed, false).unwrap();
    assert_eq!(w.partition_lists.len(), 1);
    assert_eq!(w.partition_lists[0].1, ["short", "batch"]);
    let first = w
        .records
        .iter()
        .find(|r| r.line == w.partition_lists[0].0)
        .unwrap();
    let short = w.partition_names.iter().position(|n| n == "short").unwrap();
    assert_eq!(first.partition, short as i64 + 1);
    assert!(
        w.issues.iter().any(|i| i
            .to_string()
            .starts_with("partition: 1 job submitted to several partitions")),
        "{:?}",
        w.issues
    );
    assert!(read_text("h.json", &text, false)
        .unwrap()
        .partition_lists
        .is_empty());
}
