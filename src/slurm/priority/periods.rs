//! The priority periods (`_decay_thread`): every `PriorityCalcPeriod` usage is reset when due,
//! decayed and accrued by the running jobs, the fairshare factors recomputed and the waiting
//! jobs' priorities with them; a job's usage accrued since the last period (`accrue`).

use super::Multifactor;
use crate::slurm::params::ResetPeriod;
use crate::Time;

impl Multifactor {
    /// Usage is read only through the fairshare factor: without its weight it is not kept.
    pub(super) fn counts_usage(&self) -> bool {
        self.params.weight_fs > 0.0
    }

    /// The fairshare usage or the TRES usage of the `GrpTRESMins` limits is kept.
    pub(super) fn keeps_usage(&self) -> bool {
        self.counts_usage() || self.tres_usage.is_some()
    }

    /// The time of the last period (`g_last_ran`; `None` before the first).
    pub fn last_ran(&self) -> Option<Time> {
        self.last_ran
    }

    pub(super) fn accrue(&mut self, j: usize, start: Time, t: Time) {
        let from = self.last_ran.map_or(start, |l| l.max(start));
        let delta = (t - from).max(0) as f64;
        if delta > 0.0 {
            if let Some(u) = self.tres_usage.as_mut() {
                u.add(j, delta * self.decay.powf(delta));
            }
            if !self.counts_usage() {
                return;
            }
            // `real_decay *= qos->usage_factor` (priority_multifactor.c:1090-1091): times 1
            // by default, an exact product.
            let amount =
                delta * self.decay.powf(delta) * self.billing(j) * self.jobs[j].usage_factor;
            self.tree.add_usage(self.jobs[j].assoc, amount);
            self.accrued = true;
            if let Some(c) = self.classic.as_mut() {
                c.changed = true;
            }
        }
    }

    /// The next period after the last; the first is the last one at or before time 0
    /// (`calc_phase` modulo the period, less one period when that is after 0): as in Slurm,
    /// whose first period (the controller's start) only marks the time, usage is counted from
    /// the first period after it.
    pub fn next_period(&self) -> Time {
        match self.last_ran {
            None => {
                let p = self.params.calc_period;
                let phase = self.params.calc_phase.rem_euclid(p);
                if phase > 0 {
                    phase - p
                } else {
                    0
                }
            }
            Some(l) => l + self.params.calc_period,
        }
    }

    /// Runs every period at or before `t` (`inclusive`) or strictly before it.
    pub fn advance(&mut self, t: Time, inclusive: bool) {
        loop {
            let next = self.next_period();
            if next > t || (!inclusive && next == t) {
                break;
            }
            let mut tick = next;
            // With nothing running, nothing waiting and no reset due, the periods up to t only
            // decay: one step to the last of them, for the same product.
            if self.running.is_empty() && self.pending.is_empty() {
                if let Some(l) = self.last_ran {
                    let p = self.params.calc_period;
                    let last = if inclusive { t } else { t - 1 };
                    let k = (last - l) / p;
                    let jump = l + k * p;
                    if jump > tick && !self.reset_due(jump) {
                        tick = jump;
                    }
                }
            }
            self.period(tick);
            self.end_after_period(tick);
        }
    }

    pub(super) fn reset_slot(&self, t: Time) -> Option<Time> {
        match self.params.reset {
            ResetPeriod::Every(len) => Some(t / len),
            _ => None,
        }
    }

    pub(super) fn reset_due(&self, t: Time) -> bool {
        match self.params.reset {
            ResetPeriod::Every(_) => self.reset_slot(t) != self.last_reset_slot,
            _ => false,
        }
    }

    /// One period at `t` (`_decay_thread`'s loop body).
    pub(super) fn period(&mut self, t: Time) {
        let mut reset = self.last_ran.is_none() && self.params.reset == ResetPeriod::Now;
        if self.reset_due(t) {
            reset = true;
            self.last_reset_slot = self.reset_slot(t);
        }
        if reset {
            self.tree.reset();
            if let Some(u) = self.tres_usage.as_mut() {
                u.reset();
            }
            if let Some(c) = self.classic.as_mut() {
                c.changed = true;
            }
        }
        if !self.params.fair_tree {
            self.classic_period(t);
            return;
        }
        if let Some(l) = self.last_ran {
            let delta = (t - l) as f64;
            if delta > 0.0 && self.keeps_usage() {
                let f = self.decay.powf(delta).max(f64::MIN_POSITIVE);
                if self.counts_usage() {
                    self.tree.decay(f);
                }
                if let Some(u) = self.tres_usage.as_mut() {
                    u.decay(f);
                }
                let running = std::mem::take(&mut self.running);
                for &(j, start) in &running {
                    self.accrue(j, start, t);
                }
                self.running = running;
            }
        }
        self.last_ran = Some(t);
        if self.params.weight_fs > 0.0 && (self.accrued || self.fs_usage.is_some()) {
            self.fs_usage = None;
            if self.pending.is_empty() {
                self.fs_usage = Some(self.tree.nodes.iter().map(|n| n.usage).collect());
            } else {
                self.refresh_fs();
            }
        }
        // Only the age and fairshare factors move with time: without them a waiting job keeps
        // the priority of its submission.
        let moves = self.params.weight_age > 0.0 || self.params.weight_fs > 0.0;
        if moves && !self.pending.is_empty() {
            for k in 0..self.pending.len() {
                let j = self.pending[k];
                self.prio[j] = self.compute(j, t);
            }
        }
    }
}
