//! A cluster laid out for scheduling: its nodes numbered in the cluster's order, each with its
//! capacity and the processor ids of its cores, and each partition's usable nodes in the order
//! Slurm selects them (lowest weight first, then node order).

use super::{Cluster, NodeState, OverSubscribe, PartitionState};

/// One node as the scheduler sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Its name.
    pub name: String,
    /// Cores.
    pub cpus: u32,
    /// Memory, MB.
    pub mem_mb: u64,
    /// GPUs, every type.
    pub gpus: u32,
    /// Slurm's weight (lower first).
    pub weight: u32,
    /// The processor id of its first core: its cores are `first_proc..first_proc + cpus`.
    pub first_proc: u32,
    /// Takes jobs (its state is not down, drained or failing).
    pub usable: bool,
}

/// One partition as the scheduler sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Its name.
    pub name: String,
    /// Its usable nodes (indices into [`Layout::nodes`]) by (weight, node order).
    pub order: Vec<u32>,
    /// Every node of the partition, usable or not.
    pub members: Vec<u32>,
    /// Jobs get whole nodes (`OverSubscribe=EXCLUSIVE`).
    pub exclusive: bool,
    /// `MaxNodes` per job.
    pub max_nodes: Option<u32>,
    /// `MaxTime`, seconds.
    pub max_time: Option<i64>,
    /// `DefaultTime`, seconds (`None`: not set; `Some(None)`: `UNLIMITED`).
    pub default_time: Option<Option<i64>>,
    /// Takes jobs (`State=UP`).
    pub up: bool,
    /// `PriorityTier`: Slurm's schedulers take jobs of a higher tier first.
    pub priority_tier: u32,
    /// `PriorityJobFactor`: its jobs' partition priority factor, normalized by the largest.
    pub priority_job_factor: u32,
    /// `TRESBillingWeights` (`None`: a job's billing is its CPUs).
    pub billing: Option<super::billing::BillingWeights>,
}

/// A cluster laid out for scheduling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The nodes, in the cluster's order.
    pub nodes: Vec<Node>,
    /// The partitions, in the order written; a cluster without any gets one, `all`, over every
    /// node.
    pub parts: Vec<Part>,
    /// The partition of jobs that name none: the one with `Default=YES`, else the first.
    pub default_part: usize,
    /// Cores over every node (the processor ids are `0..procs`).
    pub procs: u32,
    /// The partitions each usable node is in (indices into [`Layout::parts`]).
    pub node_parts: Vec<Vec<u32>>,
    /// Each usable node's (partition, position in the partition's order), node after node:
    /// node `i`'s are `slots[slot_of[i]..slot_of[i + 1]]` ([`Layout::slots_of`]).
    slots: Vec<(u32, u32)>,
    /// Where each node's slots begin (one more entry than nodes).
    slot_of: Vec<u32>,
    /// Every node is in at most one partition ([`Layout::one_part_per_node`]).
    one_part_per_node: bool,
    /// Per node, how many nodes from it on are each in one partition, the same, at positions
    /// following each other ([`Layout::straight_slot`]); 0 for a node in none or several.
    straight: Vec<u32>,
}

/// At most this many cores in a laid-out cluster (processor ids are `u32`; kept well below).
pub const MAX_PROCS: u64 = 1 << 31;

