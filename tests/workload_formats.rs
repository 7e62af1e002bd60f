//! Slurm sacct and Batsim workloads: the hand-made sacct file against its SWF worked out by
//! hand, bad lines, detection by content, and the Batsim round trip.

use crate::common;
use schedlab::swf::{self, ReadOptions, SwfError, SwfRecord, Workload};
use schedlab::workload::{self, batsim, detect, Format};
use std::io::Write as _;

fn data(name: &str) -> std::path::PathBuf {
    common::trace(&format!("workloads/{name}"))
}

fn read(text: &str) -> Result<Workload, SwfError> {
    workload::read_bytes("t.sacct", text.as_bytes(), &ReadOptions::default())
}

/// Every field but the line number.
fn fields(r: &SwfRecord) -> SwfRecord {
    SwfRecord {
        line: 0,
        ..r.clone()
    }
}

#[test]
fn hand_made_sacct_file_gives_the_swf_worked_out_by_hand() {
    let got = workload::read_path(&data("hand.sacct"), &ReadOptions::default()).unwrap();
    let want = swf::read_path(&data("hand.swf"), &ReadOptions::default()).unwrap();
    let got_f: Vec<_> = got.records.iter().map(fields).collect();
    let want_f: Vec<_> = want.records.iter().map(fields).collect();
    assert_eq!(got_f, want_f);
    // The sacct line each job came from.
    let lines: Vec<u64> = got.records.iter().map(|r| r.line).collect();
    assert_eq!(lines, [6, 8, 2, 9, 12, 13]);
    // Left out, each with its line and reason; steps of read jobs fold silently.
    let mut issues: Vec<(u64, String)> =
        got.issues.iter().map(|i| (i.line, i.to_string())).collect();
    assert_eq!(issues.len(), 6, "{issues:?}");
    // First the whole file's: job 104's Timelimit=Partition_Limit (line 12), no requested time
    // without a cluster (tests/sacct_partition_limit.rs).
    let whole = issues.remove(0);
    assert!(
        whole.0 == 0
            && whole
                .1
                .contains("1 job gives Partition_Limit (first: job 104, line 12)"),
        "{whole:?}"
    );
    assert_eq!(issues[0].0, 11);
    assert!(issues[0]
        .1
        .contains("job 103 never started (CANCELLED by 1000)"));
    assert_eq!(issues[1].0, 14);
    assert!(issues[1].1.contains("job 106 never started (PENDING)"));
    assert_eq!(issues[2].0, 15);
    assert!(issues[2].1.contains("job 107 has not ended (RUNNING)"));
    assert_eq!(issues[3].0, 16);
    assert!(issues[3].1.contains("108_[3-9%2] never started"));
    assert_eq!(issues[4].0, 17);
    assert!(issues[4]
        .1
        .contains("step of job 999, whose job line is missing"));
    // The mappings and the time origin are in the header.
    let h = &got.header;
    assert_eq!(h.unix_start_time, Some(1_709_285_400));
    let notes = h.notes.join("\n");
    for m in [
        "users numbered in order of first appearance: 1=bob, 2=alice, 3=carol, 4=dave",
        "groups numbered in order of first appearance: 1=chem, 2=phys, 3=bio",
        "partitions (field 16) numbered in order of first appearance: 1=gpu, 2=batch",
    ] {
        assert!(notes.contains(m), "{m} not in {notes}");
    }
    // Conventions (jobs never started or not ended) never fail --strict; an orphan step does.
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    let e = workload::read_path(&data("hand.sacct"), &strict).unwrap_err();
    assert!(
        e.to_string()
            .contains("line 17, column 1 (JobID): step of job 999"),
        "{e}"
    );
    let text = std::fs::read_to_string(data("hand.sacct")).unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("999.0"))
        .map(|l| format!("{l}\n"))
        .collect();
    let w = workload::read_bytes("hand.sacct", without.as_bytes(), &strict).unwrap();
    // The four left out by a convention, and the warning of job 104's Partition_Limit.
    assert_eq!((w.records.len(), w.issue_count), (6, 5));
}

