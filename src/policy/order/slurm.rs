//! Slurm's job priority (priority/multifactor) as a queue order: on a cluster the jobs of the
//! partition with the highest `PriorityTier` first, then highest priority first, ties by
//! arrival (job_scheduler.c `sort_job_queue2`: tier, priority, job id; both the main
//! scheduler and backfill sort so). The priorities are the plugin's
//! (`crate::slurm::priority`), shared with the `slurm` start rule, which prepares them.
//!
//! At each pass: the plugin's periods up to now run, then the jobs that ended now add their
//! last usage, then the jobs submitted now get their first priority (on a cluster, from their
//! shape: nodes, GPUs and memory as they ask them, and their partition's factor). A period at now runs first: the jobs that
//! end now count as running in it, and the pass sees its priorities. With `calc_phase`
//! written with a fraction the periods fall late in their second: one at now runs at the next
//! pass, after this second's ends and this pass (docs/slurm-runs.md, "The phase of the periods").
//! With `calc_early` the side is given per period: a period at one of its seconds runs first,
//! any other late. A replay given the controller's debug log may tell a job's own end's side
//! of the period of its second (`Multifactor::end_side`), which then wins over the period's.

use super::QueueOrder;
use crate::cluster::Layout;
use crate::sim::{Ctx, Happening};
use crate::slurm::billing;
use crate::slurm::params::SlurmParams;
use crate::slurm::state::{Shared, State};
use crate::slurm::Size;

/// The priority order.
pub struct SlurmPriority {
    shared: Shared,
}

impl SlurmPriority {
    /// The order over the shared state.
    pub fn new(shared: Shared) -> Self {
        Self { shared }
    }
}

