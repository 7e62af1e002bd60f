//! The main scheduler (job_scheduler.c `_schedule`): when it runs, what it starts, and what
//! it tells the backfill thread (`last_job_update`: a start, or a job reached after its
//! partition failed).

use super::blocked::{Blocked, Fit};
use super::{nothing_fits, prefer, SlurmSched};
use crate::policy::queue::Queue;
use crate::sim::{Ctx, Happening, SimError};
use crate::Time;

impl SlurmSched {
    /// The main scheduler: start in priority order while jobs fit; `depth` jobs looked at at
    /// most (None: the whole queue). True when the run reached a job after one had failed
    /// its partition (job_scheduler.c `_schedule`, 1623-1651 in 22.05.8: a job of a failed
    /// partition sets `last_job_update`, whether or not its reason changes to
    /// `WAIT_PRIORITY`: a change for the backfill thread, [`super::agent::Agent::change`]).
    pub(super) fn main(
        &mut self,
        c: &mut Ctx<'_>,
        queue: &mut Queue<'_>,
        depth: Option<usize>,
    ) -> Result<bool, SimError> {
        let mut i = 0;
        let mut tested = 0;
        let mut blocked = Blocked::default();
        // The run reached a job of a failed partition.
        let mut behind = false;
        if let Some(q) = self.limits.as_mut() {
            q.reset(c, &self.shared.borrow());
        }
        // Jobs submitted to several partitions: one entry per job and partition
        // (`entries.rs`); else the queue itself, each job in its own partition.
        let listed = match c.cluster().is_some_and(|cv| cv.has_lists()) {
            true => super::entries::entries(c, &self.shared.borrow(), queue.all(c)),
            false => None,
        };
        while let Some((j, part)) = entry(c, queue, listed.as_deref(), i) {
            i += 1;
            // A job started through another of its entries is passed over ("started in
            // other partition", job_scheduler.c 1473-1476).
            if !c.waiting().contains(j) {
                continue;
            }
            if depth.is_some_and(|d| tested > d) {
                break;
            }
            tested += 1;
            // A job a QOS or association limit holds is passed over and blocks nothing
            // (`acct_policy_job_runnable_pre_select`, then `select_nodes`'s
            // `ESLURM_ACCOUNTING_POLICY`, which `_schedule` does not count as its
            // partition's failure: `fail_by_part` stays false). An association's `node`
            // limit counts only the nodes it would get that the association does not hold
            // yet (`_get_unique_job_node_cnt`): held on its whole node count, it is checked
            // again on the nodes it would get.
            // Its nodes weighed as `select_nodes` weighs them for it (`prefer.rs`).
            let more = self.more_weight(c, j, part);
            // Slurm tests a job's partition for a failure before its limits
            // (`_failed_partition`, then `acct_policy_job_runnable_pre_select`): a job of a
            // failed partition, held by a limit or not, is passed over and sets
            // `last_job_update`.
            if c.cluster().is_some() && blocked.failed(part) {
                behind = true;
                continue;
            }
            if let Some(l) = self.limits.as_ref() {
                if let Some(whole) = l.held(c, j) {
                    let on = || {
                        c.cluster()
                            .and_then(|cv| blocked.peek(&cv, (j, part), more.as_deref()))
                    };
                    let held = l.held_pre(c, j).or_else(|| match on() {
                        Some(a) => l.held_post_on(c, j, Some(&a)),
                        None => Some(whole),
                    });
                    if let Some(r) = held {
                        self.reasons.held(j, r);
                        continue;
                    }
                }
            }
            let on_nodes = (c.cluster()).map(|cv| blocked.fit(&cv, (j, part), more.as_deref()));
            match on_nodes {
                Some(Fit::Skip) => continue,
                // Every partition failed (on a pool: its one): nothing more starts; the run
                // still walks the rest of the queue, and the next job is behind a blocker.
                Some(Fit::Blocked) => {
                    let within = depth.map(|d| tested <= d);
                    behind |= next_waiting(c, queue, listed.as_deref(), i, within);
                    break;
                }
                None if !c.fits(j) => {
                    let within = depth.map(|d| tested <= d);
                    behind |= next_waiting(c, queue, listed.as_deref(), i, within);
                    break;
                }
                Some(Fit::On(a)) => {
                    let r = c.reason_word("main")?;
                    c.start_on(j, Some(r), a, None)?;
                }
                None => {
                    let r = c.reason_word("main")?;
                    c.start_as(j, Some(r), None, None)?;
                }
            }
            if let Some(q) = self.limits.as_mut() {
                q.started(c, j);
            }
        }
        Ok(behind)
    }

