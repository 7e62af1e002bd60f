//! `schedlab`: the command-line front end of the schedlab engine.

mod alloc;
mod bench;
mod cluster;
mod convert;
mod fidelity;
mod generate;
mod input_args;
mod lists;
mod metric_args;
mod outputs;
mod plot;
mod replay;
mod site_args;
mod sweep;
mod table;
mod trace;

use clap::{Args, Parser, Subcommand};
use schedlab::run::{self, RunResult};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub use input_args::InputArgs;
pub use metric_args::MetricArgs;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

#[derive(Parser)]
#[command(
    name = "schedlab",
    version,
    about = "Parallel job scheduling lab: run scheduling policies on workload traces (SWF, Slurm sacct or its JSON, Batsim JSON) and compare them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one or more policies on a trace and compare them.
    Run(RunArgs),
    /// List the policies with their keys, defaults and sources.
    Policies {
        /// Print the catalogue as JSON.
        #[arg(long)]
        json: bool,
        /// Print sample specs, one a line: every policy at its defaults and every value of
        /// every key at least once (what the tests and scripts/compare-schedules.sh run).
        #[arg(long, conflicts_with = "json")]
        samples: bool,
    },
    /// Measure parse and simulation speed and peak memory.
    Bench(bench::BenchArgs),
    /// Draw a chart (Gantt, utilization, queue, wait, bsld, VEET / WT box plots, EET heatmap)
    /// to SVG or PNG.
    Plot(Box<plot::PlotArgs>),
    /// One metric of policies over the values of one key and several seeds (mean, min, max).
    Sweep(sweep::SweepArgs),
    /// List the metrics (names for `sweep --metric`, labels, units, better direction).
    Metrics {
        /// Print the catalogue as JSON.
        #[arg(long)]
        json: bool,
    },
    /// List the options (CLI flag, share-link key, page control, default).
    Options {
        /// Print the schema as JSON.
        #[arg(long)]
        json: bool,
        /// Print www/options.js, the page's copy of the schema.
        #[arg(long)]
        js: bool,
    },
    /// Write a workload (SWF, Slurm sacct or its JSON, Batsim JSON; recognised by content) as SWF
    /// or Batsim.
    Convert(convert::ConvertArgs),
    /// Generate a synthetic workload (SWF): --model lublin --procs 256 --jobs 10000 --seed 1.
    Generate(generate::GenerateArgs),
    /// Print a sweep (and draw its chart) from the partial results of `sweep --shard I/N`.
    Merge(sweep::MergeArgs),
    /// What a trace looks like: arrivals by hour, day and week, sizes, runtimes, requested-time
    /// accuracy, offered load, heaviest users (text, --json, or one --chart to SVG / PNG).
    Trace(trace::TraceArgs),
    /// Decisions one step ahead: at each instant where an sacct log starts jobs, the recorded
    /// state just before it, and which jobs each policy starts then (recall, precision).
    Replay(replay::ReplayArgs),
    /// A cluster as Slurm describes it: a slurm.conf (or a compact form, or a preset) read and
    /// printed as a summary (node groups, partitions, totals), --json or --compact.
    Cluster(cluster::ClusterArgs),
}

