//! `schedlab sweep`: one metric of policies over a range of values of one key and several
//! seeds: mean / min / max per value per policy (the logic lives in `schedlab::sweep`), printed
//! as a table and, with `--out`, drawn as a chart. The points run on every local core;
//! `--shard I/N --out part.json` runs a share of them, and `schedlab merge` prints the whole
//! sweep from the shares.

use crate::{InputArgs, MetricArgs};
use clap::Args;
use plotters::prelude::*;
use schedlab::charts::{native, sweep as chart};
use schedlab::metrics::catalogue;
use schedlab::run;
use schedlab::sweep::plan::{self, Measured, Part, Plan, Shard};
use schedlab::sweep::{self};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

#[derive(Args)]
pub struct SweepArgs {
    /// Trace: SWF, Slurm `sacct --parsable2` or `--json` output or Batsim JSON, plain or gzip
    /// (recognised by its content).
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
    /// violations, preempted, wasted-load, blocked-big-mbs, eet-violated, ...; or its path in
    /// `run --json` (`wait.mean` is `wait`), as `plot --metric` takes it
    #[arg(long, default_value = "mbs")]
    metric: String,
    /// Also draw the chart (mean line and min-max band per policy) to this .svg or .png file;
    /// or, with a .json file, write the results for `schedlab merge` instead of the table.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Run only shard I of N (a deterministic 1/N of the points) and write them to
    /// `--out part.json`; `schedlab merge` prints the whole sweep from the N parts.
    #[arg(long, value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Threads running points [default: the number of local cores].
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    site: crate::site_args::SiteArgs,
    #[command(flatten)]
    metrics: MetricArgs,
    #[command(flatten)]
    input: InputArgs,
}

