//! The trace view: statistics on hand-made traces worked out by hand, their charts as SVG, and
//! `schedlab trace`.

use crate::common;
use common::{schedlab, svg_texts, tmpdir};
use schedlab::charts::{native, palette, trace as chart};
use schedlab::input::{prepare, InputOptions};
use schedlab::swf::{read_bytes, ReadOptions};
use schedlab::trace_stats::{trace_stats, TraceStats};

/// Four jobs on 8 processors; the clock starts at the epoch (a Thursday) with TimeZone +1 h.
/// (submit, runtime, procs, requested): users 1, 2, 3, 1.
const HAND: &str = "; UnixStartTime: 0
; TimeZone: 3600
; MaxProcs: 8
1 0 -1 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1
2 18010 -1 0 2 -1 -1 2 60 -1 1 2 1 -1 -1 -1 -1 -1
3 133200 -1 60 4 -1 -1 4 60 -1 1 3 1 -1 -1 -1 -1 -1
4 691200 -1 50 8 -1 -1 8 -1 -1 1 1 1 -1 -1 -1 -1 -1
";

fn stats_of(text: &str) -> TraceStats {
    let w = read_bytes("hand.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
    let set = prepare(&w, &InputOptions::default()).unwrap();
    trace_stats(&set, &w.header)
}

#[test]
fn hand_trace_statistics() {
    let s = stats_of(HAND);
    assert_eq!((s.jobs, s.users, s.procs), (4, 3, 8));
    assert_eq!(s.clock, "local");
    // Local times: 01:00 Thu, 06:00:10 Thu, 14:00 Fri (day 1), 01:00 Fri (day 8).
    let mut hour = vec![0; 24];
    (hour[1], hour[6], hour[14]) = (2, 1, 1);
    assert_eq!(s.per_hour, hour);
    assert_eq!(s.per_weekday, vec![0, 0, 0, 2, 2, 0, 0]);
    // Weeks from the first submit: three in week 1, one 8 days later.
    assert_eq!(s.per_week, vec![3, 1]);
    // Processors 1, 2, 4, 8: one job per power of two.
    assert_eq!(s.procs_log2, vec![1, 1, 1, 1]);
    // Runtime 0 -> bin 0; 50 and 60 in [32, 64) -> bin 6; 100 in [64, 128) -> bin 7.
    assert_eq!(s.runtime_log2, vec![1, 0, 0, 0, 0, 0, 2, 1]);
    // Runtime / requested: 100/200 = 0.5 (bin 10), 0/60 (bin 0), 60/60 (reached: bin 20).
    let mut acc = vec![0; 21];
    (acc[0], acc[10], acc[20]) = (1, 1, 1);
    assert_eq!(s.accuracy, acc);
    assert_eq!((s.with_request, s.reached_request), (3, 1));
    assert_eq!(s.top_requested, vec![(60, 2), (200, 1)]);
    // Requests by the runtime bins: 60 s twice in [32, 64) -> bin 6, 200 s in [128, 256) ->
    // bin 8; none is round (5-minute multiples under an hour, whole hours).
    assert_eq!(s.requested_log2, vec![0, 0, 0, 0, 0, 0, 2, 0, 1]);
    assert_eq!(s.round_requested, 0);
    // Median requested / runtime per common request: 60 s -> 60/60 (the job that ran 0 s is
    // left out), 200 s -> 200/100.
    assert_eq!(s.overestimation, vec![1.0, 2.0]);
    // Work: 100 + 0 on day 0, 240 on day 1, 400 on day 8; capacity 8 x 86400 per day.
    let cap = 8.0 * 86400.0;
    let mut load = vec![0.0; 9];
    (load[0], load[1], load[8]) = (100.0 / cap, 240.0 / cap, 400.0 / cap);
    assert_eq!(s.load_per_day, load);
    // Over the submissions' span (the metric `load`'s definition): 740 processor-seconds
    // over 8 processors x (day 8 01:00 - day 0 01:00 = 8 days).
    assert!((s.load_overall - 740.0 / (8.0 * 8.0 * 86400.0)).abs() < 1e-15);
    let users: Vec<(i64, u64, f64)> = s
        .top_users
        .iter()
        .map(|u| (u.user, u.jobs, u.work))
        .collect();
    assert_eq!(users, vec![(1, 2, 500.0), (3, 1, 240.0), (2, 1, 0.0)]);
    assert!((s.top_users[0].share - 500.0 / 740.0).abs() < 1e-12);
}

#[test]
fn without_a_start_time_the_clock_counts_from_time_zero() {
    let text: String = HAND.lines().skip(2).map(|l| format!("{l}\n")).collect();
    let s = stats_of(&text);
    assert_eq!(s.clock, "relative");
    // 00:00, 05:00:10, 13:00 (day 1), 00:00 (day 8 = day index 1 of the week).
    let mut hour = vec![0; 24];
    (hour[0], hour[5], hour[13]) = (2, 1, 1);
    assert_eq!(s.per_hour, hour);
    assert_eq!(s.per_weekday, vec![2, 2, 0, 0, 0, 0, 0]);
}

/// Rectangles filled with the chart's colour.
fn columns(svg: &str, c: plotters::style::RGBColor) -> usize {
    let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
    svg.split("<rect")
        .skip(1)
        .filter(|r| r.contains(&fill))
        .count()
}

/// Found by fuzzing: a trace spanning 10^18 seconds made the per-week and per-day series
/// allocate terabytes. They stop at 2^16 bins; later arrivals count in the last one. (Times
/// beyond 2^53 s are skipped by the input rules now: 2^53 s is the longest span left.)
#[test]
fn a_trace_spanning_ages_keeps_bounded_series() {
    let s = stats_of(
        "; MaxProcs: 8
1 0 -1 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1
2 9007199254740992 -1 100 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1
",
    );
    assert_eq!(s.per_week.len(), 1 << 16);
    assert_eq!(s.load_per_day.len(), 1 << 16);
    assert_eq!((s.per_week[0], s.per_week[(1 << 16) - 1]), (1, 1));
    assert_eq!(s.per_week.iter().sum::<u64>(), 2);
    for (name, _) in chart::TRACE_CHARTS {
        native::svg((600, 300), |root| {
            chart::draw(root, &s, name)
                .unwrap()
                .map_err(|e| e.to_string())
        })
        .unwrap();
    }
}

#[test]
fn every_trace_chart_draws_one_column_per_nonzero_count() {
    let s = stats_of(HAND);
    // Non-zero columns per chart, worked out above.
    let expect = [
        ("hour", 3),
        ("weekday", 2),
        ("week", 2),
        ("procs", 4),
        ("runtime", 3),
        ("accuracy", 3),
        ("requested", 2),
        ("requested-log", 2),
        ("overestimation", 2),
        ("load", 3),
        ("users", 2), // user 2 brought no work
    ];
    assert_eq!(expect.len(), chart::TRACE_CHARTS.len());
    for (name, n) in expect {
        let (_, style) = chart::prepare(&s, name).unwrap();
        let svg = native::svg((600, 300), |root| {
            chart::draw(root, &s, name)
                .unwrap()
                .map_err(|e| e.to_string())
        })
        .unwrap();
        assert_eq!(columns(&svg, style.colour), n, "chart {name}");
        let title = chart::TRACE_CHARTS.iter().find(|c| c.0 == name).unwrap().1;
        assert!(svg_texts(&svg).iter().any(|t| t == title), "{name}: title");
    }
    // Labels name what the columns are.
    let svg = native::svg((600, 300), |root| {
        chart::draw(root, &s, "weekday")
            .unwrap()
            .map_err(|e| e.to_string())
    })
    .unwrap();
    let texts = svg_texts(&svg);
    assert!(texts.iter().any(|t| t == "Thu") && texts.iter().any(|t| t == "Fri"));
    assert!(chart::draw(
        &plotters::prelude::IntoDrawingArea::into_drawing_area(
            plotters::prelude::SVGBackend::with_string(&mut String::new(), (100, 100))
        ),
        &s,
        "nonsense"
    )
    .is_none());
    assert_ne!(palette::COLOURS[0], palette::OTHER);
}

#[test]
fn cli_prints_summary_json_and_charts() {
    let d = tmpdir("trace", "cli");
    let t = d.join("hand.swf");
    std::fs::write(&t, HAND).unwrap();
    let t = t.to_str().unwrap();
    let (ok, out, err) = schedlab(&["trace", t]);
    assert!(ok, "{err}");
    assert!(out.contains("4 jobs, 3 users, 8 processors"), "{out}");
    assert!(out.contains("1min (2), 3.3min (1)"), "{out}");
    let (ok, out, err) = schedlab(&["trace", t, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["per_weekday"], serde_json::json!([0, 0, 0, 2, 2, 0, 0]));
    assert_eq!(v["reached_request"], 1);
    let svg = d.join("hour.svg");
    let (ok, _, err) = schedlab(&[
        "trace",
        t,
        "--chart",
        "hour",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(std::fs::read_to_string(&svg)
        .unwrap()
        .contains("Jobs submitted per hour of day"));
    let png = d.join("load.png");
    let (ok, _, err) = schedlab(&[
        "trace",
        t,
        "--chart",
        "load",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let (ok, _, err) = schedlab(&["trace", t, "--chart", "pie", "--out", "x.svg"]);
    assert!(!ok && err.contains("valid: hour, weekday"), "{err}");
}

/// A column chart of `values` under `labels` (log y axis or linear), as SVG.
fn columns_svg(labels: &[&str], values: Vec<f64>, log_y: bool) -> String {
    use schedlab::charts::columns::{self, ColumnStyle, Columns};
    let data = Columns {
        labels: labels.iter().map(|l| l.to_string()).collect(),
        values,
    };
    let style = ColumnStyle {
        log_y,
        ..ColumnStyle::default()
    };
    native::svg((600, 300), |root| {
        columns::draw(root, &data, &style, "Jobs").map_err(|e| e.to_string())
    })
    .unwrap()
}

/// A log y axis labels only 1, 2 and 5 times a power of ten: over one or two decades plotters
/// puts a key point at every whole number up to 10, and their labels "8", "9" and "10" ran
/// into each other (seen on an sacct log's "Jobs by processors (log)": columns of 13-17 jobs).
#[test]
fn a_log_axis_labels_one_two_five_only() {
    let svg = columns_svg(
        &["1", "2-3", "4-7", "8-15"],
        vec![15.0, 17.0, 13.0, 15.0],
        true,
    );
    let numbers: Vec<String> = svg_texts(&svg)
        .into_iter()
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
        .collect();
    // The x labels "1" and the y labels: 1, 2, 5, 10 and 20 (the axis reaches 34).
    for want in ["2", "5", "10", "20"] {
        assert!(numbers.iter().any(|t| t == want), "{numbers:?}");
    }
    for gone in ["3", "4", "6", "7", "8", "9", "30"] {
        assert!(!numbers.iter().any(|t| t == gone), "{numbers:?}");
    }
}

/// A column of 1 on a log axis has a height: the axis started at 1, where a count of one job
/// drew nothing (a trace of one job showed empty "Jobs by processors (log)" and "Jobs by
/// runtime (log)" charts, and any trace's rare sizes vanished). Here columns of 1 and 10: two
/// bars of the chart's colour, each taller than a pixel.
#[test]
fn a_log_column_of_one_is_drawn() {
    let svg = columns_svg(&["1", "2-3"], vec![1.0, 10.0], true);
    let c = schedlab::charts::columns::ColumnStyle::default().colour;
    let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
    let heights: Vec<f64> = (svg.split("<rect").skip(1))
        .filter(|r| r.contains(&fill))
        .filter_map(|r| {
            let h = r.split("height=\"").nth(1)?.split('"').next()?;
            h.parse().ok()
        })
        .collect();
    assert_eq!(heights.len(), 2, "{heights:?}");
    assert!(heights.iter().all(|&h| h > 1.0), "{heights:?}");
    // Below 1 the axis has no label (no "0.5" jobs).
    assert!(
        !svg_texts(&svg).iter().any(|t| t.starts_with("0.")),
        "{svg:.3000}"
    );
}

/// A linear axis of counts (every column whole) is labelled at whole numbers only: columns of
/// 1 and 2 jobs gave the axis labels "0.20", "0.40" ... (fractions of a job). With a column of
/// 1.5 (a load, not a count) the fractional labels stay.
#[test]
fn a_linear_axis_of_counts_has_whole_labels() {
    let labels = |values: Vec<f64>| -> Vec<f64> {
        let svg = columns_svg(&["a", "b"], values, false);
        svg_texts(&svg)
            .iter()
            .filter_map(|t| t.parse().ok())
            .collect()
    };
    let counts = labels(vec![1.0, 2.0]);
    assert!(counts.contains(&1.0) && counts.contains(&2.0), "{counts:?}");
    assert!(counts.iter().all(|y| y.fract() == 0.0), "{counts:?}");
    let loads = labels(vec![1.5, 2.0]);
    assert!(loads.iter().any(|y| y.fract() != 0.0), "{loads:?}");
}

/// The offered-load chart of a trace of a few minutes (the page's Slurm demo): per day it was
/// one bar of 0.5 % under a 100 % line, while the summary said 217 %; its bins are minutes
/// then, hours for a trace of a few hours, days from two days on.
#[test]
fn the_load_chart_bins_suit_the_traces_span() {
    // 4 processors; job 1 (2 x 120 s) and job 2 (4 x 60 s) in minute 0, job 3 (1 x 60 s)
    // in minute 2 (submitted at 150 s): 480 and 60 processor-seconds over 4 x 60 per minute.
    let s = stats_of(
        "; MaxProcs: 4
1 0 -1 120 2 -1 -1 2 200 -1 1 1 1 -1 -1 -1 -1 -1
2 30 -1 60 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1
3 150 -1 60 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1
",
    );
    assert_eq!(s.load_bin, "minute");
    assert_eq!(s.load_series, vec![2.0, 0.0, 0.25]);
    let (data, style) = chart::prepare(&s, "load").unwrap();
    assert_eq!(style.x_desc, "minute (from the first submission)");
    assert_eq!(data.values, vec![200.0, 0.0, 25.0]);
    // Three hours: hours; job 2 at 3 h lands in hour 3 (2 x 3600 / (4 x 3600) = 0.5).
    let s = stats_of(
        "; MaxProcs: 4
1 0 -1 3600 1 -1 -1 1 4000 -1 1 1 1 -1 -1 -1 -1 -1
2 10800 -1 3600 2 -1 -1 2 4000 -1 1 1 1 -1 -1 -1 -1 -1
",
    );
    assert_eq!(s.load_bin, "hour");
    assert_eq!(s.load_series, vec![0.25, 0.0, 0.0, 0.5]);
    // The hand trace spans 8 days: its days, as before.
    let s = stats_of(HAND);
    assert_eq!(
        (s.load_bin.as_str(), &s.load_series),
        ("day", &s.load_per_day)
    );
    assert_eq!(chart::prepare(&s, "load").unwrap().1.x_desc, "day");
}

/// The last column is labelled however many columns one label spans: a runtime histogram's
/// range ends at its longest jobs, and with labels at every k-th column from the first the last
/// ones were bare whenever the count of columns less one was no multiple of k. Here 20 columns
/// and at most 8 labels (k = 3): c0, c3, ..., c15 and c19; c18 (one column from c19) goes.
#[test]
fn the_last_column_is_labelled() {
    use schedlab::charts::columns::{self, ColumnStyle, Columns};
    let names: Vec<String> = (0..20).map(|i| format!("c{i}")).collect();
    let data = Columns {
        labels: names.clone(),
        values: (0..20).map(|i| f64::from(i + 1)).collect(),
    };
    let style = ColumnStyle {
        max_labels: 8,
        ..ColumnStyle::default()
    };
    let svg = native::svg((600, 300), |root| {
        columns::draw(root, &data, &style, "Jobs").map_err(|e| e.to_string())
    })
    .unwrap();
    let shown: Vec<String> = svg_texts(&svg)
        .into_iter()
        .filter(|t| names.contains(t))
        .collect();
    assert_eq!(
        shown,
        ["c0", "c3", "c6", "c9", "c12", "c15", "c19"],
        "{shown:?}"
    );
    assert!((0..20).filter(|&i| columns::labelled(i, 20, 3)).count() == 7);
    assert!(columns::labelled(0, 1, 5));
}

/// One job with a requested time is said in the singular ("1 jobs have one" before).
#[test]
fn one_requested_time_is_singular() {
    let one = stats_of("1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n");
    assert!(
        one.summary()
            .contains("requested times: 1 job has one; 0.0 % of them ran until it"),
        "{}",
        one.summary()
    );
    let two = stats_of(
        "1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n2 1 -1 20 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n",
    );
    assert!(
        two.summary()
            .contains("requested times: 2 jobs have one; 50.0 % of them"),
        "{}",
        two.summary()
    );
}