#[test]
fn bad_sacct_lines_are_named_and_lose_nothing_else() {
    let w = workload::read_path(&data("bad.sacct"), &ReadOptions::default()).unwrap();
    let ids: Vec<&str> = w.records.iter().map(|r| r.extra[0].as_str()).collect();
    assert_eq!(ids, ["1", "8"]);
    assert_eq!(
        (w.records[0].run_time, w.records[0].requested_time),
        (100, 600)
    );
    assert_eq!((w.records[1].submit_time, w.records[1].wait_time), (70, 10));
    let got: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
    let want = [
        "line 3: line has 4 fields, the header names 9",
        "line 4, column 4 (Start): not a time: \"2024-01-01T25:00:00\" (expected YYYY-MM-DDTHH:MM:SS, optionally with Z or an offset from -14:00 to +14:00)",
        "line 5, column 6 (Elapsed): negative duration \"-00:01:10\"",
        "line 6, column 7 (NCPUS): not a number: \"two\"",
        "line 7, column 8 (Timelimit): not a duration: \"soon\" (expected [D-]HH:MM:SS or MM:SS); or UNLIMITED / Partition_Limit",
        "line 8, column 9 (State): unknown state \"EXPLODED\" (COMPLETED, FAILED, CANCELLED, ...)",
    ];
    assert_eq!(got, want);
    assert_eq!(w.skipped_lines, 6);
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    let e = workload::read_path(&data("bad.sacct"), &strict).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("line 3: line has 4 fields, the header names 9 (strict mode)"),
        "{e}"
    );
}

#[test]
fn sacct_header_problems_are_errors_naming_the_line() {
    let e = read("\n\nUser|Submit|Start|Elapsed|AllocCPUS|State\nann|1|2|00:01|1|COMPLETED\n")
        .unwrap_err();
    let m = e.to_string();
    assert!(
        m.starts_with("t.sacct: no jobs: line 3, the header names no JobID or JobIDRaw field"),
        "{m}"
    );
    // The error suggests an export; that export's header reads, and docs/workloads.md shows it.
    let (_, fields) = m
        .split_once("--parsable2 --format ")
        .unwrap_or_else(|| panic!("no export suggested: {m}"));
    let header = fields.replace(',', "|");
    let row = header
        .split('|')
        .map(|f| match f {
            "JobID" => "7",
            "Submit" => "2024-01-01T00:00:00",
            "Start" => "2024-01-01T00:00:10",
            "End" => "2024-01-01T00:01:10",
            "Elapsed" => "00:01:00",
            "AllocCPUS" | "ReqCPUS" => "2",
            "State" => "COMPLETED",
            _ => "",
        })
        .collect::<Vec<_>>()
        .join("|");
    let w = read(&format!("{header}\n{row}\n")).unwrap();
    assert_eq!(w.records.len(), 1, "{header}");
    // It has what `replay` and `historic` read on a cluster: the nodes each job ran on, and
    // whether Slurm's backfill started it.
    assert!(header.contains("|NodeList|Flags"), "{header}");
    assert_eq!(w.records[0].allocated_processors, 2);
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/workloads.md")).unwrap();
    assert!(
        docs.contains(&format!("--format {fields} ")),
        "docs/workloads.md: {fields}"
    );
    let e = read("JobID|Submit|Start|Elapsed|AllocCPUS|State\n").unwrap_err();
    assert!(e.to_string().contains("header only (line 1)"), "{e}");
    let e =
        read("JobID|Submit|Start|Elapsed|AllocCPUS|State\n1|x|2|00:01|1|COMPLETED\n").unwrap_err();
    assert!(
        e.to_string()
            .contains("its one line gave no job; first: line 2, column 2 (Submit)"),
        "{e}"
    );
}

