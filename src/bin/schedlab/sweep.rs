//! `schedlab sweep`: one metric of policies over a range of values of one key and several
//! seeds: mean / min / max per value per policy (the logic lives in `schedlab::sweep`), printed
//! as a table and, with `--out`, drawn as a chart.

use crate::{InputArgs, MetricArgs};
use clap::Args;
use plotters::prelude::*;
use schedlab::charts::{native, sweep as chart};
use schedlab::metrics::catalogue;
use schedlab::run;
use schedlab::sweep::{self, Stat};
use std::path::PathBuf;

#[derive(Args)]
pub struct SweepArgs {
    /// SWF trace, plain or gzip.
    trace: PathBuf,
    /// Policy spec (repeatable), e.g. 'pv-easy[predictor=virtual]'.
    #[arg(long = "policy", short = 'p', required = true)]
    policies: Vec<String>,
    /// KEY=v1,v2,...: the values of one key, set on the policy, or else inside its predictor
    /// (err=0,0.1,...,1 expands an arithmetic sequence).
    #[arg(long)]
    vary: Option<String>,
    /// Seeds 1..=N per value.
    #[arg(long, default_value_t = 1)]
    seeds: u64,
    /// A metric name of `schedlab metrics`: mbs, mwbs, wsld, wait, utilization, delayed,
    /// violations, preempted, wasted-load, blocked-big-mbs, eet-violated, ...
    #[arg(long, default_value = "mbs")]
    metric: String,
    /// Also draw the chart (mean line and min-max band per policy) to this .svg or .png file.
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    metrics: MetricArgs,
    #[command(flatten)]
    input: InputArgs,
}

fn draw_chart(
    out: &std::path::Path,
    values: &[String],
    lines: &[chart::SweepLine],
    key: &str,
    metric: &str,
    title: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let size = (900, 500);
    let png = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if png {
        native::ensure_font();
        let root = BitMapBackend::new(out, size).into_drawing_area();
        chart::draw(&root, values, lines, key, metric, title)
            .map_err(|e| format!("{}: {e}", out.display()))?;
        root.present()
            .map_err(|e| format!("{}: {e}", out.display()))?;
    } else {
        let svg = native::svg(size, |root| {
            chart::draw(root, values, lines, key, metric, title).map_err(|e| e.to_string())
        })?;
        std::fs::write(out, svg).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    eprintln!("wrote {}", out.display());
    Ok(())
}

pub fn run(args: &SweepArgs) -> Result<(), Box<dyn std::error::Error>> {
    let (read, input) = args.input.options();
    if args.seeds == 0 {
        return Err("--seeds must be at least 1".into());
    }
    let metric = catalogue::lookup(&args.metric).map_err(|e| format!("--metric: {e}"))?;
    let label = metric.title();
    let trace = run::Trace::load_path(&args.trace, &read, &input, args.metrics.options()?)?;
    let (key, values) = match &args.vary {
        Some(v) => {
            let (k, vals) = sweep::parse_vary(v).map_err(|e| format!("--vary: {e}"))?;
            (Some(k), vals)
        }
        None => (None, vec![String::new()]),
    };
    println!(
        "{:<48} {:>10} {:>12} {:>12} {:>12}",
        "policy",
        key.as_deref().unwrap_or("-"),
        format!("mean {}", args.metric),
        "min",
        "max"
    );
    let mut lines = Vec::new();
    for policy in &args.policies {
        let mut stats = Vec::new();
        for value in &values {
            let spec = match &key {
                Some(k) => {
                    sweep::with_key(policy, k, value).map_err(|e| format!("--vary {k}: {e}"))?
                }
                None => policy.clone(),
            };
            let mut xs = Vec::new();
            let mut canonical = spec.clone();
            for seed in 1..=args.seeds {
                let r = trace.run(&spec, seed, None)?;
                canonical = r.spec.clone();
                xs.push(r.metric(metric).unwrap_or(f64::NAN));
            }
            let s = Stat::of(&xs);
            println!(
                "{canonical:<48} {:>10} {:>12.4} {:>12.4} {:>12.4}",
                if value.is_empty() { "-" } else { value },
                s.mean,
                s.min,
                s.max
            );
            stats.push(s);
        }
        lines.push(chart::SweepLine {
            label: schedlab::policy::canonical(policy).unwrap_or_else(|_| policy.clone()),
            stats,
        });
    }
    if let Some(out) = &args.out {
        let title = format!(
            "{}: {label} over {}, {} seed{}",
            trace.jobs.name,
            key.as_deref().unwrap_or("-"),
            args.seeds,
            if args.seeds == 1 { "" } else { "s" }
        );
        draw_chart(
            out,
            &values,
            &lines,
            key.as_deref().unwrap_or(""),
            &label,
            &title,
        )?;
    }
    Ok(())
}
