//! The nodes a job's node limit already counts, weighed first (Slurm 22.05
//! `src/slurmctld/node_scheduler.c`, `_build_node_list` lines 3851-3897 with
//! `_find_grp_node_bitmap` lines 1009-1055): when `select_nodes` starts a job (the main
//! scheduler, or the backfill's `_start_job` for a job its will-run test starts now) whose QOS
//! or association has a node limit, the nodes the limit's running jobs hold get the lower
//! weight, so cons_tres's choice (`sched_weight`, lowest first) takes them before a node the
//! limit would count anew (`_get_unique_job_node_cnt`).
//!
//! - The nodes: with `AccountingStorageEnforce` naming `limits`, those of the job's QOS's
//!   running jobs when the QOS has a `GrpTRES` node limit, and of its user's running jobs in
//!   the QOS when it has a `MaxTRESPU` one; unless the QOS has the `GrpTRES` one, those of
//!   the running jobs of the first association of the job's walk (its own, then its parents)
//!   with a `GrpTRES` node limit. The limit need not bind: a node limit set is enough.
//! - The weights: each node set (nodes of one configuration in the partition) that holds
//!   some of those nodes and some others is split, the others' weight one more
//!   (`node_weight++`). A set holding none keeps its weight: the line meant to raise it
//!   raises the weight of the unused record past the last (`node_set_ptr[node_set_inx]`, not
//!   `[i]`), so it ties with the preferred nodes of a set of the same weight.
//! - Not for the backfill's will-run test (`_try_sched` calls `select_g_job_test` with the
//!   weights the last `select_nodes` synced, `_sync_node_weight`): its plan for a later start
//!   keeps the configured weights.

use crate::cluster::Layout;

/// What `_build_node_list` adds to each node's weight for a job of partition `part` whose
/// limit counts the nodes `held` (sorted): one on each of the partition's nodes outside
/// `held` in a node set holding some of `held`; `None` when it adds nothing.
pub(super) fn weights(l: &Layout, part: u32, held: &[u32]) -> Option<Vec<u32>> {
    if held.is_empty() {
        return None;
    }
    let members = &l.parts.get(part as usize)?.members;
    // A node set: the partition's nodes of one configuration.
    let config = |i: usize| {
        let n = &l.nodes[i];
        (n.cpus, n.mem_mb, n.gpus, n.weight)
    };
    let is_held = |i: usize| held.binary_search(&(i as u32)).is_ok();
    let mut more = vec![0; l.nodes.len()];
    let mut any = false;
    for &m in members {
        let i = m as usize;
        if is_held(i) {
            continue;
        }
        let set_holds = members
            .iter()
            .any(|&o| is_held(o as usize) && config(o as usize) == config(i));
        if set_holds {
            more[i] = 1;
            any = true;
        }
    }
    any.then_some(more)
}

#[cfg(test)]
mod tests {
    use super::super::fit::best_fit_weighted;
    use super::*;
    use crate::cluster::{Cluster, Free, Need, NodeGroup, Partition, Share};

    /// One partition over the groups' nodes, in order.
    fn layout(groups: Vec<NodeGroup>) -> Layout {
        let procs = groups.iter().map(|g| g.names.len() as u32 * g.cpus).sum();
        let mut c = Cluster::single_pool(procs);
        let names = groups.iter().flat_map(|g| g.names.clone()).collect();
        c.groups = groups;
        c.partitions = vec![Partition::new("p", names)];
        Layout::new(&c).unwrap()
    }

    /// Four nodes of 8 cores and `mem` MB, one group.
    fn four(mem: u64) -> Layout {
        layout(vec![NodeGroup::new(
            ["n1", "n2", "n3", "n4"].map(String::from).to_vec(),
            8,
            mem,
        )])
    }

    /// Worked by hand: four nodes of one configuration, the limit's jobs on n1 and n3: n2 and n4
    /// weigh one more. None held, or all four: nothing changes.
    #[test]
    fn the_others_of_a_set_weigh_one_more() {
        let l = four(1000);
        assert_eq!(weights(&l, 0, &[0, 2]), Some(vec![0, 1, 0, 1]));
        assert_eq!(weights(&l, 0, &[]), None);
        assert_eq!(weights(&l, 0, &[0, 1, 2, 3]), None);
    }

    /// Worked by hand, assoclimits-11/run1 at 195 s (both runs alike): bio (`GrpTRES=node=3`)
    /// holds n1 to n3; free cores 4, 0, 0, 2 (n2 and n3 full). erin's job 67 (bio, one node,
    /// 2 cores): cons_tres's best fit alone takes n4 (2 free, the tighter), a fourth node for
    /// bio, over its limit; with n4 one weight more n1 comes first (Slurm started 67 and then
    /// 70 on n1 in the backfill cycle of 20:57:59).
    #[test]
    fn the_held_node_comes_before_the_tighter_fit() {
        let l = four(16000);
        let mut f = Free::all(&l);
        for (node, cpus) in [(0, 4), (1, 8), (2, 8), (3, 6)] {
            let used = Share {
                node,
                cpus,
                mem_mb: 0,
                gpus: 0,
                whole: false,
            };
            f.take(&l, &[used]);
        }
        let need = Need {
            cpus: 2,
            nodes: 1,
            ..Need::default()
        };
        let on = |more: Option<&[u32]>| {
            let a = best_fit_weighted(&l, &f, &need, more).unwrap();
            a.iter().map(|s| s.node).collect::<Vec<_>>()
        };
        assert_eq!(on(None), vec![3]);
        let more = weights(&l, 0, &[0, 1, 2]).unwrap();
        assert_eq!(more, vec![0, 0, 0, 1]);
        assert_eq!(on(Some(&more)), vec![0]);
    }

    /// Worked by hand (the set the source leaves as it is): nodes a, b of 8 cores and c, d of
    /// 16, the limit's job on a: b weighs one more; c and d, a set holding none, keep theirs.
    #[test]
    fn a_set_holding_none_keeps_its_weight() {
        let l = layout(vec![
            NodeGroup::new(vec!["a".into(), "b".into()], 8, 1000),
            NodeGroup::new(vec!["c".into(), "d".into()], 16, 1000),
        ]);
        assert_eq!(weights(&l, 0, &[0]), Some(vec![0, 1, 0, 0]));
    }
}
