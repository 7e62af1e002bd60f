//! The metrics catalogue: every figure a run is compared by, once: its name (the sweep's
//! `--metric NAME`), labels, unit, digits, which direction is better, where it sits in the run's
//! JSON report and how to read it from a run. The CLI table, the page's results table (through
//! the facade's `metrics()`), the sweeps and the JSON consistency test all read it.

use super::classic::Classic;
use super::cluster::ClusterMetrics;
use super::eet::UserAware;
use super::fairness::Fairness;
use super::guarantee::Guarantee;
use super::penalty::Penalty;
use crate::quote::quote;
use serde::Serialize;

/// Which way a metric is better, to mark the best value of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    Lower,
    Higher,
    /// Neither: a count or a property of the trace.
    None,
}

/// The metric family a figure belongs to; `Penalty` figures exist only with the node model,
/// `Cluster` figures only on a cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Wait, response, slowdowns, utilization, counts (`metrics/classic.rs`).
    Classic,
    /// User-aware expected end times (`metrics/eet.rs`).
    Eet,
    /// The PV-EASY paper's fairness, reservation and preemption tables (`metrics/fairness.rs`).
    Fairness,
    /// The resource-sharing family over the measured window (`metrics/penalty.rs`).
    Penalty,
    /// Guarantee accuracy (`metrics/guarantee.rs`, Zotkin et al. section 8): only for runs that
    /// promise every job a start on arrival; part of the fairness report (`fairness.guarantee`).
    Guarantee,
    /// Utilization per resource, GPU-hours waited, GPU fragmentation (`metrics/cluster.rs`):
    /// only for runs on a cluster.
    Cluster,
}

/// The measured figures of one run, as the catalogue reads them.
#[derive(Clone, Copy)]
pub struct Figures<'a> {
    pub classic: &'a Classic,
    pub eet: &'a UserAware,
    pub fairness: &'a Fairness,
    /// Present when the node model was on.
    pub penalty: Option<&'a Penalty>,
    /// Present when the run was on a cluster.
    pub cluster: Option<&'a ClusterMetrics>,
}

/// How a metric is read from a run's figures.
#[derive(Clone, Copy)]
enum Read {
    Classic(fn(&Classic) -> f64),
    Eet(fn(&UserAware) -> f64),
    Fairness(fn(&Fairness) -> f64),
    Penalty(fn(&Penalty) -> f64),
    Guarantee(fn(&Guarantee) -> f64),
    Cluster(fn(&ClusterMetrics) -> f64),
}

/// One metric of the catalogue.
#[derive(Clone, Copy, Serialize)]
pub struct Metric {
    /// The name a sweep measures (`schedlab sweep --metric NAME`, the page's sweep panel).
    pub name: &'static str,
    /// The label of the page's table and of sweep charts (without the unit).
    pub label: &'static str,
    /// The row label of the CLI table, unit included (padded to [`SHORT_WIDTH`] characters).
    pub short: &'static str,
    /// `s`, `%`, `processor-s`, `GPU-h` or empty.
    pub unit: &'static str,
    /// Decimals shown.
    pub digits: u8,
    pub better: Better,
    pub family: Family,
    /// Where the value sits in the run's JSON report (`schedlab run --json`): a dotted path into
    /// `metrics`, or into the report itself when it starts with `eet.`, `fairness.`,
    /// `penalty.` or `cluster.`.
    pub path: &'static str,
    #[serde(skip)]
    read: Read,
}

/// The width of the CLI table's label column: the longest CLI label of [`METRICS`] and a space,
/// so that every row's values start in the same column (a fixed 22 left five labels running
/// into their first value).
pub const SHORT_WIDTH: usize = longest_short(METRICS) + 1;

/// The most characters of any metric's CLI label (`short`): UTF-8 bytes that start a character.
const fn longest_short(metrics: &[Metric]) -> usize {
    let mut widest = 0;
    let mut i = 0;
    while i < metrics.len() {
        let bytes = metrics[i].short.as_bytes();
        let (mut chars, mut b) = (0, 0);
        while b < bytes.len() {
            if bytes[b] & 0xC0 != 0x80 {
                chars += 1;
            }
            b += 1;
        }
        if chars > widest {
            widest = chars;
        }
        i += 1;
    }
    widest
}

impl std::fmt::Debug for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "metric {}", self.name)
    }
}

