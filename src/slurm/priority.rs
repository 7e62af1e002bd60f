//! priority/multifactor as Slurm 22.05 computes it (priority_multifactor.c), on a single pool
//! of processors: the usage of every association decayed and accrued every
//! `PriorityCalcPeriod`, the fairshare factors recomputed then, and each waiting job's priority
//! set at its submission and recomputed at every period.
//!
//! - **Usage** (`_decay_thread`, `_apply_new_usage`): periods fall at multiples of
//!   `PriorityCalcPeriod` from time `calc_phase` (Slurm: from the controller's start; the
//!   first, at or before time 0, only marks the time; which side of its second's ends a
//!   period falls, the caller says: `advance(t, true)` before them, `false` after). At each,
//!   every usage is multiplied by `d^Δ` (Δ the seconds since the previous period,
//!   `d = 1 - 0.693 / PriorityDecayHalfLife`, 1 without decay), then each running job adds
//!   `δ · d^δ · billing · f` to its association and every ancestor, δ the seconds it ran since
//!   the previous period (or since its start), billing its processors or, in a partition with
//!   `TRESBillingWeights`, its billable TRES ([`super::billing`]), f its QOS's
//!   `UsageFactor` (1 by default; `real_decay *= qos->usage_factor`, lines 1090-1096). A job that ends adds
//!   its last part the same way at once, but only with
//!   `AccountingStorageEnforce=limits` (or `safe`, `all`): acct_policy.c `_adjust_limit_usage`
//!   calls `priority_g_job_end` only when limits are enforced, and the periods skip ended
//!   jobs, so otherwise a job's usage after its last period is never counted (the committed
//!   real runs' `sshare-end.txt` usage agrees with that, not with the last part counted).
//!   `PriorityUsageResetPeriod` sets usage to zero at the first period of each new day,
//!   week... counted from time 0.
//! - **Factors** (`set_priority_factors`): age = min(seconds since the job's accrue time (its
//!   submission, or under an accrue limit the queue build that let it accrue: `accrue.rs`; 0
//!   until a queue build first found the job waiting, [`Multifactor::queue_built`]) /
//!   `PriorityMaxAge`, 1); fairshare = the association's factor from the last period (Fair Tree;
//!   classic: the accounts' effective usage from the period's start, a user's from the usage
//!   when the period's job list or a submission first needs it, `priority/classic.rs`); job size = (nodes / cluster nodes + processors / cluster processors) / 2, or
//!   with `PriorityFavorSmall` ((N - nodes) / N + (C - processors) / C) / 2, or with
//!   `SMALL_RELATIVE_TO_TIME` max(nodes · C / N, processors) / time limit in minutes / C;
//!   partition = the job's partition's `PriorityJobFactor` over the largest of the cluster's
//!   partitions (`norm_priority`; at least 1 is the largest, as Slurm's `part_max_priority`),
//!   `NO_NORMAL_PART` unnormalized; on a pool 1 unless the factor is 0; TRES: `CPU` = processors / C, `Node` = nodes / N, `Mem` = memory / the
//!   cluster's, `GRES/gpu` = GPUs / the cluster's (0 on a single pool), each a job's request
//!   (`_get_tres_prio_weighted` over `tres_req_cnt`); QOS = the job's QOS priority over the
//!   largest of the site's QOS ([`super::qos`]; 0 without QOS priorities). Association, site
//!   and nice are 0.
//! - **Priority** = Σ weight · factor, at least 1, truncated to a whole number (a `uint32_t`).

use super::accrue::Accrue;
use super::fairshare;
use super::params::SlurmParams;
use super::tree::Tree;
use super::tres_usage::TresUsage;
use super::Size;
use crate::Time;
use classic::Classic;

