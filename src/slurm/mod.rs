//! Slurm's scheduling as the `slurm` policy models it: the parameters under Slurm's names
//! ([`params`]), the association tree and its usage ([`tree`], from `sshare -a -l -P` output:
//! [`sshare`]), fairshare by Fair Tree or the classic formula ([`fairshare`]) and the
//! multifactor priority ([`priority`]). The scheduling loops that use them (the main scheduler
//! and backfill) are the policy's start rule, `policy/rule/slurm.rs`; docs/slurm.md says where
//! each rule comes from in Slurm 22.05.
//!
//! This module knows no simulation: it computes from plain values, so that it can be tested
//! against the committed real runs by hand.

pub mod accrue;
pub mod assoc;
pub mod billing;
pub mod fairshare;
pub mod params;
pub mod phases_from_log;
pub mod priority;
pub mod qos;
pub mod qos_limits;
pub mod site_note;
pub mod sshare;
pub mod state;
pub mod tree;
pub mod tres_usage;

use crate::cluster::conf::SlurmConf;
use params::SlurmParams;
use sshare::Row;

/// A year, seconds (Slurm's `YEAR_SECONDS`): how long `OverTimeLimit=UNLIMITED` lets a job
/// run past its limit (`job_time_limit`).
pub const YEAR_SECONDS: crate::Time = 365 * 86400;

/// What a site tells the policy beyond its spec: the slurm.conf parameters, the association
/// tree with its usage at the log's start, the trace's user names, the cluster's size.
#[derive(Debug, Clone, Default)]
pub struct Site {
    /// Parameters from slurm.conf, (Slurm name, value) ([`params::conf_pairs`]); a spec's
    /// keys override them.
    pub conf: Vec<(&'static str, String)>,
    /// The slurm.conf's values the `slurm` policy cannot read, (parameter, error naming the
    /// file, line and key): a `slurm` policy that does not give the parameter itself fails
    /// with it ([`params::check_conf_values`]); other policies do not read them.
    pub conf_errors: Vec<(&'static str, String)>,
    /// The `sshare -a -l -P` rows, when given.
    pub sshare: Option<(Vec<Row>, String)>,
    /// User names by trace user id (`users[id - 1]`), when the trace names them.
    pub users: Vec<String>,
    /// The size of the cluster slurm.conf describes, when given.
    pub size: Option<Size>,
    /// Each job's account (by job index; Slurm's `Account`), when the log names them: the job
    /// is charged to its user's association in that account.
    pub accounts: Vec<String>,
    /// The log's clock at time 0 (seconds since the epoch for an sacct log: its first
    /// submission): Slurm rounds its backfill times (`bf_resolution`, the will-run test's 30-s
    /// groups) on the epoch, so the policy rounds `clock + t`. 0 when unknown.
    pub clock: crate::Time,
    /// The partitions' own `OverTimeLimit`s, seconds (`None`: `UNLIMITED`), by name: Slurm's
    /// limit checks read a job's partition's before the cluster's (`job_time_limit`).
    pub over_time: Vec<(String, Option<crate::Time>)>,
    /// The default partition's name (slurm.conf's `Default=YES`), when given.
    pub default_partition: Option<String>,
    /// The QOS priorities of `sacctmgr show qos format=Name,Priority -P` output, with its file
    /// name, when given (the policy's `qos` key replaces them).
    pub qos: Option<(qos::QosTable, String)>,
    /// The association limits of `sacctmgr show assoc format=Cluster,Account,User,Partition,
    /// ParentName,Share,GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall -P` output, with its file name,
    /// when given.
    pub assoc: Option<(assoc::AssocTable, String)>,
    /// The log's QOS names (an sacct log's `QOS` column, in order of first appearance).
    pub qos_names: Vec<String>,
    /// Each job's QOS (by job index): `k` is `qos_names[k - 1]`, 0 none (its association's
    /// default, `normal`). Empty when the log has no QOS column.
    pub job_qos: Vec<u16>,
    /// What the log shows of the controller's loops (an sacct log's backfill starts and jobs
    /// ended at their limit): the phases a spec does not give are read from it
    /// ([`phases_from_log`]).
    pub log_clocks: Option<phases_from_log::LogClocks>,
}

/// The clock of a trace's time 0 for [`Site::with_clock`]: its header's `UnixStartTime` (an
/// sacct log's first submission, UTC) plus the time origin `origin`; 0 when the header has none.
pub fn clock_of(header: &crate::swf::SwfHeader, origin: crate::Time) -> crate::Time {
    header.unix_start_time.unwrap_or(0).saturating_add(origin)
}

/// A cluster's totals, the denominators of the job size and TRES factors.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Size {
    /// Cores.
    pub cpus: u64,
    /// Nodes.
    pub nodes: u64,
    /// Memory, MB.
    pub mem_mb: u64,
    /// GPUs.
    pub gpus: u64,
}

impl Size {
    /// The totals of the nodes of `l` (every node, as Slurm's `cluster_tres` counts them).
    pub fn of_layout(l: &crate::cluster::Layout) -> Size {
        l.nodes.iter().fold(
            Size {
                nodes: l.nodes.len() as u64,
                ..Size::default()
            },
            |t, n| Size {
                cpus: t.cpus + u64::from(n.cpus),
                mem_mb: t.mem_mb + n.mem_mb,
                gpus: t.gpus + u64::from(n.gpus),
                ..t
            },
        )
    }
}

impl Site {
    /// The site of a slurm.conf's, an `sshare -a -l -P` output's, an `sacctmgr show qos
    /// format=Name,Priority -P` output's and an `sacctmgr show assoc ... -P` output's texts,
    /// each with its file name for errors (which name the file, line and field); `None` when
    /// none is given.
    pub fn of_texts(
        conf: Option<(&str, &str)>,
        sshare: Option<(&str, &str)>,
        qos: Option<(&str, &str)>,
        assoc: Option<(&str, &str)>,
    ) -> Result<Option<Site>, String> {
        let read = match conf {
            Some((text, file)) => Some((
                crate::cluster::conf::parse_str(text, file).map_err(|e| e.to_string())?,
                file,
            )),
            None => None,
        };
        Site::of_read(read.as_ref().map(|(c, f)| (c, *f)), sshare, qos, assoc)
    }

