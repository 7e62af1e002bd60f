//! The minutes limits (Slurm 22.05 `src/slurmctld/acct_policy.c`, with
//! `AccountingStorageEnforce` naming `limits`), checked after node selection
//! (`acct_policy_job_runnable_post_select`: the job's QOS in `_qos_job_runnable_post_select`,
//! then its association and every parent) on the job's TRES-minutes, its time limit in
//! minutes times each TRES it asks (`job_tres_time_limit`, acct_policy.c:3759-3760):
//!
//! - **`GrpTRESMins`** (QOS 2171-2176, association 3830-3835): held when the group's decayed
//!   usage in whole minutes (`usage_tres_raw / 60`, [`crate::slurm::tres_usage`]) is at or
//!   over the limit for a TRES the job asks (`_validate_tres_usage_limits`'
//!   `TRES_USAGE_CUR_EXCEEDS_LIMIT`: `curr_usage >= limit`); reasons `QOSGrpCPUMinutesLimit`,
//!   `AssocGrpCPUMinutesLimit`, ...
//! - **`GrpTRESRunMins`** (2284-2288, 3917-3921, with `safe_limits` true): held when the job's
//!   TRES-minutes plus the group's running jobs' (`grp_used_tres_run_secs / 60`) are over the
//!   limit; over it alone, for ever. A running job holds `time_limit · 60 · f` seconds of each
//!   TRES from its start (`_adjust_limit_usage`, 812-827, `f` its QOS's `UsageFactor`), less
//!   `δ · f` (truncated to whole seconds) at every period it runs through
//!   (priority_multifactor.c `_apply_new_usage`, 1031-1047, 1096), all of it at its end.
//! - **`MaxTRESMins`** (`MaxTRESMinsPerJob`; 2330-2347, and the job's own association only,
//!   3994-4010): held for ever when the job's TRES-minutes are over it.
//!
//! A limit the job's QOS sets on a TRES is checked instead of its association's same limit
//! (the QOS's `qos_rec` arrays skip it). With the job's QOS's `UsageFactor` 0, the usage and
//! the running TRES-minutes read 0 (2161-2169, 3801-3809: "so that jobs can run").

use super::assoc_use::AssocUse;
use super::qos_use::{tres, QosUse};
use super::reasons::{Limit, Reason};
use crate::sim::{Ctx, JobView};
use crate::slurm::qos::DEFAULT_QOS;
use crate::slurm::qos_limits::{TresCounts, TresLimit, TRES_NAMES};
use crate::slurm::state::State;
use crate::slurm::tres_usage::TresUsage;
use crate::slurm::Site;
use crate::Time;

/// Slurm's `INFINITE` time limit, minutes (a job with none).
const INFINITE_MIN: u64 = 0xffff_fffe;

/// The minutes limits' state through one loop of the scheduler: per group (the associations,
/// then the log QOS indices) the decayed usage in minutes and the running jobs' TRES-seconds.
#[derive(Debug, Clone)]
pub(super) struct MinsUse {
    /// The associations' count: group `k` is association `k`, group `n_assoc + q` QOS `q`.
    n_assoc: usize,
    /// Per job: its QOS's `UsageFactor`, and its groups.
    factor: Vec<f64>,
    groups: Vec<Vec<u32>>,
    /// Per group: usage, TRES-minutes; running jobs' TRES-seconds.
    usage: Vec<TresCounts>,
    run: Vec<TresCounts>,
    /// `PriorityCalcPeriod`, seconds (read at each reset).
    period: Time,
    /// Some group has a `GrpTRESMins` (the usage must be kept).
    grp_mins: bool,
}

/// True when one of the three minutes limits is set.
fn any(limits: [&TresLimit; 3]) -> bool {
    limits.iter().any(|l| l.iter().any(Option::is_some))
}

