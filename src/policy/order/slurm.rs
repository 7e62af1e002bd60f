//! Slurm's job priority (priority/multifactor) as a queue order: highest priority first, ties
//! by arrival (Slurm sorts by priority, then job id). The priorities are the plugin's
//! (`crate::slurm::priority`), shared with the `slurm` start rule, which prepares them.
//!
//! At each pass: the plugin's periods up to now run, then the jobs that ended now add their
//! last usage, then the jobs submitted now get their first priority (on a cluster, from their
//! shape: nodes, GPUs and memory as they ask them). A period at now runs first: the jobs that
//! end now count as running in it, and the pass sees its priorities. With `calc_phase`
//! written with a fraction the periods fall late in their second: one at now runs at the next
//! pass, after this second's ends and this pass (docs/slurm.md, "The phase of the periods").

use super::QueueOrder;
use crate::sim::{Ctx, Happening};
use crate::slurm::state::Shared;

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
        let Some(mf) = s.mf.as_mut() else {
            return;
        };
        let early = !mf.params.calc_late;
        mf.advance(now, early);
        for h in c.happenings() {
            match *h {
                Happening::Finished { job, .. } | Happening::Preempted(job) => mf.ended(job, now),
                Happening::Submitted(_) | Happening::PlanExtended { .. } => {}
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
                }
                mf.submitted(j, now);
            }
        }
    }

    fn key(&mut self, _c: &Ctx<'_>, job: usize) -> f64 {
        -self.shared.borrow().priority(job)
    }

    fn started(&mut self, c: &Ctx<'_>, jobs: &[usize]) {
        let mut s = self.shared.borrow_mut();
        if let Some(mf) = s.mf.as_mut() {
            for &j in jobs {
                mf.started(j, c.start_of(j));
            }
        }
    }
}