    /// [`Site::of_texts`] with the slurm.conf already read (the CLI reads its `Include` lines'
    /// files: `cluster::conf::read_path`).
    pub fn of_read(
        conf: Option<(&crate::cluster::conf::SlurmConf, &str)>,
        sshare: Option<(&str, &str)>,
        qos: Option<(&str, &str)>,
        assoc: Option<(&str, &str)>,
    ) -> Result<Option<Site>, String> {
        if conf.is_none() && sshare.is_none() && qos.is_none() && assoc.is_none() {
            return Ok(None);
        }
        let mut site = Site::default();
        if let Some((read, file)) = conf {
            site = site.with_conf(read);
            site.conf_errors =
                params::check_conf_values(&read.params.iter_placed().collect::<Vec<_>>(), file);
        }
        if let Some((text, file)) = sshare {
            site = site.with_sshare(text, file)?;
        }
        if let Some((text, file)) = qos {
            site = site.with_qos(text, file)?;
        }
        if let Some((text, file)) = assoc {
            site = site.with_assoc(text, file)?;
        }
        Ok(Some(site))
    }

    /// Takes in a slurm.conf: its scheduling parameters, the default partition's
    /// `PriorityJobFactor` (when not 1) and the cluster's size.
    pub fn with_conf(mut self, conf: &SlurmConf) -> Self {
        self.conf = params::conf_pairs(conf.params.iter().map(|(k, v, _)| (k, v)));
        self.over_time = (conf.over_time.iter())
            .map(|(n, m)| (n.clone(), m.map(|m| crate::Time::from(m) * 60)))
            .collect();
        self.default_partition = conf.cluster.default_partition().map(|p| p.name.clone());
        // The default partition's `PriorityJobFactor`, when it is not Slurm's default (1): a
        // partition line without the key would otherwise be said to set it.
        if let Some(p) = conf.cluster.default_partition() {
            if p.priority_job_factor != 1 {
                self.conf
                    .push(("PriorityJobFactor", p.priority_job_factor.to_string()));
            }
        }
        let c = &conf.cluster;
        if c.total_nodes() > 0 {
            self.size = Some(Size {
                cpus: c.total_cores(),
                nodes: c.total_nodes(),
                mem_mb: c.total_mem_mb(),
                gpus: c.total_gpus(),
            });
        }
        self
    }

