//! `schedlab plot`: a chart of one or more policy runs as SVG (or PNG by the file extension).

use crate::InputArgs;
use clap::{Args, ValueEnum};
use plotters::coord::Shift;
use plotters::prelude::*;
use schedlab::charts::legend::Key;
use schedlab::charts::{bars, eet_box, gantt, gpu_lanes, native, series};
use schedlab::run::{self, RunResult};
use schedlab::workload::names::UserRef;
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum Chart {
    /// Processors x time, one rectangle per job (first policy only). On a cluster the rows are
    /// grouped by node; on one with GPUs each node's row also has a lane per GPU, where the
    /// jobs holding GPUs are drawn.
    Gantt,
    /// Busy processors over time, the policies overlaid.
    Utilization,
    /// Queue length over time, the policies overlaid.
    Queue,
    /// Mean wait per policy.
    Wait,
    /// Mean bounded slowdown per policy.
    Bsld,
    /// Box plot of VEET_u (percent of a user's jobs that missed their EET), per policy.
    Veet,
    /// Box plot of WT_u (a user's processor-weighted tardiness, log scale), per policy.
    Wt,
    /// EET heatmap: users x time, colour = violated EETs, busy processors below; one panel
    /// per policy.
    Heatmap,
    /// Any number of the `--json` report per policy, as bars (`--metric PATH`, e.g.
    /// `fairness.blocked.big_mbs` for the PV-EASY paper's Figure 2, `penalty.bsld.p95` for the
    /// RUA paper's Figure 8).
    Metric,
}

