//! Each job end's side of the priority period of its second, read from the sacct log's
//! `Priority` column, for a replay without the controller's debug log (docs/slurm.md, "The
//! ends' sides from the recorded priorities").
//!
//! Slurm's accounting records a job's priority once: the first record of a job (at its
//! submission, `as_mysql_job_start`'s insert) sets `priority`, the later ones (its start, its
//! end) update other fields and leave it. So sacct's `Priority` is the priority
//! `priority_p_set` gave the job at its submission: no age yet (no accrue time), and the
//! fairshare factor of the last priority period before it (a job of several partitions: its
//! priority in one of them, `Replay::records_priority`). A period whose second holds ends
//! counts the last part of each job still running at it, and never that of a job ended before
//! it (`decay_apply_new_usage` skips a finished job): the fairshare factors it sets, and so
//! the recorded priorities of the jobs submitted before the next period, tell which of its
//! second's ends came first, where the sides give different factors.
//!
//! For each period second with ends (in time order), every assignment of sides to its ends
//! (up to [`MOST_ENDS`]) is replayed on the recorded history, the earlier periods' ends at the
//! sides read before them, and the model's priority at submission of each job submitted
//! strictly within the period (after its second, before the next) is compared with the
//! recorded one. The ends on whose side every assignment agreeing with most recorded
//! priorities agrees are told; the others (no job submitted, every assignment agreeing as
//! well) are left to the side the loops' phases give (`calc_early`).

use super::Replay;
use crate::sim::{Policy, SimError};
use crate::slurm::state::Shared;
use crate::Time;
use std::collections::BTreeMap;

/// Ends of one period's second tried at once at most (each doubles the replays).
pub const MOST_ENDS: usize = 6;

/// What one period's second told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodRead {
    /// The period's second.
    pub second: Time,
    /// Jobs ended in it.
    pub ends: usize,
    /// Of them, those whose side was told.
    pub told: usize,
    /// Jobs submitted within the period with a recorded priority.
    pub compared: usize,
    /// Of them, those whose recorded priority the best assignment gives, and the fewest any
    /// assignment gives.
    pub agree: (usize, usize),
}

/// The ends' sides the recorded priorities tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Told {
    /// The second the periods fall on, modulo `PriorityCalcPeriod`.
    pub decay: Time,
    /// Per job: ended after the period of its second (`Some(true)`), before it
    /// (`Some(false)`), or not told (`None`), as [`super::recorded::Logged::end_sides`].
    pub sides: Vec<Option<bool>>,
    /// Each period second with ends, ascending.
    pub periods: Vec<PeriodRead>,
}

impl Told {
    /// (ends on a period's second, ends told).
    pub fn counts(&self) -> (usize, usize) {
        (self.periods.iter()).fold((0, 0), |(e, t), p| (e + p.ends, t + p.told))
    }
}

/// The ends' sides `replay`'s recorded priorities tell, under the `slurm` policy `build`
/// makes (its `calc_phase` and `PriorityCalcPeriod` place the periods); `None` when the log
/// records no priority.
pub fn read_sides<E>(
    replay: &Replay,
    build: impl Fn() -> Result<(Box<dyn Policy>, Shared), E>,
) -> Result<Option<Told>, E>
where
    E: From<SimError>,
{
    let recorded = &replay.logged.priorities;
    if recorded.iter().all(Option::is_none) {
        return Ok(None);
    }
    let (period, decay) = {
        let (_, shared) = build()?;
        let p = &shared.borrow().params;
        let period = p.calc_period.max(1);
        (period, p.calc_phase.rem_euclid(period))
    };
    let jobs = &replay.jobs;
    let mut groups: BTreeMap<Time, Vec<usize>> = BTreeMap::new();
    for (j, job) in jobs.iter().enumerate() {
        let end = replay.starts[j] + job.runtime;
        if (end - decay).rem_euclid(period) == 0 {
            groups.entry(end).or_default().push(j);
        }
    }
    let mut sides = (decay, vec![None; jobs.len()]);
    let mut periods = Vec::new();
    for (&second, group) in &groups {
        let window: Vec<(usize, f64)> = (0..jobs.len())
            .filter(|&j| jobs[j].submit > second && jobs[j].submit < second + period)
            .filter_map(|j| recorded[j].map(|v| (j, v)))
            .collect();
        let mut read = PeriodRead {
            second,
            ends: group.len(),
            told: 0,
            compared: window.len(),
            agree: (0, 0),
        };
        let last = window.iter().map(|&(j, _)| jobs[j].submit).max();
        if let (Some(last), true) = (last, group.len() <= MOST_ENDS) {
            let mut agree = Vec::with_capacity(1 << group.len());
            for bits in 0..1usize << group.len() {
                let mut tried = sides.clone();
                for (k, &j) in group.iter().enumerate() {
                    tried.1[j] = Some(bits >> k & 1 == 1);
                }
                let (mut policy, shared) = build()?;
                replay.follow_to_with_sides(last, policy.as_mut(), 1, &tried)?;
                let st = shared.borrow();
                let n = (window.iter())
                    .filter(|&&(j, v)| replay.records_priority(&st, j, v))
                    .count();
                agree.push(n);
            }
            let best = agree.iter().copied().max().unwrap_or(0);
            let worst = agree.iter().copied().min().unwrap_or(0);
            read.agree = (best, worst);
            if best > worst {
                let full: Vec<usize> = (0..agree.len()).filter(|&b| agree[b] == best).collect();
                for (k, &j) in group.iter().enumerate() {
                    let after = full[0] >> k & 1 == 1;
                    if full.iter().all(|b| (b >> k & 1 == 1) == after) {
                        sides.1[j] = Some(after);
                        read.told += 1;
                    }
                }
            }
        }
        periods.push(read);
    }
    Ok(Some(Told {
        decay,
        sides: sides.1,
        periods,
    }))
}

#[cfg(test)]
mod tests;
