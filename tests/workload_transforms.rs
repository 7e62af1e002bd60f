//! Load scaling, time windows and user selection, checked against submit times worked out by
//! hand; recorded in the JSON report.

use schedlab::input::{prepare, InputOptions};
use schedlab::swf::{read_bytes, ReadOptions, Workload};
use schedlab::workload::transform::Transform;

/// Five jobs submitted at 0, 100, 250, 400, 1000 by users 1, 2, 3, 1, 2; the trace starts at
/// 2024-03-01T00:00:00Z.
fn trace() -> Workload {
    let mut s = String::from("; UnixStartTime: 1709251200\n; MaxProcs: 8\n");
    for (i, (submit, user)) in [(0, 1), (100, 2), (250, 3), (400, 1), (1000, 2)]
        .iter()
        .enumerate()
    {
        s.push_str(&format!(
            "{} {submit} -1 50 1 -1 -1 1 60 -1 1 {user} 1 -1 -1 -1 -1 -1\n",
            i + 1
        ));
    }
    read_bytes("five.swf", s.as_bytes(), &ReadOptions::default()).unwrap()
}

/// (job number, submit) after the transform, time 0 = the first kept submit.
fn submits(t: Transform) -> Vec<(i64, i64)> {
    let opts = InputOptions {
        transform: t,
        ..InputOptions::default()
    };
    let set = prepare(&trace(), &opts).unwrap();
    set.jobs.iter().map(|j| (j.id, j.submit)).collect()
}

#[test]
fn load_scale_divides_inter_arrival_times() {
    let t = |f| Transform {
        load_scale: Some(f),
        ..Transform::default()
    };
    assert_eq!(
        submits(t(2.0)),
        [(1, 0), (2, 50), (3, 125), (4, 200), (5, 500)]
    );
    // 100 / 1.5 = 66.7 -> 67; 250 / 1.5 = 166.7 -> 167; 400 / 1.5 = 266.7 -> 267; 666.7 -> 667.
    assert_eq!(
        submits(t(1.5)),
        [(1, 0), (2, 67), (3, 167), (4, 267), (5, 667)]
    );
    assert_eq!(
        submits(t(0.5)),
        [(1, 0), (2, 200), (3, 500), (4, 800), (5, 2000)]
    );
    assert_eq!(
        submits(t(1.0)),
        [(1, 0), (2, 100), (3, 250), (4, 400), (5, 1000)]
    );
}

#[test]
fn window_keeps_jobs_submitted_in_it() {
    let w = |from: Option<&str>, to: Option<&str>| Transform {
        from: from.map(str::to_owned),
        to: to.map(str::to_owned),
        ..Transform::default()
    };
    // [100, 400): jobs 2 and 3, time 0 moved to the first of them.
    assert_eq!(submits(w(Some("100"), Some("400"))), [(2, 0), (3, 150)]);
    assert_eq!(submits(w(None, Some("250"))), [(1, 0), (2, 100)]);
    // A date: 2024-03-01T00:04:10 UTC = 250 s after the trace's UnixStartTime.
    assert_eq!(
        submits(w(Some("2024-03-01T00:04:10"), None)),
        [(3, 0), (4, 150), (5, 750)]
    );
    assert_eq!(submits(w(Some("2024-03-01T01:04:10+01:00"), None)).len(), 3);
}

#[test]
fn users_and_composition() {
    let u = Transform {
        users: vec![1.into(), 2.into()],
        ..Transform::default()
    };
    assert_eq!(submits(u), [(1, 0), (2, 100), (4, 400), (5, 1000)]);
    let x = Transform {
        exclude_users: vec![2.into()],
        ..Transform::default()
    };
    assert_eq!(submits(x), [(1, 0), (3, 250), (4, 400)]);
    // Window [100, end), users 1 and 3, load x2: jobs 3 (250) and 4 (400) -> 250, 250 + 75.
    let all = Transform {
        from: Some("100".into()),
        users: vec![1.into(), 3.into()],
        load_scale: Some(2.0),
        ..Transform::default()
    };
    assert_eq!(submits(all), [(3, 0), (4, 75)]);
}

#[test]
fn bad_transforms_are_errors_and_the_report_records_them() {
    let bad = |t: Transform| {
        let opts = InputOptions {
            transform: t,
            ..InputOptions::default()
        };
        prepare(&trace(), &opts).unwrap_err().to_string()
    };
    let e = bad(Transform {
        load_scale: Some(0.0),
        ..Transform::default()
    });
    assert_eq!(
        e,
        "five.swf: load scale 0: must be a number > 0 and at most 1e6"
    );
    let e = bad(Transform {
        from: Some("noon".into()),
        ..Transform::default()
    });
    assert!(
        e.starts_with("five.swf: from \"noon\": expected seconds"),
        "{e}"
    );
    let e = bad(Transform {
        users: vec![99.into()],
        ..Transform::default()
    });
    assert!(e.contains("no job can be simulated"), "{e}");
    // A date on a trace without UnixStartTime.
    let plain = read_bytes(
        "plain.swf",
        b"1 0 -1 5 1 -1 -1 1 5 -1 1 1 1 -1 -1 -1 -1 -1\n",
        &ReadOptions::default(),
    )
    .unwrap();
    let opts = InputOptions {
        transform: Transform {
            to: Some("2024-01-01T00:00:00".into()),
            ..Transform::default()
        },
        ..InputOptions::default()
    };
    let e = prepare(&plain, &opts).unwrap_err().to_string();
    assert!(
        e.contains("a date needs a trace whose header gives UnixStartTime"),
        "{e}"
    );
    // Recorded in the report's input options, with what was done among the warnings.
    let opts = InputOptions {
        transform: Transform {
            load_scale: Some(1.2),
            exclude_users: vec![3.into()],
            ..Transform::default()
        },
        ..InputOptions::default()
    };
    let set = prepare(&trace(), &opts).unwrap();
    let r = run_easy(&set);
    let json = serde_json::to_value(r.report(&set)).unwrap();
    assert_eq!(json["input"]["transform"]["load_scale"], 1.2);
    assert_eq!(json["input"]["transform"]["exclude_users"][0], 3);
    let warnings = json["warnings"].to_string();
    assert!(warnings.contains("load scaled by 1.2"), "{warnings}");
    assert!(
        warnings.contains("1 job of other users left out"),
        "{warnings}"
    );
    // The default writes nothing.
    let set = prepare(&trace(), &InputOptions::default()).unwrap();
    let r = run_easy(&set);
    assert!(serde_json::to_value(r.report(&set)).unwrap()["input"]
        .get("transform")
        .is_none());
}

/// `easy` on `set` with the default metric options, measured as every front end does.
fn run_easy(set: &schedlab::input::JobSet) -> schedlab::run::RunResult {
    let opts = schedlab::metrics::MetricOptions::default();
    let expected = schedlab::metrics::eet::expected_end_times(set, &opts.eet).unwrap();
    let schedule = schedlab::run::simulate(set, "easy", 1, None).unwrap();
    schedlab::run::measure(set, &opts, &expected, schedule)
}
