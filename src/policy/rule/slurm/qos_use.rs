//! QOS limits (Slurm 22.05 `src/slurmctld/acct_policy.c`, with `AccountingStorageEnforce`
//! naming `limits`): what the running jobs use of each QOS, per QOS and per user within it, and
//! whether a waiting job is held by a limit (docs/slurm.md "QOS limits").
//!
//! - **Before node selection** (`acct_policy_job_runnable_pre_select`, `_qos_job_runnable_pre_select`):
//!   held when its QOS's running jobs are `GrpJobs` or more (`grp_used_jobs >= grp_jobs`), when
//!   its user's running jobs in the QOS are `MaxJobsPU` or more (`used_limits->jobs >=
//!   max_jobs_pu`), or when its time limit is over `MaxWall` (`time_limit > max_wall_pj`).
//! - **After node selection** (`acct_policy_job_runnable_post_select`, `_qos_job_runnable_post_select`
//!   through `_validate_tres_usage_limits` with `safe_limits` true): held when, for a TRES with a
//!   limit, the job asks more than the limit, or asks some and what it asks plus what is used
//!   is over the limit: the QOS's running jobs for `GrpTRES` (`grp_used_tres`), its user's
//!   running jobs in the QOS for `MaxTRESPU` (`used_limits->tres`).
//!
//! "Used" is the running jobs' allocated TRES and count: added when a job starts
//! (`acct_policy_job_begin`, `_qos_adjust_limit_usage` `ACCT_POLICY_JOB_BEGIN`), taken back when
//! it ends (`deallocate_nodes` calls `acct_policy_job_fini`). A user is its user id over all its
//! accounts (`acct_policy_get_user_used_limits` by `user_id`). The node TRES used is the count
//! of distinct nodes the running jobs hold (`_add_usage_node_bitmap`); a job's ask of it is,
//! once its nodes are chosen, those of them not held yet (`_get_unique_job_node_cnt`), else
//! its whole node count.

use super::reasons::{Limit, Reason};
use crate::cluster::{Need, Share};
use crate::sim::{Ctx, JobView};
use crate::slurm::qos::DEFAULT_QOS;
use crate::slurm::qos_limits::{QosLimits, TresCounts, TresLimit, TRES_NAMES};
use crate::slurm::Site;
use std::collections::HashMap;

/// A count of running jobs and their TRES.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Used {
    jobs: u32,
    tres: TresCounts,
}

impl Used {
    /// A job with TRES `t` starts; `new_nodes`: those of its nodes not held yet (the `node`
    /// used is the count of distinct nodes, `_add_usage_node_bitmap`).
    fn add(&mut self, t: &TresCounts, new_nodes: u64) {
        self.jobs = self.jobs.saturating_add(1);
        for (i, (u, v)) in self.tres.iter_mut().zip(t).enumerate() {
            *u = u.saturating_add(if i == 2 { new_nodes } else { *v });
        }
    }
}

/// What the running jobs use of each QOS with a limit, kept through one loop of the
/// scheduler (made from the running jobs, then told each start).
#[derive(Debug, Clone)]
pub(super) struct QosUse {
    /// The limits per log QOS index (0: the job's log names none, so `normal`).
    limits: Vec<Option<QosLimits>>,
    /// The QOS names per log QOS index (0: `normal`).
    names: Vec<String>,
    /// Each job's log QOS index.
    job_qos: Vec<u16>,
    /// Per QOS index.
    group: Vec<Used>,
    /// Per (QOS index, user).
    user: HashMap<(u16, i64), Used>,
    /// Jobs per (QOS index, node) and per (QOS index, user, node), for the distinct nodes.
    group_nodes: HashMap<(u16, u32), u32>,
    user_nodes: HashMap<(u16, i64, u32), u32>,
}

impl QosUse {
    /// The use of the site's QOS limits, when any QOS a job runs in has one (`None`: nothing
    /// to hold, and no check at all).
    pub(super) fn of_site(site: &Site) -> Option<Self> {
        let (table, _) = site.qos.as_ref()?;
        let limits: Vec<Option<QosLimits>> = std::iter::once(DEFAULT_QOS)
            .chain(site.qos_names.iter().map(String::as_str))
            .map(|n| table.limits_of(n).copied())
            .collect();
        limits.iter().any(Option::is_some).then(|| QosUse {
            group: vec![Used::default(); limits.len()],
            names: std::iter::once(DEFAULT_QOS.to_string())
                .chain(site.qos_names.iter().cloned())
                .collect(),
            limits,
            job_qos: site.job_qos.clone(),
            user: HashMap::new(),
            group_nodes: HashMap::new(),
            user_nodes: HashMap::new(),
        })
    }

