//! Users shown by name: an sacct log numbers its users for SWF and keeps their names in the
//! header notes (`src/workload/names.rs`); the jobs CSV, the trace text and the charts show
//! them. And a job Slurm killed at its time limit (`TIMEOUT`) reads as killed.

use crate::common::{schedlab, svg_texts, tmpdir};
use schedlab::charts::{eet_heatmap, gantt, native};
use schedlab::input::InputOptions;
use schedlab::metrics::MetricOptions;
use schedlab::run::Trace;
use schedlab::swf::ReadOptions;

/// Two users on 4 CPUs, worked by hand under fcfs (the kill at the requested time on):
/// - job 1, alice, 2 CPUs, 60 s of a 1-minute limit, TIMEOUT: killed at 0 + 60;
/// - job 2, bob, 2 CPUs, 120 s of a 2-minute limit, COMPLETED: runs 10-130, completes;
/// - job 3, bob, 4 CPUs, 90 s past a 1-minute limit, TIMEOUT: waits for job 2, cut at 60 s:
///   130-190, killed;
/// - job 4, alice, 1 CPU, 30 s of a 1-minute limit, FAILED: behind job 3 (fcfs), 190-220,
///   not killed (it failed before its limit): `COMPLETED_FAILED`.
const SACCT: &str = "\
JobID|User|Account|Submit|Start|Elapsed|Timelimit|NCPUS|State
11|alice|phys|2026-11-27T13:00:00|2026-11-27T13:00:00|00:01:00|00:01:00|2|TIMEOUT
12|bob|chem|2026-11-27T13:00:10|2026-11-27T13:00:10|00:02:00|00:02:00|2|COMPLETED
13|bob|chem|2026-11-27T13:00:20|2026-11-27T13:02:10|00:01:30|00:01:00|4|TIMEOUT
14|alice|phys|2026-11-27T13:00:30|2026-11-27T13:03:10|00:00:30|00:01:00|1|FAILED
";

fn load(text: &str, kill: bool) -> Trace {
    let input = InputOptions {
        procs: Some(4),
        kill,
        ..InputOptions::default()
    };
    Trace::load_bytes(
        "two.sacct",
        text.as_bytes(),
        &ReadOptions::default(),
        &input,
        MetricOptions::default(),
    )
    .unwrap()
}

/// The jobs CSV of fcfs as rows of (column name -> value).
fn jobs_csv(trace: &Trace) -> (Vec<String>, Vec<Vec<String>>) {
    let r = trace.run("fcfs", 1, None).unwrap();
    let mut out = Vec::new();
    schedlab::output::jobs_csv(&mut out, &trace.jobs, &r.schedule).unwrap();
    let mut rd = csv::Reader::from_reader(out.as_slice());
    let head: Vec<String> = rd.headers().unwrap().iter().map(String::from).collect();
    let rows = rd
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (head, rows)
}

fn column<'a>(head: &[String], rows: &'a [Vec<String>], name: &str) -> Vec<&'a str> {
    let k = head.iter().position(|h| h == name).expect(name);
    rows.iter().map(|r| r[k].as_str()).collect()
}

/// A trace holds an sacct log's JobIDs once, by job, in its jobs (`JobSet::log_ids`): the
/// reader's list by line is dropped once the jobs hold them, and the jobs CSV's `log_job_id`,
/// the page's list and `run --fidelity` all read that one list (`JobSet::log_id`). An SWF
/// trace has none: a job is named by its number.
#[test]
fn a_trace_holds_the_logs_job_ids_once() {
    let trace = load(SACCT, true);
    assert!(trace.workload.job_ids.is_empty());
    assert_eq!(trace.jobs.log_ids, ["11", "12", "13", "14"]);
    assert_eq!(trace.jobs.log_id_list(), ["11", "12", "13", "14"]);
    let (head, rows) = jobs_csv(&trace);
    assert_eq!(column(&head, &rows, "log_job_id"), trace.jobs.log_id_list());
    // The streamed path (`run`'s) drops them too.
    let (workload, jobs) = schedlab::run::read_bytes(
        "two.sacct",
        SACCT.as_bytes(),
        &ReadOptions::default(),
        &InputOptions {
            procs: Some(4),
            ..InputOptions::default()
        },
    )
    .unwrap();
    assert_eq!(workload.job_ids.len(), 4);
    let (trace, _) =
        Trace::new_simulating((workload, jobs), MetricOptions::default(), "fcfs", 1, None).unwrap();
    assert!(trace.workload.job_ids.is_empty());
    assert_eq!(trace.jobs.log_id(2), "13");
    // SWF: jobs 7 and 9, named by their numbers.
    let swf = "7 0 0 60 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n\
               9 5 0 60 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n";
    let trace = Trace::load_bytes(
        "t.swf",
        swf.as_bytes(),
        &ReadOptions::default(),
        &InputOptions::default(),
        MetricOptions::default(),
    )
    .unwrap();
    assert!(trace.jobs.log_ids.is_empty());
    assert_eq!(trace.jobs.log_id_list(), ["7", "9"]);
}