impl Layout {
    /// Lays out a valid cluster ([`Cluster::validate`]).
    pub fn new(c: &Cluster) -> Result<Layout, String> {
        c.validate().map_err(|e| e.0)?;
        let mut nodes = Vec::new();
        let mut first: u64 = 0;
        for g in &c.groups {
            let usable = !matches!(
                g.state,
                NodeState::Down | NodeState::Drain | NodeState::Fail | NodeState::Failing
            );
            let gpus = u32::try_from(g.gpus_per_node()).map_err(|_| {
                format!(
                    "nodes {}...: too many GPUs per node",
                    g.names.first().map_or("", |s| s)
                )
            })?;
            for name in &g.names {
                if first + u64::from(g.cpus) > MAX_PROCS {
                    return Err(format!("more than {MAX_PROCS} cores in the cluster"));
                }
                nodes.push(Node {
                    name: name.clone(),
                    cpus: g.cpus,
                    mem_mb: g.mem_mb,
                    gpus,
                    weight: g.weight,
                    first_proc: first as u32,
                    usable,
                });
                first += u64::from(g.cpus);
            }
        }
        let index: std::collections::HashMap<&str, u32> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i as u32))
            .collect();
        let mut parts = Vec::new();
        for p in &c.partitions {
            let members: Vec<u32> = p.nodes.iter().map(|n| index[n.as_str()]).collect();
            parts.push(Part {
                name: p.name.clone(),
                order: Self::order(&nodes, &members),
                members,
                exclusive: p.oversubscribe == OverSubscribe::Exclusive,
                max_nodes: p.max_nodes,
                max_time: p.max_time.map(|m| i64::from(m) * 60),
                default_time: p.default_time.map(|d| d.map(|m| i64::from(m) * 60)),
                up: p.state == PartitionState::Up,
                priority_tier: p.priority_tier,
                priority_job_factor: p.priority_job_factor,
                billing: p.billing_weights.clone(),
            });
        }
        if parts.is_empty() {
            let members: Vec<u32> = (0..nodes.len() as u32).collect();
            parts.push(Part {
                name: "all".into(),
                order: Self::order(&nodes, &members),
                members,
                exclusive: false,
                max_nodes: None,
                max_time: None,
                default_time: None,
                up: true,
                priority_tier: 1,
                priority_job_factor: 1,
                billing: None,
            });
        }
        let default_part = c.partitions.iter().position(|p| p.default).unwrap_or(0);
        let mut node_parts = vec![Vec::new(); nodes.len()];
        let mut node_pos = vec![Vec::new(); nodes.len()];
        for (i, p) in parts.iter().enumerate() {
            for (k, &n) in p.order.iter().enumerate() {
                node_parts[n as usize].push(i as u32);
                node_pos[n as usize].push(k as u32);
            }
        }
        let mut slots = Vec::new();
        let mut slot_of = vec![0];
        for (parts, pos) in node_parts.iter().zip(&node_pos) {
            slots.extend(parts.iter().copied().zip(pos.iter().copied()));
            slot_of.push(slots.len() as u32);
        }
        Ok(Layout {
            nodes,
            parts,
            default_part,
            procs: first as u32,
            one_part_per_node: node_parts.iter().all(|p| p.len() <= 1),
            straight: Self::straight(&slots, &slot_of),
            node_parts,
            slots,
            slot_of,
        })
    }

    /// [`Layout::straight`] from the nodes' slots, counted from the last node back.
    fn straight(slots: &[(u32, u32)], slot_of: &[u32]) -> Vec<u32> {
        let one = |i: usize| {
            let s = &slots[slot_of[i] as usize..slot_of[i + 1] as usize];
            (s.len() == 1).then(|| s[0])
        };
        let nodes = slot_of.len() - 1;
        let mut straight = vec![0; nodes];
        for i in (0..nodes).rev() {
            straight[i] = match (one(i), (i + 1 < nodes).then(|| one(i + 1)).flatten()) {
                (Some((p, k)), Some((q, next))) if q == p && next == k + 1 => straight[i + 1] + 1,
                (Some(_), _) => 1,
                (None, _) => 0,
            };
        }
        straight
    }

    /// The slot (partition, position) of node `i` when nodes `i..i + count` are each in that
    /// one partition at positions following each other; `None` otherwise.
    #[inline]
    pub fn straight_slot(&self, i: usize, count: usize) -> Option<(u32, u32)> {
        (count > 0 && self.straight[i] as usize >= count)
            .then(|| self.slots[self.slot_of[i] as usize])
    }

    /// The usable nodes of `members` by (weight, node order).
    fn order(nodes: &[Node], members: &[u32]) -> Vec<u32> {
        let mut order: Vec<u32> = members
            .iter()
            .copied()
            .filter(|&n| nodes[n as usize].usable)
            .collect();
        order.sort_by_key(|&n| (nodes[n as usize].weight, n));
        order
    }

    /// Node `i`'s partitions, each with the node's position in its order.
    #[inline]
    pub fn slots_of(&self, i: usize) -> &[(u32, u32)] {
        &self.slots[self.slot_of[i] as usize..self.slot_of[i + 1] as usize]
    }

    /// True when no node is in two partitions: a change to a node's free resources changes
    /// the figures of one partition at most.
    pub fn one_part_per_node(&self) -> bool {
        self.one_part_per_node
    }

    /// The partition named `name`.
    pub fn part_index(&self, name: &str) -> Option<usize> {
        self.parts.iter().position(|p| p.name == name)
    }

    /// The node holding processor `p`.
    pub fn node_of_proc(&self, p: u32) -> usize {
        self.nodes.partition_point(|n| n.first_proc <= p) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_order_and_processor_ids() {
        let c = super::super::conf::parse_str(
            "NodeName=a[1-2] CPUs=4 RealMemory=100 Weight=5\n\
             NodeName=b[1-2] CPUs=8 RealMemory=200 Gres=gpu:2 Weight=1\n\
             NodeName=c1 CPUs=2 RealMemory=10 State=DOWN\n\
             PartitionName=p Nodes=a[1-2],b[1-2],c1 Default=YES OverSubscribe=EXCLUSIVE\n\
             PartitionName=q Nodes=a1 MaxTime=60 MaxNodes=1\n",
            "t",
        )
        .unwrap()
        .cluster;
        let l = Layout::new(&c).unwrap();
        assert_eq!(l.procs, 4 + 4 + 8 + 8 + 2);
        assert_eq!(l.nodes[2].first_proc, 8);
        assert_eq!(l.nodes[2].gpus, 2);
        // b1, b2 (weight 1) before a1, a2 (weight 5); c1 is down.
        assert_eq!(l.parts[0].order, vec![2, 3, 0, 1]);
        assert_eq!(l.slots_of(0), [(0, 2), (1, 0)]);
        assert_eq!(l.slots_of(3), [(0, 1)]);
        assert_eq!(l.slots_of(4), []);
        // b1, b2 follow each other in p alone; a1 is in two partitions, c1 in none.
        assert_eq!(l.straight_slot(2, 2), Some((0, 0)));
        assert_eq!(l.straight_slot(2, 3), None);
        assert_eq!(l.straight_slot(1, 1), Some((0, 3)));
        assert_eq!(l.straight_slot(1, 2), None);
        assert_eq!(l.straight_slot(0, 1), None);
        assert_eq!(l.straight_slot(4, 1), None);
        assert!(!l.one_part_per_node());
        assert_eq!(l.parts[0].members.len(), 5);
        assert!(l.parts[0].exclusive);
        assert_eq!(
            (l.parts[1].max_time, l.parts[1].max_nodes),
            (Some(3600), Some(1))
        );
        assert_eq!(l.default_part, 0);
        assert_eq!(l.node_of_proc(0), 0);
        assert_eq!(l.node_of_proc(7), 1);
        assert_eq!(l.node_of_proc(8), 2);
        assert_eq!(l.node_of_proc(25), 4);
    }
}
