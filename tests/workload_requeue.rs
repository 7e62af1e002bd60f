//! Issue 37 item 7: a job requeued appears in `sacct --duplicates` once per run. Its last
//! record is its outcome (the first was kept and the completed rerun skipped as "already
//! read", and `--strict` failed the file); the earlier runs are wasted work, in a header note.

use schedlab::swf::ReadOptions;
use schedlab::workload;

const HEAD: &str = "JobID|Submit|Start|End|Elapsed|NCPUS|State\n";

fn read(text: &str, strict: bool) -> Result<schedlab::swf::Workload, String> {
    let opts = ReadOptions {
        strict,
        ..ReadOptions::default()
    };
    workload::read_bytes("q.sacct", text.as_bytes(), &opts).map_err(|e| e.to_string())
}

/// Job 7 preempted after 10 minutes on 4 CPUs, requeued (Slurm resets Submit) and run
/// 90 minutes to completion; job 8 ordinary.
fn requeued() -> String {
    format!(
        "{HEAD}\
         7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:10:10|00:10:00|4|PREEMPTED\n\
         7.batch|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:10:10|00:10:00|4|CANCELLED\n\
         8|2024-01-01T00:05:00|2024-01-01T00:05:00|2024-01-01T00:06:00|00:01:00|2|COMPLETED\n\
         7|2024-01-01T00:10:11|2024-01-01T00:12:00|2024-01-01T01:42:00|01:30:00|4|COMPLETED\n"
    )
}

#[test]
fn a_requeued_job_is_its_last_run_and_the_earlier_ones_are_wasted() {
    let text = requeued();
    for strict in [false, true] {
        let w = read(&text, strict).unwrap();
        // (Slurm id, submit, wait, run, procs, status)
        let got: Vec<(String, i64, i64, i64, i64, i64)> = w
            .records
            .iter()
            .map(|r| {
                let id = r.extra[0].clone();
                let (s, wt, run) = (r.submit_time, r.wait_time, r.run_time);
                (id, s, wt, run, r.allocated_processors, r.status)
            })
            .collect();
        assert_eq!(
            got,
            [
                ("7".into(), 0, 720, 5400, 4, 1),
                ("8".into(), 300, 0, 60, 2, 1)
            ],
            "strict {strict}"
        );
        assert_eq!(w.issue_count, 0, "{:?}", w.issues);
        let note = w
            .header
            .lines
            .iter()
            .find(|l| l.contains("requeued"))
            .unwrap();
        assert!(
            note.contains("1 requeued jobs")
                && note.contains("the 1 earlier runs are wasted work: 2400 processor-seconds"),
            "{note}"
        );
    }
}

#[test]
fn a_job_whose_last_record_has_not_ended_is_left_out() {
    let text = format!(
        "{HEAD}\
         7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:10:10|00:10:00|4|NODE_FAIL\n\
         8|2024-01-01T00:05:00|2024-01-01T00:05:00|2024-01-01T00:06:00|00:01:00|2|COMPLETED\n\
         7|2024-01-01T00:10:11|Unknown|Unknown|00:00:00|0|PENDING\n"
    );
    let w = read(&text, false).unwrap();
    let ids: Vec<&str> = w.records.iter().map(|r| r.extra[0].as_str()).collect();
    assert_eq!(ids, ["8"]);
    assert!(
        w.issues[0].to_string().contains("job 7 never started"),
        "{:?}",
        w.issues
    );
    assert!(w
        .header
        .lines
        .iter()
        .any(|l| l.contains("2400 processor-seconds")));
}

/// Issue 37 item 12: a sacct line is capped as an SWF line is (a 100 MB field was accepted).
#[test]
fn a_sacct_line_longer_than_the_limit_is_skipped() {
    let long = "x".repeat((1 << 20) + 1);
    let text = format!(
        "{HEAD}\
         8|2024-01-01T00:05:00|2024-01-01T00:05:00|2024-01-01T00:06:00|00:01:00|2|COMPLETED\n\
         9|2024-01-01T00:05:00|2024-01-01T00:05:00|2024-01-01T00:06:00|00:01:00|2|{long}\n"
    );
    let w = read(&text, false).unwrap();
    assert_eq!(w.records.len(), 1);
    assert_eq!(
        w.issues[0].to_string(),
        "line 3: line longer than 1048576 bytes"
    );
    assert!(read(&text, true)
        .unwrap_err()
        .contains("line longer than 1048576 bytes"));
}

