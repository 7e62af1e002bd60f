//! The parameters of Slurm 22.05's priority/multifactor plugin and sched/backfill scheduler that
//! the `slurm` policy models, under Slurm's own names, with Slurm's defaults. Each is set from
//! its text as slurm.conf writes it ([`SlurmParams::set`]); `SchedulerParameters` is split into
//! its `bf_*`, `default_queue_depth`, `sched_interval` and `batch_sched_delay` options
//! ([`conf_pairs`]). `KillWait` and `OverTimeLimit` are read for the backfill will-run test's
//! guess at when a job past its planned end ends (cons_common/job_test.c `_guess_job_end`).
//!
//! Units are Slurm's: `PriorityMaxAge`, `PriorityDecayHalfLife` and `PriorityCalcPeriod` are time
//! strings in minutes (`0-0:10`, `10`), `bf_window` is minutes, `bf_interval`,
//! `bf_resolution`, `sched_interval` and `batch_sched_delay` are seconds. Inside, every time is in seconds.

use super::qos::QosTable;
use crate::Time;

/// When usage is reset to zero (`PriorityUsageResetPeriod`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResetPeriod {
    /// Never (the default).
    None,
    /// Once, when the scheduler starts (at time 0).
    Now,
    /// At every multiple of this many seconds after time 0 (daily, weekly; monthly as 30 days,
    /// quarterly as 91, yearly as 365).
    Every(Time),
}

/// The parameters, each at Slurm's default unless set.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmParams {
    /// `PriorityWeightAge`.
    pub weight_age: f64,
    /// `PriorityWeightFairshare`.
    pub weight_fs: f64,
    /// `PriorityWeightJobSize`.
    pub weight_js: f64,
    /// `PriorityWeightPartition`.
    pub weight_part: f64,
    /// `PriorityWeightQOS`.
    pub weight_qos: f64,
    /// The QOS priorities the `qos` key gives (`None`: the site's `--qos` file, if any; not a
    /// Slurm parameter: `sacctmgr` keeps them).
    pub qos: Option<QosTable>,
    /// `PriorityWeightTRES`: (TRES name, weight); `CPU` is the only one a single pool has.
    pub weight_tres: Vec<(String, f64)>,
    /// `PriorityMaxAge`, seconds.
    pub max_age: Time,
    /// `PriorityDecayHalfLife`, seconds (0: no decay).
    pub decay_half_life: Time,
    /// `PriorityCalcPeriod`, seconds.
    pub calc_period: Time,
    /// Where the periods fall, seconds after time 0 (taken modulo the period): Slurm runs them
    /// from the controller's start, which a log does not record (not a Slurm parameter).
    pub calc_phase: Time,
    /// The periods fall late in their second (`calc_phase` written with a fraction, `58.5`):
    /// after the log's ends, submissions and passes of that second, not before them. Slurm's
    /// decay thread wakes at the controller's start plus whole periods, to the microsecond
    /// (`_decay_thread`), and stamps the period with the whole second.
    pub calc_late: bool,
    /// The seconds whose period runs early in its second (`calc_early`; `None`: every period
    /// as `calc_late` says): a period at one of them runs before that second's ends and
    /// passes, any other after them. Slurm's decay thread wakes at a fixed fraction of its
    /// second and the controller's background loop (limit checks, full runs of the main
    /// scheduler) at a fraction that drifts, so the order of the two changes from one period
    /// to the next; a debug log times both (`scripts/slurm-period-sides.py`; not a Slurm
    /// parameter).
    pub calc_early: Option<Vec<Time>>,
    /// The seconds whose period the backfill cycle of that second sees (`calc_early_bf`;
    /// `None`: as the main scheduler, `calc_early`). Slurm's backfill thread wakes at its own
    /// fraction of a second, so a period may fall after its second's backfill cycle and
    /// before the background loop, or the other way round (a debug log times all three;
    /// not a Slurm parameter).
    pub calc_early_bf: Option<Vec<Time>>,
    /// `PriorityUsageResetPeriod`.
    pub reset: ResetPeriod,
    /// `PriorityFavorSmall`.
    pub favor_small: bool,
    /// `PriorityFlags`: Fair Tree unless `NO_FAIR_TREE`.
    pub fair_tree: bool,
    /// `PriorityFlags=CALCULATE_RUNNING` (recorded; running jobs' priorities are not used).
    pub calculate_running: bool,
    /// `PriorityFlags=SMALL_RELATIVE_TO_TIME`.
    pub small_relative_to_time: bool,
    /// `PriorityFlags`, as written (for the canonical spec).
    pub flags: Vec<String>,
    /// `FairShareDampeningFactor` (classic fairshare only).
    pub damp_factor: f64,
    /// `PriorityJobFactor` of the (one) partition.
    pub partition_job_factor: f64,
    /// `AccountingStorageEnforce` holds `limits` (or `safe`, `all`): only then does a job's
    /// end add its usage since the last period (acct_policy.c `_adjust_limit_usage` calls
    /// `priority_g_job_end` only when limits are enforced); otherwise that part is never
    /// counted.
    pub enforce_limits: bool,
    /// `bf_interval`, seconds.
    pub bf_interval: Time,
    /// `bf_resolution`, seconds.
    pub bf_resolution: Time,
    /// `bf_window`, seconds (given in minutes).
    pub bf_window: Time,
    /// `bf_max_job_test`.
    pub bf_max_job_test: usize,
    /// `bf_node_space_size`: the records a cycle's map on nodes holds at most; `None`: Slurm's
    /// default, `bf_max_job_test`'s value.
    pub bf_node_space_size: Option<usize>,
    /// `bf_max_job_user` (0: no limit).
    pub bf_max_job_user: usize,
    /// `bf_continue` (no effect in a simulation: a cycle takes no time, so it is never
    /// interrupted).
    pub bf_continue: bool,
    /// `bf_min_prio_reserve` (0: every job may get a reservation).
    pub bf_min_prio_reserve: f64,
    /// Where the backfill thread's cycles fall before the log, seconds after time 0 (taken
    /// modulo `bf_interval`): its last cycle before time 0 ran one interval before this
    /// second (not a Slurm parameter: the thread runs a cycle after every change, also
    /// with no job waiting, so its grid is set before the log starts). None: the first
    /// cycle at the first pass with a waiting job.
    pub bf_phase: Option<Time>,
    /// `default_queue_depth`.
    pub default_queue_depth: usize,
    /// `sched_interval`, seconds.
    pub sched_interval: Time,
    /// Where the full runs every `sched_interval` fall, seconds after time 0 (taken modulo
    /// the interval): Slurm times them from its background thread's start
    /// (`_slurmctld_background` sets `last_full_sched_time` to its start), which a log does
    /// not record (not a Slurm parameter).
    pub sched_phase: Time,
    /// `batch_sched_delay`, seconds: the controller's background loop runs the main
    /// scheduler for submissions only this long after its last run (controller.c
    /// `_slurmctld_background`).
    pub batch_sched_delay: Time,
    /// `KillWait`, seconds (default 30): how long a job killed at its limit is given to end.
    pub kill_wait: Time,
    /// `OverTimeLimit`, seconds (given in minutes; default 0); `None`: `UNLIMITED`.
    pub over_time_limit: Option<Time>,
    /// `MaxJobsAccrue` of the cluster's association: each user association without its own
    /// (an `--assoc` row's) accrues age for at most this many waiting jobs at once, with
    /// limits enforced (`slurm/accrue.rs`; not a slurm.conf parameter: sacctmgr's); `None`:
    /// no limit.
    pub max_jobs_accrue: Option<u32>,
}