/// What the multifactor plugin knows of a job.
#[derive(Debug, Clone, Copy)]
pub struct JobInfo {
    /// Submit time.
    pub submit: Time,
    /// Processors.
    pub cpus: u32,
    /// Nodes it spans (at least 1).
    pub nodes: u32,
    /// GPUs over the whole job.
    pub gpus: u32,
    /// Memory over the whole job, MB.
    pub mem_mb: u64,
    /// Time limit, seconds (None: unlimited).
    pub limit: Option<Time>,
    /// Its user association in the tree.
    pub assoc: usize,
    /// Its partition's `PriorityJobFactor` over the largest on a cluster (None: the one
    /// partition's, 1 unless the `PriorityJobFactor` key is 0).
    pub part_factor: Option<f64>,
    /// Its QOS factor ([`super::qos::QosTable::factor`]; 0 without QOS priorities).
    pub qos: f64,
    /// Its QOS's `UsageFactor`: its usage is charged times it (`_apply_new_usage`; 1 by
    /// default, 0: no usage).
    pub usage_factor: f64,
}

/// The plugin's state over a simulation.
#[derive(Debug, Clone)]
pub struct Multifactor {
    /// The parameters.
    pub params: SlurmParams,
    /// The association tree with its usage.
    pub tree: Tree,
    jobs: Vec<JobInfo>,
    /// Fairshare factor per association, as of the last period (or of the start).
    fs: Vec<f64>,
    /// The usage at the last period, when its factors are not computed yet (no job waited
    /// then): computed from it when a job arrives. Fair Tree and the classic formula depend on
    /// usage ratios only, so a period that only decays changes no factor.
    fs_usage: Option<Vec<f64>>,
    /// Usage was accrued since the factors were computed.
    accrued: bool,
    /// The classic formula (`NO_FAIR_TREE`): the accounts' effective usage as of the last
    /// period's start, the normalized shares, and which users' factors in `fs` are set since
    /// (the others are Slurm's `NO_VAL`, computed when first needed); usage changed since the
    /// accounts' were computed.
    classic: Option<Classic>,
    decay: f64,
    cluster_cpus: f64,
    cluster_nodes: f64,
    cluster_mem: f64,
    cluster_gpus: f64,
    /// The last period's time (`g_last_ran`); None before the first.
    last_ran: Option<Time>,
    /// Running jobs: (job, start).
    running: Vec<(usize, Time)>,
    /// Waiting jobs (submitted, not started), ascending.
    pending: Vec<usize>,
    prio: Vec<f64>,
    /// Per job: its priority at its submission (`priority_p_set`), the one sacct records.
    submit_prio: Vec<f64>,
    last_reset_slot: Option<Time>,
    /// The TRES usage of the associations and QOS for their `GrpTRESMins` limits, when one
    /// has such a limit (set by the `slurm` rule; kept whatever the fairshare weight).
    pub tres_usage: Option<TresUsage>,
    /// The log's side of each job's end against the period of its second, when a replay is
    /// told it, with the second the log's periods fall on (`end_sides.rs`); the jobs ended
    /// after the period still due in their second.
    end_sides: (Time, Vec<Option<bool>>),
    after_period: Vec<usize>,
    /// The accrue limits' state, when a QOS or association has one (`accrue.rs`; `None`:
    /// every job's age counts from its submission).
    pub accrue: Option<Accrue>,
    /// Per job: a queue build found it waiting (`acct_policy_handle_accrue_time` set its
    /// accrue time); before, its age is 0.
    built: Vec<bool>,
    /// Per job started in a partition with `TRESBillingWeights`: its billing
    /// ([`super::billing`]); the others' is their processors. Empty until one is set.
    billing: Vec<Option<f64>>,
}

impl Multifactor {
    /// The plugin for `jobs` on a cluster of `size`.
    pub fn new(params: SlurmParams, tree: Tree, jobs: Vec<JobInfo>, size: Size) -> Self {
        let decay = if params.decay_half_life > 0 {
            1.0 - 0.693 / params.decay_half_life as f64
        } else {
            1.0
        };
        let n = jobs.len();
        let mut m = Self {
            params,
            tree,
            jobs,
            fs: Vec::new(),
            fs_usage: None,
            accrued: false,
            classic: None,
            decay,
            cluster_cpus: size.cpus.max(1) as f64,
            cluster_nodes: size.nodes.max(1) as f64,
            cluster_mem: size.mem_mb.max(1) as f64,
            cluster_gpus: size.gpus.max(1) as f64,
            last_ran: None,
            running: Vec::new(),
            pending: Vec::new(),
            prio: vec![0.0; n],
            submit_prio: vec![0.0; n],
            last_reset_slot: Some(0),
            tres_usage: None,
            end_sides: (0, Vec::new()),
            after_period: Vec::new(),
            accrue: None,
            built: vec![false; n],
            billing: Vec::new(),
        };
        m.refresh_fs();
        m
    }