#[derive(Args)]
struct RunArgs {
    /// Trace: SWF, Slurm `sacct --parsable2` or `--json` output or Batsim JSON, plain or gzip
    /// (recognised by its content).
    trace: PathBuf,
    /// Policy spec, e.g. easy, fcfs, conservative, easy[order=sjf]; repeat to compare.
    #[arg(long = "policy", short = 'p', required = true)]
    policies: Vec<String>,
    /// Seed of the simulation's random number generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write every job's schedule to this CSV (Batsim / evalys columns); one file per policy.
    #[arg(long)]
    jobs_csv: Option<PathBuf>,
    /// Write one row per execution attempt to this CSV; one file per policy.
    #[arg(long)]
    runs_csv: Option<PathBuf>,
    /// On a cluster: write one row per job and node it ran on (job_id, node, cpus, mem_mb,
    /// gpus) to this CSV; one file per policy.
    #[arg(long)]
    alloc_csv: Option<PathBuf>,
    /// Print the metrics as JSON (one object per policy run) instead of the table.
    #[arg(long)]
    json: bool,
    /// Write the EET heatmap (user, bin_start, count of violated EETs) to this CSV; one file
    /// per policy.
    #[arg(long)]
    heatmap_csv: Option<PathBuf>,
    /// Bin width of --heatmap-csv, seconds (the paper's 1 minute by default).
    #[arg(long, default_value_t = 60.0)]
    heatmap_bin: f64,
    #[command(flatten)]
    site: crate::site_args::SiteArgs,
    /// Also print each policy's schedule against the trace's own: per job, the recorded wait
    /// against the simulated one (error figures, the distance of the two distributions) and the
    /// N jobs furthest off, with their start reason and the job they waited for.
    #[arg(long, value_name = "N")]
    fidelity: Option<usize>,
    #[command(flatten)]
    metrics: MetricArgs,
    #[command(flatten)]
    input: InputArgs,
}

/// Output to a pipe closed early (`schedlab policies | head`) ends the process quietly, as
/// other tools do, instead of a panic about a broken pipe: SIGPIPE back to its default, which
/// Rust's runtime sets to "ignore".
#[cfg(unix)]
fn end_quietly_on_a_closed_pipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    // SIGPIPE is 13 and SIG_DFL 0 on Linux, macOS and the BSDs.
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: `signal` of libc, called before any thread starts, with the default handler.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

fn main() -> ExitCode {
    #[cfg(unix)]
    end_quietly_on_a_closed_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => cmd_run(&args),
        Command::Policies { json, samples } => lists::cmd_policies(json, samples),
        Command::Bench(args) => bench::run(&args),
        Command::Plot(args) => plot::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Metrics { json } => lists::cmd_metrics(json),
        Command::Options { json, js } => lists::cmd_options(json, js),
        Command::Convert(args) => convert::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Merge(args) => sweep::merge(&args),
        Command::Trace(args) => trace::run(&args),
        Command::Cluster(args) => cluster::run(&args),
        Command::Replay(args) => replay::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("schedlab: {e}");
            ExitCode::FAILURE
        }
    }
}

type CliResult = Result<(), Box<dyn std::error::Error>>;

/// A progress bar on stderr, drawn only when stderr is a terminal, at most every 100 ms.
fn progress_bar(label: String) -> impl FnMut(usize, usize) -> bool {
    let tty = std::io::stderr().is_terminal();
    let begin = Instant::now();
    let mut last = begin;
    move |done, total| {
        if tty
            && last.elapsed() >= Duration::from_millis(100)
            && begin.elapsed() >= Duration::from_millis(300)
        {
            last = Instant::now();
            let frac = if total > 0 {
                done as f64 / total as f64
            } else {
                1.0
            };
            let filled = (frac * 30.0) as usize;
            eprint!(
                "\r{label} [{}{}] {:>3.0}%",
                "#".repeat(filled),
                ".".repeat(30 - filled),
                frac * 100.0
            );
            if done >= total {
                eprint!("\r{}\r", " ".repeat(label.len() + 40));
            }
            let _ = std::io::stderr().flush();
        }
        true
    }
}

/// The site the `slurm` policy reads (--slurm-conf, --sshare, --qos), when any is given.
fn slurm_site(args: &RunArgs) -> Result<Option<schedlab::slurm::Site>, Box<dyn std::error::Error>> {
    args.site.read(args.input.slurm_conf.as_deref())
}

