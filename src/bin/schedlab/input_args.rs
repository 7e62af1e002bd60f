//! The input semantics and reading flags shared by `run`, `sweep`, `plot` and `bench`.

use crate::cluster;
use clap::{Args, ValueEnum};
use schedlab::input::{EstimateSource, InputOptions, Origin, Wide};
use schedlab::machine::{Mix, NodeModel};
use schedlab::swf::ReadOptions;
use schedlab::workload::names::UserRef;

#[derive(Clone, Copy, ValueEnum)]
enum WideArg {
    Skip,
    Clamp,
}

#[derive(Clone, Copy, ValueEnum)]
enum EstimateArg {
    Requested,
    Runtime,
    /// Ignore field 9: no kill time, estimates = runtime, uncapped predictions.
    Ignore,
}

#[derive(Clone, Copy, ValueEnum)]
enum MixArg {
    High,
    Med,
    Low,
}

#[derive(Clone, Copy, ValueEnum)]
enum OriginArg {
    First,
    Trace,
}

/// The input semantics and reading options, shared by `run` and `bench`.
#[derive(Args, Clone)]
pub struct InputArgs {
    /// Machine size (processors); default: MaxProcs, else MaxNodes, else the widest job.
    #[arg(long)]
    procs: Option<u32>,
    /// Stop at the first bad line instead of skipping and reporting it.
    #[arg(long)]
    strict: bool,
    /// Jobs wider than the machine: skip them or clamp them to the machine size.
    #[arg(long, value_enum, default_value = "skip")]
    wide: WideArg,
    /// Skip jobs with these statuses (field 11), e.g. 5 for cancelled: --skip-status 5
    #[arg(long, value_delimiter = ',')]
    skip_status: Vec<i64>,
    /// Skip jobs whose runtime is 0.
    #[arg(long)]
    skip_zero_runtime: bool,
    /// Planning estimate: the requested time (field 9), the actual runtime, or ignore field 9
    /// altogether (no kill time; mutate estimates with predictor=rfactor[...]).
    #[arg(long, value_enum, default_value = "requested")]
    estimate: EstimateArg,
    /// Let jobs run past their requested time instead of killing them there.
    #[arg(long)]
    no_kill: bool,
    /// Time origin: the first submit time, or the trace's own clock.
    #[arg(long, value_enum, default_value = "first")]
    origin: OriginArg,
    /// Offline mode: every job submitted at time 0, in arrival order.
    #[arg(long)]
    offline: bool,
    /// Keep only the first N jobs (arrival order, after skipping).
    #[arg(long)]
    max_jobs: Option<usize>,
    /// Node model (Guim et al.): nodes sharing memory bandwidth; penalized runtimes. Implied by
    /// any of the node options below.
    #[arg(long)]
    nodes: bool,
    /// Node model: processors (cores) per node [default: 4].
    #[arg(long)]
    cores: Option<u32>,
    /// Node model: memory bandwidth per node, MB/s [default: 6000].
    #[arg(long)]
    bandwidth: Option<f64>,
    /// Node model: memory-pressure mix of job demands (seeded by --seed) [default: high].
    #[arg(long, value_enum)]
    mix: Option<MixArg>,
    /// Node model: SWF field (1-based, 19+ = extra columns) with each job's MB/s per process,
    /// instead of the mix.
    #[arg(long)]
    bandwidth_field: Option<u32>,
    /// Node model: MB/s per process of low / medium / high demand jobs [default: 500,1000,2000].
    #[arg(long, value_parser = parse_demands)]
    demands: Option<(f64, f64, f64)>,
    /// Divide every inter-arrival time by F (1.2 = 20% more load), after --from/--to/--users.
    #[arg(long, value_name = "F")]
    load_scale: Option<f64>,
    /// Only jobs submitted at or after T: seconds of the trace's clock, or a date
    /// (2024-03-01T10:00:00, UTC) for traces with UnixStartTime.
    #[arg(long, value_name = "T")]
    from: Option<String>,
    /// Only jobs submitted before T (seconds or a date, as --from).
    #[arg(long, value_name = "T")]
    to: Option<String>,
    /// Only the jobs of these users: numbers (SWF field 12) or the names an sacct log gives,
    /// e.g. --users 3,17 or --users alice,bob
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    users: Vec<UserRef>,
    /// Leave out the jobs of these users (numbers or names, as --users).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    exclude_users: Vec<UserRef>,
    /// Run on a cluster's nodes (cores, memory, GPUs, partitions): a slurm.conf, an Alea
    /// .machines file, a preset (gpu, mixed) or a compact form (docs/cluster-model.md).
    #[arg(long, value_name = "SPEC")]
    cluster: Option<String>,
    /// A slurm.conf: its cluster (as --cluster FILE), and the priority and scheduler
    /// parameters the `slurm` policy takes (its spec's own keys override them; docs/slurm.md).
    #[arg(long, value_name = "FILE", conflicts_with = "cluster")]
    pub slurm_conf: Option<std::path::PathBuf>,
}