#[derive(Args)]
pub struct PlotArgs {
    /// Trace: SWF, Slurm `sacct --parsable2` or `--json` output or Batsim JSON, plain or gzip
    /// (recognised by its content).
    trace: PathBuf,
    /// Policy spec; repeat to overlay or compare.
    #[arg(long = "policy", short = 'p', required = true)]
    policies: Vec<String>,
    #[arg(long, value_enum, default_value = "gantt")]
    chart: Chart,
    /// Output file: .svg or .png.
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start of the drawn time window (seconds from time 0; Gantt and heatmap). (`--from` /
    /// `--to` select the jobs submitted in a window, as in `run`.)
    #[arg(long = "view-from")]
    view_from: Option<f64>,
    /// End of the drawn time window (seconds from time 0; Gantt and heatmap).
    #[arg(long = "view-to")]
    view_to: Option<f64>,
    /// `--chart metric`: a dotted path into the `--json` report (a top-level object by name,
    /// else inside `metrics`): `mbs`, `wait.p95`, `fairness.blocked.big_mwbs`, `penalty.killed_by_penalty`.
    #[arg(long)]
    metric: Option<String>,
    #[arg(long, default_value_t = 1200)]
    width: u32,
    #[arg(long, default_value_t = 500)]
    height: u32,
    /// Gantt: colour jobs by their penalty factor (node model) instead of by user.
    #[arg(long)]
    by_penalty: bool,
    /// Heatmap: colour by log(1 + count).
    #[arg(long)]
    heat_log: bool,
    /// Heatmap: row order, most violations first or by user id.
    #[arg(long, value_enum, default_value = "total")]
    heat_sort: HeatSort,
    /// Heatmap: also show users without violated EETs.
    #[arg(long)]
    heat_all_users: bool,
    /// Heatmap: leave these users' rows out (comma-separated numbers, or the names an sacct
    /// log gives; `--exclude-users` leaves their jobs out of the simulation).
    #[arg(long = "heat-exclude", value_delimiter = ',')]
    heat_exclude: Vec<UserRef>,
    /// Heatmap: show only these users' rows (comma-separated numbers or names).
    #[arg(long = "heat-only", alias = "only-users", value_delimiter = ',')]
    heat_only: Vec<UserRef>,
    #[command(flatten)]
    site: crate::site_args::SiteArgs,
    #[command(flatten)]
    metrics: crate::MetricArgs,
    #[command(flatten)]
    input: InputArgs,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum HeatSort {
    Total,
    User,
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: &PlotArgs,
    rows: &HeatRows,
    trace: &run::Trace,
    runs: &[RunResult],
) -> Result<(), String> {
    // A legend names a policy by its whole spec when short, else as the user wrote it: `slurm`
    // with a slurm.conf's parameters runs to hundreds of characters and left the chart.
    let short = |s: &str| s.chars().count() <= crate::table::LONGEST_LABEL;
    let labels: Vec<String> = runs
        .iter()
        .zip(&a.policies)
        .map(|(r, typed)| match short(&r.spec) || !short(typed) {
            true => r.spec.clone(),
            false => typed.clone(),
        })
        .collect();
    let e = |e: plotters::drawing::DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    match a.chart {
        Chart::Gantt => {
            let r = &runs[0];
            let rects = gantt::rects(&trace.jobs, &r.schedule);
            let t1 = rects.iter().map(|r| r.end).fold(1.0, f64::max);
            let title = format!(
                "{}: {}",
                schedlab::output::workload_name(&trace.jobs.name),
                r.spec
            );
            let (from, to) = (a.view_from.unwrap_or(0.0), a.view_to.unwrap_or(t1));
            if from >= to {
                return Err(empty_window(from, to, 0.0, t1));
            }
            let cores = trace.jobs.options.nodes.as_ref().map_or(0, |m| m.cores);
            let factors = if a.by_penalty {
                schedlab::metrics::penalty::factors(&r.schedule)
                    .ok_or("--by-penalty needs the node model (--nodes)")?
            } else {
                Vec::new()
            };
            // On a cluster, the rows grouped by its nodes; with GPUs, a lane per GPU.
            let (rows, height, rects) = match trace.jobs.placement.as_deref() {
                Some(p) if gpu_lanes::has_lanes(p) => {
                    gpu_lanes::chart(&trace.jobs.jobs, &r.schedule, p)
                }
                Some(p) => (gantt::NodeRows::of_placement(p), trace.jobs.procs, rects),
                None => (
                    gantt::NodeRows::uniform(trace.jobs.procs, cores),
                    trace.jobs.procs,
                    rects,
                ),
            };
            let names = &trace.jobs.names.users;
            gantt::draw_rows(
                root, &rects, height, &rows, &factors, names, from, to, &title,
            )
            .map(|_area| ())
            .map_err(e)
        }
        Chart::Utilization | Chart::Queue => {
            let column = if matches!(a.chart, Chart::Utilization) {
                1
            } else {
                2
            };
            let data: Vec<Vec<f64>> = runs.iter().map(|r| series::points(&r.schedule)).collect();
            let title = if column == 1 {
                "busy processors"
            } else {
                "queue length"
            };
            series::draw(root, &data, &Key::list(&labels), column, title).map_err(e)
        }
        Chart::Wait | Chart::Bsld => {
            let wait = matches!(a.chart, Chart::Wait);
            let values: Vec<f64> = runs
                .iter()
                .map(|r| {
                    if wait {
                        r.classic.wait.mean
                    } else {
                        r.classic.mbs
                    }
                })
                .collect();
            let title = if wait {
                "mean wait (s)"
            } else {
                "mean bounded slowdown"
            };
            bars::draw(root, &Key::list(&labels), &values, title).map_err(e)
        }
        Chart::Veet | Chart::Wt => {
            let veet = matches!(a.chart, Chart::Veet);
            let data: Vec<(Key, Vec<f64>)> = Key::list(&labels)
                .into_iter()
                .zip(runs)
                .map(|(key, r)| {
                    let v = r.eet.users.iter().map(|u| if veet { u.veet } else { u.wt });
                    (key, v.collect())
                })
                .collect();
            let style = if veet {
                eet_box::BoxStyle::veet()
            } else {
                eet_box::BoxStyle::wt()
            };
            let name = schedlab::output::workload_name(&trace.jobs.name);
            let title = if veet {
                format!("{name}: violated EETs per user")
            } else {
                format!("{name}: weighted tardiness per user")
            };
            eet_box::draw(root, &data, &style, &title).map_err(e)
        }
        Chart::Heatmap => heatmap(root, a, rows, trace, runs).map_err(e),
        Chart::Metric => {
            let path = a
                .metric
                .as_deref()
                .ok_or("--chart metric needs --metric PATH")?;
            let values = runs
                .iter()
                .map(|r| report_number(&r.report(&trace.jobs), path))
                .collect::<Result<Vec<f64>, String>>()?;
            // The catalogue's label for a metric's path, else the path itself.
            let title = schedlab::metrics::catalogue::METRICS
                .iter()
                .find(|m| m.path == path)
                .map_or_else(|| path.to_string(), |m| m.label.to_string());
            bars::draw(root, &Key::list(&labels), &values, &title).map_err(e)
        }
    }
}

/// The number at a dotted `path` of a run's `--json` report: a top-level object by name, else
/// inside `metrics`.
fn report_number(report: &run::Report<'_>, path: &str) -> Result<f64, String> {
    let v = serde_json::to_value(report).map_err(|e| e.to_string())?;
    let first = path.split('.').next().unwrap_or("");
    let mut node = if first != "metrics" && v.get(first).is_some() {
        &v
    } else {
        &v["metrics"]
    };
    for k in path.split('.') {
        node = &node[k];
    }
    node.as_f64().ok_or_else(|| {
        format!("--metric {path}: not a number of the report (see `schedlab run --json`)")
    })
}

/// The heatmap's users left out and shown only (`--heat-exclude`, `--heat-only`), by number
/// (resolved from names once, before any run).
struct HeatRows {
    exclude: Vec<i64>,
    only: Vec<i64>,
}

/// The EET heatmap of every run, binned at one bin per pixel column over a common window.
fn heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: &PlotArgs,
    rows: &HeatRows,
    trace: &run::Trace,
    runs: &[RunResult],
) -> schedlab::charts::ChartResult<DB::ErrorType> {
    use schedlab::charts::eet_heatmap::{
        self as chart, HeatPanel, HeatStyle, MemoryStrip, RowOrder,
    };
    use schedlab::metrics::eet_heatmap::{heatmap, memory_series, violations, window};
    let set = &trace.jobs;
    let (t0, t1) = runs
        .iter()
        .map(|r| window(set, &r.schedule))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a0, a1), (b0, b1)| {
            (a0.min(b0), a1.max(b1))
        });
    // At least one second, from the window's own start (--view-from past the data's end made
    // a negative bin width).
    let t0 = a.view_from.unwrap_or(t0);
    let t1 = a.view_to.unwrap_or(t1).max(t0 + 1.0);
    let bins = chart::plot_width(root.dim_in_pixel().0);
    let users = set.users();
    let maps: Vec<_> = runs
        .iter()
        .map(|r| {
            heatmap(
                &users,
                &violations(set, &r.schedule, trace.expected()),
                t0,
                (t1 - t0) / f64::from(bins),
                bins,
            )
        })
        .collect();
    let busy: Vec<Vec<f64>> = runs.iter().map(|r| series::points(&r.schedule)).collect();
    // Memory in use, when the trace has memory: up to the machine's memory if given, else to the
    // peak over the compared policies.
    let memory: Vec<Option<Vec<f64>>> = runs
        .iter()
        .map(|r| memory_series(set, &r.schedule))
        .collect();
    let peak = memory
        .iter()
        .flatten()
        .flat_map(|m| m.chunks_exact(2).map(|c| c[1]))
        .fold(0.0, f64::max);
    let capacity = trace.metrics.eet.machine_memory.map_or(peak, |m| m as f64);
    let name = schedlab::output::workload_name(&set.name);
    let panels: Vec<HeatPanel> = runs
        .iter()
        .zip(&maps)
        .zip(&busy)
        .zip(&memory)
        .map(|(((r, map), busy), mem)| HeatPanel {
            title: format!("{name}: {}", r.spec),
            map,
            busy,
            procs: set.procs,
            memory: mem
                .as_deref()
                .map(|series| MemoryStrip { series, capacity }),
        })
        .collect();
    let style = HeatStyle {
        log: a.heat_log,
        order: match a.heat_sort {
            HeatSort::Total => RowOrder::Total,
            HeatSort::User => RowOrder::User,
        },
        exclude: rows.exclude.clone(),
        only: rows.only.clone(),
        all_users: a.heat_all_users,
        names: set.names.users.clone(),
    };
    chart::draw(root, &panels, &style)
}

