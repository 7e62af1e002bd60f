//! `schedlab plot`: a chart of one or more policy runs as SVG (or PNG by the file extension).

use crate::InputArgs;
use clap::{Args, ValueEnum};
use plotters::coord::Shift;
use plotters::prelude::*;
use schedlab::charts::{bars, gantt, native, series};
use schedlab::metrics::ClassicOptions;
use schedlab::run::{self, RunResult};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum Chart {
    /// Processors x time, one rectangle per job (first policy only).
    Gantt,
    /// Busy processors over time, the policies overlaid.
    Utilization,
    /// Queue length over time, the policies overlaid.
    Queue,
    /// Mean wait per policy.
    Wait,
    /// Mean bounded slowdown per policy.
    Bsld,
}

#[derive(Args)]
pub struct PlotArgs {
    /// SWF trace, plain or gzip.
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
    /// Start of the time window (seconds from time 0; Gantt only).
    #[arg(long)]
    from: Option<f64>,
    /// End of the time window (seconds from time 0; Gantt only).
    #[arg(long)]
    to: Option<f64>,
    #[arg(long, default_value_t = 1200)]
    width: u32,
    #[arg(long, default_value_t = 500)]
    height: u32,
    #[command(flatten)]
    input: InputArgs,
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: &PlotArgs,
    trace: &run::Trace,
    runs: &[RunResult],
) -> Result<(), String> {
    let labels: Vec<String> = runs.iter().map(|r| r.spec.clone()).collect();
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
            gantt::draw(
                root,
                &rects,
                trace.jobs.procs,
                a.from.unwrap_or(0.0),
                a.to.unwrap_or(t1),
                &title,
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
            series::draw(root, &data, &labels, column, title).map_err(e)
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
            bars::draw(root, &labels, &values, title).map_err(e)
        }
    }
}

pub fn run(a: &PlotArgs) -> Result<(), Box<dyn std::error::Error>> {
    let (read, input) = a.input.options();
    let trace = run::load_path(&a.trace, &read, &input)?;
    let runs = a
        .policies
        .iter()
        .map(|p| run::run_policy(&trace.jobs, p, a.seed, &ClassicOptions::default(), None))
        .collect::<Result<Vec<_>, _>>()?;
    let size = (a.width.clamp(200, 8000), a.height.clamp(150, 8000));
    let png = a
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        native::ensure_font();
        let root = BitMapBackend::new(&a.out, size).into_drawing_area();
        draw(&root, a, &trace, &runs)?;
        root.present()
            .map_err(|e| format!("{}: {e}", a.out.display()))?;
    } else {
        let svg = native::svg(size, |root| draw(root, a, &trace, &runs))?;
        std::fs::write(&a.out, svg).map_err(|e| format!("{}: {e}", a.out.display()))?;
    }
    eprintln!("wrote {}", a.out.display());
    Ok(())
}
