//! EASY's backfilling in arrival order without reading the queue whole: the waiting jobs
//! grouped by processor count, so a pass costs about O(started x sizes) instead of a read of
//! every job behind the blocked head. A queue of a million jobs submitted at one instant
//! otherwise reads again, at every pass, the wide and the long jobs left at its front.
//!
//! Why the next job found is the scan's: every waiting job before the blocked head started
//! (the queue is in arrival order), and a start only lowers the free and the extra
//! processors, so a job the scan passed over fails until the pass ends. The scan's next start
//! is thus the earliest-arrived waiting job that starts now: one needing at most the free
//! processors that ends by the shadow time or needs at most the extra processors. Per
//! processor count that is the group's first job (at most the extra processors) or its first
//! job with an estimate short enough (a tree of minimum estimates over the group); the
//! earliest over the groups up to the free processors is the one. The start itself is
//! [`backfill_one`]'s.
//!
//! Valid only while estimates do not change once a job waits (every predictor but `last`),
//! and no job comes back to the queue (a preempted job drops the index). Used from a queue of
//! [`BackfillIndex::LONG`] jobs on; arrivals are taken from the back of the waiting list then;
//! jobs started meanwhile (by passes of a shorter queue, or a replay's recorded starts) are
//! dropped when found.
#![warn(missing_docs)]

use crate::policy::blocks::shadow::{backfill_one, Shadow};
use crate::policy::queue::Queue;
use crate::sim::{Ctx, Happening, SimError};
use crate::Time;

/// A job no longer in a group.
const GONE: Time = Time::MAX;

/// The waiting jobs of one processor count in arrival order, with a tree of their minimum
/// estimates.
#[derive(Debug, Default)]
struct Group {
    jobs: Vec<usize>,
    /// Node 1 is the root; position `i` of `jobs` is leaf `leaves + i` (estimate, or [`GONE`]).
    tree: Vec<Time>,
    leaves: usize,
    /// Every job before this position is gone.
    lo: usize,
}

impl Group {
    fn push(&mut self, j: usize, est: Time) {
        if self.jobs.len() == self.leaves {
            self.leaves = (2 * self.leaves).max(16);
            let mut tree = vec![GONE; 2 * self.leaves];
            let old = self.tree.len() / 2;
            tree[self.leaves..self.leaves + old].copy_from_slice(&self.tree[old..]);
            for i in (1..self.leaves).rev() {
                tree[i] = tree[2 * i].min(tree[2 * i + 1]);
            }
            self.tree = tree;
        }
        self.jobs.push(j);
        self.set(self.jobs.len() - 1, est);
    }

    fn set(&mut self, pos: usize, est: Time) {
        let mut i = self.leaves + pos;
        self.tree[i] = est;
        while i > 1 {
            i /= 2;
            self.tree[i] = self.tree[2 * i].min(self.tree[2 * i + 1]);
        }
    }

    fn remove(&mut self, pos: usize) {
        self.set(pos, GONE);
        while self.lo < self.jobs.len() && self.tree[self.leaves + self.lo] == GONE {
            self.lo += 1;
        }
    }

    /// Every job of the group is gone.
    fn is_empty(&self) -> bool {
        self.lo == self.jobs.len()
    }

    /// Puts back the job at `pos` (hidden by [`Group::remove`] for a pass) with its estimate.
    fn restore(&mut self, pos: usize, est: Time) {
        self.set(pos, est);
        self.lo = self.lo.min(pos);
    }

    /// The position of the first job with an estimate of at most `hold`.
    fn first_within(&self, hold: Time) -> Option<usize> {
        if self.tree.get(1).is_none_or(|&m| m > hold) {
            return None;
        }
        let mut i = 1;
        while i < self.leaves {
            i = if self.tree[2 * i] <= hold {
                2 * i
            } else {
                2 * i + 1
            };
        }
        Some(i - self.leaves)
    }
}

/// The waiting jobs grouped by processor count.
#[derive(Debug, Default)]
pub struct BackfillIndex {
    /// Per processor count.
    groups: Vec<Group>,
    /// The processor counts of the groups, ascending.
    sizes: Vec<u32>,
    /// Per job: its position in its group.
    pos: Vec<u32>,
    /// Every waiting job below this index has been taken in.
    taken: usize,
    /// The jobs hidden for the current pass (the head, the candidates that did not start),
    /// each as (processor count, position, estimate): put back when it ends.
    hidden: Vec<(u32, u32, Time)>,
}

impl BackfillIndex {
    /// The queue length from which a pass goes through the index: a shorter queue costs the
    /// plain scan less than the index's upkeep.
    pub const LONG: usize = 1024;

    /// [`BackfillIndex::LONG`] on a cluster, where a candidate the scan reads costs more: the
    /// GPU cluster's queue of hundreds of jobs goes through the index, LANL-CM5's on 32 nodes
    /// (mostly fewer than 22 waiting) is scanned, cheaper there than the index's upkeep.
    pub const LONG_ON_CLUSTER: usize = 64;

