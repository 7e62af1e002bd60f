//! A job's accrue time: when its age factor starts counting (Slurm 22.05
//! `src/slurmctld/acct_policy.c` `acct_policy_handle_accrue_time`, `_get_accrue_limits`,
//! `_handle_add_accrue`; docs/slurm.md "Accrue time").
//!
//! Without `AccountingStorageEnforce=limits`, or with `PriorityFlags=ACCRUE_ALWAYS`, a job accrues
//! from its eligible time (its submission: a log holds no holds, dependencies or begin times), once
//! a queue build found it waiting (`Multifactor::queue_built`). With limits enforced and a
//! `GrpJobsAccrue` or `MaxJobsAccrue` limit over the job (its QOS's `GrpJobsAccrue`,
//! `MaxJobsAccruePA` or `MaxJobsAccruePU`, else its association's `GrpJobsAccrue` or
//! `MaxJobsAccrue`, else a parent's `GrpJobsAccrue`: the first of these set is its one limit,
//! whatever the others say), a waiting job accrues only once a queue build (each main scheduler run
//! and backfill cycle begins with `build_job_queue`, which calls `acct_policy_handle_accrue_time`
//! for every waiting job in the job list's order, the order of submission) finds that limit's count
//! below it: its accrue time is then that build's time, not its submission, and it counts in every
//! QOS, QOS-account, QOS-user and association count of its walk until it starts. A job at its limit
//! gets no age.

use super::params::SlurmParams;
use super::qos::DEFAULT_QOS;
use super::Site;
use crate::Time;
use std::collections::HashMap;

/// A QOS's or an association's accrue limits (each `None`: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AccrueLimits {
    /// `GrpJobsAccrue`: waiting jobs accruing in the QOS, or in the association and its
    /// children (`grp_jobs_accrue`).
    pub grp: Option<u32>,
    /// A QOS's `MaxJobsAccruePU` (per user, `max_jobs_accrue_pu`); an association's
    /// `MaxJobsAccrue` (`max_jobs_accrue`).
    pub max: Option<u32>,
    /// A QOS's `MaxJobsAccruePA` (per account, `max_jobs_accrue_pa`); none for an association.
    pub max_pa: Option<u32>,
}

impl AccrueLimits {
    /// True when it limits nothing.
    pub fn is_none(&self) -> bool {
        *self == Self::default()
    }
}

/// What a count is kept for: a QOS, a QOS's account or user, an association (a row of the
/// assoc file).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Qos(String),
    QosAccount(String, String),
    QosUser(String, i64),
    Assoc(usize),
    /// A user's association in an account that the assoc file does not give.
    User(i64, String),
}

/// The accruing jobs' counts and each job's accrue time, through one simulation.
#[derive(Debug, Clone)]
pub struct Accrue {
    /// Per job: the counts it adds to while it accrues (indices into `count`), and its limit
    /// (the count's index and the limit; `None`: no limit, it accrues from its submission).
    counts_of: Vec<Vec<usize>>,
    limit: Vec<Option<(usize, u32)>>,
    count: Vec<u32>,
    /// Per job: its accrue time, once set.
    since: Vec<Option<Time>>,
    /// Per job: it adds to its counts (accruing under a limit, not started).
    counted: Vec<bool>,
}