#[test]
fn sacct_variants_parsable_epoch_times_end_without_elapsed() {
    // --parsable (trailing '|'), Unix seconds, End - Start as the runtime, JobIDRaw, NCPUS.
    let text = "JobIDRaw|Submit|Start|End|NCPUS|State|\n\
                7|1000|1010|1100|3|COMPLETED|\n\
                8|1005|1100|1101|1|CANCELLED|\n";
    let w = read(text).unwrap();
    let r: Vec<(i64, i64, i64, i64, i64)> = w
        .records
        .iter()
        .map(|r| {
            (
                r.submit_time,
                r.wait_time,
                r.run_time,
                r.allocated_processors,
                r.status,
            )
        })
        .collect();
    assert_eq!(r, [(0, 10, 90, 3, 1), (5, 95, 1, 1, 5)]);
    assert_eq!(w.records[0].requested_time, -1);
}

#[test]
fn formats_are_recognised_by_content_plain_or_gzip() {
    let sacct = std::fs::read(data("hand.sacct")).unwrap();
    assert_eq!(detect(&sacct), Format::Sacct);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&sacct).unwrap();
    let gz = gz.finish().unwrap();
    assert_eq!(detect(&gz), Format::Sacct);
    // Named .swf, read as sacct all the same.
    let w = workload::read_bytes("cluster.swf", &gz, &ReadOptions::default()).unwrap();
    assert_eq!((w.records.len(), w.gzip), (6, true));
    assert_eq!(detect(b"  \n{\"nb_res\": 4, \"jobs\": []}"), Format::Batsim);
    assert_eq!(
        detect(b"; MaxProcs: 4\n1 0 1 1 1 -1 -1 1 1 -1 1 1 1 -1 -1 -1 -1 -1\n"),
        Format::Swf
    );
    // Through the whole pipeline, as every command and the page read traces.
    let t = schedlab::run::Trace::load_bytes(
        "x",
        &sacct,
        &ReadOptions::default(),
        &schedlab::input::InputOptions::default(),
        Default::default(),
    )
    .unwrap();
    assert_eq!((t.jobs.jobs.len(), t.jobs.procs), (6, 64));
}

#[test]
fn batsim_round_trip_keeps_every_job() {
    // KTH through Batsim and back: submit, runtime, processors, requested time and user kept.
    let kth = swf::read_path(
        &common::trace("KTH-SP2-1996-2.1-cln.swf.gz"),
        &ReadOptions::default(),
    )
    .unwrap();
    let mut json = Vec::new();
    let n = batsim::write(&mut json, &kth, 100).unwrap();
    let usable = kth
        .records
        .iter()
        .filter(|r| r.run_time >= 0 && r.allocated_processors.max(r.requested_processors) > 0)
        .count();
    assert_eq!((n.jobs, n.left_out), (usable, kth.records.len() - usable));
    assert_eq!(detect(&json), Format::Batsim);
    let back = workload::read_bytes("kth.json", &json, &ReadOptions::default()).unwrap();
    assert_eq!(back.header.max_procs, Some(100));
    assert_eq!(back.records.len(), usable);
    let key = |r: &SwfRecord| {
        let p = if r.allocated_processors > 0 {
            r.allocated_processors
        } else {
            r.requested_processors
        };
        (
            r.job_number,
            r.submit_time,
            r.run_time,
            p,
            r.requested_time,
            r.user_id,
        )
    };
    let want: Vec<_> = kth
        .records
        .iter()
        .filter(|r| r.run_time >= 0 && r.allocated_processors.max(r.requested_processors) > 0)
        .map(key)
        .collect();
    let got: Vec<_> = back.records.iter().map(key).collect();
    assert_eq!(got, want);
    // And written again: the same text.
    let mut again = Vec::new();
    batsim::write(&mut again, &back, 100).unwrap();
    let strip = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .lines()
            .filter(|l| !l.contains("description"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&again), strip(&json));
}