    /// Counts the jobs running now afresh (at the start of a loop of the scheduler).
    pub(super) fn reset(&mut self, c: &Ctx<'_>) {
        self.group.iter_mut().for_each(|g| *g = Used::default());
        self.user.clear();
        self.group_nodes.clear();
        self.user_nodes.clear();
        for (_, j) in c.running() {
            self.started(c, j);
        }
    }

    /// The number of log QOS indices (0: none, so `normal`).
    pub(super) fn len(&self) -> usize {
        self.limits.len()
    }

    /// The name of log QOS index `k`.
    pub(super) fn name_at(&self, k: u16) -> &str {
        self.names
            .get(usize::from(k))
            .map_or(DEFAULT_QOS, String::as_str)
    }

    /// The log QOS index of job `j` (0: none) and its limits, when it has any.
    pub(super) fn of(&self, j: usize) -> (u16, Option<&QosLimits>) {
        let k = self.job_qos.get(j).copied().unwrap_or(0);
        let l = self.limits.get(usize::from(k)).and_then(Option::as_ref);
        (k, l)
    }

    /// Job `j` started (or runs): its QOS's and its user's use grow by it.
    pub(super) fn started(&mut self, c: &Ctx<'_>, j: usize) {
        let (k, l) = self.of(j);
        if l.is_none() {
            return;
        }
        let t = tres(c, j);
        let user = c.job(j).user;
        let (mut new_group, mut new_user) = (0, 0);
        if let Some(cv) = c.cluster() {
            for s in cv.alloc(j).iter() {
                let g = self.group_nodes.entry((k, s.node)).or_insert(0);
                new_group += u64::from(*g == 0);
                *g += 1;
                let u = self.user_nodes.entry((k, user, s.node)).or_insert(0);
                new_user += u64::from(*u == 0);
                *u += 1;
            }
        }
        self.group[usize::from(k)].add(&t, new_group);
        self.user.entry((k, user)).or_default().add(&t, new_user);
    }

    /// The nodes `select_nodes` prefers for job `j` by its QOS's node limits
    /// (node_scheduler.c `_find_qos_grp_node_bitmap`): those its QOS's running jobs hold when
    /// the QOS has a `GrpTRES` node limit, and those its user's running jobs in the QOS hold
    /// when it has a `MaxTRESPU` one; `true` with the former (the association's are not
    /// looked at then).
    pub(super) fn grp_nodes(&self, c: &Ctx<'_>, j: usize, out: &mut Vec<u32>) -> bool {
        let (k, Some(l)) = self.of(j) else {
            return false;
        };
        let grp = l.grp_tres[2].is_some();
        if grp {
            out.extend(
                (self.group_nodes.iter())
                    .filter(|(&(q, _), &n)| q == k && n > 0)
                    .map(|(&(_, x), _)| x),
            );
        }
        if l.max_tres_pu[2].is_some() {
            let user = c.job(j).user;
            out.extend(
                (self.user_nodes.iter())
                    .filter(|(&(q, u, _), &n)| q == k && u == user && n > 0)
                    .map(|(&(_, _, x), _)| x),
            );
        }
        grp
    }

    /// Held before node selection: `GrpJobs`, `MaxJobsPU`, `MaxWall`, with the reason of the
    /// first that holds it in `_qos_job_runnable_pre_select`'s order (acct_policy.c 1967,
    /// 2064, 2107).
    pub(super) fn held_pre(&self, c: &Ctx<'_>, j: usize) -> Option<Reason> {
        let (k, Some(l)) = self.of(j) else {
            return None;
        };
        let v = c.job(j);
        let group = &self.group[usize::from(k)];
        let user = self.user.get(&(k, v.user)).copied().unwrap_or_default();
        let limit = if l.grp_jobs.is_some_and(|n| group.jobs >= n) {
            Limit::GrpJobs
        } else if l.max_jobs_pu.is_some_and(|n| user.jobs >= n) {
            Limit::MaxJobs
        } else if l
            .max_wall
            .is_some_and(|w| v.requested.is_none_or(|r| r > w))
        {
            Limit::MaxWall
        } else {
            return None;
        };
        Some(Reason::of(true, limit, 0))
    }

