//! slurm.conf's `NodeSet=` lines (slurm.conf.5, "NODESET CONFIGURATION"): a name for the nodes
//! of a `Nodes=` list and/or those with a `Feature=` (the union of the two when both are given),
//! which a partition's `Nodes=` may name in place of its nodes ("only used to simplify the
//! partition definitions"). Read wherever the line stands in the file, as Slurm builds the
//! partitions after reading it all.

use super::super::{hostlist, NodeGroup, MAX_NODES};

/// One `NodeSet=` line: its name, node list and feature.
pub(super) struct NodeSetLine {
    name: String,
    nodes: Option<String>,
    feature: Option<String>,
}

impl NodeSetLine {
    pub(super) fn new(name: &str) -> Self {
        NodeSetLine {
            name: name.to_string(),
            nodes: None,
            feature: None,
        }
    }

    /// One `Key=Value` of the line (`Nodes`, `Feature`; any case).
    pub(super) fn key(&mut self, k: &str, v: &str) -> Result<(), String> {
        if k.eq_ignore_ascii_case("Nodes") {
            hostlist::parse_with_limit(v, MAX_NODES).map_err(|e| e.to_string())?;
            self.nodes = Some(v.to_string());
        } else if k.eq_ignore_ascii_case("Feature") {
            self.feature = Some(v.trim().to_string());
        } else {
            return Err("a NodeSet line takes Nodes= and Feature= only".into());
        }
        Ok(())
    }
}

/// A partition's node names with each name of a NodeSet replaced by the set's nodes (each set
/// once; the caller sorts and removes repeats). At most `2 x MAX_NODES` names come out.
pub(super) fn expand(
    names: Vec<String>,
    sets: &[NodeSetLine],
    groups: &[NodeGroup],
) -> Result<Vec<String>, String> {
    if sets.is_empty() {
        return Ok(names);
    }
    let mut out = Vec::with_capacity(names.len());
    let mut used = vec![false; sets.len()];
    for n in names {
        let Some(i) = sets.iter().position(|s| s.name == n) else {
            out.push(n);
            continue;
        };
        if std::mem::replace(&mut used[i], true) {
            continue;
        }
        let set = &sets[i];
        if let Some(list) = &set.nodes {
            out.extend(hostlist::parse_with_limit(list, MAX_NODES).map_err(|e| e.to_string())?);
        }
        if let Some(f) = &set.feature {
            for g in groups.iter().filter(|g| g.features.iter().any(|x| x == f)) {
                out.extend(g.names.iter().cloned());
            }
        }
        if out.len() > 2 * MAX_NODES {
            return Err(format!("more than {MAX_NODES} nodes in its NodeSets"));
        }
    }
    Ok(out)
}
