//! Conservative backfilling on a cluster's nodes: at every pass every waiting job, in queue
//! order, gets the earliest start at which an allocation is free over its whole estimated run,
//! given the running jobs' planned ends and the reservations of the jobs before it; the jobs
//! whose start is now start on that allocation. The profile is a list of instants, each with
//! what is free on every node from it to the next (docs/cluster-model.md).
//!
//! Rebuilt at every pass: in arrival order a reservation then never moves later, except when a
//! running job outlives its planned end; this is the equivalent of the single pool's kept
//! reservations that the cluster model documents.

use crate::cluster::Alloc;
use crate::policy::blocks::node_plan::NodePlan;
use crate::sim::{Ctx, SimError, StartReason};
use crate::Time;

/// One pass of conservative backfilling on a cluster over `queue` (the waiting jobs in queue
/// order).
pub fn pass(c: &mut Ctx<'_>, queue: &[usize]) -> Result<(), SimError> {
    let Some(mut plan) = NodePlan::new(c) else {
        return Ok(());
    };
    let Some(cv) = c.cluster() else {
        return Ok(());
    };
    let now = c.now();
    // (job, planned start, allocation, reason when it starts now).
    let mut planned: Vec<(usize, Time, Alloc, StartReason)> = Vec::new();
    let mut earlier_waits = false;
    for &j in queue {
        let Some((t, a)) = plan.place_job(&cv, j, c.estimate(j)) else {
            continue;
        };
        let why = if earlier_waits {
            StartReason::Backfilled
        } else if c.job(j).submit == now || c.reserved_at(j).is_none() {
            // A job planned at no earlier pass (a replay's one pass: `crate::replay`).
            StartReason::Head
        } else {
            StartReason::Reserved
        };
        earlier_waits |= t > now;
        planned.push((j, t, a, why));
    }
    for (j, t, a, why) in planned {
        if t > now {
            c.reserve(j, t);
            continue;
        }
        let end = now + c.estimate(j);
        c.start_on(j, Some(why), a, Some(end))?;
    }
    Ok(())
}
