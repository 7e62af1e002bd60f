//! `schedlab bench`: parse, EET and simulation speed and peak heap memory, per trace and policy.
//! A policy's row includes its metrics (classic and user-aware against the precomputed EETs).
//! The input options apply, so `--nodes --mix high` measures policies with the node model.
//! Each trace ends with the whole of `schedlab run TRACE -p FIRST_POLICY` in this process
//! (the `whole SPEC` row) and the memory per job. `--instant N` measures the policies on N
//! jobs submitted at one instant; `--gpu-cluster N` on N generated jobs, a quarter of them
//! asking for GPUs, on a cluster of 1,000 GPU nodes ([`GPU_CLUSTER`]). Each policy runs as
//! `schedlab run` runs it (`run::simulate_at`): `slurm` with the site of `--slurm-conf`,
//! `--sshare` and `--qos` (its scheduler parameters, shares and QOS priorities), else with what
//! the trace tells.

use crate::alloc;
use crate::{InputArgs, MetricArgs};
use clap::Args;
use schedlab::metrics::eet;
use schedlab::slurm::Site;
use schedlab::swf::Workload;
use schedlab::workload::generate::{generate, GenerateSpec};
use schedlab::{input, run};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args)]
pub struct BenchArgs {
    /// Traces to measure; default: every trace in tests/data/.
    traces: Vec<PathBuf>,
    /// Policies to measure (repeatable).
    #[arg(long = "policy", short = 'p', default_values_t = ["fcfs".to_string(), "easy".to_string(), "conservative".to_string()])]
    policies: Vec<String>,
    /// Also measure N jobs submitted at one instant (repeatable): a Lublin-Feitelson workload
    /// of N jobs on 256 processors (seed 1), every job submitted at time 0. Alone (no traces
    /// given), only these are measured.
    #[arg(long = "instant", value_name = "N", value_parser = job_count)]
    instant: Vec<usize>,
    /// Also measure N jobs on a GPU cluster (repeatable): a Lublin-Feitelson workload of N
    /// jobs for 32,000 processors (seed 1), a quarter of them asking for GPUs (the generator's
    /// default counts), on 1,000 nodes of 32 cores, 256 GB and 4 GPUs. Alone (no traces
    /// given), only these are measured.
    #[arg(long = "gpu-cluster", value_name = "N", value_parser = job_count)]
    gpu_cluster: Vec<usize>,
    /// Repetitions; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    #[command(flatten)]
    site: crate::site_args::SiteArgs,
    #[command(flatten)]
    metrics: MetricArgs,
    #[command(flatten)]
    input: InputArgs,
}

/// The jobs of `--instant N` and `--gpu-cluster N`: 1 to the generator's most (0 was refused
/// after the table's heading as `generate: jobs 0`, which names no flag).
fn job_count(text: &str) -> Result<usize, String> {
    let most = schedlab::workload::generate::MAX_JOBS;
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n),
        _ => Err(format!("a number of jobs from 1 to {most}")),
    }
}

fn default_traces() -> Vec<PathBuf> {
    let dirs = [
        PathBuf::from("tests/data"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
    ];
    for dir in dirs {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut v: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"))
                .collect();
            v.sort();
            return v;
        }
    }
    Vec::new()
}

/// Runs `f` `repeat` times; returns the fastest time in ms, the peak heap growth and the last value.
fn measure<T>(repeat: u32, mut f: impl FnMut() -> T) -> (f64, usize, T) {
    let mut best = f64::INFINITY;
    let mut peak = 0;
    let mut last = None;
    for _ in 0..repeat.max(1) {
        drop(last.take());
        let base = alloc::reset_peak();
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        peak = peak.max(alloc::peak() - base);
        last = Some(v);
    }
    (best, peak, last.expect("at least one repetition"))
}

