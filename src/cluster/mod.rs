//! A cluster as admins describe it: node groups (names, cores, memory, GPUs by type, features,
//! weight) and partitions, read from Slurm's own `slurm.conf` lines ([`conf`]), from an Alea
//! `.machines` file ([`alea`]) or from the compact form of share links ([`compact`]), laid out for scheduling ([`layout`]) with the node selection
//! that allocates a job's cores, memory and GPUs ([`select`]).
//! docs/cluster-model.md lists which keys are used, which are ignored, and the compact grammar.
//!
//! ```
//! use schedlab::cluster::{conf, Cluster};
//! let c = conf::parse_str(
//!     "NodeName=gpu[01-04] CPUs=32 RealMemory=256000 Gres=gpu:a100:4\n\
//!      PartitionName=gpu Nodes=gpu[01-04] Default=YES MaxTime=1-00:00:00\n",
//!     "slurm.conf",
//! )
//! .unwrap()
//! .cluster;
//! assert_eq!((c.total_nodes(), c.total_cores(), c.total_gpus()), (4, 128, 16));
//! let back = Cluster::from_compact(&c.to_compact()).unwrap();
//! assert_eq!(back, c);
//! ```
//!
//! It imports only the job record (a leaf) of the crate.

#![warn(missing_docs)]

pub mod alea;
pub mod billing;
pub mod compact;
pub mod conf;
pub mod fit;
pub mod hostlist;
pub mod layout;
mod nodeset;
pub mod packed;
pub mod part_lists;
pub mod place;
pub mod select;
pub mod table;
pub mod time;
mod validate;

pub use fit::never_fits;
pub use layout::Layout;
pub use packed::PackedAlloc;
pub use place::Placement;
pub use select::{Alloc, Free, Need, Share};
pub(crate) use validate::NodeOrder;
pub use validate::{check_node_name, ClusterError};

use crate::plural::count;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// At most this many nodes in a cluster.
pub const MAX_NODES: usize = 100_000;
/// At most this many node groups.
pub const MAX_GROUPS: usize = 10_000;
/// At most this many partitions.
pub const MAX_PARTITIONS: usize = 1_000;
/// At most this many (partition, node) memberships over all partitions.
pub const MAX_MEMBERSHIPS: usize = 1_000_000;
/// At most this many features, and GPU types, on one node group.
pub const MAX_TAGS: usize = 64;

/// A node's state as slurm.conf sets it (`State=`); `Unknown` is Slurm's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeState {
    /// Slurm learns the state from the node (the default).
    #[default]
    Unknown,
    /// Up and without jobs.
    Idle,
    /// Unavailable.
    Down,
    /// Takes no new job.
    Drain,
    /// Failed, takes no new job.
    Fail,
    /// Failing: running jobs go on, no new job.
    Failing,
    /// Defined for later, not yet in service.
    Future,
    /// Powered on demand in a cloud.
    Cloud,
}

/// A partition's state (`State=`); `Up` is Slurm's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PartitionState {
    /// Takes and runs jobs (the default).
    #[default]
    Up,
    /// Takes jobs, starts none.
    Down,
    /// Starts queued jobs, takes no new one.
    Drain,
    /// Neither takes nor starts jobs.
    Inactive,
}

/// Whether jobs share a partition's nodes (`OverSubscribe=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase", tag = "mode", content = "jobs")]
pub enum OverSubscribe {
    /// Whole nodes to each job.
    Exclusive,
    /// Resources (cores, memory, GPUs) of a node shared between jobs, never oversubscribed: Slurm's
    /// default.
    #[default]
    No,
    /// Jobs that ask for it may share a resource, up to this many per resource.
    Yes(u32),
    /// Every job may share a resource, up to this many per resource.
    Force(u32),
}

macro_rules! words {
    ($t:ty { $($v:ident = $w:literal),* $(,)? }) => {
        impl $t {
            /// Every value with its lowercase word.
            pub const WORDS: &'static [($t, &'static str)] = &[$((<$t>::$v, $w)),*];
            /// The lowercase word.
            pub fn word(self) -> &'static str {
                Self::WORDS.iter().find(|(v, _)| *v == self).map_or("", |(_, w)| w)
            }
            /// The value of a word, any case.
            pub fn from_word(s: &str) -> Option<Self> {
                Self::WORDS.iter().find(|(_, w)| w.eq_ignore_ascii_case(s)).map(|(v, _)| *v)
            }
            /// The valid words, for messages.
            pub fn valid() -> String {
                Self::WORDS.iter().map(|(_, w)| w.to_uppercase()).collect::<Vec<_>>().join("|")
            }
        }
    };
}
words!(NodeState { Unknown = "unknown", Idle = "idle", Down = "down", Drain = "drain", Fail = "fail",
    Failing = "failing", Future = "future", Cloud = "cloud" });