/// The notes on a site's files against the log (an sshare missing its users or accounts, a
/// qos file missing its QOS), on stderr.
pub fn print_site_notes(site: Option<&schedlab::slurm::Site>) {
    let Some(site) = site else { return };
    for note in schedlab::slurm::site_note::notes(site) {
        eprintln!("{note}");
    }
}

/// What the first `slurm` policy of `specs` reads of the loops' phases from the log, on
/// stderr (`site`: the site as the policies read it, with the log's clocks).
pub fn print_phases_note(site: &schedlab::slurm::Site, specs: &[String]) {
    let note = specs
        .iter()
        .find_map(|s| schedlab::policy::slurm::phases_note(s, site));
    if let Some(note) = note {
        eprintln!("{note}");
    }
}

fn cmd_run(args: &RunArgs) -> CliResult {
    // A spec that does not parse, or an output file that would overwrite the trace or another
    // output, is refused before any work.
    let site = slurm_site(args)?;
    let build = |spec: &str| match &site {
        Some(site) => schedlab::policy::slurm::build_with_site(spec, site),
        None => schedlab::policy::build(spec),
    };
    let specs = args
        .policies
        .iter()
        .map(|spec| Ok(build(spec)?.spec()))
        .collect::<Result<Vec<String>, schedlab::spec::SpecError>>()?;
    let files = outputs::plan(
        &[
            ("--jobs-csv", args.jobs_csv.as_deref()),
            ("--heatmap-csv", args.heatmap_csv.as_deref()),
            ("--runs-csv", args.runs_csv.as_deref()),
            ("--alloc-csv", args.alloc_csv.as_deref()),
        ],
        &specs,
        &args.trace,
    )?;
    let (read, input) = args.input.options()?;
    let metrics = args.metrics.options()?;
    let (workload, jobs) = run::read_path(&args.trace, &read, &input)?;
    // The first policy runs while the expected end times are computed (natively on a second
    // thread); the trace's errors come first all the same.
    let mut first = None;
    let trace = match args.policies.first().filter(|_| site.is_none()) {
        Some(spec) => {
            let began = Instant::now();
            let mut bar = progress_bar(spec.clone());
            let (trace, schedule) = run::Trace::new_simulating(
                (workload, jobs),
                metrics,
                spec,
                args.seed,
                Some(&mut bar),
            )?;
            first = Some((schedule, began));
            trace
        }
        None => run::Trace::of_jobs(workload, jobs, metrics)?,
    };
    report_skips(&trace);
    // The site as the policies read it: with the trace's user names and jobs' accounts.
    let site = site.map(|site| trace.named_site(site));
    print_site_notes(site.as_ref());
    match &site {
        Some(site) => print_phases_note(site, &args.policies),
        None => print_phases_note(&trace.named_site(Default::default()), &args.policies),
    }
    let mut results: Vec<(RunResult, Duration)> = Vec::new();
    // Each result's spec as the user wrote it (the table's label for a long one).
    let mut typed: Vec<&str> = Vec::new();
    // One policy's failure is reported and the others still run and print.
    let mut failed = Vec::new();
    for (spec, files) in args.policies.iter().zip(&files) {
        let (r, began) = match first.take() {
            Some((schedule, began)) => (
                schedule.map(|s| run::measure(&trace.jobs, &trace.metrics, trace.expected(), s)),
                began,
            ),
            None => {
                let began = Instant::now();
                let mut bar = progress_bar(spec.clone());
                let r = trace.run_at(spec, site.as_ref(), args.seed, Some(&mut bar));
                (r, began)
            }
        };
        let took = began.elapsed();
        let written = match r {
            Ok(r) => {
                if let Some(note) = trace.report(&r).left_out {
                    eprintln!("{spec}: {note}");
                }
                let written = write_outputs(args, &trace, &r, files);
                results.push((r, took));
                typed.push(spec);
                written
            }
            Err(e) => Err(e.into()),
        };
        if let Err(e) = written {
            eprintln!("schedlab: {spec}: {e}");
            failed.push(spec.as_str());
        }
    }
    if args.json {
        let reports: Vec<_> = results.iter().map(|(r, _)| trace.report(r)).collect();
        println!("{}", serde_json::to_string_pretty(&reports)?);
    } else {
        print!("{}", table::comparison(&trace, &results, &typed));
        if let Some(n) = args.fidelity {
            let runs: Vec<&RunResult> = results.iter().map(|(r, _)| r).collect();
            let names = trace.jobs.log_id_list();
            print!("{}", fidelity::section(&trace, &runs, (&typed, &names), n));
        }
    }
    if !failed.is_empty() {
        return Err(format!(
            "{} of {} failed: {}",
            failed.len(),
            schedlab::plural::count(args.policies.len(), "policy"),
            failed.join(", ")
        )
        .into());
    }
    Ok(())
}

