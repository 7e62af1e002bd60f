//! The trace view's charts: one [`Columns`] per statistic of [`TraceStats`], named by
//! [`TRACE_CHARTS`] (the page, the CLI's `schedlab trace --chart` and the tests list them from
//! there).

use super::columns::{self, ColumnStyle, Columns};
use super::palette::COLOURS;
use super::ChartResult;
use crate::trace_stats::{short_duration, TraceStats, UserShare, ACCURACY_BINS};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The trace charts: `(name, title)`.
pub const TRACE_CHARTS: &[(&str, &str)] = &[
    ("hour", "Jobs submitted per hour of day"),
    ("weekday", "Jobs submitted per day of week"),
    ("week", "Jobs submitted per week"),
    ("procs", "Jobs by processors (log)"),
    ("runtime", "Jobs by runtime (log)"),
    ("accuracy", "Runtime / requested time"),
    ("requested", "Most common requested times"),
    ("requested-log", "Jobs by requested time (log)"),
    (
        "overestimation",
        "Median requested / runtime of the commonest requests",
    ),
    (
        "load",
        "Offered load over time (work submitted / machine capacity)",
    ),
    ("users", "Users by share of the work"),
];

/// The names of [`TRACE_CHARTS`], comma-separated (for error messages).
pub fn chart_names() -> String {
    TRACE_CHARTS
        .iter()
        .map(|c| c.0)
        .collect::<Vec<_>>()
        .join(", ")
}

/// 2^k, saturated (the statistics may come from the page).
fn pow2(k: usize) -> u64 {
    u32::try_from(k)
        .ok()
        .and_then(|k| 1u64.checked_shl(k))
        .unwrap_or(u64::MAX)
}

fn counts(v: &[u64]) -> Vec<f64> {
    v.iter().map(|&c| c as f64).collect()
}