#[test]
fn an_sacct_logs_users_are_named_in_the_jobs_csv_and_the_trace_text() {
    let trace = load(SACCT, true);
    assert_eq!(trace.jobs.names.users, ["alice", "bob"]);
    let users: Vec<i64> = trace.jobs.jobs.iter().map(|j| j.user).collect();
    assert_eq!(users, [1, 2, 2, 1]);
    let (head, rows) = jobs_csv(&trace);
    // user_id stays a number where it was; the name is a column at the end, before the JobIDs.
    let last: Vec<&str> = head[head.len() - 2..].iter().map(String::as_str).collect();
    assert_eq!(last, ["user", "log_job_id"]);
    assert_eq!(column(&head, &rows, "log_job_id"), ["11", "12", "13", "14"]);
    assert_eq!(column(&head, &rows, "user_id"), ["1", "2", "2", "1"]);
    assert_eq!(
        column(&head, &rows, "user"),
        ["alice", "bob", "bob", "alice"]
    );
    let stats = schedlab::trace_stats::trace_stats(&trace.jobs, &trace.workload.header);
    // Work: alice 2 x 60 + 1 x 30 = 150, bob 2 x 120 + 4 x 60 = 480: bob first.
    let top: Vec<(i64, Option<&str>)> = stats
        .top_users
        .iter()
        .map(|u| (u.user, u.name.as_deref()))
        .collect();
    assert_eq!(top, [(2, Some("bob")), (1, Some("alice"))]);
    let text = stats.summary();
    assert!(text.contains("user    bob   76.2 %  2 jobs"), "{text}");
    assert!(text.contains("user  alice   23.8 %  2 jobs"), "{text}");
}

#[test]
fn a_trace_without_names_keeps_its_numbers_and_its_csv_columns() {
    let swf = "; MaxProcs: 4\n1 0 0 60 2 -1 -1 2 60 -1 1 7 -1 -1 -1 -1 -1 -1\n";
    let trace = load(swf, true);
    assert!(trace.jobs.names.users.is_empty());
    let (head, rows) = jobs_csv(&trace);
    assert!(!head.iter().any(|h| h == "user"), "{head:?}");
    assert_eq!(head.last().map(String::as_str), Some("waited_for"));
    assert_eq!(column(&head, &rows, "user_id"), ["7"]);
    let stats = schedlab::trace_stats::trace_stats(&trace.jobs, &trace.workload.header);
    assert_eq!(stats.top_users[0].name, None);
    assert!(stats.summary().contains("user      7  100.0 %  1 job"));
}

#[test]
fn a_timeout_at_its_limit_reads_as_killed_a_completion_at_it_does_not() {
    let trace = load(SACCT, true);
    let (head, rows) = jobs_csv(&trace);
    assert_eq!(
        column(&head, &rows, "starting_time"),
        ["0", "10", "130", "190"]
    );
    assert_eq!(
        column(&head, &rows, "finish_time"),
        ["60", "130", "190", "220"]
    );
    assert_eq!(
        column(&head, &rows, "final_state"),
        [
            "COMPLETED_WALLTIME_REACHED",
            "COMPLETED_SUCCESSFULLY",
            "COMPLETED_WALLTIME_REACHED",
            "COMPLETED_FAILED"
        ]
    );
    assert_eq!(column(&head, &rows, "success"), ["0", "1", "0", "0"]);
    // Without the kill, nothing is cut or killed: job 3 runs its 90 s (130-220), job 4 after;
    // the TIMEOUTs ran their time and failed there, as job 4 did.
    let trace = load(SACCT, false);
    let (head, rows) = jobs_csv(&trace);
    assert_eq!(
        column(&head, &rows, "finish_time"),
        ["60", "130", "220", "250"]
    );
    assert_eq!(
        column(&head, &rows, "final_state"),
        [
            "COMPLETED_FAILED",
            "COMPLETED_SUCCESSFULLY",
            "COMPLETED_FAILED",
            "COMPLETED_FAILED"
        ]
    );
}

