//! `schedlab convert`: any workload the reader knows (SWF, Slurm sacct or its JSON, Batsim JSON)
//! written as SWF or as a Batsim workload.

use clap::{Args, ValueEnum};
use schedlab::plural::count;
use schedlab::swf::{self, ReadOptions, Workload};
use schedlab::workload::{conversion, sacct};
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum Target {
    Swf,
    Batsim,
}

#[derive(Args)]
pub struct ConvertArgs {
    /// Workload file: SWF, Slurm `sacct --parsable2` or `--json` output or Batsim JSON, plain or
    /// gzip (recognised by its content).
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum)]
    to: Target,
    /// Output file (default: standard output).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Machine size written as MaxProcs (SWF) or nb_res (Batsim); default: the input's
    /// MaxProcs, else MaxNodes, else the widest job.
    #[arg(long)]
    procs: Option<u32>,
    /// Stop at the first bad line instead of skipping and reporting it.
    #[arg(long)]
    strict: bool,
}

/// The machine size: the option, the header's MaxProcs / MaxNodes, or the widest job.
pub fn machine_size(w: &Workload, procs: Option<u32>) -> (u64, &'static str) {
    if let Some(p) = procs {
        return (u64::from(p), "--procs");
    }
    if let Some(p) = w.header.max_procs.filter(|p| *p > 0) {
        if sacct::max_procs_is_recorded_peak(&w.header) {
            return (p, sacct::PEAK_SOURCE);
        }
        return (p, "MaxProcs");
    }
    if let Some(p) = w.header.max_nodes.filter(|p| *p > 0) {
        return (p, "MaxNodes");
    }
    let widest = w
        .records
        .iter()
        .map(|r| r.allocated_processors.max(r.requested_processors))
        .max()
        .unwrap_or(1)
        .max(1) as u64;
    (widest, "the widest job")
}

pub fn run(a: &ConvertArgs) -> Result<(), Box<dyn std::error::Error>> {
    let read = ReadOptions {
        strict: a.strict,
        ..ReadOptions::default()
    };
    if let Some(out) = &a.out {
        crate::outputs::not_the_input("--out", out, &a.file)?;
    }
    let mut w = schedlab::workload::read_path(&a.file, &read)?;
    if w.issue_count > 0 {
        eprintln!("{}", w.summary(5));
    }
    let (procs, from) = machine_size(&w, a.procs);
    for d in conversion::dropped(&w, matches!(a.to, Target::Batsim)) {
        eprintln!("{d}");
    }
    let mut out: Box<dyn Write> = match &a.out {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    match a.to {
        Target::Swf => {
            set_max_procs(&mut w, procs, from);
            let gpus = conversion::gpus_to_column(&mut w);
            let timeouts = conversion::timeouts_to_column(&mut w);
            swf::write(&mut out, &w)?;
            eprintln!(
                "{} written as SWF (MaxProcs {procs} from {from}){}{}",
                count(w.records.len(), "job"),
                gpus.map(|f| format!("; GPUs in field {f} (GpuField)"))
                    .unwrap_or_default(),
                timeouts
                    .map(|f| format!("; the TIMEOUT mark in field {f} (TimeoutField)"))
                    .unwrap_or_default()
            );
        }
        Target::Batsim => {
            let n = schedlab::workload::batsim::write(&mut out, &w, procs)?;
            eprintln!(
                "{} written as a Batsim workload (nb_res {procs} from {from}){}",
                count(n.jobs, "job"),
                if n.left_out > 0 {
                    format!(
                        "; {} without runtime or processors left out",
                        count(n.left_out, "job")
                    )
                } else {
                    String::new()
                }
            );
            for (field, jobs) in &n.dropped {
                eprintln!(
                    "note: {field}, known for {}, has no place in a Batsim workload: dropped",
                    count(*jobs, "job")
                );
            }
        }
    }
    if let Some(p) = &a.out {
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}

/// Puts `; MaxProcs: procs` in the header (replacing an existing MaxProcs line) and says where
/// it comes from.
fn set_max_procs(w: &mut Workload, procs: u64, from: &str) {
    let is_max_procs = |l: &String| {
        l.trim_start_matches(';')
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("maxprocs:")
    };
    w.header.lines.retain(|l| !is_max_procs(l));
    w.header.lines.push(format!("; MaxProcs: {procs}"));
    if from != "MaxProcs" {
        w.header.lines.push(format!("; Note: MaxProcs from {from}"));
    }
    w.header.max_procs = Some(procs);
}