pub fn run(args: &BenchArgs) -> Result<(), Box<dyn std::error::Error>> {
    let traces = if !args.traces.is_empty() {
        args.traces.clone()
    } else if args.instant.is_empty() && args.gpu_cluster.is_empty() {
        default_traces()
    } else {
        Vec::new()
    };
    if traces.is_empty() && args.instant.is_empty() && args.gpu_cluster.is_empty() {
        return Err("no traces given and tests/data/ not found".into());
    }
    let (read, input_opts) = args.input.options()?;
    let metrics = args.metrics.options()?;
    // The site the `slurm` policy reads (--slurm-conf, --sshare, --qos), as `schedlab run`
    // gives it.
    let site = args.site.read(args.input.slurm_conf.as_deref())?;
    let site = site.as_ref();
    // A spec that does not parse is refused before anything is measured.
    for spec in &args.policies {
        match site {
            Some(site) => schedlab::policy::slurm::build_with_site(spec, site)?,
            None => schedlab::policy::build(spec)?,
        };
    }
    // The traces that could not be read or left no job: said, the others measured, and the
    // command fails at the end.
    let mut unread = Vec::new();
    let w = args
        .policies
        .iter()
        .map(|p| p.len())
        .max()
        .unwrap_or(0)
        .max(14);
    let row = |trace: &str, step: &str, jobs: usize, ms: f64, peak: usize| {
        row(trace, step, w, jobs, ms, peak)
    };
    println!(
        "{:<34} {:<w$} {:>8} {:>10} {:>12} {:>12}",
        "trace", "step", "jobs", "ms", "jobs/s", "peak MiB"
    );
    for &n in &args.instant {
        at_one_instant(n, args, (&input_opts, site), w)?;
    }
    for &n in &args.gpu_cluster {
        on_gpu_cluster(n, args, (&input_opts, site), w)?;
    }
    for path in &traces {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (ms, peak, parsed) = measure(args.repeat, || {
            schedlab::workload::read_bytes(&name, &bytes, &read)
        });
        let workload = match parsed {
            Ok(w) => w,
            Err(e) => {
                println!("{name:<34} parse failed: {e}");
                unread.push(e.to_string());
                continue;
            }
        };
        let n = workload.records.len();
        row(&name, "parse", n, ms, peak);
        let jobs = match input::prepare(&workload, &input_opts) {
            Ok(j) => j,
            Err(e) => {
                println!("{name:<34} {e}");
                unread.push(e.to_string());
                continue;
            }
        };
        // The workload without its records, as a trace keeps it (the slurm policy reads its
        // header: the user names, the clock).
        let workload = without_records(workload);
        let named = site.map(|site| run::named_site(&workload, &jobs, site.clone()));
        // Expected end times of every job (Tóth & Klusáček's Algorithm 1).
        let (ms, peak, expected) =
            measure(args.repeat, || eet::expected_end_times(&jobs, &metrics.eet));
        let expected = match expected {
            Ok(e) => e,
            Err(e) => {
                println!("{name:<34} {e}");
                continue;
            }
        };
        row(&name, "eet", jobs.jobs.len(), ms, peak);
        // Per policy: the simulation alone (the targets), then every metric family of
        // its schedule (classic, user-aware, fairness), as `schedlab run` computes them.
        for spec in &args.policies {
            let (ms, peak, r) = measure(args.repeat, || {
                run::simulate_at(&workload, &jobs, spec, named.as_ref(), 1, None)
            });
            let schedule = match r {
                Ok(s) => s,
                Err(e) => {
                    println!("{name:<34} {spec:<w$} failed: {e}");
                    continue;
                }
            };
            row(&name, spec, jobs.jobs.len(), ms, peak);
            let (ms, peak, _) = measure(args.repeat, || {
                run::measure(&jobs, &metrics, &expected, schedule.clone())
            });
            row(&name, "  + metrics", jobs.jobs.len(), ms, peak);
            runs_as(&name, spec, &schedule.policy);
        }
        drop((workload, jobs, expected));
        if let Some(spec) = args.policies.first() {
            whole(
                &name,
                path,
                (spec, site),
                &read,
                &input_opts,
                &metrics,
                args.repeat,
                w,
            )?;
            memory(&name, &bytes, (spec, site), &read, &input_opts, &metrics)?;
        }
    }
    match unread.is_empty() {
        true => Ok(()),
        false => Err(unread.join("\n").into()),
    }
}