/// The drawn window's ends: finite times within 2^53 s, the start before the end.
fn check_view(a: &PlotArgs) -> Result<(), String> {
    let limit = schedlab::input::MAX_TIME as f64;
    for (flag, v) in [("--view-from", a.view_from), ("--view-to", a.view_to)] {
        if let Some(v) = v {
            if !(v.is_finite() && v.abs() <= limit) {
                return Err(format!(
                    "{flag} {v}: must be a number of seconds from -2^53 to 2^53"
                ));
            }
        }
    }
    if let (Some(from), Some(to)) = (a.view_from, a.view_to) {
        if from >= to {
            return Err(format!("--view-from {from} must be before --view-to {to}"));
        }
    }
    Ok(())
}

fn empty_window(from: f64, to: f64, t0: f64, t1: f64) -> String {
    format!("the drawn window [{from}, {to}) s is empty (the schedule runs from {t0} to {t1} s)")
}

pub fn run(a: &PlotArgs) -> Result<(), Box<dyn std::error::Error>> {
    check_view(a)?;
    crate::outputs::not_the_input("--out", &a.out, &a.trace)?;
    crate::outputs::chart_file("--out", &a.out)?;
    let (read, input) = a.input.options()?;
    let trace = run::Trace::load_path(&a.trace, &read, &input, a.metrics.options()?)?;
    // The heatmap's users by number; one the lists name and the trace does not: an error
    // before any run.
    let names = &trace.jobs.names;
    let rows = HeatRows {
        exclude: names.user_ids(&a.heat_exclude, "--heat-exclude")?,
        only: names.user_ids(&a.heat_only, "--heat-only")?,
    };
    // The site the `slurm` policy reads (--slurm-conf, --sshare), as `schedlab run` gives it:
    // the chart is of the schedule `run` reports (it drew slurm on Slurm's defaults).
    let site = a
        .site
        .read(a.input.slurm_conf.as_deref())?
        .map(|site| trace.named_site(site));
    let runs = a
        .policies
        .iter()
        .map(|p| trace.run_at(p, site.as_ref(), a.seed, None))
        .collect::<Result<Vec<_>, _>>()?;
    let size = (a.width.clamp(200, 8000), a.height.clamp(150, 8000));
    let png = a
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        native::ensure_font();
        let root = BitMapBackend::new(&a.out, size).into_drawing_area();
        draw(&root, a, &rows, &trace, &runs)?;
        root.present()
            .map_err(|e| format!("{}: {e}", a.out.display()))?;
    } else {
        let svg = native::svg(size, |root| draw(root, a, &rows, &trace, &runs))?;
        std::fs::write(&a.out, svg).map_err(|e| format!("{}: {e}", a.out.display()))?;
    }
    eprintln!("wrote {}", a.out.display());
    Ok(())
}