    /// Takes in `sshare -a -l -P` output read from `file`.
    pub fn with_sshare(mut self, text: &str, file: &str) -> Result<Self, String> {
        let rows = sshare::parse(text, file)?;
        tree::Tree::from_sshare(&rows, file)?;
        self.sshare = Some((rows, file.to_string()));
        Ok(self)
    }

    /// Takes the user names from a trace's header notes (`; Note: users numbered in order of
    /// first appearance: 1=alice, 2=bob`, as the sacct reader writes them).
    pub fn with_user_names<'a>(mut self, header_lines: impl Iterator<Item = &'a str>) -> Self {
        self.users = crate::workload::names::Names::of_header(header_lines).users;
        self
    }

    /// Takes in `sacctmgr show qos format=Name,Priority -P` output read from `file`.
    pub fn with_qos(mut self, text: &str, file: &str) -> Result<Self, String> {
        self.qos = Some((qos::parse(text, file)?, file.to_string()));
        Ok(self)
    }

    /// Takes in `sacctmgr show assoc ... -P` output read from `file` ([`assoc::parse`]).
    pub fn with_assoc(mut self, text: &str, file: &str) -> Result<Self, String> {
        self.assoc = Some((assoc::parse(text, file)?, file.to_string()));
        Ok(self)
    }

    /// Takes the log's QOS names and each job's QOS (by job index; [`Site::job_qos`]).
    pub fn with_job_qos(mut self, names: Vec<String>, jobs: Vec<u16>) -> Self {
        self.qos_names = names;
        self.job_qos = jobs;
        self
    }

    /// The QOS name of job `j`, when the log gives one.
    pub fn qos_of(&self, j: usize) -> Option<&str> {
        let k = usize::from(*self.job_qos.get(j)?);
        self.qos_names.get(k.checked_sub(1)?).map(String::as_str)
    }

    /// Takes each job's account (by job index).
    pub fn with_accounts(mut self, accounts: Vec<String>) -> Self {
        self.accounts = accounts;
        self
    }

    /// Takes what the log shows of the loops' clocks ([`Site::log_clocks`]).
    pub fn with_log_clocks(mut self, clocks: Option<phases_from_log::LogClocks>) -> Self {
        self.log_clocks = clocks;
        self
    }

    /// Takes the log's clock at time 0 ([`Site::clock`]).
    pub fn with_clock(mut self, clock: crate::Time) -> Self {
        self.clock = clock;
        self
    }

    /// The parameters: Slurm's defaults, then slurm.conf's.
    pub fn params(&self) -> Result<SlurmParams, String> {
        let mut p = SlurmParams::default();
        for (k, v) in &self.conf {
            p.set(k, v).map_err(|e| format!("slurm.conf {k}: {e}"))?;
        }
        Ok(p)
    }

    /// How long past its limit a job may run before a limit check ends it, seconds, for a job
    /// naming no partition (the default one), then for each of `partitions`: the partition's
    /// own `OverTimeLimit` when slurm.conf sets one, else the cluster's `cluster` (`None`:
    /// `UNLIMITED`, a year), as `job_time_limit` (job_mgr.c) reads them.
    pub fn over_times(
        &self,
        cluster: Option<crate::Time>,
        partitions: &[String],
    ) -> Vec<crate::Time> {
        let unlimited = YEAR_SECONDS;
        let cluster = cluster.unwrap_or(unlimited);
        let own = |name: &str| {
            let o = self.over_time.iter().find(|(n, _)| n == name);
            o.map_or(cluster, |(_, o)| o.unwrap_or(unlimited))
        };
        let default = self.default_partition.as_deref().map_or(cluster, own);
        std::iter::once(default)
            .chain(partitions.iter().map(|n| own(n)))
            .collect()
    }

    /// The name of trace user `id` (its number when the trace names no user).
    pub fn user_name(&self, id: i64) -> String {
        crate::workload::names::name_or_number(&self.users, id)
    }
}
