//! select/cons_tres's choice of nodes for a job with a node count (`-N n`, Slurm 22.05
//! `cons_tres/job_test.c`, `_eval_nodes`; called from `cons_common/job_test.c`
//! `_select_nodes` by both the main scheduler and the backfill's will-run test):
//!
//! - the nodes that can hold the job's share (its cores, GPUs and memory spread evenly over
//!   its nodes, as the engine spreads them) are usable; they form **blocks**: runs of
//!   consecutive usable nodes of one weight;
//! - the block taken first is the lowest weight, then the first **sufficient** one (enough
//!   nodes and cores) with the fewest free cores (the tightest fit); a block that is not
//!   sufficient wins over another only with more free cores (as Slurm's test reads, even over
//!   a sufficient one);
//! - a job that needs one more node takes the block's node with the fewest free cores that
//!   holds it (best fit); else the block's nodes in order, until the job has them all; a block
//!   that runs out hands over to the next best block;
//! - for a job asking GPUs, a node's free cores count only as far as the job's tasks there
//!   use them (`cons_common/gres_select_filter.c`, `gres_select_filter_sock_core`, called by
//!   `_select_cores` for a job with a GRES request, caps the node's `avail_cpus` at its tasks
//!   per node times its cores per task): every usable node counts the job's share, so a
//!   block's cores are its usable nodes times the share, the tightest block is the one of
//!   fewest usable nodes, and within a block the best fit is its first usable node.
//!
//! Jobs without a node count (cores wherever they fit) and exclusive jobs keep the engine's
//! selection ([`Free::select`]).

use crate::cluster::{Alloc, Free, Layout, Need, Share};
use crate::sim::Jobs;

/// The job's share of each node: (cores, GPUs) on its `k`-th node.
fn share_of(need: &Need, k: u32) -> (u32, u32) {
    let n = need.nodes;
    (
        need.cpus / n + u32::from(k < need.cpus % n),
        need.gpus / n + u32::from(k < need.gpus % n),
    )
}

/// A run of consecutive usable nodes of one weight: the nodes, their free cores in all.
struct Block {
    nodes: Vec<usize>,
    cpus: u32,
    weight: u32,
}

/// cons_tres's allocation for `need` on `free`, or `None` when it does not fit.
pub(super) fn best_fit(l: &Layout, free: &Free, need: &Need) -> Option<Alloc> {
    best_fit_weighted(l, free, need, None)
}

/// [`best_fit`] with `more`: what `select_nodes` adds to each node's weight for this job
/// (`None`: nothing; [`super::prefer::weights`]).
pub(super) fn best_fit_weighted(
    l: &Layout,
    free: &Free,
    need: &Need,
    more: Option<&[u32]>,
) -> Option<Alloc> {
    if need.nodes == 0 || need.exclusive {
        // Too few cores or GPUs free in the partition: the selection would find none (its
        // first test), and its output need not be allocated (most will-run steps).
        if free.short_of(need) {
            return None;
        }
        return free.select(l, need, None);
    }
    let part = l.parts.get(need.part as usize)?;
    if !part.up || need.cpus < need.nodes {
        return None;
    }
    // The largest share (the first node's) decides whether a node is usable.
    let (c, g) = share_of(need, 0);
    let usable =
        |i: usize| free.cpus[i] >= c && free.gpus[i] >= g && free.mem_mb[i] >= need.mem_on(c);
    // The cores counted on a usable node: its free cores; for a job asking GPUs only those
    // its tasks use there (`gres_select_filter_sock_core` caps `avail_cpus` at the tasks per
    // node times the cores per task: the job's share).
    let counted = |i: usize| {
        if need.gpus > 0 {
            free.cpus[i].min(c)
        } else {
            free.cpus[i]
        }
    };
    let mut blocks: Vec<Block> = Vec::new();
    let mut prev: Option<usize> = None;
    for &n in &part.order {
        let i = n as usize;
        if !usable(i) {
            prev = None;
            continue;
        }
        let w = l.nodes[i].weight + more.and_then(|m| m.get(i)).copied().unwrap_or(0);
        match blocks.last_mut() {
            Some(b) if prev == Some(i.wrapping_sub(1)) && b.weight == w => {
                b.nodes.push(i);
                b.cpus += counted(i);
            }
            _ => blocks.push(Block {
                nodes: vec![i],
                cpus: counted(i),
                weight: w,
            }),
        }
        prev = Some(i);
    }
    let mut taken: Vec<usize> = Vec::new();
    let (mut rem_nodes, mut rem_cpus) = (need.nodes as usize, need.cpus);
    while rem_nodes > 0 {
        let mut best: Option<(usize, bool)> = None;
        for (k, b) in blocks.iter().enumerate() {
            if b.nodes.is_empty() {
                continue;
            }
            let sufficient = b.cpus >= rem_cpus && b.nodes.len() >= rem_nodes;
            let better = match best {
                None => true,
                Some((x, x_sufficient)) => {
                    let x = &blocks[x];
                    if b.weight != x.weight {
                        b.weight < x.weight
                    } else if sufficient {
                        !x_sufficient || b.cpus < x.cpus
                    } else {
                        b.cpus > x.cpus
                    }
                }
            };
            if better {
                best = Some((k, sufficient));
            }
        }
        let (k, _) = best?;
        let block = std::mem::take(&mut blocks[k].nodes);
        blocks[k].cpus = 0;
        if rem_nodes == 1 {
            // The node with the fewest cores counted that holds the rest (the first on ties).
            let one = block
                .iter()
                .copied()
                .filter(|&i| counted(i) >= rem_cpus)
                .min_by_key(|&i| counted(i));
            if let Some(i) = one {
                taken.push(i);
                break;
            }
            continue;
        }
        for i in block {
            if rem_nodes == 0 {
                break;
            }
            rem_cpus = rem_cpus.saturating_sub(share_of(need, taken.len() as u32).0);
            taken.push(i);
            rem_nodes -= 1;
        }
    }
    let mut out: Alloc = Vec::with_capacity(taken.len());
    for (k, i) in taken.into_iter().enumerate() {
        let (cpus, gpus) = share_of(need, k as u32);
        out.push(Share {
            node: i as u32,
            cpus,
            mem_mb: need.mem_on(cpus),
            gpus,
            whole: false,
        });
    }
    (out.len() == need.nodes as usize && free.holds(l, &out)).then_some(out)
}