    /// Held after node selection: `GrpTRES`, `MaxTRESPU`; `on`: the nodes it gets, when
    /// chosen (the `node` ask is then those the QOS, or the user in it, does not hold yet:
    /// `_get_unique_job_node_cnt` before each check, acct_policy.c 2243-2251, 2467-2475).
    /// The reason: the first limit and TRES over (`_get_tres_state_reason`).
    pub(super) fn held_post(&self, c: &Ctx<'_>, j: usize, on: Option<&[Share]>) -> Option<Reason> {
        let (k, Some(l)) = self.of(j) else {
            return None;
        };
        let t = tres(c, j);
        let u = c.job(j).user;
        let group = &self.group[usize::from(k)];
        let user = self.user.get(&(k, u)).copied().unwrap_or_default();
        let ask = |held: &dyn Fn(u32) -> bool| {
            let mut a = t;
            if let Some(on) = on {
                a[2] = on.iter().filter(|s| !held(s.node)).count() as u64;
            }
            a
        };
        let in_group = ask(&|n| self.group_nodes.contains_key(&(k, n)));
        let in_user = ask(&|n| self.user_nodes.contains_key(&(k, u, n)));
        let grp = over_at(&l.grp_tres, &in_group, &group.tres).map(|i| (Limit::GrpTres, i));
        let pu = || over_at(&l.max_tres_pu, &in_user, &user.tres).map(|i| (Limit::MaxTres, i));
        grp.or_else(pu).map(|(limit, i)| Reason::of(true, limit, i))
    }

    /// Why job `j` (`v`, asking `need` of the cluster's nodes) is held for ever, by a limit no
    /// start or end changes (Slurm leaves it pending with the limit's reason): over its QOS's
    /// `MaxWall` (`QOSMaxWallDurationPerJobLimit`); a `GrpJobs` or `MaxJobsPU` of 0 (`used >=
    /// 0` always); a TRES it asks more of than `GrpTRES` or `MaxTRESPU` allows
    /// (`_validate_tres_usage_limits`' `tres_req_cnt > limit`, whatever is used: `QOSGrpCpuLimit`,
    /// `QOSMaxCpuPerUserLimit`, ...). The simulation leaves it out as never runnable, as a job
    /// too large for the cluster (before, the passes of an otherwise idle cluster went on for
    /// ever).
    pub(super) fn never(&self, j: usize, v: JobView, ask: &TresCounts) -> Option<String> {
        let (k, l) = self.of(j);
        let l = l?;
        let name = self
            .names
            .get(usize::from(k))
            .map_or("normal", String::as_str);
        let forever = |what: String, reason: &str| {
            format!("{what} in QOS {name}: held for ever (Slurm's reason {reason})")
        };
        if l.grp_jobs == Some(0) {
            return Some(forever("GrpJobs=0".into(), "QOSGrpJobsLimit"));
        }
        if l.max_jobs_pu == Some(0) {
            return Some(forever("MaxJobsPU=0".into(), "QOSMaxJobsPerUserLimit"));
        }
        if let Some(w) = l.max_wall {
            match v.requested {
                Some(r) if r > w => {
                    let what = format!("its time limit ({r} s) is over MaxWall ({w} s)");
                    return Some(forever(what, "QOSMaxWallDurationPerJobLimit"));
                }
                None => {
                    let what = format!("no time limit, over MaxWall ({w} s)");
                    return Some(forever(what, "QOSMaxWallDurationPerJobLimit"));
                }
                Some(_) => {}
            }
        }
        let limits = [
            ("GrpTRES", &l.grp_tres, GRP_REASONS),
            ("MaxTRESPU", &l.max_tres_pu, USER_REASONS),
        ];
        for (key, limit, reasons) in limits {
            for (i, (lim, &a)) in limit.iter().zip(ask).enumerate() {
                if let Some(lim) = lim.filter(|&lim| a > lim) {
                    let tres = TRES_NAMES[i];
                    let what = format!("it asks {tres}={a}, over {key}'s {tres}={lim}");
                    return Some(forever(what, reasons[i]));
                }
            }
        }
        None
    }
}