/// The files of run `r`: its jobs CSV, heatmap CSV and runs CSV, where asked for (`files`).
fn write_outputs(
    args: &RunArgs,
    trace: &run::Trace,
    r: &RunResult,
    files: &[Option<PathBuf>],
) -> CliResult {
    let create = |path: &Path| {
        std::fs::File::create(path)
            .map(std::io::BufWriter::new)
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    if let Some(path) = &files[0] {
        let eet = Some(trace.expected());
        schedlab::output::jobs_csv_eet(create(path)?, &trace.jobs, &r.schedule, eet)?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(path) = &files[1] {
        write_heatmap_csv(path, trace, r, args.heatmap_bin)?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(path) = &files[2] {
        schedlab::output::runs_csv(create(path)?, &trace.jobs, &r.schedule)?;
        eprintln!("wrote {}", path.display());
    }
    if let Some(path) = &files[3] {
        if trace.jobs.placement.is_none() {
            return Err("--alloc-csv: the run is on no cluster (give --cluster)".into());
        }
        schedlab::output::alloc_csv(create(path)?, &trace.jobs, &r.schedule)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// The EET heatmap of run `r` at bins of `bin` seconds from the first submit to the last end.
fn write_heatmap_csv(path: &Path, trace: &run::Trace, r: &RunResult, bin: f64) -> CliResult {
    use schedlab::metrics::eet_heatmap::{heatmap, violations, window};
    if !(bin.is_finite() && bin > 0.0) {
        return Err(format!("--heatmap-bin {bin}: must be a number of seconds > 0").into());
    }
    let set = &trace.jobs;
    let (t0, t1) = window(set, &r.schedule);
    let bins = ((t1 - t0) / bin).ceil().clamp(1.0, f64::from(u32::MAX)) as u32;
    let h = heatmap(
        &set.users(),
        &violations(set, &r.schedule, trace.expected()),
        t0,
        bin,
        bins,
    );
    let f = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    schedlab::output::heatmap_csv(std::io::BufWriter::new(f), &h)?;
    Ok(())
}

/// Tells on stderr what was left out of the trace, with the first reasons.
fn report_skips(trace: &run::Trace) {
    report_input(&trace.workload, &trace.jobs);
}

/// Tells on stderr what the reader and the input rules left out, with the first reasons, and
/// the input's warnings.
pub(crate) fn report_input(w: &schedlab::swf::Workload, jobs: &schedlab::input::JobSet) {
    if w.skipped_lines > 0 || w.issue_count > 0 {
        eprintln!("{}", w.summary(5));
    }
    let s = &jobs.skipped;
    if !s.is_empty() {
        eprintln!(
            "{}: {} skipped by the input rules; first:",
            jobs.name,
            schedlab::plural::count(s.len(), "job")
        );
        for k in s.iter().take(5) {
            eprintln!("  {}: {}", jobs.words.job(k.line, k.id), k.reason);
        }
    }
    for warning in &jobs.warnings {
        eprintln!("{}: {warning}", jobs.name);
    }
}

#[cfg(test)]
mod tests;