impl InputArgs {
    pub fn options(&self) -> Result<(ReadOptions, InputOptions), Box<dyn std::error::Error>> {
        let read = ReadOptions {
            strict: self.strict,
            ..ReadOptions::default()
        };
        let input = InputOptions {
            procs: self.procs,
            wide: match self.wide {
                WideArg::Skip => Wide::Skip,
                WideArg::Clamp => Wide::Clamp,
            },
            skip_status: self.skip_status.clone(),
            skip_zero_runtime: self.skip_zero_runtime,
            estimate: match self.estimate {
                EstimateArg::Requested => EstimateSource::Requested,
                EstimateArg::Runtime => EstimateSource::Runtime,
                EstimateArg::Ignore => EstimateSource::Ignore,
            },
            kill: !self.no_kill,
            origin: match self.origin {
                OriginArg::First => Origin::First,
                OriginArg::Trace => Origin::Trace,
            },
            offline: self.offline,
            max_jobs: self.max_jobs,
            nodes: self.node_model(),
            transform: schedlab::workload::transform::Transform {
                load_scale: self.load_scale,
                from: self.from.clone(),
                to: self.to.clone(),
                users: self.users.clone(),
                exclude_users: self.exclude_users.clone(),
            },
            cluster: self.cluster_compact()?,
        };
        Ok((read, input))
    }

    /// The cluster of `--cluster` or `--slurm-conf`, in its compact form.
    fn cluster_compact(&self) -> Result<Option<String>, Box<dyn std::error::Error>> {
        let c = match (&self.slurm_conf, &self.cluster) {
            (Some(path), _) => cluster::read_file(path)?,
            (None, Some(spec)) => cluster::resolve(spec)?,
            (None, None) => return Ok(None),
        };
        Ok(Some(c.to_compact()))
    }

    fn node_model(&self) -> Option<NodeModel> {
        let on = self.nodes
            || self.cores.is_some()
            || self.bandwidth.is_some()
            || self.mix.is_some()
            || self.bandwidth_field.is_some()
            || self.demands.is_some();
        if !on {
            return None;
        }
        let mut m = NodeModel::default();
        if let Some(c) = self.cores {
            m.cores = c;
        }
        if let Some(b) = self.bandwidth {
            m.bandwidth = b;
        }
        if let Some(mix) = self.mix {
            m.mix = match mix {
                MixArg::High => Mix::High,
                MixArg::Med => Mix::Med,
                MixArg::Low => Mix::Low,
            };
        }
        m.field = self.bandwidth_field;
        if let Some((low, medium, high)) = self.demands {
            (m.low, m.medium, m.high) = (low, medium, high);
        }
        Some(m)
    }
}

/// `LOW,MEDIUM,HIGH` in MB/s per process.
fn parse_demands(text: &str) -> Result<(f64, f64, f64), String> {
    let v: Vec<f64> = text
        .split(',')
        .map(|s| s.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{text}: {e}; expected LOW,MEDIUM,HIGH in MB/s"))?;
    match v[..] {
        [low, medium, high] => Ok((low, medium, high)),
        _ => Err(format!("{text}: expected three numbers LOW,MEDIUM,HIGH")),
    }
}
