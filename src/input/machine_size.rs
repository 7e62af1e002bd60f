//! The machine a trace runs on: its processor count (an override, the header, or the widest
//! job), a cluster's layout when one is given, and the node model's limits.

use super::{InputOptions, Job, MAX_NODES, MAX_NODE_PROCS};
use crate::cluster::{Cluster, Layout};
use crate::swf::SwfHeader;
use crate::workload::sacct::{max_procs_is_recorded_peak, PEAK_SOURCE};

/// The machine of a job set.
pub(super) struct Machine {
    /// Processors (a cluster's cores).
    pub procs: u32,
    /// Where the count comes from, as the reports say it.
    pub source: String,
    /// The cluster's nodes and partitions, when the run is on a cluster.
    pub layout: Option<Layout>,
}

/// The machine of raw jobs (see `raw`: `runtime` is the processor count), or why there is
/// none that can be simulated.
pub(super) fn machine(jobs: &[Job], h: &SwfHeader, opts: &InputOptions) -> Result<Machine, String> {
    let widest = jobs.iter().map(|r| r.runtime).max().unwrap_or(0).max(0);
    let (procs, source) = if let Some(p) = opts.procs {
        (u64::from(p), "override".to_string())
    } else if let Some(p) = h.max_procs.filter(|&p| p > 0) {
        let source = if max_procs_is_recorded_peak(h) {
            PEAK_SOURCE
        } else if crate::workload::batsim::is_converted(h) {
            crate::workload::batsim::NB_RES_SOURCE
        } else {
            "MaxProcs header"
        };
        (p, source.to_string())
    } else if let Some(p) = h.max_nodes.filter(|&p| p > 0) {
        (p, "MaxNodes header".to_string())
    } else {
        // A header of 0 (some converters write it for "unknown") is named, not called missing.
        let why = match (h.max_procs, h.max_nodes) {
            (Some(0), Some(0)) => "MaxProcs and MaxNodes headers 0",
            (Some(0), _) => "MaxProcs header 0",
            (_, Some(0)) => "MaxNodes header 0",
            _ => "no MaxProcs/MaxNodes header",
        };
        (widest as u64, format!("widest job: {why}"))
    };
    if procs == 0 || procs > u64::from(u32::MAX / 2) {
        return Err(format!(
            "machine size {procs} is not usable ({source}): a machine has 1 to {} processors",
            u32::MAX / 2
        ));
    }
    let mut m = Machine {
        procs: procs as u32,
        source,
        layout: None,
    };
    if let Some(text) = &opts.cluster {
        let c = Cluster::from_compact(text).map_err(|e| format!("cluster: {e}"))?;
        let l = Layout::new(&c).map_err(|e| format!("cluster: {e}"))?;
        if opts.nodes.is_some() {
            return Err("the node model and a cluster do not combine: choose one".to_string());
        }
        m.procs = l.procs;
        m.source = format!(
            "the cluster's cores ({})",
            crate::plural::count(l.nodes.len(), "node")
        );
        m.layout = Some(l);
    }
    if let Some(model) = &opts.nodes {
        model.validate().map_err(|e| format!("node model: {e}"))?;
        // The engine keeps state per node (found by fuzzing: a billion one-core nodes took
        // more than 23 GB).
        let nodes = model.node_count(m.procs);
        if nodes > MAX_NODES {
            return Err(format!(
                "node model: {} processors in nodes of {} cores make {nodes} nodes (at most {MAX_NODES})",
                m.procs, model.cores
            ));
        }
        if m.procs > MAX_NODE_PROCS {
            return Err(format!(
                "node model: {} processors ({}), at most {MAX_NODE_PROCS} with the node model",
                m.procs, m.source
            ));
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use crate::input::InputOptions;
    use crate::swf::ReadOptions;

    fn source(name: &str, text: &str) -> (u32, String) {
        let w =
            crate::workload::read_bytes(name, text.as_bytes(), &ReadOptions::default()).unwrap();
        let set = crate::input::prepare(&w, &InputOptions::default()).unwrap();
        (set.procs, set.procs_source)
    }

    #[test]
    fn the_size_says_where_it_comes_from() {
        // A Batsim workload names its machine nb_res, not a MaxProcs header.
        let json = r#"{"nb_res": 8, "jobs": [{"id": 1, "subtime": 0, "walltime": 100,
            "res": 4, "profile": "p"}], "profiles": {"p": {"type": "delay", "delay": 30}}}"#;
        assert_eq!(
            source("w.json", json),
            (8, "the Batsim workload's nb_res".to_string())
        );
        let swf = "; MaxProcs: 16\n1 0 0 60 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n";
        assert_eq!(source("t.swf", swf), (16, "MaxProcs header".to_string()));
    }
}