/// `_validate_tres_usage_limits` with `safe_limits` and no current use: the first TRES with a
/// limit the job asks more of than the limit, or asks some of with the use already over what
/// is left (its index in the TRES counts), if one is.
pub(super) fn over_at(limit: &TresLimit, ask: &TresCounts, used: &TresCounts) -> Option<usize> {
    (limit.iter().zip(ask).zip(used))
        .position(|((l, &a), &u)| l.is_some_and(|l| a > l || (a > 0 && a.saturating_add(u) > l)))
}

/// Slurm's pending reasons for a `GrpTRES` limit, per TRES of [`TRES_NAMES`]
/// (`job_state_reason_string`, slurm_protocol_defs.c).
const GRP_REASONS: [&str; 4] = [
    "QOSGrpCpuLimit",
    "QOSGrpMemLimit",
    "QOSGrpNodeLimit",
    "QOSGrpGRES",
];
/// The same for `MaxTRESPU`.
const USER_REASONS: [&str; 4] = [
    "QOSMaxCpuPerUserLimit",
    "QOSMaxMemoryPerUser",
    "QOSMaxNodePerUserLimit",
    "QOSMaxGRESPerUser",
];

/// The TRES job `j` asks (or holds): its processors; on a cluster also its memory, nodes and
/// GPUs (a running job's nodes are those it holds).
pub(super) fn tres(c: &Ctx<'_>, j: usize) -> TresCounts {
    let procs = c.job(j).procs;
    let Some(cv) = c.cluster() else {
        return ask(procs, None);
    };
    if c.waiting().contains(j) {
        return ask(procs, Some(cv.need(j)));
    }
    let n = cv.need(j);
    let cpus = u64::from(procs);
    let nodes = cv.alloc(j).len() as u64;
    let mem = job_mem(n.mem_per_node_mb, n.mem_per_cpu_mb, nodes, cpus);
    [cpus, mem, nodes, u64::from(n.gpus)]
}

/// The TRES a waiting job of `procs` processors asks: on a cluster (`need`) also its memory,
/// its nodes (its `-N`, at least 1) and its GPUs.
pub(super) fn ask(procs: u32, need: Option<&Need>) -> TresCounts {
    let cpus = u64::from(procs);
    let Some(n) = need else {
        return [cpus, 0, 0, 0];
    };
    let nodes = u64::from(n.nodes.max(1));
    let mem = job_mem(n.mem_per_node_mb, n.mem_per_cpu_mb, nodes, cpus);
    [cpus, mem, nodes, u64::from(n.gpus)]
}

/// A job's memory TRES, MB, as `job_get_tres_mem` counts it (Slurm 22.05
/// src/slurmctld/job_mgr.c:15913-15919): a memory per processor (`MEM_PER_CPU`) times its
/// processors, else a memory per node times its nodes (a job gives one or the other).
fn job_mem(per_node: u64, per_cpu: u64, nodes: u64, cpus: u64) -> u64 {
    if per_node > 0 {
        per_node.saturating_mul(nodes)
    } else {
        per_cpu.saturating_mul(cpus)
    }
}

#[cfg(test)]
mod tests {
    use super::over_at;

    /// GrpTRES=cpu=12: with 8 in use a job of 4 starts (4 + 8 = 12, not over), one of 5 is
    /// held (13); one of 13 is held whatever is used (over the limit alone); a job asking no
    /// GPU is not held by gres/gpu=2 though 3 are used.
    #[test]
    fn a_tres_limit_holds_what_would_go_over_it() {
        let cpu12 = [Some(12), None, None, None];
        assert!(over_at(&cpu12, &[4, 0, 0, 0], &[8, 0, 0, 0]).is_none());
        assert!(over_at(&cpu12, &[5, 0, 0, 0], &[8, 0, 0, 0]).is_some());
        assert!(over_at(&cpu12, &[13, 0, 0, 0], &[0; 4]).is_some());
        let gpu2 = [None, None, None, Some(2)];
        assert!(over_at(&gpu2, &[8, 0, 1, 0], &[0, 0, 0, 3]).is_none());
        assert!(over_at(&gpu2, &[8, 0, 1, 1], &[0, 0, 0, 2]).is_some());
    }
}
