//! A job's billing, Slurm's billable TRES (job_mgr.c `calc_job_billable_tres`, 18991-19032 of
//! 22.05.8): what the multifactor plugin charges its fairshare usage per second
//! (priority_multifactor.c `_apply_new_usage`, 1084-1086: `real_decay = run_decay *
//! billable_tres`). Computed once, from what the job was allocated, when it starts
//! (`job_set_alloc_tres`, 9606), in the partition it runs in: with that partition's
//! `TRESBillingWeights` the weighted TRES ([`crate::cluster::billing`]; `PriorityFlags=MAX_TRES`
//! the largest weighted node TRES), without them its CPUs (`total_cpus`). docs/slurm.md,
//! "Billing".

use crate::cluster::billing::Tres;
use crate::cluster::layout::Layout;
use crate::cluster::PackedAlloc;

/// The partition of `parts` (a job's, in the order Slurm tries them) a job allocated `alloc`
/// runs in: the first that holds every node of the allocation, else the first.
pub fn ran_in(layout: &Layout, parts: &[u32], alloc: &PackedAlloc) -> u32 {
    let first = parts.first().copied().unwrap_or(0);
    if parts.len() < 2 {
        return first;
    }
    let holds = |p: u32| {
        let members = &layout.parts[p as usize].members;
        alloc.iter().all(|s| members.contains(&s.node))
    };
    parts.iter().copied().find(|&p| holds(p)).unwrap_or(first)
}

/// The TRES of allocation `alloc` (an exclusive job's share of a node: the node's CPUs,
/// Slurm's `total_cpus` of a whole node).
pub fn alloc_tres(layout: &Layout, alloc: &PackedAlloc) -> Tres {
    alloc.iter().fold(Tres::default(), |t, s| {
        let cpus = match s.whole {
            true => layout.nodes.get(s.node as usize).map_or(s.cpus, |n| n.cpus),
            false => s.cpus,
        };
        Tres {
            cpus: t.cpus + u64::from(cpus),
            mem_mb: t.mem_mb + s.mem_mb,
            nodes: t.nodes + 1,
            gpus: t.gpus + u64::from(s.gpus),
        }
    })
}

/// The billing of a job allocated `alloc` in partition `part`, when that partition has
/// `TRESBillingWeights` (`None`: the job's CPUs, which the caller counts as before).
pub fn weighted(layout: &Layout, part: u32, alloc: &PackedAlloc, max_tres: bool) -> Option<f64> {
    let w = layout.parts.get(part as usize)?.billing.as_ref()?;
    Some(w.billable(alloc_tres(layout, alloc), max_tres))
}