#[test]
fn batsim_reader_names_bad_jobs_and_keeps_the_rest() {
    let text = r#"{"nb_res": 8,
      "jobs": [
        {"id": "w0!1", "subtime": 0, "walltime": 100, "res": 2, "profile": "d50"},
        {"id": 2, "subtime": 10.4, "res": 4, "profile": "d50", "user": "ann"},
        {"id": 3, "subtime": "soon", "res": 1, "profile": "d50"},
        {"id": 4, "subtime": 20, "res": 0, "profile": "d50"},
        {"id": 5, "subtime": 30, "res": 1, "profile": "p"},
        {"id": 6, "subtime": 40, "res": 1, "profile": "missing"}
      ],
      "profiles": {"d50": {"type": "delay", "delay": 50}, "p": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}}}"#;
    let w = read(text).unwrap();
    let r: Vec<_> = w
        .records
        .iter()
        .map(|r| {
            (
                r.job_number,
                r.submit_time,
                r.run_time,
                r.allocated_processors,
                r.requested_time,
                r.user_id,
            )
        })
        .collect();
    assert_eq!(r, [(1, 0, 50, 2, 100, -1), (2, 10, 50, 4, -1, 1)]);
    let got: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(
        got[0].starts_with("jobs[2] (id 3).subtime: not a number"),
        "{got:?}"
    );
    assert!(
        got[1].starts_with("jobs[3] (id 4).res: not a positive whole number"),
        "{got:?}"
    );
    assert!(
        got[2].contains("of type \"parallel_homogeneous\""),
        "{got:?}"
    );
    assert!(got[3].contains("no profile named \"missing\""), "{got:?}");
    let e = read("{\"nb_res\": 4, \"jobs\": [").unwrap_err();
    assert!(
        e.to_string()
            .contains("not a Batsim JSON workload: line 1, column"),
        "{e}"
    );
}

/// Issue 37 item 11: Batsim ids beyond a job number, `nb_res` that is no machine size, a BOM.
#[test]
fn batsim_ids_sizes_and_bom() {
    let jobs = |first_id: &str| {
        format!(
            r#"{{"nb_res": 4, "jobs": [
            {{"id": {first_id}, "subtime": 0, "res": 1, "profile": "d"}},
            {{"id": 1, "subtime": 5, "res": 2, "profile": "d"}}],
            "profiles": {{"d": {{"type": "delay", "delay": 10}}}}}}"#
        )
    };
    // Numbered by position, 1e308 and 2^64 took job 1's number and job 1 was dropped.
    for id in ["1e308", "18446744073709551616", "\"18446744073709551616\""] {
        let w = read(&jobs(id)).unwrap();
        let numbers: Vec<i64> = w.records.iter().map(|r| r.job_number).collect();
        assert_eq!(numbers, [1], "{id}");
        let issue = w.issues[0].to_string();
        assert!(issue.contains("is not a job number"), "{id}: {issue}");
    }
    for (nb_res, shown) in [
        ("-8", "-8"),
        ("0", "0"),
        ("1e308", "1e+308"),
        ("4.5", "4.5"),
        ("\"4\"", "\"4\""),
    ] {
        let text = jobs("7").replace("\"nb_res\": 4", &format!("\"nb_res\": {nb_res}"));
        let e = read(&text).unwrap_err().to_string();
        assert!(
            e.contains(&format!("nb_res {shown} is not a number of resources")),
            "{nb_res}: {e}"
        );
    }
    let bom = format!("\u{feff}{}", jobs("7"));
    assert_eq!(detect(bom.as_bytes()), Format::Batsim);
    let w = workload::read_bytes("bom.json", bom.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(w.records.len(), 2);
    assert_eq!(w.header.max_procs, Some(4));
}

/// Issue 37 item 12: CPU counts, offsets and durations out of range are bad lines (and fail
/// `--strict`), naming the field.
#[test]
fn sacct_values_out_of_range_are_bad_lines() {
    let head = "JobIDRaw|Submit|Start|Elapsed|NCPUS|State\n";
    let good = "1|2024-01-01T00:00:00|2024-01-01T00:00:10|00:01:00|2|COMPLETED\n";
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    for (bad, says) in [
        (
            "2|2024-01-01T00:00:00|2024-01-01T00:00:10|00:01:00|-4|COMPLETED\n",
            "negative: -4",
        ),
        (
            "2|2024-01-01T00:00:00|2024-01-01T00:00:10|00:01:00|4294967296|COMPLETED\n",
            "4294967296 CPUs: at most 2147483647",
        ),
        (
            "2|2024-01-01T00:00:00+25:00|2024-01-01T00:00:10|00:01:00|2|COMPLETED\n",
            "offset from -14:00 to +14:00",
        ),
        (
            "2|2024-01-01T00:00:00|2024-01-01T00:00:10|1:99:99|2|COMPLETED\n",
            "not a duration: \"1:99:99\"",
        ),
    ] {
        let text = format!("{head}{good}{bad}");
        let w = read(&text).unwrap();
        assert_eq!(w.records.len(), 1, "{bad}");
        let issue = w.issues[0].to_string();
        assert!(issue.contains("line 3") && issue.contains(says), "{issue}");
        let e = workload::read_bytes("t.sacct", text.as_bytes(), &strict)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says) && e.contains("strict"), "{e}");
    }
}