    /// The factors from the tree's usage now (the classic formula: the accounts' effective
    /// usage, each user's factor left for when it is needed).
    fn refresh_fs(&mut self) {
        if self.params.fair_tree {
            self.fs = fairshare::fair_tree(&self.tree).0;
        } else {
            let c = self.classic.get_or_insert_with(|| Classic {
                ue: Vec::new(),
                norm_shares: fairshare::classic_norm_shares(&self.tree),
                set: Vec::new(),
                changed: true,
            });
            if c.changed {
                c.ue = fairshare::classic_accounts(&self.tree);
                c.changed = false;
            }
            c.set.clear();
            c.set.resize(self.tree.nodes.len(), false);
            self.fs.resize(self.tree.nodes.len(), 0.0);
        }
        self.accrued = false;
    }

    /// The factors of the last period, computed now if they were left for later.
    fn period_fs(&mut self) {
        if let Some(usage) = self.fs_usage.take() {
            let now = self.tree.swap_usage(usage);
            self.refresh_fs();
            self.tree.swap_usage(now);
            self.accrued = true;
        }
    }

    /// The association job `j` is charged to.
    pub fn assoc_of(&self, j: usize) -> usize {
        self.jobs[j].assoc
    }

    /// The priority of job `j` as last set.
    pub fn priority(&self, j: usize) -> f64 {
        self.prio[j]
    }

    /// The job's priority at `t` from the current factors.
    fn compute(&self, j: usize, t: Time) -> f64 {
        let p = &self.params;
        let job = &self.jobs[j];
        let (c, n) = (self.cluster_cpus, self.cluster_nodes);
        let cpus = f64::from(job.cpus);
        let nodes = f64::from(job.nodes.max(1));
        let mut prio = 0.0;
        // From the job's accrue time; none yet, no age (`set_priority_factors`). It is set by
        // the first queue build that finds the job waiting, not at its submission.
        let since = match self.accrue.as_ref() {
            _ if !self.built.get(j).copied().unwrap_or(false) => None,
            None => Some(job.submit),
            Some(a) => a.since(j),
        };
        if let (true, Some(since)) = (p.weight_age > 0.0, since) {
            let diff = (t - since).max(0);
            let age = if diff < p.max_age {
                diff as f64 / p.max_age as f64
            } else {
                1.0
            };
            prio += p.weight_age * age;
        }
        if p.weight_fs > 0.0 {
            prio += p.weight_fs * self.fs.get(job.assoc).copied().unwrap_or(0.0);
        }
        if p.weight_js > 0.0 {
            let js = if p.small_relative_to_time {
                let size = (nodes * c / n).max(cpus);
                let minutes = job
                    .limit
                    .map_or(365.0 * 1440.0, |l| (l as f64 / 60.0).max(1.0));
                let v = size / minutes / c;
                if p.favor_small {
                    1.0 - v
                } else {
                    v
                }
            } else if p.favor_small {
                ((n - nodes) / n + (c - cpus) / c) / 2.0
            } else {
                (nodes / n + cpus / c) / 2.0
            };
            prio += p.weight_js * js.clamp(0.0, 1.0);
        }
        if p.weight_part > 0.0 {
            prio += p.weight_part
                * job.part_factor.unwrap_or(if p.partition_job_factor > 0.0 {
                    1.0
                } else {
                    0.0
                });
        }
        if p.weight_qos > 0.0 && job.qos > 0.0 {
            prio += p.weight_qos * job.qos;
        }
        let normal = !p
            .flags
            .iter()
            .any(|f| f == "NO_NORMAL_TRES" || f == "NO_NORMAL_ALL");
        for (name, w) in &p.weight_tres {
            let (v, total) = match name.to_ascii_lowercase().as_str() {
                "cpu" => (cpus, c),
                "node" => (nodes, n),
                "mem" => (job.mem_mb as f64, self.cluster_mem),
                "gres/gpu" => (f64::from(job.gpus), self.cluster_gpus),
                _ => continue,
            };
            prio += w * if normal { v / total } else { v };
        }
        prio.max(1.0).min(f64::from(u32::MAX)).trunc()
    }