    /// What `select_nodes` adds to each node's weight for job `j` in partition `part`: the
    /// nodes its QOS's or association's node limit counts weighed first
    /// ([`prefer::weights`]); `None`: nothing.
    pub(super) fn more_weight(&self, c: &Ctx<'_>, j: usize, part: u32) -> Option<Vec<u32>> {
        let held = self.limits.as_ref()?.grp_nodes(c, j);
        let cv = c.cluster()?;
        prefer::weights(cv.layout(), part, &held)
    }

    /// Whether the main scheduler runs in this pass (`full`: its full-queue run is due).
    /// Slurm runs it at a job's end (`_slurm_rpc_epilog_complete` calls `schedule` at once),
    /// every `sched_interval` on the whole queue, and for submissions only from the
    /// controller's background loop, at least `batch_sched_delay` after its last run
    /// (`_slurm_rpc_submit_batch_job` calls `queue_job_scheduler`; `_slurmctld_background`
    /// runs `schedule` once `now - last_sched_time >= batch_sched_delay`): a batch job is
    /// never started at its submission (`job_allocate` with `allocate == 0` only tests it).
    /// Not at a pass for a backfill cycle, a priority period or a plan's expiry.
    pub(super) fn main_runs(&mut self, c: &Ctx<'_>, full: bool) -> bool {
        let now = c.now();
        let mut ended = false;
        for h in c.happenings() {
            match h {
                Happening::Submitted(_) => self.queued = true,
                Happening::Finished { .. } | Happening::Preempted(_) => ended = true,
                Happening::PlanExtended { .. } => {}
            }
        }
        let queued_run = self.queued && now - self.last_sched >= self.batch_delay;
        if full || queued_run {
            self.last_sched = now;
            self.queued = false;
        }
        full || queued_run || ended
    }

    /// Whether the main scheduler's full-queue run is due at `now` (`_slurmctld_background`:
    /// `now - last_full_sched_time >= sched_interval`, from the thread's start). The runs fall
    /// on `sched_phase + k * sched_interval`; one this rule had no pass at (no job waited:
    /// it wakes for them while one does) started nothing, but it was the loop's last run, so
    /// a submission after it waits `batch_sched_delay` from it (so does the first
    /// submission: the loop ran long before it). A replay's decision (the pass after the
    /// history it followed) runs on the whole queue.
    pub(super) fn full_run(&mut self, now: Time) -> bool {
        let decision = std::mem::take(&mut self.decision);
        if now < self.next_full {
            return decision;
        }
        let grid = now - (now - self.sched_phase).rem_euclid(self.sched_interval);
        let full = decision || grid == now;
        self.next_full = grid + self.sched_interval;
        if !full {
            self.last_sched = self.last_sched.max(grid);
        }
        full
    }

    /// The main scheduler in a pass, when `run` (it runs and something may fit).
    pub(super) fn main_step(
        &mut self,
        c: &mut Ctx<'_>,
        queue: &mut Queue<'_>,
        run: bool,
        full: bool,
    ) -> Result<(), SimError> {
        if run {
            // The run's queue build records the limit reasons given since the last one.
            if self.build_queue(c.now()) {
                self.agent.change(c.now());
            }
            let depth = self.shared.borrow().params.default_queue_depth;
            let before = c.waiting().len();
            let behind = if nothing_fits(c) && self.limits.is_none() {
                // On a pool where no job fits the first job fails the partition and the
                // second, if the run's depth reaches it, is behind it.
                c.waiting().len() >= 2 && (full || depth >= 1)
            } else {
                self.main(c, queue, (!full).then_some(depth))?
            };
            // A start sets `last_job_update` (`_schedule`, "job initiated"), and so does a
            // job of a failed partition.
            if behind || c.waiting().len() < before {
                self.agent.change(c.now());
            }
        }
        Ok(())
    }
}

/// The main scheduler's entry at position `i`: (job, partition) from `listed` (the entries of
/// a cluster where jobs were submitted to several partitions), else the queue's job in its own
/// partition (0 on a pool).
fn entry(
    c: &Ctx<'_>,
    queue: &mut Queue<'_>,
    listed: Option<&[(usize, u32)]>,
    i: usize,
) -> Option<(usize, u32)> {
    match listed {
        Some(e) => e.get(i).copied(),
        None => {
            let j = queue.get(c, i)?;
            Some((j, c.cluster().map_or(0, |cv| cv.need(j).part)))
        }
    }
}

/// Whether the main scheduler's run reaches another waiting job after position `i` of the
/// queue (`within`: whether its depth lets it look at one more; `None`: the whole queue).
fn next_waiting(
    c: &Ctx<'_>,
    queue: &mut Queue<'_>,
    listed: Option<&[(usize, u32)]>,
    i: usize,
    within: Option<bool>,
) -> bool {
    if within == Some(false) {
        return false;
    }
    let mut k = i;
    while let Some((j, _)) = entry(c, queue, listed, k) {
        if c.waiting().contains(j) {
            return true;
        }
        k += 1;
    }
    false
}