#[derive(Args)]
pub struct MergeArgs {
    /// Partial results written by `schedlab sweep --shard I/N --out part.json`, one per shard.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Also draw the chart to this .svg or .png file, as `schedlab sweep --out` does.
    #[arg(long)]
    out: Option<PathBuf>,
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

fn is_json(p: &Path) -> bool {
    p.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

pub fn run(args: &SweepArgs) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(out) = &args.out {
        crate::outputs::not_the_input("--out", out, &args.trace)?;
        crate::outputs::folder_exists("--out", out)?;
        if !is_json(out) {
            crate::outputs::chart_file("--out", out)?;
        }
    }
    let json_out = args.out.as_deref().filter(|p| is_json(p));
    if args.shard.is_some() && json_out.is_none() {
        return Err("--shard needs --out PART.json (merge the parts with schedlab merge)".into());
    }
    let (read, input) = args.input.options()?;
    if args.seeds == 0 {
        return Err("--seeds must be at least 1".into());
    }
    let metric = catalogue::lookup(&args.metric).map_err(|e| format!("--metric: {e}"))?;
    let trace = run::Trace::load_path(&args.trace, &read, &input, args.metrics.options()?)?;
    // The site the `slurm` policy reads: the scheduler parameters of --slurm-conf and the
    // shares of --sshare, as `schedlab run` gives them.
    let site = args
        .site
        .read(args.input.slurm_conf.as_deref())?
        .map(|site| trace.named_site(site));
    crate::print_site_notes(site.as_ref());
    // The loops' phases `slurm` reads from an sacct log, said as `run` and `replay` say them.
    match &site {
        Some(site) => crate::print_phases_note(site, &args.policies),
        None => crate::print_phases_note(&trace.named_site(Default::default()), &args.policies),
    }
    let mut site_hash = String::new();
    let [sshare, qos, assoc] = args.site.paths();
    for path in [args.input.slurm_conf.as_deref(), sshare, qos, assoc]
        .into_iter()
        .flatten()
    {
        site_hash.push_str(&file_hash(path)?);
    }
    // The files a slurm.conf's Include lines read are the site too.
    if let Some(conf) = args.input.slurm_conf.as_deref() {
        for included in schedlab::cluster::conf::included_files(conf)? {
            site_hash.push_str(&file_hash(&included)?);
        }
    }
    let (key, values) = match &args.vary {
        Some(v) => {
            let (k, vals) = sweep::parse_vary(v).map_err(|e| format!("--vary: {e}"))?;
            (Some(k), vals)
        }
        None => (None, vec![String::new()]),
    };
    let plan = Plan {
        trace: trace.jobs.name.clone(),
        jobs: trace.jobs.jobs.len(),
        read,
        input,
        metrics: trace.metrics.clone(),
        policies: args.policies.clone(),
        key,
        values,
        seeds: args.seeds,
        metric: metric.name.to_string(), // by its name, also when given by its path
        trace_hash: file_hash(&args.trace)?,
        site_hash,
        version: plan::VERSION.into(),
    };
    let specs = plan.specs()?;
    // Every point's spec is checked before any point runs: a bad value
    // (`--vary PriorityWeightAge=0,1e400`) was an error only when its point ran, after others.
    for spec in specs.iter().flatten() {
        schedlab::policy::canonical(spec).map_err(|e| e.to_string())?;
    }
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let points = plan.shard_points(shard);
    let threads = match args.threads {
        Some(0) => return Err("--threads must be at least 1".into()),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let measure = |k: usize| -> Result<Measured, String> {
        let p = plan.point(k);
        let spec = &specs[p.policy][p.value];
        let fail = |e: &dyn std::fmt::Display| format!("{spec} (seed {}): {e}", p.seed);
        let r = trace
            .run_at(spec, site.as_ref(), p.seed, None)
            .map_err(|e| fail(&e))?;
        // With a site, the run's spec also holds the site's values (the slurm.conf's): the
        // point keeps the plan's spec, and the plan the site's hash.
        let reported = match &site {
            Some(_) => schedlab::policy::canonical(spec).map_err(|e| fail(&e))?,
            None => r.spec.clone(),
        };
        Ok(Measured::new(
            k,
            reported,
            r.metric(metric).unwrap_or(f64::NAN),
        ))
    };
    if let Some(out) = json_out {
        let results = run_points(&points, threads, &measure, |_| {})?;
        let part = Part {
            format: plan::PART_FORMAT.into(),
            plan,
            shard,
            results,
        };
        let text = serde_json::to_string_pretty(&part)?;
        std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
        eprintln!(
            "wrote {} (shard {}/{}: {} of {} points)",
            out.display(),
            shard.index,
            shard.count,
            points.len(),
            part.plan.len()
        );
        return Ok(());
    }
    // The whole sweep: rows printed in order as soon as all their seeds are done.
    print_header(&plan);
    let seeds = plan.seeds as usize;
    let mut slots: Vec<Option<Measured>> = vec![None; points.len()];
    let mut next_row = 0;
    let results = run_points(&points, threads, &measure, |m: &Measured| {
        let k = m.point;
        slots[k] = Some(m.clone());
        while next_row * seeds < slots.len()
            && slots[next_row * seeds..(next_row + 1) * seeds]
                .iter()
                .all(Option::is_some)
        {
            let row: Vec<Measured> = slots[next_row * seeds..(next_row + 1) * seeds]
                .iter()
                .flatten()
                .cloned()
                .collect();
            print_row(&plan, &plan.row(next_row, &row));
            next_row += 1;
        }
    })?;
    finish(&plan, &results, args.out.as_deref())
}

/// The content hash of a file (the trace, the slurm.conf, the sshare), read front to back.
fn file_hash(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut f = std::fs::File::open(path).map_err(err)?;
    let mut h = plan::ContentHash::default();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match f.read(&mut buf).map_err(err)? {
            0 => return Ok(h.hex()),
            n => h.update(&buf[..n]),
        }
    }
}

/// `schedlab merge`: the table (and chart) of the whole sweep from its parts.
pub fn merge(args: &MergeArgs) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(out) = args.out.as_deref().filter(|p| !is_json(p)) {
        crate::outputs::chart_file("--out", out)?;
    }
    let mut parts = Vec::new();
    for path in &args.parts {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
            // A trace or an image given by mistake.
            std::io::ErrorKind::InvalidData => {
                format!("{name}: not a sweep part (schedlab sweep --shard): not text")
            }
            _ => format!("{name}: {e}"),
        })?;
        let part: Part = serde_json::from_str(&text)
            .map_err(|e| format!("{name}: not a sweep part (schedlab sweep --shard): {e}"))?;
        parts.push((name, part));
    }
    let (plan, results) = plan::merge(parts)?;
    if let Some(out) = args.out.as_deref().filter(|p| is_json(p)) {
        return Err(format!("--out {}: merge draws .svg or .png charts", out.display()).into());
    }
    print_header(&plan);
    for row in plan.rows(&results) {
        print_row(&plan, &row);
    }
    finish(&plan, &results, args.out.as_deref())
}

