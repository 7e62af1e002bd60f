//! Why a job can never run on a cluster, whatever else runs: its partition, the partition's
//! limits, or no arrangement of its nodes, all free, holds it. Such a job is reported with the
//! reason, never dropped silently.

use super::layout::Layout;
use super::select::{Free, Need};

/// The reason `need` (with its requested time, seconds) can never run on `l`, or `None` when it
/// fits the idle cluster `idle` (`Free::all(l)`, made once for every job).
pub fn never_fits(l: &Layout, idle: &Free, need: &Need, requested: Option<i64>) -> Option<String> {
    let part = &l.parts[need.part as usize];
    let name = &part.name;
    if !part.up {
        return Some(format!("partition {name} is not up"));
    }
    if part.order.is_empty() {
        return Some(format!("partition {name} has no usable node"));
    }
    if let (Some(max), Some(req)) = (part.max_time, requested) {
        if req > max {
            return Some(format!(
                "requested time {req} s is over partition {name}'s MaxTime ({max} s)"
            ));
        }
    }
    if let Some(max) = part.max_nodes {
        if need.nodes > max {
            return Some(format!(
                "asks for {} nodes, partition {name}'s MaxNodes is {max}",
                need.nodes
            ));
        }
    }
    if need.nodes > 0 && need.cpus < need.nodes {
        return Some(format!(
            "asks for {} nodes but only {} cores (one at least per node)",
            need.nodes, need.cpus
        ));
    }
    if need.nodes as usize > part.order.len() {
        return Some(format!(
            "asks for {} nodes, partition {name} has {} usable",
            need.nodes,
            part.order.len()
        ));
    }
    if idle.fits(l, need) {
        return None;
    }
    let nodes = part.order.iter().map(|&n| &l.nodes[n as usize]);
    let cores: u64 = nodes.clone().map(|n| u64::from(n.cpus)).sum();
    let gpus: u64 = nodes.clone().map(|n| u64::from(n.gpus)).sum();
    let mem = nodes.map(|n| n.mem_mb).max().unwrap_or(0);
    Some(if u64::from(need.cpus) > cores {
        format!("asks for {} cores, partition {name} has {cores}", need.cpus)
    } else if u64::from(need.gpus) > gpus {
        format!(
            "asks for {}, partition {name} has {gpus}",
            crate::plural::count(need.gpus, "GPU")
        )
    } else if need.mem_per_node_mb > mem || need.mem_per_cpu_mb > mem {
        format!(
            "asks for {} MB per {}, partition {name}'s largest node has {mem} MB",
            need.mem_per_node_mb.max(need.mem_per_cpu_mb),
            if need.mem_per_node_mb > 0 {
                "node"
            } else {
                "core"
            }
        )
    } else {
        // Said as what it is: the selection's answer (cores taken node by node, each node's
        // free GPUs with them, past its cores one core a node, at most a node per core), not a
        // proof that no arrangement exists (docs/cluster-model.md, "Jobs that can never run").
        let memory = match (need.mem_per_node_mb, need.mem_per_cpu_mb) {
            (0, 0) => String::new(),
            (0, m) => format!(" and {m} MB per core"),
            (m, _) => format!(" and {m} MB per node"),
        };
        let gpus = match need.gpus {
            0 => String::new(),
            g => format!(", {}", crate::plural::count(g, "GPU")),
        };
        format!(
            "the node selection (cores taken node by node, each node's free GPUs with them) \
             finds no place in partition {name} for {}{gpus}{memory} on {}",
            crate::plural::count(need.cpus, "core"),
            if need.nodes > 0 {
                crate::plural::count(need.nodes, "node")
            } else {
                "any number of nodes".into()
            }
        )
    })
}