#[test]
fn the_gantt_legend_and_the_heatmap_rows_name_the_users() {
    let trace = load(SACCT, true);
    let r = trace.run("fcfs", 1, None).unwrap();
    let rects = gantt::rects(&trace.jobs, &r.schedule);
    let rows = gantt::NodeRows::uniform(4, 0);
    let names = &trace.jobs.names.users;
    let gantt_texts = |names: &[String]| {
        svg_texts(
            &native::svg((800, 300), |root| {
                gantt::draw_rows(root, &rects, 4, &rows, &[], names, 0.0, 250.0, "t")
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
            .unwrap(),
        )
    };
    let named = gantt_texts(names);
    assert!(named.iter().any(|t| t == "alice") && named.iter().any(|t| t == "bob"));
    let numbered = gantt_texts(&[]);
    assert!(numbered.iter().any(|t| t == "1") && !numbered.iter().any(|t| t == "alice"));

    use schedlab::metrics::eet_heatmap::{heatmap, Violation};
    let v = [Violation {
        user: 2,
        start: 0,
        end: 100,
    }];
    let map = heatmap(&[1, 2], &v, 0.0, 10.0, 20);
    let busy = [0.0, 4.0];
    let panel = [eet_heatmap::HeatPanel {
        title: "fcfs".into(),
        map: &map,
        busy: &busy,
        procs: 4,
        memory: None,
    }];
    let heat_texts = |names: Vec<String>| {
        let style = eet_heatmap::HeatStyle {
            names,
            ..Default::default()
        };
        svg_texts(
            &native::svg((600, 300), |root| {
                eet_heatmap::draw(root, &panel, &style).map_err(|e| e.to_string())
            })
            .unwrap(),
        )
    };
    let named = heat_texts(names.clone());
    assert!(named.iter().any(|t| t == "bob"), "{named:?}");
    assert!(!named.iter().any(|t| t == "user 2"));
    assert!(heat_texts(Vec::new()).iter().any(|t| t == "user 2"));
}

#[test]
fn the_cli_names_users_in_its_text_and_jobs_csv() {
    let d = tmpdir("user-names", "cli");
    let log = d.join("two.sacct");
    std::fs::write(&log, SACCT).unwrap();
    let log = log.to_str().unwrap();
    let (ok, out, err) = schedlab(&["trace", log]);
    assert!(ok, "{err}");
    assert!(out.contains("user    bob   76.2 %  2 jobs"), "{out}");
    let csv = d.join("jobs.csv");
    let (ok, _, err) = schedlab(&[
        "run",
        log,
        "-p",
        "fcfs",
        "--procs",
        "4",
        "--jobs-csv",
        csv.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    // The user's name, then the job's JobID in the log (job 1 is JobID 11).
    assert!(lines
        .next()
        .unwrap()
        .ends_with(",waited_for,user,log_job_id"));
    let first = lines.next().unwrap();
    assert!(
        first.starts_with("1,two.sacct,0,2,60,0,COMPLETED_WALLTIME_REACHED,0,60,60,"),
        "{first}"
    );
    assert!(first.ends_with(",alice,11"), "{first}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Users are picked by name as by number (`--users`, `--exclude-users`, the heatmap's
/// `--heat-only` / `--heat-exclude`); a name the trace does not give is an error naming the
/// option and the name, never an empty result.
#[test]
fn the_cli_picks_users_by_name_or_number() {
    let d = tmpdir("user-names", "pick");
    let log = d.join("two.sacct");
    std::fs::write(&log, SACCT).unwrap();
    let log = log.to_str().unwrap();
    let csv = d.join("jobs.csv");
    let csv = csv.to_str().unwrap();
    // The job numbers of a run with these extra arguments.
    let jobs = |extra: &[&str]| {
        let mut args = vec!["run", log, "-p", "fcfs", "--procs", "4", "--jobs-csv", csv];
        args.extend_from_slice(extra);
        let (ok, _, err) = schedlab(&args);
        assert!(ok, "{extra:?}: {err}");
        let text = std::fs::read_to_string(csv).unwrap();
        text.lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // bob is user 2: jobs 2 and 3, by name, by number, or leaving alice out by name.
    assert_eq!(jobs(&["--users", "bob"]), ["2", "3"]);
    assert_eq!(jobs(&["--users", "2"]), ["2", "3"]);
    assert_eq!(jobs(&["--exclude-users", "alice"]), ["2", "3"]);
    assert_eq!(jobs(&["--users", "alice,2"]), ["1", "2", "3", "4"]);
    let plot = [
        "plot",
        log,
        "-p",
        "fcfs",
        "--chart",
        "heatmap",
        "--out",
        "/dev/null",
    ];
    for (flag, command) in [
        ("--users", &["run", log, "-p", "fcfs"][..]),
        ("--exclude-users", &["run", log, "-p", "fcfs"]),
        ("--heat-only", &plot),
        ("--heat-exclude", &plot),
    ] {
        let mut args = command.to_vec();
        args.extend([
            flag,
            if flag == "--users" {
                "bob,carol"
            } else {
                "carol"
            },
        ]);
        let (ok, _, err) = schedlab(&args);
        assert!(!ok, "{flag}");
        assert!(
            err.contains(&format!(
                "{flag} carol: no user of this trace is named so (its users: alice, bob)"
            )),
            "{flag}: {err}"
        );
    }
    // The heatmap by name draws.
    let svg = d.join("heat.svg");
    let (ok, _, err) = schedlab(&[
        "plot",
        log,
        "-p",
        "fcfs",
        "--procs",
        "4",
        "--chart",
        "heatmap",
        "--heat-only",
        "bob",
        "--heat-exclude",
        "1",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    // An SWF trace numbers its users only: a name is an error that says so.
    let swf = d.join("one.swf");
    std::fs::write(
        &swf,
        "; MaxProcs: 4\n1 0 0 60 2 -1 -1 2 60 -1 1 7 -1 -1 -1 -1 -1 -1\n",
    )
    .unwrap();
    let (ok, _, err) = schedlab(&[
        "run",
        swf.to_str().unwrap(),
        "-p",
        "fcfs",
        "--users",
        "alice",
    ]);
    assert!(!ok);
    assert!(
        err.contains("--users alice: this trace does not name its users"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