impl MinsUse {
    /// The minutes limits of the site, when a QOS or an association has one (`None`: no
    /// check at all); `jobs` the jobs' count.
    pub(super) fn of_site(
        site: &Site,
        qos: Option<&QosUse>,
        assoc: Option<&AssocUse>,
        jobs: usize,
    ) -> Option<Self> {
        let table = site.qos.as_ref().map(|(t, _)| t);
        let mut grp_mins = false;
        let mut some = false;
        for (_, l) in table.iter().flat_map(|t| t.limits.iter()) {
            some |= any([&l.grp_tres_mins, &l.grp_tres_run_mins, &l.max_tres_mins]);
            grp_mins |= any([&l.grp_tres_mins; 3]);
        }
        let n_assoc = assoc.map_or(0, AssocUse::len);
        for k in 0..n_assoc {
            let l = assoc.map(|a| a.at(k).0).copied().unwrap_or_default();
            some |= any([&l.grp_tres_mins, &l.grp_tres_run_mins, &l.max_tres_mins]);
            grp_mins |= any([&l.grp_tres_mins; 3]);
        }
        if !some {
            return None;
        }
        let n_qos = qos.map_or(0, QosUse::len);
        let factor = (0..jobs)
            .map(|j| {
                table.map_or(1.0, |t| {
                    t.usage_factor(site.qos_of(j).unwrap_or(DEFAULT_QOS))
                })
            })
            .collect();
        let groups = (0..jobs)
            .map(|j| {
                let mut g: Vec<u32> = assoc
                    .and_then(|a| a.of(j))
                    .map(|(walk, _)| walk.iter().map(|&k| k as u32).collect())
                    .unwrap_or_default();
                if let Some(q) = qos {
                    g.push((n_assoc + usize::from(q.of(j).0)) as u32);
                }
                g
            })
            .collect();
        let n = n_assoc + n_qos;
        Some(MinsUse {
            n_assoc,
            factor,
            groups,
            usage: vec![[0; 4]; n],
            run: vec![[0; 4]; n],
            period: 60,
            grp_mins,
        })
    }

    /// The TRES usage the multifactor plugin keeps for the `GrpTRESMins` limits, when one is
    /// set: job `j` holding `ask[j]`.
    pub(super) fn tres_usage(&self, ask: &[TresCounts]) -> Option<TresUsage> {
        self.grp_mins
            .then(|| TresUsage::new(self.usage.len(), self.groups.clone(), ask, &self.factor))
    }

    /// Reads the usage from the plugin and counts the running jobs' TRES-seconds afresh.
    pub(super) fn reset(&mut self, c: &Ctx<'_>, s: &State) {
        let mf = s.mf.as_ref();
        let usage = mf.and_then(|m| m.tres_usage.as_ref());
        for (g, u) in self.usage.iter_mut().enumerate() {
            *u = usage.map_or([0; 4], |t| t.minutes(g));
        }
        self.period = s.params.calc_period.max(1);
        let last = mf.and_then(|m| m.last_ran());
        self.run.iter_mut().for_each(|r| *r = [0; 4]);
        for (_, j) in c.running() {
            let f = self.factor.get(j).copied().unwrap_or(1.0);
            let left = run_secs_left(c.start_of(j), c.job(j).requested, f, last, self.period);
            self.charge(c, j, left);
        }
    }

    /// Job `j` started: it holds its whole limit's TRES-seconds.
    pub(super) fn started(&mut self, c: &Ctx<'_>, j: usize) {
        let f = self.factor.get(j).copied().unwrap_or(1.0);
        let whole = run_secs_left(0, c.job(j).requested, f, None, self.period);
        self.charge(c, j, whole);
    }

    /// Its groups hold `secs` seconds of each TRES job `j` holds.
    fn charge(&mut self, c: &Ctx<'_>, j: usize, secs: u64) {
        let t = tres(c, j);
        for &g in self.groups.get(j).map_or(&[][..], Vec::as_slice) {
            if let Some(r) = self.run.get_mut(g as usize) {
                for (x, &n) in r.iter_mut().zip(&t) {
                    *x = x.saturating_add(secs.saturating_mul(n));
                }
            }
        }
    }