/// Issue 37 item 12: one invalid UTF-8 byte in a sacct file is named by line and column, not
/// only by a byte offset; and it loses nothing else (it lost the whole file): the line is read
/// with a replacement character, here in `State`, which skips it as any unknown state.
#[test]
fn sacct_invalid_utf8_names_line_and_column() {
    let mut text = b"JobIDRaw|Submit|Start|Elapsed|NCPUS|State\n\
        1|2024-01-01T00:00:00|2024-01-01T00:00:10|00:01:00|2|COMPLETED\n\
        2|2024-01-01T00:00:00|2024-01-01T00:00:10|00:01:00|2|COMPLET"
        .to_vec();
    text.extend_from_slice(b"\xffED\n");
    let w = workload::read_bytes("t.sacct", &text, &ReadOptions::default()).unwrap();
    assert_eq!(w.records.len(), 1);
    let issues: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(
        issues[0],
        "line 3, column 6 (State): not valid UTF-8 (read with replacement characters; 1 line so)"
    );
    assert!(
        issues[1].starts_with("line 3, column 6 (State): unknown state"),
        "{issues:?}"
    );
}

/// An sacct log's machine is the most CPUs its recorded schedule held at once, worked by hand:
/// A (8 CPUs) 10:00-11:00, B (16) 10:30-11:30, C (8) 11:00-12:00, D (4) 11:15-11:45. At 11:00
/// A ends as C starts (the end counts first: 24, not 32); from 11:15 B + C + D hold 28, the
/// peak; the widest job is 16. On that machine `historic` keeps every recorded start (on the
/// widest job's 16 it had to delay B's overlap partners).
#[test]
fn an_sacct_logs_machine_is_its_recorded_peak_and_historic_keeps_every_start() {
    use schedlab::input::InputOptions;
    use schedlab::metrics::MetricOptions;
    use schedlab::run::Trace;
    let text = "JobID|Submit|Start|Elapsed|NCPUS|State\n\
                1|2024-01-01T10:00:00|2024-01-01T10:00:00|01:00:00|8|COMPLETED\n\
                2|2024-01-01T10:20:00|2024-01-01T10:30:00|01:00:00|16|COMPLETED\n\
                3|2024-01-01T10:40:00|2024-01-01T11:00:00|01:00:00|8|COMPLETED\n\
                4|2024-01-01T11:00:00|2024-01-01T11:15:00|00:30:00|4|COMPLETED\n";
    let w = read(text).unwrap();
    assert_eq!(w.header.max_procs, Some(28));
    let trace = Trace::load_bytes(
        "m.sacct",
        text.as_bytes(),
        &ReadOptions::default(),
        &InputOptions::default(),
        MetricOptions::default(),
    )
    .unwrap();
    assert_eq!(trace.jobs.procs, 28);
    assert_eq!(trace.jobs.procs_source, workload::sacct::PEAK_SOURCE);
    let r = trace.run("historic", 1, None).unwrap();
    let starts: Vec<i64> = r.schedule.jobs.iter().map(|j| j.start).collect();
    // Seconds after the first submit (10:00).
    assert_eq!(starts, [0, 1800, 3600, 4500]);
    // A cluster or --procs replaces it.
    let small = Trace::load_bytes(
        "m.sacct",
        text.as_bytes(),
        &ReadOptions::default(),
        &InputOptions {
            procs: Some(16),
            ..InputOptions::default()
        },
        MetricOptions::default(),
    )
    .unwrap();
    assert_eq!(small.jobs.procs, 16);
}
