//! Association limits (Slurm 22.05 `src/slurmctld/acct_policy.c`, with `AccountingStorageEnforce`
//! naming `limits`): what the running jobs use of each association, and whether a waiting job
//! is held by its association's limits or a parent's (docs/slurm.md "Association limits").
//!
//! A job is charged to its user's association in its account; the walk goes from it up to
//! the root (`assoc_ptr->usage->parent_assoc_ptr`). The Grp limits are checked at every level,
//! the Max limits on the job's own association only ("we have pre-propogated them": a user's
//! association holds the Max limits it inherits, as the assoc file prints them).
//!
//! - **Before node selection** (`acct_policy_job_runnable_pre_select`): held when an
//!   association's running jobs (its own and its children's) are `GrpJobs` or more, unless the
//!   job's QOS sets `GrpJobs`; when its own association's are `MaxJobs` or more, unless the
//!   QOS sets `MaxJobsPU` (or `MaxJobsPA`); when its time limit is over its association's
//!   `MaxWall`, unless the QOS sets `MaxWall`.
//! - **After node selection** (`acct_policy_job_runnable_post_select`): held when, for a TRES
//!   of an association's `GrpTRES` that the job's QOS's `GrpTRES` does not set, the job asks
//!   more than the limit, or asks some and what it asks plus the association's running jobs'
//!   (`grp_used_tres`) is over it (`_validate_tres_usage_limits_for_assoc` with
//!   `safe_limits`); or when it asks more of a TRES than its own association's `MaxTRES`
//!   (`_validate_tres_limits_for_assoc` on `max_tres_ctld`).
//!
//! "Used" grows at a job's start at every level of its walk (`acct_policy_job_begin`,
//! `_adjust_limit_usage`) and is taken back at its end. The node TRES used is the count of
//! distinct nodes the association's running jobs hold (`_add_usage_node_bitmap`); a job's
//! ask of it is, once its nodes are chosen, those of them the association does not hold yet
//! (`_get_unique_job_node_cnt`), else its whole node count.

use super::qos_use::{over_at, tres};
use super::reasons::{Limit, Reason};
use crate::cluster::Share;
use crate::sim::{Ctx, JobView};
use crate::slurm::assoc::AssocLimits;
use crate::slurm::qos::DEFAULT_QOS;
use crate::slurm::qos_limits::{QosLimits, TresCounts, TRES_NAMES};
use crate::slurm::Site;
use std::collections::HashMap;

/// A count of running jobs and their TRES (nodes: distinct nodes).
#[derive(Debug, Clone, Copy, Default)]
struct Used {
    jobs: u32,
    tres: TresCounts,
}

/// What the running jobs use of each association, kept through one loop of the scheduler
/// (made from the running jobs, then told each start).
#[derive(Debug, Clone)]
pub(super) struct AssocUse {
    /// Per association: its limits, its walk up to the root (itself first) and its name.
    limits: Vec<AssocLimits>,
    walk: Vec<Vec<usize>>,
    names: Vec<String>,
    /// Each job's association (`None`: the file has none for it, no limit).
    job_assoc: Vec<Option<usize>>,
    /// Each job's QOS's limits (what they set, the association's same limits give way).
    job_qos: Vec<QosLimits>,
    used: Vec<Used>,
    /// Jobs per (association, node), for the distinct nodes.
    on_node: HashMap<(usize, u32), u32>,
}

impl AssocUse {
    /// The use of the site's association limits, when some association has one (`None`:
    /// nothing to hold, and no check at all). The jobs are told in [`AssocUse::prepare`].
    pub(super) fn of_site(site: &Site) -> Option<Self> {
        let (table, _) = site.assoc.as_ref()?;
        if !table.has_limits() {
            return None;
        }
        let n = table.rows.len();
        let walk = (0..n).map(|k| table.walk(k)).collect();
        Some(AssocUse {
            limits: table.rows.iter().map(|a| a.limits).collect(),
            walk,
            names: (table.rows.iter())
                .map(|a| match &a.user {
                    Some(u) => format!("user {u} in account {}", a.account),
                    None => format!("account {}", a.account),
                })
                .collect(),
            job_assoc: Vec::new(),
            job_qos: Vec::new(),
            used: vec![Used::default(); n],
            on_node: HashMap::new(),
        })
    }

