//! `schedlab cluster`: reads a cluster (a slurm.conf, an Alea `.machines` file, a compact form, or
//! a preset) and prints its summary (node groups, partitions, totals), its JSON, or its compact
//! form.

use clap::Args;
use schedlab::cluster::{alea, conf, Cluster};
use schedlab::quote::quote;
use std::path::PathBuf;

#[derive(Args)]
pub struct ClusterArgs {
    /// A slurm.conf: its NodeName= and PartitionName= lines (docs/cluster-model.md); or an
    /// Alea `.machines` file (one node group per line).
    #[arg(required_unless_present_any = ["from_compact", "preset", "slurm_conf"])]
    file: Option<PathBuf>,
    /// The slurm.conf as `run`, `replay` and `sweep` take it (the same as FILE).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "from_compact", "preset"])]
    slurm_conf: Option<PathBuf>,
    /// Read the compact form of a share link (`cluster=` value) instead of a file.
    #[arg(long, value_name = "STRING", conflicts_with_all = ["file", "preset"])]
    from_compact: Option<String>,
    /// A preset instead of a file: gpu, mixed, or pool:N (N processors as one pool).
    #[arg(long, value_name = "NAME", conflicts_with = "file")]
    preset: Option<String>,
    /// Print the cluster as JSON (node groups, partitions, totals).
    #[arg(long, conflicts_with = "compact")]
    json: bool,
    /// Print the compact form (for share links).
    #[arg(long)]
    compact: bool,
}

fn preset(name: &str) -> Result<Cluster, String> {
    if let Some(n) = name.strip_prefix("pool:") {
        // A pool of 0 processors would be drawn as one of 1: refused, as the compact form's
        // `c0` is.
        let procs: u32 =
            n.parse().ok().filter(|&p| p >= 1).ok_or_else(|| {
                format!("--preset {name}: pool:N takes a number of processors >= 1")
            })?;
        return Ok(Cluster::single_pool(procs));
    }
    match Cluster::PRESETS.iter().find(|(p, _)| *p == name) {
        Some((_, text)) => Cluster::from_compact(text).map_err(|e| e.to_string()),
        None => Err(format!(
            "--preset {}: valid: {}, pool:N",
            quote(name),
            Cluster::PRESETS
                .iter()
                .map(|(p, _)| *p)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

pub fn run(a: &ClusterArgs) -> Result<(), Box<dyn std::error::Error>> {
    let cluster = if let Some(text) = &a.from_compact {
        Cluster::from_compact(text)?
    } else if let Some(name) = &a.preset {
        preset(name)?
    } else {
        let path = (a.file.as_ref())
            .or(a.slurm_conf.as_ref())
            .ok_or("a slurm.conf, --from-compact or --preset")?;
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if a.file.is_some() && is_alea(path, &text) {
            return show(&alea::parse_str(&text, &path.display().to_string())?, a);
        }
        let s = conf::read_path(path)?;
        if !a.json && !a.compact {
            tell_kept(path, &s);
        }
        s.cluster
    };
    show(&cluster, a)
}

/// An Alea machine description: a file named `*.machines`, or whose lines look like one.
fn is_alea(path: &std::path::Path, text: &str) -> bool {
    path.extension().is_some_and(|e| e == "machines") || alea::looks_like(text)
}

/// Prints `cluster` as `a` asks: its summary, JSON or compact form.
fn show(cluster: &Cluster, a: &ClusterArgs) -> Result<(), Box<dyn std::error::Error>> {
    if a.json {
        let mut v = serde_json::to_value(cluster)?;
        v["totals"] = serde_json::json!({
            "nodes": cluster.total_nodes(),
            "cores": cluster.total_cores(),
            "mem_mb": cluster.total_mem_mb(),
            "gpus": cluster.total_gpus(),
            "gpus_by_type": cluster.gpus_by_type(),
        });
        v["compact"] = cluster.to_compact().into();
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else if a.compact {
        println!("{}", cluster.to_compact());
    } else {
        print!("{}", cluster.summary());
    }
    Ok(())
}

/// Tells on stderr which of a slurm.conf's keys the `slurm` policy reads and which it does not
/// model, and which lines were ignored.
fn tell_kept(path: &std::path::Path, s: &conf::SlurmConf) {
    let keys = schedlab::slurm::params::conf_keys(s.params.iter().map(|(k, v, _)| (k, v)));
    if let Some(note) = keys.note(8) {
        eprintln!("{}: {note}", path.display());
    }
    if let Some(note) = s.ignored_partition_note() {
        eprintln!("{}: {note}", path.display());
    }
    for (line, record) in &s.ignored_records {
        eprintln!("{}:{line}: {record} line ignored", path.display());
    }
}

/// A cluster from a `--cluster` value: a file (slurm.conf, or a compact form in a file), a
/// preset name, or a compact form.
pub fn resolve(spec: &str) -> Result<Cluster, Box<dyn std::error::Error>> {
    let path = std::path::Path::new(spec);
    if path.is_file() {
        return read_file(path);
    }
    if Cluster::PRESETS.iter().any(|(p, _)| *p == spec) {
        return Ok(preset(spec)?);
    }
    Cluster::from_compact(spec).map_err(|e| {
        format!(
            "--cluster {}: not a file, not a preset (gpu, mixed), and not a compact form: {e}",
            quote(spec)
        )
        .into()
    })
}

/// The cluster of a file: a slurm.conf, an Alea `.machines` file (by its name, or lines that
/// look like one: `cluster::alea`), or a compact form on one line.
pub fn read_file(path: &std::path::Path) -> Result<Cluster, Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if text.trim().starts_with("1/") && !text.trim().contains('\n') {
        return Ok(Cluster::from_compact(text.trim())?);
    }
    if is_alea(path, &text) {
        return Ok(alea::parse_str(&text, &path.display().to_string())?);
    }
    let s = conf::read_path(path)?;
    tell_kept(path, &s);
    Ok(s.cluster)
}
