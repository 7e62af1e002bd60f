//! Exports this reader's authors never saw: sacct of Slurm 23.11 to 25.11 (states, the
//! `StartReceived` flag), other time formats, sacct's table and JSON outputs, a dump without
//! its header. Each was misread or refused with a misleading message; each case is worked by
//! hand.

use schedlab::swf::{ReadOptions, SwfError, Workload};
use schedlab::workload::{self, detect, Format};

fn read(text: &str, strict: bool) -> Result<Workload, SwfError> {
    let opts = ReadOptions {
        strict,
        ..ReadOptions::default()
    };
    workload::read_bytes("v.sacct", text.as_bytes(), &opts)
}

/// (Slurm JobID, submit, wait, run, CPUs, status) of every job read.
fn jobs(w: &Workload) -> Vec<(String, i64, i64, i64, i64, i64)> {
    w.records
        .iter()
        .map(|r| {
            let (s, wt, run) = (r.submit_time, r.wait_time, r.run_time);
            (
                r.extra[0].clone(),
                s,
                wt,
                run,
                r.allocated_processors,
                r.status,
            )
        })
        .collect()
}

const HEAD: &str = "JobID|Submit|Start|End|Elapsed|NCPUS|State\n";

/// `REVOKED` (a federation's sibling job, run by another cluster), `RESV_DEL_HOLD` (held
/// pending) and 25.11's `EXPEDITING` (a run ending into a requeue, as `REQUEUED`) were
/// "unknown state" bad lines, which failed `--strict`; they are conventions, each said.
#[test]
fn newer_states_are_conventions_not_bad_lines() {
    // (JobID, Submit, Start, End, Elapsed, NCPUS, State)
    let rows = [
        (
            "1",
            "00:00:00",
            "00:00:00",
            "00:20:00",
            "00:20:00",
            4,
            "EXPEDITING",
        ),
        (
            "1",
            "00:20:05",
            "00:21:00",
            "00:51:00",
            "00:30:00",
            4,
            "COMPLETED",
        ),
        ("2", "00:01:00", "None", "None", "00:00:00", 0, "REVOKED"),
        (
            "3",
            "00:02:00",
            "Unknown",
            "Unknown",
            "00:00:00",
            0,
            "RESV_DEL_HOLD",
        ),
        (
            "4",
            "00:03:00",
            "00:03:00",
            "Unknown",
            "00:10:00",
            2,
            "EXPEDITING",
        ),
        (
            "5",
            "00:04:00",
            "00:05:00",
            "00:06:00",
            "00:01:00",
            2,
            "COMPLETED",
        ),
    ];
    let day = |t: &str| {
        if t.contains(':') {
            format!("2024-01-01T{t}")
        } else {
            t.to_string()
        }
    };
    let mut text = HEAD.to_string();
    for (id, submit, start, end, elapsed, cpus, state) in rows {
        let (submit, start, end) = (day(submit), day(start), day(end));
        text += &format!("{id}|{submit}|{start}|{end}|{elapsed}|{cpus}|{state}\n");
    }
    for strict in [false, true] {
        let w = read(&text, strict).unwrap();
        // Job 1: its last run (wait from the first submit: 21 min), the first a requeued run.
        assert_eq!(
            jobs(&w),
            [
                ("1".into(), 0, 1260, 1800, 4, 1),
                ("5".into(), 240, 60, 60, 2, 1)
            ],
            "strict {strict}"
        );
        assert_eq!(w.requeued.len(), 1, "strict {strict}");
        let issues: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
        let want = [
            "job 2 never started here: another cluster of its federation ran it (REVOKED)",
            "job 3 never started (RESV_DEL_HOLD)",
            "job 4 has not ended (EXPEDITING)",
        ];
        assert_eq!(issues.len(), want.len(), "{issues:?}");
        for (got, want) in issues.iter().zip(want) {
            assert!(got.contains(want), "{issues:?}");
        }
    }
    // The same log with REQUEUED for EXPEDITING: the same jobs.
    let requeued = text.replace("EXPEDITING", "REQUEUED");
    assert_eq!(
        jobs(&read(&requeued, false).unwrap()),
        jobs(&read(&text, false).unwrap())
    );
}