impl Accrue {
    /// The accrue rules for `jobs` ((user id, submit) by job index) at `site` with `params`,
    /// when limits are enforced, `ACCRUE_ALWAYS` is not set and some QOS or association has an
    /// accrue limit, or the `MaxJobsAccrue` key gives the cluster's (`None`: every job accrues
    /// from its submission).
    pub fn of_site(site: &Site, params: &SlurmParams, jobs: &[(i64, Time)]) -> Option<Accrue> {
        let enforce_limits = params.enforce_limits;
        let accrue_always = params.flags.iter().any(|f| f == "ACCRUE_ALWAYS");
        // The `MaxJobsAccrue` key: the cluster association's, which every user association
        // without its own inherits.
        let cluster_max = params.max_jobs_accrue;
        let qos = site.qos.as_ref().map(|(t, _)| t);
        let assoc = site.assoc.as_ref().map(|(t, _)| t);
        let any = qos.is_some_and(|t| !t.accrue.is_empty())
            || assoc.is_some_and(|t| t.rows.iter().any(|a| !a.accrue.is_none()))
            || cluster_max.is_some();
        if !enforce_limits || accrue_always || !any {
            return None;
        }
        let mut keys: HashMap<Key, usize> = HashMap::new();
        let mut key = |k: Key| {
            let n = keys.len();
            *keys.entry(k).or_insert(n)
        };
        let (mut counts_of, mut limit) = (Vec::new(), Vec::new());
        for (j, &(user, _)) in jobs.iter().enumerate() {
            let q = site.qos_of(j).unwrap_or(DEFAULT_QOS).to_string();
            let a = assoc.and_then(|t| t.of_job(&site.user_name(user), account(site, j)));
            // `used_limits_acct` is keyed by the job's association's account.
            let acct = match (assoc, a) {
                (Some(t), Some(a)) => t.rows[a].account.clone(),
                _ => account(site, j).to_string(),
            };
            let ql = qos.and_then(|t| t.accrue_of(&q)).unwrap_or_default();
            let mut mine = vec![
                (key(Key::Qos(q.clone())), ql.grp),
                (key(Key::QosAccount(q.clone(), acct)), ql.max_pa),
                (key(Key::QosUser(q, user)), ql.max),
            ];
            if let (Some(t), Some(a)) = (assoc, a) {
                for (i, k) in t.walk(a).into_iter().enumerate() {
                    let l = t.rows[k].accrue;
                    let c = key(Key::Assoc(k));
                    mine.push((c, l.grp));
                    // The Max limit of the job's own association only (its parents' are
                    // "pre-propagated" to it).
                    if i == 0 {
                        mine.push((c, l.max.or(cluster_max)));
                    }
                }
            } else if cluster_max.is_some() {
                // No row for it: its user's association in its account, the cluster's limit.
                let c = key(Key::User(user, account(site, j).to_string()));
                mine.push((c, cluster_max));
            }
            limit.push(mine.iter().find_map(|&(c, l)| l.map(|l| (c, l))));
            let mut cs: Vec<usize> = mine.into_iter().map(|(c, _)| c).collect();
            cs.dedup();
            counts_of.push(cs);
        }
        let since = (jobs.iter().zip(&limit))
            .map(|(&(_, submit), l)| l.is_none().then_some(submit))
            .collect();
        Some(Accrue {
            counts_of,
            limit,
            count: vec![0; keys.len()],
            since,
            counted: vec![false; jobs.len()],
        })
    }

    /// Job `j`'s accrue time (`None`: it accrues nothing yet).
    pub fn since(&self, j: usize) -> Option<Time> {
        self.since.get(j).copied().flatten()
    }

    /// A queue build at `now` over the waiting jobs `pending` (ascending: the job list's
    /// order): each one under a limit that does not accrue yet does from `now` when its
    /// limit's count is below the limit (`_handle_add_accrue`: `accrue_time = time(NULL)`).
    pub fn queue_built(&mut self, now: Time, pending: &[usize]) {
        for &j in pending {
            let Some((c, l)) = self.limit[j] else {
                continue;
            };
            if self.since[j].is_some() || self.count[c] >= l {
                continue;
            }
            self.since[j] = Some(now);
            self.counted[j] = true;
            for &k in &self.counts_of[j] {
                self.count[k] += 1;
            }
        }
    }

    /// Job `j` started: it leaves its counts (`_adjust_limit_usage` at its begin calls
    /// `acct_policy_handle_accrue_time`, which removes a job no longer pending).
    pub fn started(&mut self, j: usize) {
        if std::mem::take(&mut self.counted[j]) {
            for &k in &self.counts_of[j] {
                self.count[k] -= 1;
            }
        }
    }
}

/// Job `j`'s account in the log ("" when it names none).
fn account(site: &Site, j: usize) -> &str {
    site.accounts.get(j).map_or("", String::as_str)
}

#[cfg(test)]
mod tests;