    /// Held by a minutes limit of its QOS (`qos_side`) or of its associations (else), with
    /// the reason of the first limit and TRES over, in `_qos_job_runnable_post_select`'s and
    /// the association walk's order: `GrpTRESMins`, `GrpTRESRunMins`, `MaxTRESMins`.
    pub(super) fn held(
        &self,
        c: &Ctx<'_>,
        j: usize,
        qos: Option<&QosUse>,
        assoc: Option<&AssocUse>,
        qos_side: bool,
    ) -> Option<Reason> {
        let v = c.job(j);
        let jm = job_mins(v.requested, &tres(c, j));
        let free = self.factor.get(j).is_some_and(|&f| f == 0.0);
        let usage = |g: usize| if free { [0; 4] } else { self.usage[g] };
        let run = |g: usize| {
            if free {
                [0; 4]
            } else {
                self.run[g].map(|s| s / 60)
            }
        };
        let first = |grp: &TresLimit, grp_run: &TresLimit, max: Option<&TresLimit>, g: usize| {
            let at = |limit, i: Option<usize>| i.map(|i| Reason::of(qos_side, limit, i));
            at(Limit::GrpTresMins, used_over(grp, &jm, &usage(g)))
                .or_else(|| at(Limit::GrpTresRunMins, run_over(grp_run, &jm, &run(g))))
                .or_else(|| {
                    at(
                        Limit::MaxTresMins,
                        max.and_then(|m| max_over(m, &jm)).map(|o| o.0),
                    )
                })
        };
        if qos_side {
            let (k, Some(l)) = qos?.of(j) else {
                return None;
            };
            let g = self.n_assoc + usize::from(k);
            return first(
                &l.grp_tres_mins,
                &l.grp_tres_run_mins,
                Some(&l.max_tres_mins),
                g,
            );
        }
        let (walk, q) = assoc?.of(j)?;
        walk.iter().enumerate().find_map(|(depth, &k)| {
            let l = assoc.map(|a| a.at(k).0).copied().unwrap_or_default();
            let max = without(&l.max_tres_mins, &q.max_tres_mins);
            first(
                &without(&l.grp_tres_mins, &q.grp_tres_mins),
                &without(&l.grp_tres_run_mins, &q.grp_tres_run_mins),
                (depth == 0).then_some(&max),
                k,
            )
        })
    }

    /// Why job `j` (`v`, asking `ask`) is held for ever by a minutes limit: its TRES-minutes
    /// over its QOS's or its own association's `MaxTRESMins`, or over a `GrpTRESRunMins` of
    /// its QOS or an association of its walk (whatever runs).
    pub(super) fn never(
        &self,
        j: usize,
        v: JobView,
        ask: &TresCounts,
        qos: Option<&QosUse>,
        assoc: Option<&AssocUse>,
    ) -> Option<String> {
        let jm = job_mins(v.requested, ask);
        let say = |who: String, key: &str, i: usize, lim: u64, reasons: &[&str; 4]| {
            let tres = TRES_NAMES[i];
            Some(format!(
                "it asks {tres}={} minutes, over {who}'s {key} {tres}={lim}: held for ever \
                 (Slurm's reason {})",
                jm[i], reasons[i]
            ))
        };
        if let Some((k, Some(l))) = qos.map(|q| q.of(j)) {
            let who = format!("QOS {}", qos.map_or(DEFAULT_QOS, |q| q.name_at(k)));
            if let Some((i, lim)) = max_over(&l.max_tres_mins, &jm) {
                return say(who, "MaxTRESMins", i, lim, &QOS_MAX_MINS);
            }
            if let Some((i, lim)) = max_over(&l.grp_tres_run_mins, &jm) {
                return say(who, "GrpTRESRunMins", i, lim, &QOS_RUN_MINS);
            }
        }
        let (walk, q) = assoc.and_then(|a| a.of(j))?;
        for (depth, &k) in walk.iter().enumerate() {
            let (l, who) = assoc.map(|a| a.at(k))?;
            let max = without(&l.max_tres_mins, &q.max_tres_mins);
            if let Some((i, lim)) = max_over(&max, &jm).filter(|_| depth == 0) {
                return say(who.to_string(), "MaxTRESMins", i, lim, &ASSOC_MAX_MINS);
            }
            let run = without(&l.grp_tres_run_mins, &q.grp_tres_run_mins);
            if let Some((i, lim)) = max_over(&run, &jm) {
                return say(who.to_string(), "GrpTRESRunMins", i, lim, &ASSOC_RUN_MINS);
            }
        }
        None
    }
}