/// The simulation of `n` jobs submitted at one instant, per policy: a generated workload in
/// off-line mode (every job submitted at time 0, in arrival order), with the other input
/// options as given.
fn at_one_instant(
    n: usize,
    args: &BenchArgs,
    (input_opts, site): (&input::InputOptions, Option<&Site>),
    w: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let model = GenerateSpec::new("lublin", 256, n, 1);
    let opts = input::InputOptions {
        offline: true,
        ..input_opts.clone()
    };
    let name = format!("{n} jobs at one instant");
    generated(&name, &model, (&opts, site), args, w)
}

/// The cluster of `--gpu-cluster`: 1,000 nodes of 32 cores, 256 GB and 4 GPUs (a compact form,
/// docs/cluster-model.md).
const GPU_CLUSTER: &str = "1/n[1-1000]:c32:m256000:g4";

/// The simulation of `n` generated jobs on [`GPU_CLUSTER`], per policy: a Lublin-Feitelson
/// workload for its 32,000 cores, a quarter of the jobs asking for GPUs (the generator's
/// default counts), with the other input options as given.
fn on_gpu_cluster(
    n: usize,
    args: &BenchArgs,
    (input_opts, site): (&input::InputOptions, Option<&Site>),
    w: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let model = GenerateSpec {
        gpu_share: 0.25,
        ..GenerateSpec::new("lublin", 32_000, n, 1)
    };
    let opts = input::InputOptions {
        cluster: Some(GPU_CLUSTER.into()),
        ..input_opts.clone()
    };
    let name = format!("{n} jobs, GPU cluster");
    generated(&name, &model, (&opts, site), args, w)
}

/// Generates `model`, prepares it with `opts` (the `prepare` row) and measures the policies'
/// simulations on it.
fn generated(
    name: &str,
    model: &GenerateSpec,
    (opts, site): (&input::InputOptions, Option<&Site>),
    args: &BenchArgs,
    w: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let workload = generate(model)?;
    let (ms, peak, jobs) = measure(args.repeat, || input::prepare(&workload, opts));
    let jobs = jobs?;
    row(name, "prepare", w, jobs.jobs.len(), ms, peak);
    let workload = without_records(workload);
    let named = site.map(|site| run::named_site(&workload, &jobs, site.clone()));
    for spec in &args.policies {
        let (ms, peak, r) = measure(args.repeat, || {
            run::simulate_at(&workload, &jobs, spec, named.as_ref(), 1, None)
        });
        match r {
            Ok(s) => {
                row(name, spec, w, jobs.jobs.len(), ms, peak);
                runs_as(name, spec, &s.policy);
            }
            Err(e) => println!("{name:<34} {spec:<w$} failed: {e}"),
        }
    }
    Ok(())
}

/// `workload` without its records (they are in the prepared jobs), as a trace keeps it.
fn without_records(workload: Workload) -> Workload {
    Workload {
        records: Vec::new(),
        ..workload
    }
}

