//! How a job's outcome is told (`src/sim/final_state.rs`): the jobs CSV's `success` and
//! `final_state`, the runs CSV's `outcome` and the counts tell a job that ran its recorded time
//! and failed, or was cancelled, from one that completed, the same for an sacct log and its SWF.

use crate::common::{schedlab, tmpdir};
use schedlab::input::InputOptions;
use schedlab::metrics::MetricOptions;
use schedlab::run::Trace;
use schedlab::swf::ReadOptions;

/// Six 1-CPU jobs on 8 CPUs, each submitted a second after the last and started at once under
/// fcfs, each 60 s of a 2-minute limit but the last, a TIMEOUT at its limit (120 s).
const SACCT: &str = "\
JobID|User|Submit|Start|Elapsed|Timelimit|NCPUS|State
101|alice|2026-11-27T13:00:00|2026-11-27T13:00:00|00:01:00|00:02:00|1|COMPLETED
102|alice|2026-11-27T13:00:01|2026-11-27T13:00:01|00:01:00|00:02:00|1|FAILED
103|bob|2026-11-27T13:00:02|2026-11-27T13:00:02|00:01:00|00:02:00|1|NODE_FAIL
104|bob|2026-11-27T13:00:03|2026-11-27T13:00:03|00:01:00|00:02:00|1|OUT_OF_MEMORY
105|carol|2026-11-27T13:00:04|2026-11-27T13:00:04|00:01:00|00:02:00|1|CANCELLED by 1000
106|carol|2026-11-27T13:00:05|2026-11-27T13:00:05|00:02:00|00:02:00|1|TIMEOUT
";

/// The same jobs in SWF: statuses 1, 0, 0, 0, 5, 0 (field 11).
const SWF: &str = "\
; MaxProcs: 8
1 0 0 60 1 -1 -1 1 120 -1 1 1 -1 -1 -1 -1 -1 -1
2 1 0 60 1 -1 -1 1 120 -1 0 1 -1 -1 -1 -1 -1 -1
3 2 0 60 1 -1 -1 1 120 -1 0 2 -1 -1 -1 -1 -1 -1
4 3 0 60 1 -1 -1 1 120 -1 0 2 -1 -1 -1 -1 -1 -1
5 4 0 60 1 -1 -1 1 120 -1 5 3 -1 -1 -1 -1 -1 -1
6 5 0 120 1 -1 -1 1 120 -1 0 3 -1 -1 -1 -1 -1 -1
";

fn load(name: &str, text: &str, kill: bool) -> Trace {
    let input = InputOptions {
        procs: Some(8),
        kill,
        ..InputOptions::default()
    };
    let read = ReadOptions::default();
    Trace::load_bytes(
        name,
        text.as_bytes(),
        &read,
        &input,
        MetricOptions::default(),
    )
    .unwrap()
}

/// Columns `names` of CSV `text`, row by row.
fn columns(text: &[u8], names: &[&str]) -> Vec<Vec<String>> {
    let mut rd = csv::Reader::from_reader(text);
    let head: Vec<String> = rd.headers().unwrap().iter().map(String::from).collect();
    let at: Vec<usize> = names
        .iter()
        .map(|n| head.iter().position(|h| h == n).expect(n))
        .collect();
    rd.records()
        .map(|r| {
            let r = r.unwrap();
            at.iter().map(|&k| r[k].to_string()).collect()
        })
        .collect()
}

/// What [`outcomes`] reads: (final_state, success) per job, the runs CSV's outcomes, and the
/// counts (killed, failed, cancelled).
type Outcomes = (Vec<(String, String)>, Vec<String>, (u64, u64, u64));

/// The outcomes of fcfs on `trace`.
fn outcomes(trace: &Trace) -> Outcomes {
    let r = trace.run("fcfs", 1, None).unwrap();
    let (mut jobs, mut runs) = (Vec::new(), Vec::new());
    schedlab::output::jobs_csv(&mut jobs, &trace.jobs, &r.schedule).unwrap();
    schedlab::output::runs_csv(&mut runs, &trace.jobs, &r.schedule).unwrap();
    let jobs = columns(
        &jobs,
        &["final_state", "success", "starting_time", "finish_time"],
    );
    // Every job starts on arrival and runs its recorded time (the last one its limit).
    let times: Vec<(&str, &str)> = jobs.iter().map(|r| (&*r[2], &*r[3])).collect();
    assert_eq!(
        times,
        [
            ("0", "60"),
            ("1", "61"),
            ("2", "62"),
            ("3", "63"),
            ("4", "64"),
            ("5", "125")
        ]
    );
    let c = r.classic.counts;
    (
        jobs.into_iter()
            .map(|r| (r[0].clone(), r[1].clone()))
            .collect(),
        columns(&runs, &["outcome"])
            .into_iter()
            .map(|r| r[0].clone())
            .collect(),
        (c.killed, c.failed, c.cancelled),
    )
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_failed_or_cancelled_job_is_not_told_as_completed_in_sacct_or_swf() {
    for (name, text) in [("six.sacct", SACCT), ("six.swf", SWF)] {
        let (states, runs, counts) = outcomes(&load(name, text, true));
        assert_eq!(
            states,
            pairs(&[
                ("COMPLETED_SUCCESSFULLY", "1"),
                ("COMPLETED_FAILED", "0"),
                ("COMPLETED_FAILED", "0"),
                ("COMPLETED_FAILED", "0"),
                ("COMPLETED_KILLED", "0"),
                ("COMPLETED_WALLTIME_REACHED", "0"),
            ]),
            "{name}"
        );
        assert_eq!(
            runs,
            [
                "completed",
                "failed",
                "failed",
                "failed",
                "cancelled",
                "killed"
            ],
            "{name}"
        );
        assert_eq!(counts, (1, 3, 1), "{name}: killed, failed, cancelled");
        // Without the kill at the requested time, the TIMEOUT ran its time and failed there.
        let (states, runs, counts) = outcomes(&load(name, text, false));
        assert_eq!(states[5], ("COMPLETED_FAILED".into(), "0".into()), "{name}");
        assert_eq!(runs[5], "failed", "{name}");
        assert_eq!(counts, (0, 4, 1), "{name}");
    }
}

#[test]
fn the_cli_table_counts_failed_and_cancelled_jobs() {
    let d = tmpdir("job-outcomes", "cli");
    let log = d.join("six.sacct");
    std::fs::write(&log, SACCT).unwrap();
    let (ok, out, err) = schedlab(&["run", log.to_str().unwrap(), "-p", "fcfs", "--procs", "8"]);
    assert!(ok, "{err}");
    let row = |label: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(label))
            .unwrap_or_else(|| panic!("no {label} row: {out}"))
            .split_whitespace()
            .last()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        (row("killed"), row("failed"), row("cancelled")),
        ("1".into(), "3".into(), "1".into())
    );
    let _ = std::fs::remove_dir_all(&d);
}