    /// True when a pass over `c`'s waiting jobs goes through the index.
    pub fn long(c: &Ctx<'_>) -> bool {
        let long = if c.cluster().is_some() {
            Self::LONG_ON_CLUSTER
        } else {
            Self::LONG
        };
        c.waiting().len() >= long
    }

    /// True while the index can serve `queue`'s passes: the queue is in arrival order and no
    /// job came back to it since the previous pass.
    pub fn holds(c: &Ctx<'_>, queue: &Queue<'_>) -> bool {
        queue.in_arrival_order()
            && !c
                .happenings()
                .iter()
                .any(|h| matches!(h, Happening::Preempted(_)))
    }

    /// Takes in the arrivals since the last update (the waiting jobs from index `taken` on).
    /// Jobs started meanwhile stay in it until found.
    pub fn update(&mut self, c: &Ctx<'_>) {
        if self.pos.len() < c.job_count() {
            self.pos.resize(c.job_count(), 0);
        }
        for j in c.waiting().from(self.taken) {
            let procs = c.job(j).procs;
            let p = procs as usize;
            if self.groups.len() <= p {
                self.groups.resize_with(p + 1, Group::default);
            }
            let g = &mut self.groups[p];
            if g.jobs.is_empty() {
                let at = self.sizes.partition_point(|&s| s < procs);
                self.sizes.insert(at, procs);
            }
            self.pos[j] = g.jobs.len() as u32;
            g.push(j, c.estimate(j).max(0));
            self.taken = j + 1;
        }
    }

    /// Drops job `j` (it started).
    pub fn remove(&mut self, c: &Ctx<'_>, j: usize) {
        let pos = self.pos[j] as usize;
        if let Some(g) = self.groups.get_mut(c.job(j).procs as usize) {
            if g.jobs.get(pos) == Some(&j) {
                g.remove(pos);
            }
        }
    }

    /// Empties the groups whose jobs are all gone and drops their processor counts, so that
    /// [`BackfillIndex::next`] reads only the counts of waiting jobs (a long run sees
    /// thousands of counts, a queue holds a few hundred at a time).
    fn drop_empty(&mut self) {
        let groups = &mut self.groups;
        self.sizes.retain(|&p| {
            let g = &mut groups[p as usize];
            if g.is_empty() {
                *g = Group::default();
            }
            !g.jobs.is_empty()
        });
    }

    /// EASY's backfilling step over the waiting jobs after the blocked `head` in arrival
    /// order, with the starts of [`crate::policy::blocks::shadow::backfill_queue`] over the
    /// queue from there. A candidate that does not start (on a cluster: its nodes are not
    /// free) is hidden until the pass ends, as the scan passes it once; so is the head.
    pub fn backfill(
        &mut self,
        c: &mut Ctx<'_>,
        head: usize,
        mut shadow: Shadow,
    ) -> Result<(), SimError> {
        let hold = shadow.time.saturating_sub(c.now());
        self.drop_empty();
        self.hide(c, head);
        let mut out = Ok(());
        while c.free() > 0 {
            let Some(j) = self.next(c.free(), shadow.extra_bound(), hold) else {
                break;
            };
            if !c.waiting().contains(j) {
                self.remove(c, j);
                continue;
            }
            if let Err(e) = backfill_one(c, &mut shadow, j) {
                out = Err(e);
                break;
            }
            if c.waiting().contains(j) {
                self.hide(c, j);
            } else {
                self.remove(c, j);
            }
        }
        for (p, pos, est) in self.hidden.drain(..) {
            self.groups[p as usize].restore(pos as usize, est);
        }
        out
    }

    /// Hides the waiting job `j` until the pass ends.
    fn hide(&mut self, c: &Ctx<'_>, j: usize) {
        let p = c.job(j).procs;
        let pos = self.pos[j];
        if let Some(g) = self.groups.get_mut(p as usize) {
            let leaf = g.leaves + pos as usize;
            if g.jobs.get(pos as usize) == Some(&j) && g.tree[leaf] != GONE {
                self.hidden.push((p, pos, g.tree[leaf]));
                g.remove(pos as usize);
            }
        }
    }

    /// The earliest-arrived job needing at most `free` processors that either needs at most
    /// `extra` or has an estimate of at most `hold` (on a cluster, those that may start: the
    /// nodes decide).
    fn next(&self, free: u32, extra: u32, hold: Time) -> Option<usize> {
        let mut best: Option<usize> = None;
        for &p in self.sizes.iter().take_while(|&&p| p <= free) {
            let g = &self.groups[p as usize];
            let Some(&first) = g.jobs.get(g.lo) else {
                continue;
            };
            if best.is_some_and(|b| b < first) {
                continue;
            }
            let found = if p <= extra {
                Some(g.lo)
            } else {
                g.first_within(hold)
            };
            if let Some(at) = found {
                let j = g.jobs[at];
                if best.is_none_or(|b| j < b) {
                    best = Some(j);
                }
            }
        }
        best
    }
}