words!(PartitionState { Up = "up", Down = "down", Drain = "drain", Inactive = "inactive" });

fn as_hostlist<S: Serializer>(names: &[String], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&hostlist::format_ordered(names))
}

/// Nodes alike: one `NodeName=` line, or one group of the compact form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeGroup {
    /// The node names, in the order they were written (serialized as a hostlist).
    #[serde(serialize_with = "as_hostlist")]
    pub names: Vec<String>,
    /// Cores (Slurm CPUs) per node.
    pub cpus: u32,
    /// Memory per node, MB (Slurm `RealMemory`).
    pub mem_mb: u64,
    /// GPUs per node by type ("" for untyped `gpu:N`).
    pub gpus: BTreeMap<String, u32>,
    /// Features, in the order written.
    pub features: Vec<String>,
    /// Slurm's scheduling weight: lower weights are allocated first.
    pub weight: u32,
    /// The state slurm.conf gives.
    pub state: NodeState,
}

impl NodeGroup {
    /// A group of nodes with `cpus` cores and `mem_mb` MB each, no GPU, weight 1.
    pub fn new(names: Vec<String>, cpus: u32, mem_mb: u64) -> Self {
        NodeGroup {
            names,
            cpus,
            mem_mb,
            gpus: BTreeMap::new(),
            features: Vec::new(),
            weight: 1,
            state: NodeState::Unknown,
        }
    }

    /// GPUs per node, every type.
    pub fn gpus_per_node(&self) -> u64 {
        self.gpus.values().map(|&g| u64::from(g)).sum()
    }

    /// The group's GPUs as Slurm writes them: `gpu:a100:4,gpu:2`.
    pub fn gres(&self) -> String {
        let g: Vec<String> = self
            .gpus
            .iter()
            .map(|(t, n)| {
                if t.is_empty() {
                    format!("gpu:{n}")
                } else {
                    format!("gpu:{t}:{n}")
                }
            })
            .collect();
        g.join(",")
    }
}

/// A partition: where a job may run and under which limits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Partition {
    /// Its name (`PartitionName=`).
    pub name: String,
    /// Its nodes, in the cluster's node order (serialized as a hostlist).
    #[serde(serialize_with = "as_hostlist")]
    pub nodes: Vec<String>,
    /// The partition of jobs that name none (`Default=YES`); at most one has it.
    pub default: bool,
    /// `MaxTime` in minutes; `None` is unlimited.
    pub max_time: Option<u32>,
    /// `DefaultTime` in minutes: the time limit of a job that gives none (`None`: not set,
    /// `MaxTime` then; `Some(None)`: `UNLIMITED`).
    pub default_time: Option<Option<u32>>,
    /// `MaxNodes` per job; `None` is unlimited.
    pub max_nodes: Option<u32>,
    /// `PriorityJobFactor` (Slurm's default 1).
    pub priority_job_factor: u32,
    /// `PriorityTier` (Slurm's default 1).
    pub priority_tier: u32,
    /// Whether jobs share its nodes (`OverSubscribe=`).
    pub oversubscribe: OverSubscribe,
    /// Its state (`State=`).
    pub state: PartitionState,
    /// `TRESBillingWeights`: what its jobs' usage is charged (`None`: their CPUs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub billing_weights: Option<billing::BillingWeights>,
}

impl Partition {
    /// An up partition over `nodes` with Slurm's defaults (no limits).
    pub fn new(name: &str, nodes: Vec<String>) -> Self {
        Partition {
            name: name.to_string(),
            nodes,
            default: false,
            max_time: None,
            default_time: None,
            max_nodes: None,
            priority_job_factor: 1,
            priority_tier: 1,
            oversubscribe: OverSubscribe::No,
            state: PartitionState::Up,
            billing_weights: None,
        }
    }
}