/// Slurm 23.11 spells the flag `StartReceived` (22.05: `StartRecieved`): in a comma export
/// with a `Partition` list and `Flags`, its lines fitted no share and were skipped.
#[test]
fn a_23_11_comma_export_reads_as_its_pipe_twin() {
    let pipes = "JobID|Partition|Submit|Start|End|NCPUS|State|Flags\n\
        7|short,batch|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:10:10|4|COMPLETED|SchedBackfill,StartReceived\n\
        8|batch|2024-01-01T00:01:00|2024-01-01T00:02:00|2024-01-01T00:03:00|1|COMPLETED|SchedMain,StartReceived\n";
    let commas = pipes.replace('|', ",");
    let a = read(pipes, true).unwrap();
    let b = read(&commas, true).unwrap();
    assert_eq!(a.records, b.records);
    assert_eq!(
        jobs(&b),
        [
            ("7".into(), 0, 10, 600, 4, 1),
            ("8".into(), 60, 60, 60, 1, 1)
        ]
    );
    assert_eq!(b.partition_names, ["short", "batch"]);
    // Job 7 started by the backfill, job 8 by the main scheduler.
    let flags: Vec<bool> = b.backfilled.iter().map(|&(_, bf)| bf).collect();
    assert_eq!(flags, [true, false]);
}

/// `SLURM_TIME_FORMAT=%FT%T%z` writes the offset as strftime does, `+0200` (or `-05` when cut
/// to hours): every job of such a log was skipped as "not a time".
#[test]
fn offsets_as_strftime_writes_them_are_read() {
    let text = format!(
        "{HEAD}\
         1|2024-05-15T10:00:00+0200|2024-05-15T08:30:00Z|2024-05-15T09:00:00Z|00:30:00|4|COMPLETED\n\
         2|2024-05-15T04:00:00-05|2024-05-15T11:00:00+0200|2024-05-15T09:10:00Z|00:10:00|2|COMPLETED\n"
    );
    let w = read(&text, true).unwrap();
    // Job 1 submitted at 08:00Z, started 08:30Z; job 2 submitted at 09:00Z, started 09:00Z.
    assert_eq!(
        jobs(&w),
        [
            ("1".into(), 0, 1800, 1800, 4, 1),
            ("2".into(), 3600, 0, 600, 2, 1)
        ]
    );
}

/// sacct without `--parsable2` prints a table (names padded to their columns, values cut:
/// `OUT_OF_ME+`). It was read as SWF, every line refused for "SWF needs 18" fields.
#[test]
fn sacct_table_output_is_told_to_be_exported_parsable() {
    let text = "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n\
                ------------ ---------- ---------- ---------- ---------- ---------- -------- \n\
                100                 sim      batch       phys         16  COMPLETED      0:0 \n\
                101_1               arr        gpu       chem          8 OUT_OF_ME+    0:125 \n";
    assert_eq!(detect(text.as_bytes()), Format::Sacct);
    let e = read(text, false).unwrap_err().to_string();
    assert!(
        e.starts_with("v.sacct: no jobs: line 1: sacct's table output")
            && e.contains("export with --parsable2"),
        "{e}"
    );
    assert!(!e.contains("SWF"), "{e}");
    // An SWF trace whose comment names JobID stays SWF.
    let swf = "; JobID Submit Wait\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n";
    assert_eq!(detect(swf.as_bytes()), Format::Swf);
}

/// A dump without its header (`sacct --noheader -P`): the error says that the first line holds
/// values (it said only that the header names no JobID, listing the values as names).
#[test]
fn a_dump_without_its_header_is_said_to_be_one() {
    let text =
        "100|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:10:10|00:10:00|4|COMPLETED\n";
    let e = read(text, false).unwrap_err().to_string();
    assert!(
        e.contains("line 1, the header names no JobID or JobIDRaw field: it holds values, not field names (an export with --noheader?)"),
        "{e}"
    );
    // A header lacking a field is told only what it lacks.
    let e = read(
        "JobID|Submit|Start|Elapsed|State\n1|0|0|1|COMPLETED\n",
        false,
    )
    .unwrap_err()
    .to_string();
    assert!(!e.contains("holds values"), "{e}");
}

