//! The classic fairshare formula's periods (`PriorityFlags=NO_FAIR_TREE`), as
//! priority_multifactor.c's `_decay_thread` runs them without `FAIR_TREE`: the accounts'
//! effective usage at each period's start, each user's when first needed.

use super::{fairshare, Multifactor};
use crate::Time;

/// The classic formula's state between periods ([`Multifactor`]'s `classic`).
#[derive(Debug, Clone)]
pub(super) struct Classic {
    /// Effective usage of each account as of the last period's start (root's 1).
    pub(super) ue: Vec<f64>,
    /// Normalized shares of each association.
    pub(super) norm_shares: Vec<f64>,
    /// A user's factor in `fs` is set since that period.
    pub(super) set: Vec<bool>,
    /// Usage changed since `ue` was computed.
    pub(super) changed: bool,
}

impl Multifactor {
    /// The classic formula: association `a`'s factor, computed from the usage now and the
    /// accounts' effective usage of the last period if it is not set since that period
    /// (`_get_fairshare_priority`: a user's `usage_efctv` still `NO_VAL` is computed then,
    /// `priority_p_set_assoc_usage`, and kept until the next period).
    pub(super) fn classic_fs(&mut self, a: usize) {
        let Some(c) = self.classic.as_mut() else {
            return;
        };
        if c.set[a] {
            return;
        }
        let ue = fairshare::classic_ue(&self.tree, a, &c.ue);
        self.fs[a] = fairshare::classic_factor(ue, c.norm_shares[a], self.params.damp_factor);
        c.set[a] = true;
    }

    /// One period of the classic formula (`_decay_thread` without `FAIR_TREE`): the
    /// accounts' effective usage from the usage before this period's decay and new usage
    /// (`_set_children_usage_efctv`, every user's set to `NO_VAL`); the first period only
    /// marks the time; then the decay, and the job list in submission order
    /// (`_decay_apply_new_usage_and_weighted_factors`): a running job adds its usage, a
    /// waiting job gets its priority, its user's factor computed at the first of its jobs
    /// from the usage added so far (the jobs before it in the list).
    pub(super) fn classic_period(&mut self, t: Time) {
        if self.params.weight_fs > 0.0 {
            self.refresh_fs();
        }
        let Some(l) = self.last_ran.replace(t) else {
            return;
        };
        let delta = t - l;
        if delta <= 0 {
            return;
        }
        // `_apply_new_usage` counts from the last period (`g_last_ran`), set after the list.
        self.last_ran = Some(l);
        let counts = self.keeps_usage();
        let f = self.decay.powf(delta as f64).max(f64::MIN_POSITIVE);
        if self.counts_usage() {
            self.tree.decay(f);
        }
        if let Some(u) = self.tres_usage.as_mut() {
            u.decay(f);
        }
        let moves = self.params.weight_age > 0.0 || self.params.weight_fs > 0.0;
        let running = std::mem::take(&mut self.running);
        let mut list: Vec<(usize, Option<Time>)> = running
            .iter()
            .map(|&(j, start)| (j, Some(start)))
            .chain(self.pending.iter().map(|&j| (j, None)))
            .collect();
        list.sort_unstable_by_key(|e| e.0);
        for (j, start) in list {
            match start {
                Some(start) if counts => self.accrue(j, start, t),
                Some(_) => {}
                None if moves => {
                    if self.params.weight_fs > 0.0 {
                        self.classic_fs(self.jobs[j].assoc);
                    }
                    self.prio[j] = self.compute(j, t);
                }
                None => {}
            }
        }
        self.running = running;
        self.last_ran = Some(t);
    }
}