/// A cluster: node groups and partitions. Build one with [`conf::parse_str`],
/// [`Cluster::from_compact`], a preset, or by hand and [`Cluster::validate`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cluster {
    /// The node groups, in the order written (the cluster's node order).
    pub groups: Vec<NodeGroup>,
    /// The partitions, in the order written.
    pub partitions: Vec<Partition>,
}

impl Cluster {
    /// Every node name, in order.
    pub fn node_names(&self) -> impl Iterator<Item = &str> {
        self.groups
            .iter()
            .flat_map(|g| g.names.iter().map(String::as_str))
    }

    /// Nodes over all groups.
    pub fn total_nodes(&self) -> u64 {
        self.groups.iter().map(|g| g.names.len() as u64).sum()
    }

    /// Cores over all nodes.
    pub fn total_cores(&self) -> u64 {
        self.groups
            .iter()
            .map(|g| g.names.len() as u64 * u64::from(g.cpus))
            .sum()
    }

    /// Memory over all nodes, MB.
    pub fn total_mem_mb(&self) -> u64 {
        self.groups
            .iter()
            .map(|g| g.names.len() as u64 * g.mem_mb)
            .sum()
    }

    /// GPUs over all nodes.
    pub fn total_gpus(&self) -> u64 {
        self.groups
            .iter()
            .map(|g| g.names.len() as u64 * g.gpus_per_node())
            .sum()
    }

    /// GPUs over all nodes by type ("" untyped).
    pub fn gpus_by_type(&self) -> BTreeMap<String, u64> {
        let mut m = BTreeMap::new();
        for g in &self.groups {
            for (t, &n) in &g.gpus {
                *m.entry(t.clone()).or_insert(0) += g.names.len() as u64 * u64::from(n);
            }
        }
        m
    }

    /// The default partition (`Default=YES`), if any.
    pub fn default_partition(&self) -> Option<&Partition> {
        self.partitions.iter().find(|p| p.default)
    }