/// A job's TRES-minutes: its time limit in minutes (Slurm's `INFINITE` without one) times
/// each TRES it asks (`job_tres_time_limit`).
pub(super) fn job_mins(limit: Option<Time>, ask: &TresCounts) -> TresCounts {
    let m = limit.map_or(INFINITE_MIN, |s| (s.max(0) / 60) as u64);
    ask.map(|a| a.saturating_mul(m))
}

/// The limit's TRES the QOS's same limit does not set (those it sets are its to check).
fn without(l: &TresLimit, q: &TresLimit) -> TresLimit {
    let mut t = *l;
    for (a, b) in t.iter_mut().zip(q) {
        if b.is_some() {
            *a = None;
        }
    }
    t
}

/// `GrpTRESMins`: the first TRES the job asks whose usage is at or over the limit.
fn used_over(limit: &TresLimit, jm: &TresCounts, used: &TresCounts) -> Option<usize> {
    (0..4).find(|&i| limit[i].is_some_and(|l| jm[i] > 0 && used[i] >= l))
}

/// `GrpTRESRunMins` (`safe_limits`): the first TRES whose minutes the job asks over the
/// limit, or they and the running jobs' over it.
fn run_over(limit: &TresLimit, jm: &TresCounts, run: &TresCounts) -> Option<usize> {
    (0..4).find(|&i| {
        limit[i].is_some_and(|l| jm[i] > l || (jm[i] > 0 && jm[i].saturating_add(run[i]) > l))
    })
}

/// The first TRES whose minutes are over the limit, with the limit.
fn max_over(limit: &TresLimit, jm: &TresCounts) -> Option<(usize, u64)> {
    (0..4).find_map(|i| limit[i].filter(|&l| jm[i] > l).map(|l| (i, l)))
}

/// The TRES-seconds per TRES unit a job started at `start` with time limit `limit` (seconds;
/// `None`: Slurm's `INFINITE` minutes) holds once the periods up to `last` (every `period`
/// seconds; `None`: none yet) have run, its QOS's `UsageFactor` `f`: `⌊limit · f⌋` at its
/// start (`time_limit_secs *= usage_factor` in a `uint64_t`), less `⌊δ · f⌋` for each period
/// after its start, δ the seconds since the one before (or its start), up to its limit's end
/// (`end_time_exp`); nothing once a period passed that end.
pub(super) fn run_secs_left(
    start: Time,
    limit: Option<Time>,
    f: f64,
    last: Option<Time>,
    period: Time,
) -> u64 {
    let trunc = |s: Time| (s.max(0) as f64 * f) as u64;
    let len = limit.unwrap_or(INFINITE_MIN as Time * 60);
    let whole = trunc(len);
    let Some(last) = last.filter(|&l| l > start) else {
        return whole;
    };
    let ends = start.saturating_add(len);
    if last >= ends {
        return 0;
    }
    // The first period after the start; then whole periods up to `last` (before `ends`).
    let p1 = last - (last - start - 1) / period * period;
    let steps = (last - p1) / period;
    let sub = trunc(p1 - start) + steps as u64 * trunc(period);
    whole.saturating_sub(sub)
}

/// Slurm's pending reasons per TRES of [`TRES_NAMES`] (`job_state_reason_string`,
/// slurm_protocol_defs.c).
const QOS_MAX_MINS: [&str; 4] = [
    "QOSMaxCpuMinutesPerJobLimit",
    "QOSMaxMemoryMinutesPerJob",
    "QOSMaxNodeMinutesPerJob",
    "QOSMaxGRESMinutesPerJob",
];
const QOS_RUN_MINS: [&str; 4] = [
    "QOSGrpCPURunMinutesLimit",
    "QOSGrpMemoryRunMinutes",
    "QOSGrpNodeRunMinutes",
    "QOSGrpGRESRunMinutes",
];
const ASSOC_MAX_MINS: [&str; 4] = [
    "AssocMaxCpuMinutesPerJobLimit",
    "AssocMaxMemMinutesPerJob",
    "AssocMaxNodeMinutesPerJob",
    "AssocMaxGRESMinutesPerJob",
];
const ASSOC_RUN_MINS: [&str; 4] = [
    "AssocGrpCPURunMinutesLimit",
    "AssocGrpMemRunMinutes",
    "AssocGrpNodeRunMinutes",
    "AssocGrpGRESRunMinutes",
];

#[cfg(test)]
mod tests;
