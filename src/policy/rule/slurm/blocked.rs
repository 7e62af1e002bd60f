//! The main scheduler's pass on a cluster of several partitions (job_scheduler.c
//! `_schedule`): a job that does not fit fails its partition, whose nodes leave the pass.

use crate::cluster::{Alloc, Free, Share};
use crate::sim::ClusterView;

/// The main scheduler's pass on a cluster: the partitions in which a job did not fit, and what
/// is free less their nodes (job_scheduler.c `_schedule`: a job that does not fit adds its
/// partition to `failed_parts` and takes the partition's nodes out of `avail_node_bitmap`, so
/// no later job of that partition starts, nor a job of another partition on those nodes; the
/// pass goes on with the other partitions' jobs).
#[derive(Default)]
pub(super) struct Blocked {
    failed: Vec<u32>,
    /// What is free less the failed partitions' nodes (None: no partition failed yet).
    free: Option<Free>,
}

/// What the main scheduler does with a job on a cluster.
pub(super) enum Fit {
    /// Start it there.
    On(Alloc),
    /// Its partition failed earlier in the pass: pass it over.
    Skip,
    /// It does not fit and every partition has failed: the pass ends.
    Blocked,
}

impl Blocked {
    /// Job `j`'s allocation in partition `part` now, as [`Blocked::fit`] would choose it,
    /// without taking it (`None`: it would not fit, or the partition failed).
    /// `more`: what `select_nodes` adds to each node's weight for it.
    pub(super) fn peek(
        &self,
        cv: &ClusterView<'_>,
        (j, part): (usize, u32),
        more: Option<&[u32]>,
    ) -> Option<Alloc> {
        if self.failed.contains(&part) {
            return None;
        }
        let free = self.free.as_ref().unwrap_or(cv.free());
        super::fit::best_fit_weighted(cv.layout(), free, &cv.need_in(j, part), more)
    }

    /// Whether partition `part` failed earlier in the pass.
    pub(super) fn failed(&self, part: u32) -> bool {
        self.failed.contains(&part)
    }

    /// Job `j`'s allocation in partition `part` (a job submitted to several is tried in each,
    /// one queue entry each: `entries.rs`): cons_tres's choice on the nodes still available,
    /// or why not. A job that does not fit fails that partition; on a cluster of one
    /// partition (or once every partition failed) the pass ends.
    /// `more`: what `select_nodes` adds to each node's weight for it.
    pub(super) fn fit(
        &mut self,
        cv: &ClusterView<'_>,
        (j, part): (usize, u32),
        more: Option<&[u32]>,
    ) -> Fit {
        let l = cv.layout();
        if self.failed.contains(&part) {
            return Fit::Skip;
        }
        let need = &cv.need_in(j, part);
        let free = self.free.as_ref().unwrap_or(cv.free());
        if let Some(a) = super::fit::best_fit_weighted(l, free, need, more) {
            if let Some(f) = self.free.as_mut() {
                f.take(l, &a);
            }
            return Fit::On(a);
        }
        self.failed.push(need.part);
        if self.failed.len() >= l.parts.len() {
            return Fit::Blocked;
        }
        let mut f = self.free.take().unwrap_or_else(|| cv.free().clone());
        let gone: Alloc = l.parts[need.part as usize]
            .members
            .iter()
            .map(|&n| n as usize)
            .filter(|&n| f.cpus[n] > 0 || f.gpus[n] > 0 || f.mem_mb[n] > 0)
            .map(|n| Share {
                node: n as u32,
                cpus: f.cpus[n],
                mem_mb: f.mem_mb[n],
                gpus: f.gpus[n],
                whole: false,
            })
            .collect();
        f.take(l, &gone);
        self.free = Some(f);
        Fit::Skip
    }
}