impl Metric {
    /// The value of this metric in a run, or `None` for a node-model metric of a run without
    /// the node model, a cluster metric of a run without a cluster, or a guarantee figure of a run that does not promise every job a start.
    pub fn read(&self, f: &Figures) -> Option<f64> {
        match self.read {
            Read::Classic(get) => Some(get(f.classic)),
            Read::Eet(get) => Some(get(f.eet)),
            Read::Fairness(get) => Some(get(f.fairness)),
            Read::Penalty(get) => f.penalty.map(get),
            Read::Cluster(get) => f.cluster.map(get),
            Read::Guarantee(get) => {
                let g = &f.fairness.guarantee;
                g.applies().then(|| get(g))
            }
        }
    }

    /// `label (unit)`, as sweep charts and messages show it.
    pub fn title(&self) -> String {
        if self.unit.is_empty() {
            self.label.to_string()
        } else {
            format!("{} ({})", self.label, self.unit)
        }
    }
}

macro_rules! metrics {
    ($($name:literal, $label:literal, $short:literal, $unit:literal, $digits:literal, $better:ident,
       $family:ident, $path:literal, |$v:ident| $get:expr;)*) => {
        &[$(Metric {
            name: $name,
            label: $label,
            short: $short,
            unit: $unit,
            digits: $digits,
            better: Better::$better,
            family: Family::$family,
            path: $path,
            read: Read::$family(|$v| $get),
        }),*]
    };
}