/// `sacct --json` holds a `jobs` array too, of jobs with a `job_id`: it was read as a broken
/// Batsim workload ("jobs[0].id: missing"), then refused; it is read as Slurm's JSON
/// (tests/sacct_json.rs), and a job without sacct's `time.submission` is named so. A file
/// with a job_id but neither `meta` nor a `submission` is neither format, said so.
#[test]
fn sacct_json_is_told_apart_from_batsim() {
    let text = r#"{"meta": {"slurm": {"release": "24.05.4"}},
        "jobs": [{"job_id": 100, "name": "sim", "time": {"submit": 1709287200}}],
        "warnings": [], "errors": []}"#;
    let e = read(text, false).unwrap_err().to_string();
    assert!(
        e.contains("none of the 1 jobs gave a job; first: jobs[0] (job 100), time.submission: unknown submit time"),
        "{e}"
    );
    let text = r#"{"jobs": [{"job_id": 100, "name": "sim", "time": {"submit": 1709287200}}]}"#;
    let e = read(text, false).unwrap_err().to_string();
    assert!(
        e.contains("jobs[0] has a job_id and no id, as Slurm's own JSON (sacct --json) has")
            && e.contains("--parsable2"),
        "{e}"
    );
}

/// Slurm stamps a job cancelled while pending with Start = End = the cancel (job_mgr.c). An
/// export without the CPUs allocated (`AllocCPUS`, `NCPUS`, `AllocTRES`: 0 for it) took the
/// CPUs it asked and read it as a job that waited until the cancel and ran 0 s. A `NodeList`
/// naming nodes still says it ran.
#[test]
fn a_job_cancelled_while_pending_is_left_out_without_allocation_columns() {
    let text = "JobID|Submit|Start|End|ReqCPUS|NodeList|State\n\
        1|2024-01-01T10:30:00|2024-01-01T10:40:00|2024-01-01T10:40:00|8|None assigned|CANCELLED by 1000\n\
        2|2024-01-01T10:00:00|2024-01-01T10:05:00|2024-01-01T10:35:00|4|n01|CANCELLED by 1000\n\
        3|2024-01-01T10:10:00|2024-01-01T10:20:00|2024-01-01T10:20:00|2|n02|CANCELLED\n";
    let w = read(text, true).unwrap();
    assert_eq!(
        jobs(&w),
        [
            ("2".into(), 0, 300, 1800, 4, 5),
            ("3".into(), 600, 600, 0, 2, 5)
        ]
    );
    let issues: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert!(
        issues[0].contains("job 1 never started (CANCELLED by 1000)"),
        "{issues:?}"
    );
    // Without NodeList, a cancel at its start is one while pending.
    let bare: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            format!("{}|{}\n", f[..5].join("|"), f[6])
        })
        .collect();
    let w = read(&bare, false).unwrap();
    assert_eq!(jobs(&w), [("2".into(), 0, 300, 1800, 4, 5)]);
    assert_eq!(w.issue_count, 2);
}

