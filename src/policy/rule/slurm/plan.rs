//! A backfill cycle's plan ([`Plan`]): the map of free processors on a pool
//! ([`super::free`]), or select/cons_tres's will-run test on a cluster's nodes
//! ([`super::nodes`]).

use super::backfill::slurm_end;
use super::free::Free;
use super::nodes::NodePlan;
use crate::cluster::Alloc;
use crate::sim::Ctx;
use crate::Time;

/// A backfill cycle's plan: a pool of processors, or a cluster's nodes.
pub(super) enum Plan {
    Pool(Free),
    Nodes(Box<NodePlan>),
}

impl Plan {
    /// The map of a cycle at `c.now()` ending at `window_end`, its times rounded to `res` on
    /// `clock`: the running jobs' planned ends.
    /// `pool`: the last cycle's map on a pool, reset here (kept for its memory).
    /// `late`: the grace after a planned end at which a job past it is guessed to end.
    /// `nodes`: the last cycle's plan on nodes, made anew here (kept for its memory).
    pub(super) fn at(
        c: &Ctx<'_>,
        (clock, res, window_end): (Time, Time, Time),
        late: Option<Time>,
        mut pool: Free,
        nodes: Option<Box<NodePlan>>,
    ) -> Plan {
        let now = c.now();
        let on_nodes = c.cluster().map(|cv| {
            let ends = c
                .running()
                .map(|(e, j)| (slurm_end(c, e, j), cv.alloc(j), c.job(j).requested));
            let mut p = match nodes {
                Some(mut p) => {
                    p.reset(now, clock, cv.free(), ends);
                    p
                }
                None => {
                    let ends = ends.map(|(e, a, r)| (e, a.to_vec(), r)).collect();
                    Box::new(NodePlan::new(now, clock, cv.free().clone(), ends))
                }
            };
            p.set(window_end, res, late);
            p
        });
        match on_nodes {
            Some(p) => Plan::Nodes(p),
            None => {
                pool.reset(now, c.free(), c.running().map(|(e, j)| (e, c.job(j).procs)));
                Plan::Pool(pool)
            }
        }
    }

    /// Whether the last job [`Plan::earliest`] looked at counts toward `bf_max_job_test`: on
    /// nodes, when it reached the will-run test ([`NodePlan::tried`]); on a pool, always.
    pub(super) fn tried(&self) -> bool {
        match self {
            Plan::Pool(_) => true,
            Plan::Nodes(p) => p.tried(),
        }
    }

    /// Whether the last job's start found is later than its will-run test's
    /// ([`NodePlan::raised`]); never on a pool.
    pub(super) fn raised(&self) -> bool {
        match self {
            Plan::Pool(_) => false,
            Plan::Nodes(p) => p.raised(),
        }
    }

    /// Job `j`'s earliest start for `len` seconds, with its nodes in partition `part` on a
    /// cluster (`more`: what `select_nodes` adds to each node's weight for a start now).
    pub(super) fn earliest(
        &mut self,
        c: &Ctx<'_>,
        (j, part): (usize, u32),
        len: Time,
        more: Option<&[u32]>,
    ) -> Option<(Time, Option<Alloc>)> {
        match self {
            Plan::Pool(free) => free.earliest(c.job(j).procs, len).map(|t| (t, None)),
            Plan::Nodes(p) => {
                let cv = c.cluster()?;
                let (t, a) = p.earliest(cv.layout(), &cv.need_in(j, part), len, more)?;
                Some((t, Some(a)))
            }
        }
    }
}
