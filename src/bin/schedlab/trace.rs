//! `schedlab trace`: what a trace looks like before any policy runs (arrivals by hour, day and
//! week, sizes, runtimes, requested-time accuracy, offered load, heaviest users), as text, JSON
//! or one chart (SVG or PNG by the file extension).

use crate::InputArgs;
use clap::Args;
use plotters::prelude::*;
use schedlab::charts::{native, trace as chart};
use schedlab::quote::quote;
use schedlab::run;
use schedlab::trace_stats::{trace_stats, TraceStats};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct TraceArgs {
    /// Trace: SWF, Slurm `sacct --parsable2` or `--json` output or Batsim JSON, plain or gzip
    /// (recognised by its content).
    trace: PathBuf,
    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,
    /// Draw this chart: hour, weekday, week, procs, runtime, accuracy, requested, load, users.
    #[arg(long, requires = "out")]
    chart: Option<String>,
    /// Output file of --chart: .svg or .png.
    #[arg(long, requires = "chart")]
    out: Option<PathBuf>,
    #[arg(long, default_value_t = 900)]
    width: u32,
    #[arg(long, default_value_t = 360)]
    height: u32,
    #[command(flatten)]
    input: InputArgs,
}

fn draw_chart(stats: &TraceStats, name: &str, out: &Path, size: (u32, u32)) -> Result<(), String> {
    if !chart::TRACE_CHARTS.iter().any(|c| c.0 == name) {
        return Err(format!(
            "--chart {}: valid: {}",
            quote(name),
            chart::chart_names()
        ));
    }
    let png = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    let fail = |e: String| format!("{}: {e}", out.display());
    if png {
        native::ensure_font();
        let root = BitMapBackend::new(out, size).into_drawing_area();
        if let Some(r) = chart::draw(&root, stats, name) {
            r.map_err(|e| fail(e.to_string()))?;
        }
        root.present().map_err(|e| fail(e.to_string()))?;
    } else {
        let svg = native::svg(size, |root| match chart::draw(root, stats, name) {
            Some(r) => r.map_err(|e| e.to_string()),
            None => Ok(()),
        })?;
        std::fs::write(out, svg).map_err(|e| fail(e.to_string()))?;
    }
    eprintln!("wrote {}", out.display());
    Ok(())
}

pub fn run(a: &TraceArgs) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(out) = &a.out {
        crate::outputs::not_the_input("--out", out, &a.trace)?;
        crate::outputs::chart_file("--out", out)?;
    }
    let (read, input) = a.input.options()?;
    let trace = run::Trace::load_path(&a.trace, &read, &input, Default::default())?;
    crate::report_skips(&trace);
    let stats = trace_stats(&trace.jobs, &trace.workload.header);
    if let (Some(name), Some(out)) = (&a.chart, &a.out) {
        let size = (a.width.clamp(200, 8000), a.height.clamp(150, 8000));
        draw_chart(&stats, name, out, size)?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
    } else if a.chart.is_none() {
        print!("{}", stats.summary());
    }
    Ok(())
}