    /// Finds each job's association: its user's in its account (the log's `Account`; a job
    /// naming none: its user's first association in the file), else the account's own;
    /// and its QOS's limits.
    pub(super) fn prepare(&mut self, site: &Site, jobs: impl Iterator<Item = JobView>) {
        let Some((table, _)) = site.assoc.as_ref() else {
            return;
        };
        let mut memo: HashMap<(i64, &str), Option<usize>> = HashMap::new();
        self.job_assoc.clear();
        self.job_qos.clear();
        for (j, v) in jobs.enumerate() {
            let account = site.accounts.get(j).map_or("", String::as_str);
            let a = *memo
                .entry((v.user, account))
                .or_insert_with(|| table.of_job(&site.user_name(v.user), account));
            self.job_assoc.push(a);
            let qos = site.qos_of(j).unwrap_or(DEFAULT_QOS);
            let q = site.qos.as_ref().and_then(|(t, _)| t.limits_of(qos));
            self.job_qos.push(q.copied().unwrap_or_default());
        }
    }

    /// The number of associations.
    pub(super) fn len(&self) -> usize {
        self.limits.len()
    }

    /// Association `k`'s limits and name (`account phys`, `user bob in account phys`).
    pub(super) fn at(&self, k: usize) -> (&AssocLimits, &str) {
        (&self.limits[k], &self.names[k])
    }

    /// Job `j`'s walk (its association and parents) and its QOS's limits.
    pub(super) fn of(&self, j: usize) -> Option<(&[usize], &QosLimits)> {
        let a = (*self.job_assoc.get(j)?)?;
        Some((&self.walk[a], &self.job_qos[j]))
    }

    /// Counts the jobs running now afresh (at the start of a loop of the scheduler).
    pub(super) fn reset(&mut self, c: &Ctx<'_>) {
        self.used.iter_mut().for_each(|u| *u = Used::default());
        self.on_node.clear();
        for (_, j) in c.running() {
            self.started(c, j);
        }
    }

    /// Job `j` started (or runs): every association of its walk uses it.
    pub(super) fn started(&mut self, c: &Ctx<'_>, j: usize) {
        let Some(a) = self.job_assoc.get(j).copied().flatten() else {
            return;
        };
        let t = tres(c, j);
        let nodes: Vec<u32> = match c.cluster() {
            Some(cv) => cv.alloc(j).iter().map(|s| s.node).collect(),
            None => Vec::new(),
        };
        for &k in &self.walk[a] {
            let u = &mut self.used[k];
            u.jobs = u.jobs.saturating_add(1);
            for i in [0, 1, 3] {
                u.tres[i] = u.tres[i].saturating_add(t[i]);
            }
            for &n in &nodes {
                let held = self.on_node.entry((k, n)).or_insert(0);
                if *held == 0 {
                    u.tres[2] += 1;
                }
                *held += 1;
            }
        }
    }

    /// The nodes `select_nodes` prefers for job `j` by its association's node limit
    /// (node_scheduler.c `_find_grp_node_bitmap`): those the running jobs of the first
    /// association of its walk with a `GrpTRES` node limit hold (its own jobs' and its
    /// children's).
    pub(super) fn grp_nodes(&self, j: usize, out: &mut Vec<u32>) {
        let Some((walk, _)) = self.of(j) else {
            return;
        };
        if let Some(&k) = walk.iter().find(|&&k| self.limits[k].grp_tres[2].is_some()) {
            out.extend(
                (self.on_node.iter())
                    .filter(|(&(a, _), &n)| a == k && n > 0)
                    .map(|(&(_, x), _)| x),
            );
        }
    }

    /// Held before node selection: `GrpJobs` up the walk, `MaxJobs` and `MaxWall` of its own,
    /// with the reason of the first that holds it (`acct_policy_job_runnable_pre_select`'s
    /// walk, acct_policy.c 3543, 3623, 3663: an association's reason does not name which one).
    pub(super) fn held_pre(&self, c: &Ctx<'_>, j: usize) -> Option<Reason> {
        let (walk, q) = self.of(j)?;
        let requested = c.job(j).requested;
        walk.iter().enumerate().find_map(|(depth, &k)| {
            let (l, u) = (&self.limits[k], &self.used[k]);
            let limit = if q.grp_jobs.is_none() && l.grp_jobs.is_some_and(|n| u.jobs >= n) {
                Limit::GrpJobs
            } else if depth > 0 {
                return None;
            } else if q.max_jobs_pu.is_none() && l.max_jobs.is_some_and(|n| u.jobs >= n) {
                Limit::MaxJobs
            } else if q.max_wall.is_none()
                && l.max_wall.is_some_and(|w| requested.is_none_or(|r| r > w))
            {
                Limit::MaxWall
            } else {
                return None;
            };
            Some(Reason::of(false, limit, 0))
        })
    }