/// Runs `measure` on every point on `threads` threads; `done` sees each result as it comes (in
/// any order). Gives the results in the order of `points`, or the error of the first point
/// (in that order) that failed.
fn run_points(
    points: &[usize],
    threads: usize,
    measure: &(dyn Fn(usize) -> Result<Measured, String> + Sync),
    mut done: impl FnMut(&Measured),
) -> Result<Vec<Measured>, String> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<Measured, String>)>();
    let mut results: Vec<Option<Measured>> = vec![None; points.len()];
    let mut first_error: Option<(usize, String)> = None;
    std::thread::scope(|scope| {
        for _ in 0..threads.min(points.len()) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= points.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                let r = measure(points[i]);
                if r.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                if tx.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            match r {
                Ok(m) => {
                    if first_error.is_none() {
                        done(&m);
                    }
                    results[i] = Some(m);
                }
                Err(e) => {
                    if first_error.as_ref().is_none_or(|(j, _)| i < *j) {
                        first_error = Some((i, e));
                    }
                }
            }
        }
    });
    if let Some((_, e)) = first_error {
        return Err(e);
    }
    Ok(results.into_iter().flatten().collect())
}

fn print_header(plan: &Plan) {
    println!(
        "{:<48} {:>10} {:>12} {:>12} {:>12}",
        "policy",
        plan.key.as_deref().unwrap_or("-"),
        format!("mean {}", plan.metric),
        "min",
        "max"
    );
}

fn print_row(plan: &Plan, row: &plan::Row) {
    let value = &plan.values[row.value];
    let s = row.stat;
    println!(
        "{:<48} {:>10} {:>12.4} {:>12.4} {:>12.4}",
        row.spec,
        if value.is_empty() { "-" } else { value },
        s.mean,
        s.min,
        s.max
    );
}

/// Draws the chart when `out` asks for it.
fn finish(
    plan: &Plan,
    results: &[Measured],
    out: Option<&Path>,
) -> Result<(), Box<dyn std::error::Error>> {
    let Some(out) = out else { return Ok(()) };
    let rows = plan.rows(results);
    let lines: Vec<chart::SweepLine> = plan
        .policies
        .iter()
        .enumerate()
        .map(|(i, policy)| chart::SweepLine {
            label: schedlab::policy::canonical(policy).unwrap_or_else(|_| policy.clone()),
            stats: rows
                .iter()
                .filter(|r| r.policy == i)
                .map(|r| r.stat)
                .collect(),
        })
        .collect();
    let label = catalogue::lookup(&plan.metric)
        .map(|m| m.title())
        .unwrap_or_else(|_| plan.metric.clone());
    let key = plan.key.as_deref();
    let title = format!(
        "{}: {label} over {}, {} seed{}",
        plan.trace,
        key.unwrap_or("-"),
        plan.seeds,
        if plan.seeds == 1 { "" } else { "s" }
    );
    draw_chart(out, &plan.values, &lines, key.unwrap_or(""), &label, &title)
}
