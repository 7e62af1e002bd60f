//! The backfill cycle (backfill.c `_attempt_backfill`): the queue walked in priority order over
//! a plan of the processors (or nodes) free in time, the running jobs ending at their planned
//! ends, each job tested started if its earliest start is now, else given a reservation in the
//! window; its times rounded down to `bf_resolution` on the log's clock.

use super::plan::Plan;
use super::space::Space;
use super::{round_down, SlurmSched, NO_LIMIT};
use crate::policy::queue::Queue;
use crate::sim::{Ctx, SimError};
use crate::Time;

impl SlurmSched {
    /// One backfill cycle at `now`; it returns what it changed for the backfill thread
    /// ([`Cycle`]).
    pub(super) fn backfill(
        &mut self,
        c: &mut Ctx<'_>,
        queue: &mut Queue<'_>,
    ) -> Result<Cycle, SimError> {
        let now = c.now();
        let (res, window, max_test, space_size, max_user, min_prio, clock, late) = {
            let s = self.shared.borrow();
            let p = &s.params;
            (
                p.bf_resolution,
                p.bf_window,
                p.bf_max_job_test,
                p.bf_node_space_size.unwrap_or(p.bf_max_job_test),
                p.bf_max_job_user,
                p.bf_min_prio_reserve,
                s.site.clock,
                p.late_end_grace(),
            )
        };
        // The planning map's end (`_attempt_backfill`'s `window_end`).
        let window_end = round_down(now + window, res, clock);
        let now_down = round_down(now, res, clock);
        let mut plan = Plan::at(
            c,
            (clock, res, window_end),
            late,
            std::mem::take(&mut self.pool_plan),
            self.node_plan.take(),
        );
        let mut jobs = std::mem::take(&mut self.cycle_queue);
        jobs.clear();
        // Jobs submitted to several partitions: one entry per job and partition, each tested
        // (started, or given a reservation in its partition) as its own (`entries.rs`;
        // `_attempt_backfill` tests each queue record, 22.05's `bf_one_resv_per_job` off by
        // default); else each job in its own partition.
        let all = queue.all(c);
        match super::entries::entries(c, &self.shared.borrow(), all) {
            Some(e) => jobs.extend(e),
            None => {
                let own = |j: usize| c.cluster().map_or(0, |cv| cv.need(j).part);
                jobs.extend(all.iter().map(|&j| (j, own(j))));
            }
        }
        // On a pool the cycle ends after the last job that could start now (one needing more
        // processors than are free now cannot: reservations and starts only take them) or has
        // no reservation yet: a job after it can neither start nor record its first planned
        // start, so planning it changes nothing.
        let upto = match &plan {
            Plan::Pool(free) => {
                let now_free = free.now();
                jobs.iter()
                    .rposition(|&(j, _)| {
                        c.waiting().contains(j)
                            && (i64::from(c.job(j).procs) <= now_free || c.reserved_at(j).is_none())
                    })
                    .map_or(0, |k| k + 1)
            }
            // On nodes likewise: a job whose partition has fewer cores or GPUs free now than
            // it asks (`Free::short_of`) cannot start in the cycle.
            Plan::Nodes(_) => c.cluster().map_or(jobs.len(), |cv| {
                jobs.iter()
                    .rposition(|&(j, part)| {
                        c.waiting().contains(j)
                            && (!cv.free().short_of(&cv.need_in(j, part))
                                || c.reserved_at(j).is_none())
                    })
                    .map_or(0, |k| k + 1)
            }),
        };
        // Kept only where the cycle can reach the map's size: each reservation makes two
        // records at most.
        let mut space = match &plan {
            Plan::Nodes(_) if 1 + 2 * upto >= space_size => c
                .cluster()
                .map(|cv| Space::new(now_down, window_end, cv.layout().nodes.len(), res)),
            _ => None,
        };
        self.per_user.clear();
        if let Some(q) = self.limits.as_mut() {
            q.reset(c, &self.shared.borrow());
        }
        let mut tested = 0;
        let mut planned: Vec<usize> = Vec::new();
        let mut raised = false;
        for &(j, part) in &jobs[..upto] {
            if tested >= max_test {
                break;
            }
            if !c.waiting().contains(j) {
                continue;
            }
            // Held before node selection (GrpJobs, MaxJobsPU, MaxWall): passed over before
            // `bf_max_job_user` counts it (`_attempt_backfill` calls
            // `acct_policy_job_runnable_pre_select` before `_job_exceeds_max_bf_param`).
            if let Some(r) = self.limits.as_ref().and_then(|q| q.held_pre(c, j)) {
                self.reasons.held(j, r);
                continue;
            }
            let v = c.job(j);
            if max_user > 0 {
                let n = self.per_user.entry(v.user).or_insert(0);
                if *n >= max_user {
                    continue;
                }
                *n += 1;
            }
            let len = v.requested.unwrap_or(NO_LIMIT).max(1);
            let procs = v.procs;
            // A start now gets its nodes weighed as `select_nodes` weighs them (`prefer.rs`).
            let more = self.more_weight(c, j, part);
            let found = plan.earliest(c, (j, part), len, more.as_deref());
            if plan.tried() {
                tested += 1;
            }
            raised |= found.is_some() && plan.raised();
            let Some((start, alloc)) = found else {
                continue;
            };
            // Held after node selection (GrpTRES, MaxTRESPU), after its will-run test: no
            // start now (`_start_job`'s `select_nodes` gives `ESLURM_ACCOUNTING_POLICY`, and
            // the job is skipped) and no reservation later
            // (`acct_policy_job_runnable_post_select` before `_add_reservation`). A start now
            // is checked on the nodes it gets (an association's `node` limit counts those it
            // does not hold yet, `_get_unique_job_node_cnt` on `job_resrcs`); a reservation on
            // its whole node count (the will-run test leaves no `job_resrcs`).
            let now_on = alloc.as_deref().filter(|_| start <= now);
            if let Some(r) = (self.limits.as_ref()).and_then(|q| q.held_post_on(c, j, now_on)) {
                self.reasons.held(j, r);
                continue;
            }
            if start <= now {
                let r = c.reason_word("backfill")?;
                match (&mut plan, alloc) {
                    (Plan::Nodes(p), Some(a)) => {
                        c.start_on(j, Some(r), a.clone(), None)?;
                        if let Some(q) = self.limits.as_mut() {
                            q.started(c, j);
                        }
                        let Some(cv) = c.cluster() else { continue };
                        p.start(cv.layout(), a, c.planned_end(j));
                    }
                    (Plan::Pool(free), _) if c.fits(j) => {
                        c.start_as(j, Some(r), None, None)?;
                        if let Some(q) = self.limits.as_mut() {
                            q.started(c, j);
                        }
                        free.add(now, c.planned_end(j), -i64::from(procs));
                    }
                    _ => {}
                }
                continue;
            }
            if self.shared.borrow().priority(j) < min_prio || start > now + window {
                continue;
            }
            c.reserve(j, start);
            if let Some(a) = &alloc {
                planned.extend(a.iter().map(|s| s.node as usize));
            }
            let from = round_down(start, res, clock).max(now_down);
            let end = round_down(start + len, res, clock).max(from + res);
            // On nodes the map has made at most `bf_node_space_size` records (Slurm's
            // default, `bf_max_job_test`): a job to get a reservation then ends the cycle.
            if let Some(space) = space.as_mut() {
                if space.made() >= space_size {
                    break;
                }
                if let Some(a) = &alloc {
                    space.add(from, end, a.iter().map(|s| s.node));
                }
            }
            // The map ends at the window's end: a reservation holds nothing past it.
            let to = end.min(window_end);
            if from >= to {
                continue;
            }
            match (&mut plan, alloc) {
                (Plan::Nodes(p), Some(a)) => p.hold(from, to, &a),
                (Plan::Pool(free), _) => free.add(from, to, -i64::from(procs)),
                _ => {}
            }
        }
        self.cycle_queue = jobs;
        match plan {
            Plan::Pool(free) => self.pool_plan = free,
            Plan::Nodes(p) => self.node_plan = Some(p),
        }
        let idle = c.cluster().map(|cv| &cv.free().idle);
        Ok(Cycle {
            planned: idle.is_some_and(|idle| planned.iter().any(|&n| idle[n])),
            raised,
        })
    }
}

/// What a cycle on nodes changed for the backfill thread's next look (`_more_work`).
pub(super) struct Cycle {
    /// It left an idle node (one without a job after the cycle's starts) planned for a
    /// reservation (`_handle_planned(true)` sets the node's PLANNED flag and
    /// `last_node_update`). Nodes are planned for every reservation made in the window, also
    /// one whose start lies at the map's end.
    pub planned: bool,
    /// A job tested got a start later than its will-run test's (`last_job_update`).
    pub raised: bool,
}

/// Running job `j`'s end as Slurm plans it (`job_ptr->end_time`), from the engine's planned
/// end `e`: never after its start plus its time limit, also once it has run past that
/// (Slurm kills it at its next limit check; until then the will-run test takes it as past
/// its end, `_guess_job_end`). The engine plans such a job on (`expire`: a replayed job
/// runs its recorded time, past its limit where Slurm killed it late).
pub(super) fn slurm_end(c: &Ctx<'_>, e: Time, j: usize) -> Time {
    c.job(j).requested.map_or(e, |r| e.min(c.start_of(j) + r))
}