/// A job held by a dependency or `--begin` becomes eligible after its submission (`Eligible`
/// later than `Submit`). It arrives then: submitted at `Submit`, a policy could start it
/// before Slurm could have. Its wait counts from `Eligible`, as Slurm's `Planned` does; the
/// file's warning says so once, and the other jobs are unchanged.
#[test]
fn jobs_eligible_after_their_submission_arrive_then() {
    let text = "JobID|Submit|Eligible|Start|End|NCPUS|State\n\
        1|2024-01-01T10:00:00|2024-01-01T10:00:00|2024-01-01T10:00:00|2024-01-01T10:30:00|4|COMPLETED\n\
        2|2024-01-01T10:01:00|2024-01-01T10:30:00|2024-01-01T10:31:00|2024-01-01T10:40:00|4|COMPLETED\n\
        3|2024-01-01T10:02:00|2024-01-01T11:02:00|2024-01-01T11:02:00|2024-01-01T11:03:00|2|COMPLETED\n";
    let w = read(text, true).unwrap();
    // Job 2 was submitted at 60 s, eligible at 1800 s (its dependency), started a minute
    // later; job 3 waited an hour for its begin time (3720 s) and started then.
    assert_eq!(
        jobs(&w),
        [
            ("1".into(), 0, 0, 1800, 4, 1),
            ("2".into(), 1800, 60, 540, 4, 1),
            ("3".into(), 3720, 0, 60, 2, 1)
        ]
    );
    let issues: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert!(
        issues[0].starts_with(
            "Eligible: 2 jobs became eligible after their submission (first: job 2, 1740 s after;"
        ) && issues[0].contains("each is read as submitted then, their wait"),
        "{issues:?}"
    );
    // Eligible at the submission, or no column: nothing said.
    let plain = text.replace(
        "10:30:00|2024-01-01T10:31:00|",
        "10:01:00|2024-01-01T10:31:00|",
    );
    let plain = plain.replace(
        "11:02:00|2024-01-01T11:02:00|",
        "10:02:00|2024-01-01T11:02:00|",
    );
    assert_eq!(read(&plain, true).unwrap().issue_count, 0);
    assert_eq!(jobs(&read(&plain, true).unwrap())[1].1, 60);
    // An Eligible after the start says nothing of the job (no log should have one).
    let late = text.replace(
        "10:30:00|2024-01-01T10:31:00|",
        "10:35:00|2024-01-01T10:31:00|",
    );
    assert_eq!(
        jobs(&read(&late, true).unwrap())[1],
        ("2".into(), 60, 1800, 540, 4, 1)
    );
}

/// sacct prints job names, users and accounts as the bytes they were typed in: a job named in
/// Latin-1 (`étude`, byte 0xE9) made the whole log "not valid UTF-8", every job lost. The log
/// reads, the name with a replacement character, and the byte is named by line and column.
#[test]
fn a_name_in_latin_1_loses_nothing_else() {
    let mut text = b"JobID|JobName|Submit|Start|Elapsed|NCPUS|State\n1|".to_vec();
    text.extend_from_slice(
        b"\xe9tude|2024-03-01T10:00:00|2024-03-01T10:00:10|00:10:00|4|COMPLETED\n",
    );
    text.extend_from_slice(b"2|ok|2024-03-01T10:01:00|2024-03-01T10:01:00|00:05:00|2|COMPLETED\n");
    let w = workload::read_bytes("l.sacct", &text, &ReadOptions::default()).unwrap();
    assert_eq!(
        jobs(&w),
        [
            ("1".into(), 0, 10, 600, 4, 1),
            ("2".into(), 60, 0, 300, 2, 1)
        ]
    );
    let issues: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
    assert_eq!(
        issues,
        ["line 2, column 2 (JobName): not valid UTF-8 (read with replacement characters; 1 line so)"]
    );
    // A comma export whose TRES list comes before the name: the column is the field as the
    // reader cuts the line (counting commas named column 4, `Submit`).
    let mut text = b"JobID,AllocTRES,JobName,Submit,Start,Elapsed,NCPUS,State\n".to_vec();
    text.extend_from_slice(b"1,cpu=4,mem=1G,\xe9tude,2024-03-01T10:00:00,");
    text.extend_from_slice(b"2024-03-01T10:00:10,00:10:00,4,COMPLETED\n");
    let w = workload::read_bytes("l.sacct", &text, &ReadOptions::default()).unwrap();
    assert_eq!(jobs(&w), [("1".into(), 0, 10, 600, 4, 1)]);
    let issue = w.issues[0].to_string();
    assert!(
        issue.starts_with("line 2, column 3 (JobName): not valid UTF-8"),
        "{issue}"
    );
}