    /// Job `j` asks `nodes` nodes, `gpus` GPUs and `mem_mb` MB in all (its request on a
    /// cluster: Slurm's requested TRES).
    pub fn shape(&mut self, j: usize, nodes: u32, gpus: u32, mem_mb: u64) {
        let job = &mut self.jobs[j];
        job.nodes = nodes.max(1);
        job.gpus = gpus;
        job.mem_mb = mem_mb;
    }

    /// Job `j` runs in a partition whose partition factor is `factor` (its
    /// `PriorityJobFactor` over the largest of the cluster's partitions, `norm_priority`).
    pub fn partition_factor(&mut self, j: usize, factor: f64) {
        self.jobs[j].part_factor = Some(factor);
    }

    /// The cluster's totals, the denominators of the job size and TRES factors.
    pub fn set_size(&mut self, size: Size) {
        self.cluster_cpus = size.cpus.max(1) as f64;
        self.cluster_nodes = size.nodes.max(1) as f64;
        self.cluster_mem = size.mem_mb.max(1) as f64;
        self.cluster_gpus = size.gpus.max(1) as f64;
    }

    /// Job `j` was submitted at `t`: its first priority (Slurm's `priority_p_set`).
    pub fn submitted(&mut self, j: usize, t: Time) {
        if let Err(i) = self.pending.binary_search(&j) {
            self.pending.insert(i, j);
        }
        if self.params.weight_fs > 0.0 {
            self.period_fs();
            self.classic_fs(self.jobs[j].assoc);
        }
        self.prio[j] = self.compute(j, t);
        self.submit_prio[j] = self.prio[j];
    }

    /// The priority job `j` was given at its submission (0 before it): Slurm's accounting
    /// records it (sacct's `Priority`, `replay::prio_sides`).
    pub fn submitted_priority(&self, j: usize) -> f64 {
        self.submit_prio.get(j).copied().unwrap_or(0.0)
    }

    /// Job `j`'s usage is charged `billing` per second (its billable TRES, from its
    /// partition's `TRESBillingWeights`; [`super::billing`]) instead of its processors.
    pub fn set_billing(&mut self, j: usize, billing: f64) {
        if self.billing.len() <= j {
            self.billing.resize(self.jobs.len().max(j + 1), None);
        }
        self.billing[j] = Some(billing);
    }

    /// What job `j`'s usage is charged per second: its billing when set, else its processors.
    pub fn billing(&self, j: usize) -> f64 {
        match self.billing.get(j).copied().flatten() {
            Some(b) => b,
            None => self.jobs.get(j).map_or(0.0, |i| f64::from(i.cpus)),
        }
    }

    /// Job `j` started at `t`.
    pub fn started(&mut self, j: usize, t: Time) {
        if let Ok(i) = self.pending.binary_search(&j) {
            self.pending.remove(i);
        }
        self.running.push((j, t));
        if let Some(a) = self.accrue.as_mut() {
            a.started(j);
        }
    }

    /// A scheduler loop builds its queue at `t` (`build_job_queue`): every waiting job gets its
    /// accrue time (`acct_policy_handle_accrue_time`: its submission, age from then on), and
    /// those under an accrue limit with room start accruing ([`Accrue::queue_built`]).
    pub fn queue_built(&mut self, t: Time) {
        for &j in &self.pending {
            if let Some(b) = self.built.get_mut(j) {
                *b = true;
            }
        }
        if let Some(a) = self.accrue.as_mut() {
            a.queue_built(t, &self.pending);
        }
    }

    /// Job `j` ended at `t`: its usage since the last period (`priority_p_job_end`).
    pub fn ended(&mut self, j: usize, t: Time) {
        let Some(k) = self.running.iter().position(|&(r, _)| r == j) else {
            return;
        };
        let (_, start) = self.running.swap_remove(k);
        if self.params.enforce_limits && self.keeps_usage() {
            self.accrue(j, start, t);
        }
    }
}

mod classic;
mod end_sides;
mod periods;

#[cfg(test)]
mod tests;
