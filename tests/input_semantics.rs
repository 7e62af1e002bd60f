//! The input semantics (GUIDE section 2) and the input part of the bad-input catalogue:
//! negative times, submit times out of order, duplicate job ids, jobs wider than the machine.

use schedlab::input::{prepare, EstimateSource, InputOptions, Origin, Wide};
use schedlab::swf::{read_bytes, ReadOptions, Workload};

fn line(id: i64, submit: i64, run: i64, procs: i64, req: i64) -> String {
    format!("{id} {submit} 3 {run} {procs} -1 -1 {procs} {req} -1 1 7 1 -1 -1 -1 -1 -1\n")
}

fn workload(header: &str, lines: &[String]) -> Workload {
    let text = format!("{header}{}", lines.concat());
    read_bytes("t.swf", text.as_bytes(), &ReadOptions::default()).unwrap()
}

#[test]
fn machine_size_from_header_then_nodes_then_widest() {
    let jobs = [line(1, 0, 10, 3, 10), line(2, 5, 10, 6, 10)];
    let s = prepare(
        &workload("; MaxProcs: 8\n; MaxNodes: 4\n", &jobs),
        &InputOptions::default(),
    )
    .unwrap();
    assert_eq!((s.procs, s.procs_source.as_str()), (8, "MaxProcs header"));
    let s = prepare(
        &workload("; MaxNodes: 7\n", &jobs),
        &InputOptions::default(),
    )
    .unwrap();
    assert_eq!((s.procs, s.procs_source.as_str()), (7, "MaxNodes header"));
    let s = prepare(&workload("", &jobs), &InputOptions::default()).unwrap();
    assert_eq!(s.procs, 6);
    // Shown in parentheses after the size: none nested ("256 (widest job (no ...))").
    assert_eq!(s.procs_source, "widest job: no MaxProcs/MaxNodes header");
    // A header of 0 is there, and named: before, it read "no MaxProcs/MaxNodes header".
    let s = prepare(
        &workload("; MaxProcs: 0\n", &jobs),
        &InputOptions::default(),
    )
    .unwrap();
    assert_eq!(
        (s.procs, s.procs_source.as_str()),
        (6, "widest job: MaxProcs header 0")
    );
    let opts = InputOptions {
        procs: Some(12),
        ..Default::default()
    };
    let s = prepare(&workload("; MaxProcs: 8\n", &jobs), &opts).unwrap();
    assert_eq!((s.procs, s.procs_source.as_str()), (12, "override"));
}

#[test]
fn skip_rules_name_line_field_and_reason() {
    let w = workload(
        "; MaxProcs: 4\n",
        &[
            line(1, 0, 10, 2, 10),
            line(2, 1, -1, 2, 10),          // unknown runtime
            line(3, -5, 10, 2, 10),         // negative submit
            line(4, 2, 10, -1, 10),         // no processors
            line(5, 3, 10, 9, 10),          // wider than the machine
            line(6, 4, 0, 1, 10),           // zero runtime: valid
            line(7, 5, -1359980917, 1, 10), // negative runtime (wagap-2013's line 4186)
        ],
    );
    let s = prepare(&w, &InputOptions::default()).unwrap();
    assert_eq!(s.jobs.len(), 2);
    // -1 is SWF's unknown; another negative value is no runtime (it was "unknown" too).
    assert_eq!(
        s.skipped.last().map(|k| k.reason.as_str()),
        Some("field 4 (run_time): negative runtime (-1359980917)")
    );
    let reasons: Vec<(u64, i64, &str)> = s
        .skipped
        .iter()
        .map(|k| (k.line, k.id, k.reason.as_str()))
        .collect();
    assert_eq!(reasons.len(), 5);
    assert_eq!((reasons[0].0, reasons[0].1), (3, 2));
    assert!(
        reasons[0].2.contains("field 4 (run_time)") && reasons[0].2.contains("unknown runtime")
    );
    assert!(reasons[1].2.contains("field 2 (submit_time)") && reasons[1].2.contains("negative"));
    assert!(reasons[2].2.contains("no processor count"));
    assert!(reasons[3]
        .2
        .contains("9 processors, wider than the machine (4)"));
    assert_eq!(s.skipped_count(), 5);

    let clamp = InputOptions {
        wide: Wide::Clamp,
        skip_zero_runtime: true,
        ..Default::default()
    };
    let s = prepare(&w, &clamp).unwrap();
    assert_eq!(
        s.jobs.iter().map(|j| (j.id, j.procs)).collect::<Vec<_>>(),
        vec![(1, 2), (5, 4)]
    );
    assert!(s.warnings.iter().any(|m| m.contains("clamped")));
    assert!(s
        .skipped
        .iter()
        .any(|k| k.id == 6 && k.reason.contains("zero runtime")));

    let status = InputOptions {
        skip_status: vec![1],
        ..Default::default()
    };
    let e = prepare(&w, &status).unwrap_err().to_string();
    assert!(e.starts_with("t.swf: no job can be simulated"), "{e}");
}

