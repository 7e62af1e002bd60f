//! `schedlab generate`: a synthetic workload as SWF.

use clap::Args;
use schedlab::workload::generate::{generate, gpus, GenerateSpec};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct GenerateArgs {
    /// Workload model: lublin (Lublin & Feitelson 1999, with Tsafrir et al. 2005 estimates; one
    /// user, the model's load of about 87 %) or lublin-users (the same jobs' model with users of
    /// Zipf-like job counts, at 3/4 of the arrival rate: realistic waits).
    #[arg(long, default_value = "lublin")]
    model: String,
    /// Machine size (processors).
    #[arg(long, default_value_t = 256)]
    procs: u32,
    /// Number of jobs.
    #[arg(long, default_value_t = 10_000)]
    jobs: usize,
    /// Seed: the same model, size, machine and seed give the same workload.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Share of the jobs that ask for GPUs, 0 to 1 (written as SWF field 19, named by a
    /// `; GpuField: 19` header line; 0: no GPUs, the workload as before).
    #[arg(long, default_value_t = 0.0)]
    gpu_share: f64,
    /// GPU counts of a GPU job and their weights, COUNT:WEIGHT,... (default 1:4,2:2,4:1,8:1).
    #[arg(long)]
    gpu_counts: Option<String>,
    /// Output file (default: standard output).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(a: &GenerateArgs) -> Result<(), Box<dyn std::error::Error>> {
    let began = Instant::now();
    let gpu_counts = match &a.gpu_counts {
        Some(t) => gpus::parse_counts(t)?,
        None => Vec::new(),
    };
    let w = generate(&GenerateSpec {
        gpu_share: a.gpu_share,
        gpu_counts,
        ..GenerateSpec::new(&a.model, a.procs, a.jobs, a.seed)
    })?;
    let took = began.elapsed();
    let mut out: Box<dyn Write> = match &a.out {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    schedlab::swf::write(&mut out, &w)?;
    if let Some(p) = &a.out {
        eprintln!(
            "wrote {} ({} jobs generated in {:.0} ms)",
            p.display(),
            w.records.len(),
            took.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