    /// Held after node selection: `GrpTRES` up the walk, `MaxTRES` of its own; `on`: the
    /// nodes it gets, when chosen (the `node` ask at each association is then those it does
    /// not hold yet). The reason: the first limit and TRES over.
    pub(super) fn held_post(&self, c: &Ctx<'_>, j: usize, on: Option<&[Share]>) -> Option<Reason> {
        let (walk, q) = self.of(j)?;
        let t = tres(c, j);
        walk.iter().enumerate().find_map(|(depth, &k)| {
            let l = &self.limits[k];
            let mut ask = t;
            if let Some(on) = on {
                let new = on
                    .iter()
                    .filter(|s| !self.on_node.contains_key(&(k, s.node)));
                ask[2] = new.count() as u64;
            }
            let grp =
                over_at(&grp_tres(l, q), &ask, &self.used[k].tres).map(|i| (Limit::GrpTres, i));
            let max = || {
                let mut m = l.max_tres.iter().zip(&t);
                (depth == 0)
                    .then(|| m.position(|(m, &a)| m.is_some_and(|m| a > m)))
                    .flatten()
                    .map(|i| (Limit::MaxTres, i))
            };
            grp.or_else(max)
                .map(|(limit, i)| Reason::of(false, limit, i))
        })
    }

    /// Why job `j` is held for ever by its association's limits alone, when it is: its time
    /// limit over `MaxWall`, more of a TRES than `MaxTRES` or a `GrpTRES` up the walk, or a
    /// `GrpJobs`/`MaxJobs` of 0 (Slurm pends it with `AssocMaxWallDurationPerJobLimit`,
    /// `AssocMaxCpuPerJobLimit`, `AssocGrpCpuLimit`, ...). The simulation leaves it out as
    /// never runnable, as a job too large for the cluster. `v` is the job, `ask` the TRES it
    /// asks as the limit checks count them (`qos_use::ask`: on a cluster, its memory as
    /// `job_get_tres_mem` counts it, job_mgr.c:15913-15919 in 22.05).
    pub(super) fn never(&self, j: usize, v: JobView, ask: &TresCounts) -> Option<String> {
        let (walk, q) = self.of(j)?;
        let requested = v.requested;
        for (depth, &k) in walk.iter().enumerate() {
            let (l, who) = (&self.limits[k], &self.names[k]);
            if q.grp_jobs.is_none() && l.grp_jobs == Some(0) {
                return Some(format!("{who}'s GrpJobs is 0: held for ever"));
            }
            if let Some(i) = (0..4).find(|&i| grp_tres(l, q)[i].is_some_and(|m| ask[i] > m)) {
                return Some(format!(
                    "it asks {} {} of {who}'s GrpTRES={}: held for ever",
                    ask[i],
                    TRES_NAMES[i],
                    grp_tres(l, q)[i].unwrap_or(0)
                ));
            }
            if depth > 0 {
                continue;
            }
            if q.max_jobs_pu.is_none() && l.max_jobs == Some(0) {
                return Some(format!("{who}'s MaxJobs is 0: held for ever"));
            }
            if let Some(i) = (0..4).find(|&i| l.max_tres[i].is_some_and(|m| ask[i] > m)) {
                return Some(format!(
                    "it asks {} {} over {who}'s MaxTRES={}: held for ever",
                    ask[i],
                    TRES_NAMES[i],
                    l.max_tres[i].unwrap_or(0)
                ));
            }
            if let Some(w) = l.max_wall.filter(|_| q.max_wall.is_none()) {
                match requested {
                    Some(r) if r > w => {
                        return Some(format!(
                            "its time limit ({r} s) is over {who}'s MaxWall ({w} s): held for ever"
                        ))
                    }
                    None => {
                        return Some(format!(
                            "no time limit, over {who}'s MaxWall ({w} s): held for ever"
                        ))
                    }
                    _ => {}
                }
            }
        }
        None
    }
}

/// An association's `GrpTRES` without the TRES its job's QOS's `GrpTRES` sets (the QOS's
/// limit is checked instead: `qos_rec.grp_tres_ctld` set, `_validate_tres_usage_limits`
/// skips the TRES).
fn grp_tres(l: &AssocLimits, q: &QosLimits) -> [Option<u64>; 4] {
    let mut t = l.grp_tres;
    for (a, b) in t.iter_mut().zip(&q.grp_tres) {
        if b.is_some() {
            *a = None;
        }
    }
    t
}