#[test]
fn submit_times_out_of_order_are_sorted_stably_with_a_warning() {
    let w = workload(
        "; MaxProcs: 4\n",
        &[
            line(1, 100, 10, 1, 10),
            line(2, 50, 10, 1, 10),
            line(3, 50, 10, 1, 10),
            line(4, 120, 10, 1, 10),
        ],
    );
    let s = prepare(&w, &InputOptions::default()).unwrap();
    assert_eq!(
        s.jobs.iter().map(|j| j.id).collect::<Vec<_>>(),
        vec![2, 3, 1, 4]
    );
    assert_eq!(
        s.jobs.iter().map(|j| j.submit).collect::<Vec<_>>(),
        vec![0, 0, 50, 70]
    );
    assert_eq!(s.origin, 50);
    assert!(
        s.warnings.iter().any(|m| m.contains("out of order")),
        "{:?}",
        s.warnings
    );
    let trace = InputOptions {
        origin: Origin::Trace,
        ..Default::default()
    };
    assert_eq!(prepare(&w, &trace).unwrap().jobs[0].submit, 50);
}

#[test]
fn duplicate_job_ids_keep_the_first() {
    let w = workload(
        "; MaxProcs: 4\n",
        &[line(7, 0, 10, 1, 10), line(7, 5, 20, 1, 30)],
    );
    let s = prepare(&w, &InputOptions::default()).unwrap();
    assert_eq!(s.jobs.len(), 1);
    assert_eq!(s.jobs[0].runtime, 10);
    assert_eq!(s.skipped[0].line, 3);
    assert!(s.skipped[0]
        .reason
        .contains("duplicate job number 7 (first on line 2)"));
    assert!(s.warnings.iter().any(|m| m.contains("duplicate")));
}

#[test]
fn estimates_and_kills() {
    let w = workload(
        "; MaxProcs: 4\n",
        &[
            line(1, 0, 100, 1, 60),
            line(2, 1, 50, 1, -1),
            line(3, 2, 50, 1, 0),
            line(4, 3, 40, 1, 90),
        ],
    );
    let s = prepare(&w, &InputOptions::default()).unwrap();
    let j = &s.jobs;
    assert_eq!(
        (j[0].runtime, j[0].killed, j[0].estimate, j[0].trace_runtime),
        (60, true, 60, 100)
    );
    // Unknown requested time (-1 or 0): estimate = runtime, flagged; never killed.
    assert_eq!(
        (j[1].estimate, j[1].estimate_unknown, j[1].killed),
        (50, true, false)
    );
    assert_eq!(
        (j[2].estimate, j[2].estimate_unknown, j[2].requested()),
        (50, true, None)
    );
    assert_eq!((j[3].estimate, j[3].runtime), (90, 40));

    let no_kill = InputOptions {
        kill: false,
        estimate: EstimateSource::Runtime,
        ..Default::default()
    };
    let s = prepare(&w, &no_kill).unwrap();
    assert_eq!(
        (s.jobs[0].runtime, s.jobs[0].killed, s.jobs[0].estimate),
        (100, false, 100)
    );
    assert_eq!(s.jobs[3].estimate, 40);
}