impl QueueOrder for SlurmPriority {
    fn begin(&mut self, c: &mut Ctx<'_>) {
        let now = c.now();
        let mut s = self.shared.borrow_mut();
        if let Some(cv) = c.cluster() {
            s.size_from_cluster(|| Size::of_layout(cv.layout()));
        }
        let Some(mf) = s.mf.as_mut() else {
            return;
        };
        let (early, bf_early) = mf.params.period_sides(now);
        // A period between this second's backfill cycle and its main scheduler: early for
        // the main scheduler, it runs here as any early one, and the cycle, which came before
        // it, walks the queue in the order of the priorities before it; late, the rule runs
        // it in its pass, after the main scheduler and before the cycle.
        let split = early != bf_early && mf.next_period() == now;
        let mut before: Vec<(f64, usize)> = Vec::new();
        if split && early {
            let submitted_now = |j: usize| c.job(j).submit == now;
            before.extend(
                c.waiting()
                    .iter()
                    .filter(|&j| !submitted_now(j))
                    .map(|j| (key_of(c, j, mf.priority(j)), j)),
            );
        }
        // The jobs that ended now, each on its side of a period of this second: the loops'
        // (`early`), or the one a replay's debug log tells (`Multifactor::end_side`).
        let ended = c.happenings().iter().filter_map(|h| match *h {
            Happening::Finished { job, .. } | Happening::Preempted(job) => Some(job),
            Happening::Submitted(_) | Happening::PlanExtended { .. } => None,
        });
        let period_now = mf.period_at(now);
        let first: Vec<usize> = match early && period_now {
            true => (ended.clone())
                .filter(|&j| mf.end_side(j, now) == Some(false))
                .collect(),
            false => Vec::new(),
        };
        if !first.is_empty() {
            mf.advance(now, false);
            for j in first {
                mf.ended(j, now);
            }
        }
        mf.advance(now, early);
        for j in ended {
            if !early && period_now && mf.end_side(j, now) == Some(true) {
                mf.ends_after_period(j, now);
            } else {
                mf.ended(j, now);
            }
        }
        let cluster = c.cluster();
        for h in c.happenings() {
            if let Happening::Submitted(j) = *h {
                if let Some(cv) = cluster {
                    let n = cv.need(j);
                    let nodes = if n.nodes > 0 {
                        n.nodes
                    } else {
                        // As few nodes as its cores fit on (the cluster's largest node).
                        let most = cv.layout().nodes.iter().map(|x| x.cpus).max().unwrap_or(1);
                        n.cpus.div_ceil(most.max(1))
                    };
                    let mem = if n.mem_per_node_mb > 0 {
                        n.mem_per_node_mb * u64::from(nodes)
                    } else {
                        n.mem_per_cpu_mb * u64::from(n.cpus)
                    };
                    mf.shape(j, nodes, n.gpus, mem);
                    let f = partition_factor(cv.layout(), n.part as usize, &mf.params);
                    mf.partition_factor(j, f);
                }
                mf.submitted(j, now);
            }
        }
        if split && early {
            for h in c.happenings() {
                if let Happening::Submitted(j) = *h {
                    before.push((key_of(c, j, mf.priority(j)), j));
                }
            }
            before.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
        let order = early.then(|| before.into_iter().map(|(_, j)| j).collect());
        s.split_period = split.then_some((now, order));
    }

    fn key(&mut self, c: &Ctx<'_>, job: usize) -> f64 {
        priority_key(c, &self.shared.borrow(), job)
    }

    fn started(&mut self, c: &Ctx<'_>, jobs: &[usize]) {
        let mut s = self.shared.borrow_mut();
        if let Some(mf) = s.mf.as_mut() {
            let cluster = c.cluster();
            // Billing from the partition's TRESBillingWeights, once, at the start (the
            // allocation's TRES; `calc_job_billable_tres`).
            let weighted =
                cluster.filter(|cv| cv.layout().parts.iter().any(|p| p.billing.is_some()));
            let max_tres = mf.params.flags.iter().any(|f| f == "MAX_TRES");
            for &j in jobs {
                if let Some(cv) = weighted {
                    let alloc = cv.alloc(j);
                    let part = billing::ran_in(cv.layout(), cv.parts(j), alloc);
                    if let Some(b) = billing::weighted(cv.layout(), part, alloc, max_tres) {
                        mf.set_billing(j, b);
                    }
                }
                mf.started(j, c.start_of(j));
            }
        }
    }
}

/// Job `job`'s place in the order, smaller first: its partition's `PriorityTier`, then its
/// priority. A priority is below 2^32 (a `uint32_t`): tier · 2^32 + priority orders by tier,
/// then priority, exactly in an f64.
pub(crate) fn priority_key(c: &Ctx<'_>, s: &State, job: usize) -> f64 {
    key_of(c, job, s.priority(job))
}

/// [`priority_key`] of a job of priority `priority`.
fn key_of(c: &Ctx<'_>, job: usize, priority: f64) -> f64 {
    match c.cluster() {
        Some(cv) => tier_key(cv.layout(), cv.need(job).part, priority),
        None => -priority,
    }
}

/// The queue's key of an entry of priority `priority` in partition `part` (`sort_job_queue2`:
/// the partition's `PriorityTier` first, then the priority; smaller first).
pub(crate) fn tier_key(l: &Layout, part: u32, priority: f64) -> f64 {
    let tier = l.parts[part as usize].priority_tier;
    -(f64::from(tier) * 4_294_967_296.0 + priority)
}

/// The partition factor of a job in partition `part` (priority_multifactor.c: the partition's
/// `norm_priority`, its `PriorityJobFactor` over `part_max_priority`, the largest of every
/// partition's and at least 1; `NO_NORMAL_PART`: the factor itself). The default partition's
/// factor is the `PriorityJobFactor` key (a slurm.conf sets it to that partition's; a spec may
/// change it).
pub(crate) fn partition_factor(l: &Layout, part: usize, p: &SlurmParams) -> f64 {
    let parts = &l.parts;
    let factor = |i: usize| {
        if i == l.default_part {
            p.partition_job_factor
        } else {
            f64::from(parts[i].priority_job_factor)
        }
    };
    let own = factor(part);
    if own <= 0.0 {
        return 0.0;
    }
    if p.flags
        .iter()
        .any(|f| f == "NO_NORMAL_PART" || f == "NO_NORMAL_ALL")
    {
        return own;
    }
    let max = (0..parts.len()).map(factor).fold(1.0, f64::max);
    own / max
}

/// A job's priority in partition `part`, from `prio`, its priority in its own partition `own`
/// (`priority_array`, priority_multifactor.c 603-670 of 22.05.8: the job's factors with
/// partition `part`'s factor in place of its own partition's, at least 1, truncated). The
/// partition terms are whole for whole weights (the committed runs' 10000 over factors 1, 2
/// and 4), else this may be 1 off. Left out: a per-partition TRES factor (`_get_tres_factors`
/// with the partition's `TRESBillingWeights`).
pub(crate) fn priority_in_part(l: &Layout, p: &SlurmParams, prio: f64, own: u32, part: u32) -> f64 {
    if part == own || p.weight_part <= 0.0 {
        return prio;
    }
    let w = p.weight_part;
    let f = |q: u32| partition_factor(l, q as usize, p);
    (prio - w * f(own) + w * f(part)).max(1.0).trunc()
}
