//! What makes a cluster valid ([`Cluster::validate`]): node names, counts within bounds,
//! partitions over known nodes in the cluster's node order; and that order itself
//! ([`NodeOrder`]), in which the readers put a partition's nodes.

use super::{
    hostlist, Cluster, NodeGroup, MAX_GROUPS, MAX_MEMBERSHIPS, MAX_NODES, MAX_PARTITIONS, MAX_TAGS,
};
use crate::quote::quote;
use std::collections::HashMap;

/// A node name: [`hostlist::check_name`], and not `ALL` (any case), which partitions use for
/// every node.
pub fn check_node_name(n: &str) -> Result<(), String> {
    hostlist::check_name(n)?;
    if n.eq_ignore_ascii_case("all") {
        return Err("ALL is reserved: Nodes=ALL means every node".into());
    }
    Ok(())
}

/// The cluster's node order, to put a partition's nodes in it.
pub(crate) struct NodeOrder<'a> {
    index: HashMap<&'a str, usize>,
    all: Vec<&'a str>,
}

impl<'a> NodeOrder<'a> {
    pub(crate) fn new(groups: &'a [NodeGroup]) -> Self {
        let all: Vec<&str> = groups
            .iter()
            .flat_map(|g| g.names.iter().map(String::as_str))
            .collect();
        let index = all.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        NodeOrder { index, all }
    }

    /// Every node, in order.
    pub(crate) fn all(&self) -> Vec<String> {
        self.all.iter().map(|n| n.to_string()).collect()
    }

    /// `names` in the cluster's node order, repeats dropped; `Err` names the first unknown node.
    pub(crate) fn sort(&self, names: &[String]) -> Result<Vec<String>, String> {
        let mut at = Vec::with_capacity(names.len());
        for n in names {
            at.push(*self.index.get(n.as_str()).ok_or_else(|| n.clone())?);
        }
        at.sort_unstable();
        at.dedup();
        Ok(at.into_iter().map(|i| self.all[i].to_string()).collect())
    }
}

/// What makes a cluster invalid (the caller adds where it came from).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ClusterError(pub String);

impl Cluster {
    /// Checks the invariants every constructor keeps: at least one node; node names valid and
    /// unique; cores >= 1; at most [`MAX_NODES`] nodes, [`MAX_GROUPS`] groups,
    /// [`MAX_PARTITIONS`] partitions and [`MAX_MEMBERSHIPS`] memberships; partitions uniquely
    /// named, over known nodes (no repeats, in node order); at most one default partition.
    pub fn validate(&self) -> Result<(), ClusterError> {
        let err = |m: String| Err(ClusterError(m));
        if self.groups.is_empty() {
            return err("no node: a cluster needs at least one node group".into());
        }
        if self.groups.len() > MAX_GROUPS {
            return err(format!("more than {MAX_GROUPS} node groups"));
        }
        if self.partitions.len() > MAX_PARTITIONS {
            return err(format!("more than {MAX_PARTITIONS} partitions"));
        }
        let index = self.node_index()?;
        for g in &self.groups {
            let first = g.names.first().map_or("", String::as_str);
            if g.names.is_empty() {
                return err("a node group without nodes".into());
            }
            if g.cpus == 0 {
                return err(format!("nodes {first}...: 0 CPUs"));
            }
            if g.features.len() > MAX_TAGS || g.gpus.len() > MAX_TAGS {
                return err(format!(
                    "nodes {first}...: more than {MAX_TAGS} features or GPU types"
                ));
            }
            for t in g
                .features
                .iter()
                .chain(g.gpus.keys().filter(|t| !t.is_empty()))
            {
                hostlist::check_name(t).map_err(|e| ClusterError(format!("{}: {e}", quote(t))))?;
            }
        }
        let mut seen = std::collections::HashSet::new();
        let mut members = 0usize;
        let mut defaults = 0;
        for p in &self.partitions {
            hostlist::check_name(&p.name)
                .map_err(|e| ClusterError(format!("partition {}: {e}", quote(&p.name))))?;
            if !seen.insert(p.name.as_str()) {
                return err(format!("partition {} defined twice", p.name));
            }
            members += p.nodes.len();
            if members > MAX_MEMBERSHIPS {
                return err(format!(
                    "more than {MAX_MEMBERSHIPS} (partition, node) memberships"
                ));
            }
            let mut last = None;
            for n in &p.nodes {
                let Some(&i) = index.get(n.as_str()) else {
                    return err(format!(
                        "partition {} names node {n}, which no node group defines",
                        p.name
                    ));
                };
                if last.is_some_and(|l| l >= i) {
                    return err(format!(
                        "partition {}: its nodes repeat or are not in the cluster's node order",
                        p.name
                    ));
                }
                last = Some(i);
            }
            defaults += usize::from(p.default);
        }
        if defaults > 1 {
            return err("more than one default partition".into());
        }
        Ok(())
    }

    /// Node name -> position in the cluster's node order; errors on a repeated or invalid name.
    fn node_index(&self) -> Result<HashMap<&str, usize>, ClusterError> {
        let mut index = HashMap::new();
        for n in self.groups.iter().flat_map(|g| &g.names) {
            if index.len() >= MAX_NODES {
                return Err(ClusterError(format!("more than {MAX_NODES} nodes")));
            }
            check_node_name(n).map_err(|e| ClusterError(format!("node {}: {e}", quote(n))))?;
            let i = index.len();
            if index.insert(n.as_str(), i).is_some() {
                return Err(ClusterError(format!("node {n} defined twice")));
            }
        }
        Ok(index)
    }
}