/// Every metric, in the order of the tables.
pub const METRICS: &[Metric] = metrics![
    "jobs", "jobs simulated", "jobs", "", 0, None, Classic, "counts.jobs", |c| c.counts.jobs as f64;
    "skipped", "jobs skipped", "skipped", "", 0, None, Classic, "counts.skipped", |c| c.counts.skipped as f64;
    "wait", "mean wait", "mean wait (s)", "s", 1, Lower, Classic, "wait.mean", |c| c.wait.mean;
    "wait-median", "median wait", "median wait (s)", "s", 1, Lower, Classic, "wait.median", |c| c.wait.median;
    "wait-p95", "p95 wait", "p95 wait (s)", "s", 1, Lower, Classic, "wait.p95", |c| c.wait.p95;
    "wait-max", "max wait", "max wait (s)", "s", 0, Lower, Classic, "wait.max", |c| c.wait.max;
    "response", "mean response", "mean response (s)", "s", 1, Lower, Classic, "response.mean", |c| c.response.mean;
    "mbs", "mean bounded slowdown (MBS)", "mean bsld (MBS)", "", 2, Lower, Classic, "mbs", |c| c.mbs;
    "mwbs", "weighted bounded slowdown (MWBS)", "weighted bsld (MWBS)", "", 2, Lower, Classic, "mwbs", |c| c.mwbs;
    "bsld-median", "median bounded slowdown", "median bsld", "", 2, Lower, Classic, "bsld.median", |c| c.bsld.median;
    "bsld-p95", "p95 bounded slowdown", "p95 bsld", "", 2, Lower, Classic, "bsld.p95", |c| c.bsld.p95;
    "bsld-max", "max bounded slowdown", "max bsld", "", 1, Lower, Classic, "bsld.max", |c| c.bsld.max;
    "wsld", "mean width-normalized slowdown (Zotkin eq. 2)", "mean width-normalized sld", "", 3, Lower, Classic, "wsld.mean", |c| c.wsld.mean;
    "stretch", "mean stretch (response / run time)", "mean stretch", "", 2, Lower, Classic, "stretch.mean", |c| c.stretch.mean;
    "utilization", "utilization", "utilization", "", 4, Higher, Classic, "utilization", |c| c.utilization;
    "load", "offered load (over the submit span)", "load (submit span)", "", 4, None, Classic, "load", |c| c.load;
    "makespan", "makespan", "makespan (s)", "s", 0, Lower, Classic, "makespan", |c| c.makespan as f64;
    "killed", "killed at requested time", "killed", "", 0, None, Classic, "counts.killed", |c| c.counts.killed as f64;
    "failed", "failed (ran their recorded time, which failed)", "failed", "", 0, None, Classic, "counts.failed", |c| c.counts.failed as f64;
    "cancelled", "cancelled (ran their recorded time, then cancelled)", "cancelled", "", 0, None, Classic, "counts.cancelled", |c| c.counts.cancelled as f64;
    "backfilled", "backfilled", "backfilled", "", 0, None, Classic, "counts.backfilled", |c| c.counts.backfilled as f64;
    "blocked", "blocked at queue head", "blocked", "", 0, None, Classic, "counts.blocked", |c| c.counts.blocked as f64;
    "preempted", "preempted jobs", "preempted", "", 0, Lower, Fairness, "fairness.preemption.preempted", |f| f.preemption.preempted as f64;
    "eet-violated", "violated EETs, share of jobs", "violated EETs (%)", "%", 2, Lower, Eet, "eet.violated_percent", |e| e.violated_percent;
    "veet-q1", "VEET_u lower quartile", "VEET_u q1 (%)", "%", 1, Lower, Eet, "eet.veet.q1", |e| e.veet.q1;
    "veet-median", "VEET_u median, share of a user's jobs", "VEET_u median (%)", "%", 1, Lower, Eet, "eet.veet.median", |e| e.veet.median;
    "veet-q3", "VEET_u upper quartile", "VEET_u q3 (%)", "%", 1, Lower, Eet, "eet.veet.q3", |e| e.veet.q3;
    "veet-max", "VEET_u max", "VEET_u max (%)", "%", 1, Lower, Eet, "eet.veet.max", |e| e.veet.max;
    "wt-median", "WT_u median, weighted tardiness", "WT_u median (cpu-s)", "processor-s", 0, Lower, Eet, "eet.wt.median", |e| e.wt.median;
    "wt-q3", "WT_u upper quartile", "WT_u q3 (cpu-s)", "processor-s", 0, Lower, Eet, "eet.wt.q3", |e| e.wt.q3;
    "wt-max", "WT_u max", "WT_u max (cpu-s)", "processor-s", 0, Lower, Eet, "eet.wt.max", |e| e.wt.max;
    "delayed", "jobs delayed by later jobs", "delayed by later jobs", "", 0, Lower, Fairness, "fairness.strict.delayed", |f| f.strict.delayed as f64;
    "delay", "mean delay by later jobs", "mean delay (s)", "s", 0, Lower, Fairness, "fairness.strict.mean_delay", |f| f.strict.mean_delay;
    "violations", "reservation violations", "reservation violations", "", 0, Lower, Fairness, "fairness.violations.count", |f| f.violations.count as f64;
    "violation-delay", "mean reservation delay", "mean resv. delay (s)", "s", 1, Lower, Fairness, "fairness.violations.mean_delay", |f| f.violations.mean_delay;
    "wasted-load", "wasted load (preemption)", "wasted load (%)", "%", 2, Lower, Fairness, "fairness.preemption.wasted_load_pct", |f| f.preemption.wasted_load_pct;
    "blocked-big-mbs", "MBS of blocked big jobs (> 1/4 machine)", "blocked big MBS", "", 2, Lower, Fairness, "fairness.blocked.big_mbs", |f| f.blocked.big_mbs;
    "blocked-small-mbs", "MBS of blocked small jobs", "blocked small MBS", "", 2, Lower, Fairness, "fairness.blocked.small_mbs", |f| f.blocked.small_mbs;
    "blocked-big-mwbs", "MWBS of blocked big jobs (> 1/4 machine)", "blocked big MWBS", "", 2, Lower, Fairness, "fairness.blocked.big_mwbs", |f| f.blocked.big_mwbs;
    "blocked-small-mwbs", "MWBS of blocked small jobs", "blocked small MWBS", "", 2, Lower, Fairness, "fairness.blocked.small_mwbs", |f| f.blocked.small_mwbs;
    "guarantee-median", "guarantee accuracy: median promised / actual delay", "guarantee median ratio", "", 2, None, Guarantee, "fairness.guarantee.median_ratio", |g| g.median_ratio;
    "guarantee-p80", "guarantee accuracy: 80th percentile of promised / actual delay", "guarantee p80 ratio", "", 2, None, Guarantee, "fairness.guarantee.p80_ratio", |g| g.p80_ratio;
    "guarantee-at-once", "jobs starting at once (guaranteed runs)", "started at once (%)", "%", 1, Higher, Guarantee, "fairness.guarantee.at_once_pct", |g| g.at_once_pct;
    "guarantee-late", "jobs starting later than promised", "later than promised (%)", "%", 1, Lower, Guarantee, "fairness.guarantee.late_pct", |g| g.late_pct;
    "nodes-jobs", "jobs measured (node model)", "[nodes] jobs measured", "", 0, None, Penalty, "penalty.jobs", |p| p.jobs as f64;
    "nodes-penalized", "mean penalized runtime (node model)", "[nodes] mean penalized %", "%", 2, Lower, Penalty, "penalty.penalized_pct.mean", |p| p.penalized_pct.mean;
    "nodes-penalized-p95", "p95 penalized runtime (node model)", "[nodes] p95 penalized %", "%", 2, Lower, Penalty, "penalty.penalized_pct.p95", |p| p.penalized_pct.p95;
    "nodes-killed-by-penalty", "killed for overrunning by penalty", "[nodes] killed (penalty)", "", 0, Lower, Penalty, "penalty.killed_by_penalty", |p| p.killed_by_penalty as f64;
    "nodes-killed", "killed at requested time (node model)", "[nodes] killed (all)", "", 0, Lower, Penalty, "penalty.killed", |p| p.killed as f64;
    "nodes-bsld", "mean bounded slowdown (node model)", "[nodes] mean bsld", "", 2, Lower, Penalty, "penalty.bsld.mean", |p| p.bsld.mean;
    "nodes-bsld-p95", "p95 bounded slowdown (node model)", "[nodes] p95 bsld", "", 2, Lower, Penalty, "penalty.bsld.p95", |p| p.bsld.p95;
    "nodes-finished", "jobs measured not killed by penalty (node model)", "[nodes] finished jobs", "", 0, None, Penalty, "penalty.finished", |p| p.finished as f64;
    "nodes-bsld-finished", "mean bounded slowdown of finished jobs (node model)", "[nodes] mean bsld fin.", "", 2, Lower, Penalty, "penalty.bsld_finished.mean", |p| p.bsld_finished.mean;
    "nodes-bsld-finished-p95", "p95 bounded slowdown of finished jobs (node model)", "[nodes] p95 bsld fin.", "", 2, Lower, Penalty, "penalty.bsld_finished.p95", |p| p.bsld_finished.p95;
    "nodes-wait", "mean wait (node model)", "[nodes] mean wait (s)", "s", 1, Lower, Penalty, "penalty.wait.mean", |p| p.wait.mean;
    "nodes-wait-p95", "p95 wait (node model)", "[nodes] p95 wait (s)", "s", 1, Lower, Penalty, "penalty.wait.p95", |p| p.wait.p95;
    "cores-utilization", "core utilization (cluster)", "[cluster] cores util.", "", 4, Higher, Cluster, "cluster.utilization.cores", |c| c.utilization.cores;
    "memory-utilization", "memory utilization (cluster)", "[cluster] memory util.", "", 4, Higher, Cluster, "cluster.utilization.memory", |c| c.utilization.memory;
    "gpu-utilization", "GPU utilization (cluster)", "[cluster] GPU util.", "", 4, Higher, Cluster, "cluster.utilization.gpus", |c| c.utilization.gpus;
    "gpu-hours-waited", "GPU-hours waited (wait x GPUs asked)", "[cluster] GPU-h waited", "GPU-h", 1, Lower, Cluster, "cluster.gpu_hours_waited", |c| c.gpu_hours_waited;
    "gpu-fragmentation", "GPUs free while a GPU job waits, GPU-hours", "[cluster] frag. GPU-h", "GPU-h", 1, Lower, Cluster, "cluster.fragmentation.gpu_hours", |c| c.fragmentation.gpu_hours;
    "gpu-fragmentation-pct", "GPUs free while a GPU job waits, share of GPUs", "[cluster] frag. GPUs %", "%", 2, Lower, Cluster, "cluster.fragmentation.pct", |c| c.fragmentation.pct;
];

/// The metric named `name`, or else whose path in the JSON report is `name` (`wait.mean`, as
/// `schedlab plot --chart metric --metric` takes it, is `wait`).
pub fn find(name: &str) -> Option<&'static Metric> {
    (METRICS.iter().find(|m| m.name == name)).or_else(|| METRICS.iter().find(|m| m.path == name))
}

/// The metric named `name`, or an error listing the valid names.
pub fn lookup(name: &str) -> Result<&'static Metric, String> {
    find(name).ok_or_else(|| format!("metric {}: valid: {}", quote(name), names()))
}

/// The metric names, comma-separated (for messages and help).
pub fn names() -> String {
    METRICS
        .iter()
        .map(|m| m.name)
        .collect::<Vec<_>>()
        .join(", ")
}