#[test]
fn jobs_outliving_their_estimate_are_replanned() {
    // No kill: J1 asks 10 s, runs 100 s on the whole machine. J2 waits; it must start at 100.
    let w = workload(
        "; MaxProcs: 4\n",
        &[line(1, 0, 100, 4, 10), line(2, 1, 5, 4, 5)],
    );
    let opts = InputOptions {
        kill: false,
        ..Default::default()
    };
    let set = prepare(&w, &opts).unwrap();
    for spec in ["fcfs", "easy", "conservative"] {
        let mut p = schedlab::policy::build(spec).unwrap();
        let s = schedlab::sim::simulate(&set.jobs, set.procs, p.as_mut(), 1, None).unwrap();
        schedlab::sim::check::check(&set.jobs, &s).unwrap();
        assert_eq!(s.jobs[1].start, 100, "{spec}");
    }
}

/// Found by fuzzing: times near the end of `i64` (here from a load scale of 1e-300) overflowed
/// the engine's sums of times. Jobs with a time beyond 2^53 s are skipped, naming the field.
#[test]
fn times_beyond_two_to_the_fifty_third_are_skipped() {
    let big = (1i64 << 53) + 1;
    let w = workload(
        "; MaxProcs: 4\n",
        &[
            line(1, 0, 10, 1, 20),
            line(2, big, 10, 1, 20),
            line(3, 5, big, 1, -1),
            line(4, 6, 10, 1, big),
            // The last submission plus all the work reaches 2^53 s exactly: kept.
            line(5, (1 << 53) - 23, 0, 1, -1),
        ],
    );
    let set = prepare(&w, &InputOptions::default()).unwrap();
    let ids: Vec<i64> = set.jobs.iter().map(|j| j.id).collect();
    assert_eq!(ids, [1, 5]);
    let reasons: Vec<&str> = set.skipped.iter().map(|s| s.reason.as_str()).collect();
    assert_eq!(
        reasons,
        [
            "field 2 (submit_time): 9007199254740993 s is beyond 2^53 s",
            "field 4 (run_time): 9007199254740993 s is beyond 2^53 s",
            "field 9 (requested_time): 9007199254740993 s is beyond 2^53 s",
        ]
    );
    let scaled = InputOptions {
        transform: schedlab::workload::transform::Transform {
            load_scale: Some(1e-300),
            ..Default::default()
        },
        ..InputOptions::default()
    };
    let e = prepare(&w, &scaled).unwrap_err().to_string();
    assert!(
        e.contains("load scale 1e-300: the arrivals' span of 9007199254740993 s")
            && e.contains("beyond 2^53 s"),
        "{e}"
    );
}

/// Issue 37: each time below 2^53 s, but 1,100 jobs of 2^53 - 1 s in a row wrapped an `i64`
/// (negative finish times with fcfs, a failed conservative). Refused as a whole when the last
/// submission plus all the work passes 2^60 s, naming the limit; one second less is simulated.
#[test]
fn work_beyond_two_to_the_sixtieth_is_refused() {
    let big = 1i64 << 53;
    let at = |last: i64| {
        // Field 3 (wait) is 3 on every line: the last recorded start is 3 s after submission.
        let mut lines: Vec<String> = (1..128).map(|i| line(i, 0, big, 1, -1)).collect();
        lines.push(line(128, 0, last, 1, -1));
        workload("; MaxProcs: 4\n", &lines)
    };
    let exact = big - 3; // 127 * 2^53 + 2^53 - 3 + 3 = 2^60
    let set = prepare(&at(exact), &InputOptions::default()).unwrap();
    assert_eq!(set.jobs.len(), 128);
    let e = prepare(&at(exact + 1), &InputOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("jobs too long to simulate together")
            && e.contains("(1152921504606846974 s in all), is beyond 2^60 s"),
        "{e}"
    );
}
