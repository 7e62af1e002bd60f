//! The factor a complete LessConsume run reaches, without the run: the free nodes of a machine
//! state counted by (demand, free processors), and the order statistic that gives the factor.
//!
//! Why an order statistic: call the `k`-th free processor of a node (in the order LessConsume
//! fills it) a slot, with the key `penalty(demand + k x per_proc)`. A node's selected processors
//! are always its first slots. LessConsume's factor only falls; it leaves a node for good once
//! its next slot is not cheaper than the worst selected one (or the node is the worst); a slot
//! given back by the worst node has the key that was the worst then. So when the run has
//! evaluated every node (or reached factor 1, the lowest there is), every slot left out has a
//! key >= the worst selected key, every selected slot one <= it: the factor is 1 + the
//! `need`-th smallest slot key. The penalty only grows with the demand (and rounds
//! monotonically), so that key is the penalty of the `need`-th smallest slot demand, computed
//! with the run's own expression: the same bits as the factor of `less_consume.rs`'s run.
//!
//! A state's nodes fall into few groups (an empty node has demand 0 and every core free), so
//! the statistic costs a sort of (groups x cores) slot demands, not a run over the nodes.

use crate::policy::blocks::less_consume::FreeNode;
use crate::sim::penalty::node_penalty;

/// Free nodes counted by `(demand bits, free processors)`, ascending (demands are >= 0, so
/// their bits order like the numbers): `(demand bits, free, nodes)`.
#[derive(Default, Clone, Debug, PartialEq)]
pub struct NodeGroups {
    groups: Vec<(u64, u32, u32)>,
}

impl NodeGroups {
    pub fn new() -> Self {
        Self::default()
    }

    /// The groups of `nodes` (any order), replacing the contents.
    pub fn build(&mut self, nodes: &[FreeNode]) {
        self.groups.clear();
        self.groups
            .extend(nodes.iter().map(|&(_, f, d)| (d.to_bits(), f, 1)));
        self.groups.sort_unstable();
        self.groups.dedup_by(|b, a| {
            let same = (a.0, a.1) == (b.0, b.1);
            if same {
                a.2 += b.2;
            }
            same
        });
        self.groups.retain(|g| g.1 > 0);
    }

    /// Copies `other`'s groups into this one.
    pub fn copy_from(&mut self, other: &NodeGroups) {
        self.groups.clear();
        self.groups.extend_from_slice(&other.groups);
    }

    /// One more node with `free` processors and `demand` (none counted when `free` is 0).
    pub fn add(&mut self, demand: f64, free: u32) {
        if free == 0 {
            return;
        }
        let key = (demand.to_bits(), free);
        match self.groups.binary_search_by(|g| (g.0, g.1).cmp(&key)) {
            Ok(i) => self.groups[i].2 += 1,
            Err(i) => self.groups.insert(i, (key.0, key.1, 1)),
        }
    }

    /// One node fewer with `free` processors and `demand` (one that [`NodeGroups::add`]
    /// counted; nothing when `free` is 0).
    pub fn remove(&mut self, demand: f64, free: u32) {
        if free == 0 {
            return;
        }
        let key = (demand.to_bits(), free);
        if let Ok(i) = self.groups.binary_search_by(|g| (g.0, g.1).cmp(&key)) {
            self.groups[i].2 -= 1;
            if self.groups[i].2 == 0 {
                self.groups.remove(i);
            }
        } else {
            debug_assert!(false, "removing a node not counted");
        }
    }

    /// The factor a complete LessConsume run gives `need` processes of `per_proc` each on
    /// nodes of `bandwidth` (see the module's documentation), or `None` when fewer than `need`
    /// processors are free. `slots`: a buffer.
    pub fn factor(
        &self,
        need: u32,
        per_proc: f64,
        bandwidth: f64,
        slots: &mut Vec<(f64, u32)>,
    ) -> Option<f64> {
        let total: u64 = self
            .groups
            .iter()
            .map(|&(_, f, n)| u64::from(f) * u64::from(n))
            .sum();
        if total < u64::from(need) || need == 0 {
            return (need == 0).then_some(1.0);
        }
        slots.clear();
        for &(d, f, n) in &self.groups {
            let base = f64::from_bits(d);
            slots.extend((1..=f).map(|k| (base + f64::from(k) * per_proc, n)));
        }
        slots.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut left = u64::from(need);
        for &(x, n) in slots.iter() {
            if u64::from(n) >= left {
                return Some(1.0 + node_penalty(&[(x, bandwidth)]));
            }
            left -= u64::from(n);
        }
        unreachable!("the slots hold at least `need` processors")
    }
}

#[cfg(test)]
mod tests;