/// The whole of `schedlab run TRACE -p SPEC` in this process, as `run` does it: the file
/// read and parsed (gzip inflated on a second thread), the jobs prepared, the policy simulated
/// while the expected end times are computed, every metric family, the table formatted (not
/// printed). Process start and exit are not in it.
#[allow(clippy::too_many_arguments)]
fn whole(
    name: &str,
    path: &Path,
    (spec, site): (&str, Option<&Site>),
    read: &schedlab::swf::ReadOptions,
    input: &input::InputOptions,
    metrics: &schedlab::metrics::MetricOptions,
    repeat: u32,
    w: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let (ms, peak, out) = measure(repeat, || -> Result<_, run::Error> {
        let loaded = run::read_path(path, read, input)?;
        let began = Instant::now();
        // As `run`: the first policy while the expected end times are computed, or with a
        // site, the trace first and the policy with the site named by its users.
        let (trace, r) = match site {
            None => {
                let (trace, schedule) =
                    run::Trace::new_simulating(loaded, metrics.clone(), spec, 1, None)?;
                let r = run::measure(&trace.jobs, &trace.metrics, trace.expected(), schedule?);
                (trace, r)
            }
            Some(site) => {
                let trace = run::Trace::of_jobs(loaded.0, loaded.1, metrics.clone())?;
                let site = trace.named_site(site.clone());
                let r = trace.run_at(spec, Some(&site), 1, None)?;
                (trace, r)
            }
        };
        let table = crate::table::comparison(&trace, &[(r, began.elapsed())], &[spec]);
        Ok((trace.jobs.jobs.len(), table.len()))
    });
    match out {
        Ok((jobs, _)) => row(name, &format!("whole {spec}"), w, jobs, ms, peak),
        Err(e) => println!("{name:<34} whole {spec} failed: {e}"),
    }
    Ok(())
}

/// Memory per job of what the page and `schedlab run` hold: the trace (parsed, prepared, its
/// EETs) with one schedule of `spec` and its metrics; the heap held at the end and its peak
/// on the way (the parse's buffers included), divided by the jobs.
fn memory(
    name: &str,
    bytes: &[u8],
    (spec, site): (&str, Option<&Site>),
    read: &schedlab::swf::ReadOptions,
    input: &input::InputOptions,
    metrics: &schedlab::metrics::MetricOptions,
) -> Result<(), Box<dyn std::error::Error>> {
    let base = alloc::reset_peak();
    // The peak of each stage, over the same base: read and prepare (with the EETs), simulate,
    // measure (every metric family).
    let trace = run::Trace::load_bytes(name, bytes, read, input, metrics.clone())?;
    let load = alloc::peak().saturating_sub(base);
    alloc::reset_peak();
    let named = site.map(|site| trace.named_site(site.clone()));
    let schedule = run::simulate_at(&trace.workload, &trace.jobs, spec, named.as_ref(), 1, None)?;
    let sim = alloc::peak().saturating_sub(base);
    alloc::reset_peak();
    let result = run::measure(&trace.jobs, &trace.metrics, trace.expected(), schedule);
    let measured = alloc::peak().saturating_sub(base);
    let held = alloc::current().saturating_sub(base);
    let peak = load.max(sim).max(measured);
    let n = trace.jobs.jobs.len().max(1);
    println!(
        "{name:<34} memory with one {spec} run: {} bytes per job held, {} at peak ({} jobs, {:.1} / {:.1} MiB; peak per job reading {}, simulating {}, measuring {})",
        held / n,
        peak / n,
        trace.jobs.jobs.len(),
        held as f64 / (1024.0 * 1024.0),
        peak as f64 / (1024.0 * 1024.0),
        load / n,
        sim / n,
        measured / n,
    );
    drop(result);
    Ok(())
}

/// A policy's row is named by the spec as given (`slurm`), which keeps the table's columns in
/// line; when the policy runs as another spec (the `slurm` policy with a site: every key of its
/// slurm.conf, some 370 characters), a line after its rows gives that canonical spec, the one
/// `run --json` reports.
fn runs_as(trace: &str, spec: &str, canonical: &str) {
    if canonical != spec {
        println!("{trace:<34} {spec} runs as {canonical}");
    }
}

fn row(trace: &str, step: &str, w: usize, jobs: usize, ms: f64, peak: usize) {
    let rate = if ms > 0.0 {
        jobs as f64 / (ms / 1e3)
    } else {
        f64::INFINITY
    };
    println!(
        "{trace:<34} {step:<w$} {jobs:>8} {ms:>10.1} {rate:>12.0} {:>12.1}",
        peak as f64 / (1024.0 * 1024.0)
    );
}