/// The data and style of chart `name`, or `None` for an unknown name.
pub fn prepare(stats: &TraceStats, name: &str) -> Option<(Columns, ColumnStyle)> {
    let style = |colour: usize, x: &str, y: &str| ColumnStyle {
        colour: COLOURS[colour % COLOURS.len()],
        x_desc: x.into(),
        y_desc: y.into(),
        ..ColumnStyle::default()
    };
    let relative = stats.clock != "local";
    Some(match name {
        "hour" => (
            Columns {
                labels: (0..24).map(|h| format!("{h}")).collect(),
                values: counts(&stats.per_hour),
            },
            style(
                0,
                if relative {
                    "hour (from time 0)"
                } else {
                    "hour (local standard time)"
                },
                "jobs",
            ),
        ),
        "weekday" => {
            let labels: Vec<String> = if relative {
                (1..=7).map(|d| format!("day {d}")).collect()
            } else {
                ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
            };
            (
                Columns {
                    labels,
                    values: counts(&stats.per_weekday),
                },
                style(0, "", "jobs"),
            )
        }
        "week" => (
            Columns {
                labels: (1..=stats.per_week.len()).map(|w| w.to_string()).collect(),
                values: counts(&stats.per_week),
            },
            ColumnStyle {
                max_labels: 16,
                ..style(0, "week", "jobs")
            },
        ),
        "procs" => (
            Columns {
                labels: (0..stats.procs_log2.len())
                    .map(|k| {
                        let lo = pow2(k);
                        let hi = pow2(k + 1).saturating_sub(1);
                        if lo == hi {
                            lo.to_string()
                        } else {
                            format!("{lo}-{hi}")
                        }
                    })
                    .collect(),
                values: counts(&stats.procs_log2),
            },
            ColumnStyle {
                log_y: true,
                ..style(1, "processors", "jobs (log)")
            },
        ),
        "runtime" => (
            durations_log2(&stats.runtime_log2),
            ColumnStyle {
                log_y: true,
                max_labels: 8,
                ..style(2, "runtime", "jobs (log)")
            },
        ),
        "requested-log" => (
            durations_log2(&stats.requested_log2),
            ColumnStyle {
                log_y: true,
                max_labels: 8,
                ..style(
                    5,
                    &format!(
                        "requested time ({:.0} % round: 5 min multiples < 1h, whole hours)",
                        if stats.with_request > 0 {
                            stats.round_requested as f64 * 100.0 / stats.with_request as f64
                        } else {
                            0.0
                        }
                    ),
                    "jobs (log)",
                )
            },
        ),
        "overestimation" => (
            Columns {
                labels: stats
                    .top_requested
                    .iter()
                    .map(|(r, _)| short_duration(*r as f64))
                    .collect(),
                values: stats.overestimation.clone(),
            },
            style(
                7,
                "requested time (commonest first)",
                "median overestimation",
            ),
        ),
        "accuracy" => (
            Columns {
                labels: (0..ACCURACY_BINS)
                    .map(|k| {
                        if k + 1 == ACCURACY_BINS {
                            "≥1".into()
                        } else {
                            format!("{:.2}", k as f64 / 20.0)
                        }
                    })
                    .collect(),
                values: counts(&stats.accuracy),
            },
            ColumnStyle {
                max_labels: 11,
                ..style(
                    3,
                    &format!(
                        "runtime / requested ({} of {} with a request reached it)",
                        stats.reached_request,
                        crate::plural::count(stats.with_request, "job")
                    ),
                    "jobs",
                )
            },
        ),
        "requested" => (
            Columns {
                labels: stats
                    .top_requested
                    .iter()
                    .map(|(r, _)| short_duration(*r as f64))
                    .collect(),
                values: stats.top_requested.iter().map(|(_, n)| *n as f64).collect(),
            },
            style(4, "requested time", "jobs"),
        ),
        "load" => {
            // Stats made before `load_series` (deserialized) have the days alone.
            let (series, bin) = if stats.load_bin.is_empty() {
                (&stats.load_per_day, "day")
            } else {
                (&stats.load_series, stats.load_bin.as_str())
            };
            let axis = match bin {
                "day" => "day".to_string(),
                b => format!("{b} (from the first submission)"),
            };
            (
                Columns {
                    labels: (1..=series.len()).map(|d| d.to_string()).collect(),
                    values: series.iter().map(|l| l * 100.0).collect(),
                },
                ColumnStyle {
                    max_labels: 16,
                    reference: Some((100.0, "capacity".into())),
                    ..style(6, &axis, "% of the machine")
                },
            )
        }
        "users" => (
            Columns {
                labels: stats.top_users.iter().map(UserShare::label).collect(),
                values: stats.top_users.iter().map(|u| u.share * 100.0).collect(),
            },
            style(8, "user (heaviest first)", "% of processor-seconds"),
        ),
        _ => return None,
    })
}

/// Columns of a histogram in the bins of `runtime_log2` (bin 0: 0 s; bin k: from 2^(k-1) s).
fn durations_log2(bins: &[u64]) -> Columns {
    Columns {
        labels: (0..bins.len())
            .map(|k| {
                if k == 0 {
                    "0".into()
                } else {
                    format!("≥{}", short_duration(pow2(k - 1) as f64))
                }
            })
            .collect(),
        values: counts(bins),
    }
}

/// Chart `name` in words (see [`columns::summary`]); `None` for an unknown name.
pub fn summary(stats: &TraceStats, name: &str) -> Option<String> {
    let (data, style) = prepare(stats, name)?;
    Some(columns::summary(&data, &style))
}

/// Draws trace chart `name` (see [`TRACE_CHARTS`]); `None` for an unknown name.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    stats: &TraceStats,
    name: &str,
) -> Option<ChartResult<DB::ErrorType>> {
    let (_, title) = TRACE_CHARTS.iter().find(|c| c.0 == name)?;
    let (data, style) = prepare(stats, name)?;
    Some(columns::draw(root, &data, &style, title))
}