    /// What `schedlab cluster` prints: totals, one line per node group, one per partition.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let gpus = self.gpus_by_type();
        let by_type = if gpus.keys().all(String::is_empty) {
            String::new()
        } else {
            let t: Vec<String> = gpus
                .iter()
                .map(|(t, n)| format!("{}: {n}", if t.is_empty() { "untyped" } else { t }))
                .collect();
            format!(" ({})", t.join(", "))
        };
        let _ = writeln!(
            s,
            "cluster: {} in {}, {}, {} MB memory, {}{by_type}, {}",
            count(self.total_nodes(), "node"),
            count(self.groups.len(), "group"),
            count(self.total_cores(), "core"),
            self.total_mem_mb(),
            count(self.total_gpus(), "GPU"),
            count(self.partitions.len(), "partition")
        );
        let _ = writeln!(s, "node groups:");
        for g in &self.groups {
            let _ = write!(
                s,
                "  {}  {}  cpus {}  mem {} MB",
                hostlist::format_ordered(&g.names),
                count(g.names.len(), "node"),
                g.cpus,
                g.mem_mb
            );
            if !g.gpus.is_empty() {
                let _ = write!(s, "  gres {}", g.gres());
            }
            if !g.features.is_empty() {
                let _ = write!(s, "  features {}", g.features.join(","));
            }
            let _ = write!(s, "  weight {}", g.weight);
            if g.state != NodeState::Unknown {
                let _ = write!(s, "  state {}", g.state.word().to_uppercase());
            }
            s.push('\n');
        }
        let _ = writeln!(s, "partitions:");
        if self.partitions.is_empty() {
            let _ = writeln!(s, "  (none)");
        }
        for p in &self.partitions {
            let over = match p.oversubscribe {
                OverSubscribe::Exclusive => "EXCLUSIVE".to_string(),
                OverSubscribe::No => "NO".to_string(),
                OverSubscribe::Yes(n) => format!("YES:{n}"),
                OverSubscribe::Force(n) => format!("FORCE:{n}"),
            };
            let _ = writeln!(
                s,
                "  {}{}  nodes {} ({})  MaxTime {}{}  MaxNodes {}  PriorityTier {}  PriorityJobFactor {}  OverSubscribe {over}  {}",
                p.name,
                if p.default { "*" } else { "" },
                if p.nodes.is_empty() { "(none)".to_string() } else { hostlist::format_ordered(&p.nodes) },
                p.nodes.len(),
                time::format_minutes(p.max_time),
                p.default_time.map_or(String::new(), |t| format!("  DefaultTime {}", time::format_minutes(t))),
                p.max_nodes.map_or("UNLIMITED".to_string(), |n| n.to_string()),
                p.priority_tier,
                p.priority_job_factor,
                p.state.word().to_uppercase()
            );
        }
        s
    }

    /// The trace's processors as one pool: one node `pool` of `procs` cores (at least 1), no
    /// memory (0 MB) and no GPU, in one default partition `pool`. Compact:
    /// `1/pool:c{procs}:m0/p=pool:pool:default`.
    pub fn single_pool(procs: u32) -> Cluster {
        let names = vec!["pool".to_string()];
        let mut p = Partition::new("pool", names.clone());
        p.default = true;
        Cluster {
            groups: vec![NodeGroup::new(names, procs.max(1), 0)],
            partitions: vec![p],
        }
    }

    /// A GPU cluster: 16 nodes `gpu[01-16]` of 64 cores, 512,000 MB and 4 A100 GPUs; partition
    /// `gpu` (default, 2 days) and `debug` over gpu[01-02] (1 hour, priority tier 2).
    pub fn gpu_preset() -> Cluster {
        Cluster::from_compact(compact::GPU_PRESET).expect("the GPU preset is valid")
    }

    /// A mixed cluster: 128 CPU nodes, 4 large-memory nodes, 8 GPU nodes (weights so that CPU
    /// nodes go first), partitions `batch` (default), `bigmem`, `gpu` and `debug`.
    pub fn mixed_preset() -> Cluster {
        Cluster::from_compact(compact::MIXED_PRESET).expect("the mixed preset is valid")
    }

    /// The presets by name, for the CLI and the page: (name, compact form).
    pub const PRESETS: &'static [(&'static str, &'static str)] = &[
        ("gpu", compact::GPU_PRESET),
        ("mixed", compact::MIXED_PRESET),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_summary() {
        let c = Cluster::mixed_preset();
        assert_eq!(c.total_nodes(), 140);
        assert_eq!(c.total_cores(), 128 * 128 + 4 * 128 + 8 * 64);
        assert_eq!(c.total_gpus(), 32);
        assert_eq!(c.default_partition().unwrap().name, "batch");
        let s = c.summary();
        assert!(s.starts_with("cluster: 140 nodes in 3 groups"), "{s}");
        assert!(
            s.contains("gn[01-08]  8 nodes  cpus 64  mem 512000 MB  gres gpu:a100:4"),
            "{s}"
        );
        assert!(
            s.contains("  batch*  nodes cn[001-128],bm[01-04] (132)  MaxTime 2-00:00:00"),
            "{s}"
        );
        let g = Cluster::gpu_preset();
        assert_eq!((g.total_nodes(), g.total_gpus()), (16, 64));
        let p = Cluster::single_pool(430);
        assert_eq!(
            (p.total_nodes(), p.total_cores(), p.total_mem_mb()),
            (1, 430, 0)
        );
        p.validate().unwrap();
    }

    #[test]
    fn validation() {
        let mut c = Cluster::single_pool(4);
        c.partitions[0].nodes = vec!["nope".into()];
        let e = c.validate().unwrap_err().to_string();
        assert!(
            e.contains("partition pool") && e.contains("node nope"),
            "{e}"
        );
        let mut c = Cluster::single_pool(4);
        c.groups.push(NodeGroup::new(vec!["pool".into()], 1, 1));
        assert!(c
            .validate()
            .unwrap_err()
            .0
            .contains("node pool defined twice"));
        let mut c = Cluster::single_pool(4);
        c.partitions.push(c.partitions[0].clone());
        assert!(c.validate().is_err());
    }

    #[test]
    fn json() {
        let v = serde_json::to_value(Cluster::gpu_preset()).unwrap();
        assert_eq!(v["groups"][0]["names"], "gpu[01-16]");
        assert_eq!(v["groups"][0]["gpus"]["a100"], 4);
        assert_eq!(v["partitions"][1]["nodes"], "gpu[01-02]");
        assert_eq!(v["partitions"][0]["oversubscribe"]["mode"], "no");
    }
}