/// The earlier runs of a requeued job are replayed by `historic` as preempted runs: drawn by
/// the Gantt where it draws restarts (lighter, outlined), listed in the runs CSV, counted as
/// lost work. Worked by hand from the trace of the first test: job 7 ran 10 s after its submit
/// for 600 s (PREEMPTED), then again from 720 s for 5,400 s; job 8 from 300 s for 60 s.
#[test]
fn historic_replays_a_requeued_jobs_earlier_run_as_a_preempted_run() {
    use schedlab::charts::gantt;
    use schedlab::input::InputOptions;
    use schedlab::metrics::MetricOptions;
    use schedlab::run::Trace;
    use schedlab::sim::check::check;
    let text = requeued();
    let input = InputOptions {
        procs: Some(8),
        ..InputOptions::default()
    };
    let trace = Trace::load_bytes(
        "q.sacct",
        text.as_bytes(),
        &ReadOptions::default(),
        &input,
        MetricOptions::default(),
    )
    .unwrap();
    assert_eq!(trace.jobs.earlier_runs, [(0, 10, 600)]);
    let r = trace.run("historic", 1, None).unwrap();
    let s = &r.schedule;
    check(&trace.jobs.jobs, s).unwrap();
    // (job, start, end) of every run: the earlier one preempted at its recorded end.
    let runs: Vec<(usize, i64, i64)> = s.runs().iter().map(|r| (r.job, r.start, r.end)).collect();
    assert_eq!(runs, [(0, 10, 610), (1, 300, 360), (0, 720, 6120)]);
    assert_eq!(s.preempted_runs.len(), 1);
    assert_eq!(s.wasted(0), 600);
    let preempted: Vec<(f64, f64, u32)> = gantt::rects(&trace.jobs, s)
        .iter()
        .filter(|r| r.preempted)
        .map(|r| (r.start, r.end, r.hi - r.lo))
        .collect();
    assert_eq!(preempted, [(10.0, 610.0, 4)]);
    let mut csv = Vec::new();
    schedlab::output::runs_csv(&mut csv, &trace.jobs, s).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    // Every other policy schedules the job once, as before.
    let fcfs = trace.run("fcfs", 1, None).unwrap();
    assert!(fcfs.schedule.preempted_runs.is_empty());
}

/// An sacct log names no machine size: it is the most CPUs the recorded schedule held at once,
/// a requeued job's earlier runs too. Here job 7's first run (4 CPUs, 10 to 610 s) and job 8
/// (2 CPUs, 300 to 360 s) overlap: 6. Without the earlier run it would be 4 (job 7's last run
/// starts at 720, after job 8's end), and 4 is the widest job.
#[test]
fn the_machine_of_an_sacct_log_counts_a_requeued_jobs_earlier_runs() {
    let w = read(&requeued(), false).unwrap();
    assert_eq!(w.header.max_procs, Some(6));
    assert!(workload::sacct::max_procs_is_recorded_peak(&w.header));
}

/// A run ended by `scontrol requeue` is recorded REQUEUED with its end (job_mgr.c
/// `_job_requeue_op`: end_time = now, JOB_REQUEUE logged), not PREEMPTED: job 7 of
/// [`requeued`] so requeued reads as when preempted, worked by hand: its last run (submit 0,
/// wait 720 s, 5400 s on 4 CPUs, completed) and the earlier 600 s on 4 CPUs, 2400
/// processor-seconds of wasted work. Before, the REQUEUED record was skipped as "has not ended"
/// and the run lost. A REQUEUED record with no end (`Unknown`) is still skipped.
#[test]
fn a_run_ended_by_scontrol_requeue_is_an_earlier_run() {
    let text = requeued().replacen("|4|PREEMPTED", "|4|REQUEUED", 1);
    let w = read(&text, true).unwrap();
    let got: Vec<(String, i64, i64, i64, i64)> = w
        .records
        .iter()
        .map(|r| {
            (
                r.extra[0].clone(),
                r.submit_time,
                r.wait_time,
                r.run_time,
                r.status,
            )
        })
        .collect();
    assert_eq!(
        got,
        [("7".into(), 0, 720, 5400, 1), ("8".into(), 300, 0, 60, 1)]
    );
    assert_eq!(w.issue_count, 0, "{:?}", w.issues);
    let note = w.header.lines.iter().find(|l| l.contains("requeued"));
    assert!(
        note.is_some_and(|n| n.contains("2400 processor-seconds")),
        "{note:?}"
    );
    let pending = format!(
        "{HEAD}9|2024-01-01T00:00:00|2024-01-01T00:00:10|Unknown|00:00:00|4|REQUEUED\n\
         8|2024-01-01T00:05:00|2024-01-01T00:05:00|2024-01-01T00:06:00|00:01:00|2|COMPLETED\n"
    );
    let w = read(&pending, false).unwrap();
    assert_eq!(w.records.len(), 1);
    assert!(
        w.issues
            .iter()
            .any(|i| i.reason.contains("job 9 has not ended (REQUEUED)")),
        "{:?}",
        w.issues
    );
}
