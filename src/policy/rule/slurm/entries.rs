//! The queue as Slurm 22.05 builds it when jobs were submitted to several partitions
//! (`sbatch -p short,batch`): one entry per job and partition (job_scheduler.c
//! `build_job_queue`, 616-643: `_job_queue_append` for each partition of `part_ptr_list`,
//! with that partition's priority from `priority_array`), sorted as `sort_job_queue2` sorts
//! them (the partition's `PriorityTier`, then the entry's priority, then arrival). Both loops
//! walk these entries; a job started through one is skipped in the others ("started in other
//! partition": `_schedule` 1473-1476, `_attempt_backfill` 2124).

use crate::policy::order::{priority_in_part, tier_key};
use crate::sim::Ctx;
use crate::slurm::state::State;

/// The entries (job, partition) of the jobs `queue` (in queue order) on a cluster where some
/// job was submitted to several partitions, in Slurm's order; `None` on a pool or a cluster
/// where none was (then each job is one entry, in its own partition, in queue order).
pub(super) fn entries(c: &Ctx<'_>, s: &State, queue: &[usize]) -> Option<Vec<(usize, u32)>> {
    let cv = c.cluster().filter(|cv| cv.has_lists())?;
    let l = cv.layout();
    // (key, position in the queue, job, partition); pushed in queue order, then list order.
    let mut keyed: Vec<(f64, usize, usize, u32)> = Vec::with_capacity(queue.len());
    for (pos, &j) in queue.iter().enumerate() {
        let own = cv.need(j).part;
        for &p in cv.parts(j) {
            let key = tier_key(l, p, priority_in(s, l, j, own, p));
            keyed.push((key, pos, j, p));
        }
    }
    // Stable: equal keys keep the queue's order (arrival), a job's own entries their list's.
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    Some(keyed.into_iter().map(|(_, _, j, p)| (j, p)).collect())
}

/// Job `j`'s priority in partition `p` (`own`: its own partition): the model keeps the job's
/// priority in its own partition, truncated ([`priority_in_part`]).
fn priority_in(s: &State, l: &crate::cluster::Layout, j: usize, own: u32, p: u32) -> f64 {
    let prio = s.priority(j);
    match s.mf.as_ref() {
        Some(mf) => priority_in_part(l, &mf.params, prio, own, p),
        None => prio,
    }
}