/// The jobs with a node count (`-N`) that cons_tres's choice of nodes ([`best_fit`])
/// never places, even on the idle cluster, though the engine's selection does (a job it never
/// places is left out already, `Placement::never`): e.g. GPUs spread evenly over the job's
/// nodes, each node to hold the first node's share, in a partition with fewer such nodes.
/// Slurm refuses such a job at submission (`select_nodes` in test-only mode: "Requested node
/// configuration is not available"); the simulation leaves it out, as a job too large for the
/// cluster (before, the passes of an otherwise idle cluster went on for ever).
pub(super) fn never_selected(jobs: &Jobs<'_>) -> Vec<(usize, String)> {
    let Some(p) = jobs.placement() else {
        return Vec::new();
    };
    let left: std::collections::HashSet<usize> = p.never.iter().map(|n| n.0).collect();
    (p.needs.iter().enumerate())
        .filter(|(j, n)| n.nodes > 0 && !n.exclusive && !left.contains(j))
        .filter(|(_, n)| best_fit(&p.layout, &p.idle, n).is_none())
        .map(|(j, n)| {
            let part = p
                .layout
                .parts
                .get(n.part as usize)
                .map_or("?", |x| x.name.as_str());
            let why = format!(
                "cons_tres's choice of nodes finds no {} nodes in partition {part} for its \
                 {} cores and {} (spread evenly, each node to hold the first node's share), \
                 even with every node free: never runs (Slurm refuses it at submission: \
                 Requested node configuration is not available)",
                n.nodes,
                n.cpus,
                crate::plural::count(n.gpus, "GPU")
            );
            (j, why)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{Cluster, NodeGroup, Partition};

    /// Four nodes of 8 cores, `free` of them free on each (the rest taken by one job each).
    fn four_nodes(free: [u32; 4]) -> (Layout, Free) {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut c = Cluster::single_pool(32);
        c.groups = vec![NodeGroup::new(names.clone(), 8, 1000)];
        c.partitions = vec![Partition::new("p", names)];
        let l = Layout::new(&c).unwrap();
        let mut f = Free::all(&l);
        for (i, n) in free.iter().enumerate() {
            let used = Share {
                node: i as u32,
                cpus: 8 - n,
                mem_mb: 0,
                gpus: 0,
                whole: false,
            };
            if used.cpus > 0 {
                f.take(&l, &[used]);
            }
        }
        (l, f)
    }

    fn nodes_of(l: &Layout, f: &Free, cpus: u32, nodes: u32) -> Option<Vec<u32>> {
        gpu_nodes_of(l, f, cpus, nodes, 0)
    }

    /// The nodes cons_tres gives a job of `cpus` cores on `nodes` nodes asking `gpus` GPUs.
    fn gpu_nodes_of(l: &Layout, f: &Free, cpus: u32, nodes: u32, gpus: u32) -> Option<Vec<u32>> {
        let need = Need {
            cpus,
            nodes,
            gpus,
            ..Need::default()
        };
        best_fit(l, f, &need).map(|a| a.iter().map(|s| s.node).collect())
    }

    /// Worked by hand. Free cores 3, 8, 2, 5: a 1-node 2-core job finds every node usable, one
    /// block of 18 cores, and takes its node with the fewest free cores, c. A 1-node 4-core job
    /// can use b and d only: two blocks (c breaks the run), both sufficient, d the tighter.
    /// A 2-node job of 2 cores per node takes the one block's first two nodes, a and b.
    #[test]
    fn best_fit_by_blocks_then_fewest_free_cores() {
        let (l, f) = four_nodes([3, 8, 2, 5]);
        assert_eq!(nodes_of(&l, &f, 2, 1), Some(vec![2]));
        assert_eq!(nodes_of(&l, &f, 4, 1), Some(vec![3]));
        assert_eq!(nodes_of(&l, &f, 4, 2), Some(vec![0, 1]));
        // 3 cores on each of 2 nodes: a, b, d usable; blocks [a, b] (11 cores, sufficient)
        // and [d] (5 cores, one node: not sufficient, and fewer cores): a and b.
        assert_eq!(nodes_of(&l, &f, 6, 2), Some(vec![0, 1]));
        assert_eq!(nodes_of(&l, &f, 12, 2), None);
    }

    /// Slurm's test as it reads: a block that is not sufficient but has more free cores wins
    /// over a sufficient one. Free 2, 2, 1, 8: a 2-node job of 2 cores per node sees blocks
    /// [a, b] (4 cores, sufficient) and [d] (8 cores, one node): d is taken first, then the
    /// last node from [a, b] by best fit (a, the first of two equal).
    #[test]
    fn a_larger_insufficient_block_is_taken_first() {
        let (l, f) = four_nodes([2, 2, 1, 8]);
        assert_eq!(nodes_of(&l, &f, 4, 2), Some(vec![3, 0]));
    }

    /// Four nodes of 8 cores, 16000 MB and 2 GPUs, `free` cores and `gpus` GPUs free on each.
    fn four_gpu_nodes(free: [u32; 4], gpus: [u32; 4]) -> (Layout, Free) {
        let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut c = Cluster::single_pool(32);
        let mut g = NodeGroup::new(names.clone(), 8, 16000);
        g.gpus.insert(String::new(), 2);
        c.groups = vec![g];
        c.partitions = vec![Partition::new("p", names)];
        let l = Layout::new(&c).unwrap();
        let mut f = Free::all(&l);
        for (i, (n, g)) in free.iter().zip(gpus).enumerate() {
            let used = Share {
                node: i as u32,
                cpus: 8 - n,
                mem_mb: 0,
                gpus: 2 - g,
                whole: false,
            };
            if used.cpus > 0 || used.gpus > 0 {
                f.take(&l, &[used]);
            }
        }
        (l, f)
    }

    /// Worked by hand (`gres_select_filter_sock_core`; gpu-3/run3 at 81 s, job 27: 4 tasks on
    /// one node, one GPU, started by Slurm on n1 with 7 cores free, not on n2 with 5). Free
    /// cores 7, 5, 0, 0 and one GPU free on a and b: a 4-core job with one GPU can use a and
    /// b, one block; each counts 4 cores (its tasks), not 7 and 5, so the best fit is the
    /// first, a. The same job without a GPU counts the free cores: b, the fewest.
    #[test]
    fn a_gpu_job_counts_its_tasks_cores_on_each_node() {
        let (l, f) = four_gpu_nodes([7, 5, 0, 0], [1, 1, 0, 0]);
        assert_eq!(gpu_nodes_of(&l, &f, 4, 1, 1), Some(vec![0]));
        assert_eq!(gpu_nodes_of(&l, &f, 4, 1, 0), Some(vec![1]));
    }

    /// Worked by hand: free cores 3, 3, 0, 8, a GPU free everywhere. A 1-node 3-core job sees
    /// blocks [a, b] and [d], both sufficient. Without a GPU they hold 6 and 8 free cores:
    /// [a, b] is the tighter, and a its best fit. With one GPU each usable node counts 3:
    /// [a, b] 6, [d] 3: d is the tighter block.
    #[test]
    fn a_gpu_job_takes_the_block_of_fewest_usable_nodes() {
        let (l, f) = four_gpu_nodes([3, 3, 0, 8], [2, 2, 2, 2]);
        assert_eq!(gpu_nodes_of(&l, &f, 3, 1, 0), Some(vec![0]));
        assert_eq!(gpu_nodes_of(&l, &f, 3, 1, 1), Some(vec![3]));
    }
}