impl Default for SlurmParams {
    fn default() -> Self {
        Self {
            weight_age: 0.0,
            weight_fs: 0.0,
            weight_js: 0.0,
            weight_part: 0.0,
            weight_qos: 0.0,
            qos: None,
            weight_tres: Vec::new(),
            max_age: 7 * 86400,
            decay_half_life: 7 * 86400,
            calc_period: 300,
            calc_phase: 0,
            calc_late: false,
            calc_early: None,
            calc_early_bf: None,
            reset: ResetPeriod::None,
            favor_small: false,
            fair_tree: true,
            calculate_running: false,
            small_relative_to_time: false,
            flags: Vec::new(),
            damp_factor: 1.0,
            partition_job_factor: 1.0,
            enforce_limits: false,
            bf_interval: 30,
            bf_resolution: 60,
            bf_window: 1440 * 60,
            bf_max_job_test: 500,
            bf_node_space_size: None,
            bf_max_job_user: 0,
            bf_continue: false,
            bf_min_prio_reserve: 0.0,
            bf_phase: None,
            default_queue_depth: 100,
            sched_interval: 60,
            sched_phase: 0,
            batch_sched_delay: 3,
            kill_wait: 30,
            over_time_limit: Some(0),
            max_jobs_accrue: None,
        }
    }
}

/// The priority weights Slurm reads as whole numbers (`S_P_UINT32`; [`SlurmParams::set`]
/// refuses a fraction); `PriorityWeightTRES`'s are doubles.
pub const WHOLE_WEIGHTS: [&str; 5] = [
    "PriorityWeightAge",
    "PriorityWeightFairshare",
    "PriorityWeightJobSize",
    "PriorityWeightPartition",
    "PriorityWeightQOS",
];

/// Every parameter's name, as Slurm spells it, in the order the policy declares them.
pub const NAMES: &[&str] = &[
    "PriorityWeightAge",
    "PriorityWeightFairshare",
    "PriorityWeightJobSize",
    "PriorityWeightPartition",
    "PriorityWeightQOS",
    "qos",
    "PriorityWeightTRES",
    "PriorityMaxAge",
    "PriorityDecayHalfLife",
    "PriorityCalcPeriod",
    "calc_phase",
    "calc_early",
    "calc_early_bf",
    "PriorityUsageResetPeriod",
    "PriorityFavorSmall",
    "PriorityFlags",
    "FairShareDampeningFactor",
    "PriorityJobFactor",
    "AccountingStorageEnforce",
    "bf_interval",
    "bf_resolution",
    "bf_window",
    "bf_max_job_test",
    "bf_node_space_size",
    "bf_max_job_user",
    "bf_continue",
    "bf_min_prio_reserve",
    "bf_phase",
    "default_queue_depth",
    "sched_interval",
    "sched_phase",
    "batch_sched_delay",
    "KillWait",
    "OverTimeLimit",
    "MaxJobsAccrue",
];

impl SlurmParams {
    /// How long after its planned end the backfill will-run test guesses a job already past
    /// that end ends (`_guess_job_end`): `KillWait` plus `OverTimeLimit`; `None` for
    /// `OverTimeLimit=UNLIMITED` (Slurm then guesses its time limit from now).
    pub fn late_end_grace(&self) -> Option<Time> {
        self.over_time_limit.map(|o| self.kill_wait + o)
    }
}

mod conf_keys;
mod set;
mod sides;
mod slurm_conf;
mod values;

pub use conf_keys::{conf_keys, ConfKeys};
pub use slurm_conf::{check_conf_values, conf_pairs};

#[cfg(test)]
mod tests;
