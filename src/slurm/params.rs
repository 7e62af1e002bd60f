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
use crate::quote::quote;
use crate::Time;
use values::{
    count, count_of, fmt, items, job_factor, list_text, minutes, number, seconds_list, secs, time,
    whole_weight, yes_no,
};

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

/// `AccountingStorageEnforce`'s words (read_config.c `_validate_accounting_storage_enforce`).
const ENFORCE: &[&str] = &[
    "none",
    "associations",
    "1",
    "limits",
    "2",
    "safe",
    "wckeys",
    "qos",
    "all",
    "nojobs",
    "nosteps",
];

/// The priority flags the model reads or knows to have no effect on a single pool.
const FLAGS: &[&str] = &[
    "NO_FAIR_TREE",
    "CALCULATE_RUNNING",
    "SMALL_RELATIVE_TO_TIME",
    "ACCRUE_ALWAYS",
    "INCR_ONLY",
    "MAX_TRES",
    "NO_NORMAL_ALL",
    "NO_NORMAL_ASSOC",
    "NO_NORMAL_PART",
    "NO_NORMAL_QOS",
    "NO_NORMAL_TRES",
];

impl SlurmParams {
    /// How long after its planned end the backfill will-run test guesses a job already past
    /// that end ends (`_guess_job_end`): `KillWait` plus `OverTimeLimit`; `None` for
    /// `OverTimeLimit=UNLIMITED` (Slurm then guesses its time limit from now).
    pub fn late_end_grace(&self) -> Option<Time> {
        self.over_time_limit.map(|o| self.kill_wait + o)
    }

    /// Sets parameter `name` (one of [`NAMES`], exact spelling) from its text; returns the
    /// value's canonical text (what a spec string records). An error says what is valid.
    pub fn set(&mut self, name: &str, v: &str) -> Result<String, String> {
        // PriorityWeightTRES's weights are Slurm's doubles (`strtod`, slurm_protocol_api.c
        // `_tres_weight_item`), the five others whole numbers.
        let weight = |v: &str| number(v, "a weight >= 0");
        let canon = match name {
            "PriorityWeightAge" => fmt(&mut self.weight_age, whole_weight(v)?),
            "PriorityWeightFairshare" => fmt(&mut self.weight_fs, whole_weight(v)?),
            "PriorityWeightJobSize" => fmt(&mut self.weight_js, whole_weight(v)?),
            "PriorityWeightPartition" => fmt(&mut self.weight_part, whole_weight(v)?),
            "PriorityWeightQOS" => fmt(&mut self.weight_qos, whole_weight(v)?),
            "qos" => {
                let table = super::qos::parse_key(v)?;
                let text = table.key_text();
                self.qos = (!table.rows.is_empty()).then_some(table);
                text
            }
            "PriorityWeightTRES" => {
                let mut out = Vec::new();
                for it in items(v).into_iter().filter(|s| s != "none") {
                    let (k, w) = it
                        .split_once('=')
                        .ok_or_else(|| format!("{} is not TRES=weight", quote(&it)))?;
                    out.push((k.trim().to_string(), weight(w)?));
                }
                self.weight_tres = out;
                let texts: Vec<String> = self
                    .weight_tres
                    .iter()
                    .map(|(k, w)| format!("{k}={w}"))
                    .collect();
                list_text(&texts)
            }
            "PriorityMaxAge" => time(&mut self.max_age, minutes(v)?),
            "PriorityDecayHalfLife" => time(&mut self.decay_half_life, minutes(v)?),
            "PriorityCalcPeriod" => {
                let t = minutes(v)?;
                if t == 0 {
                    return Err("PriorityCalcPeriod must be at least one minute".into());
                }
                time(&mut self.calc_period, t)
            }
            "calc_phase" if v.trim().eq_ignore_ascii_case("read") => {
                // Read from the log by a replay (`replay::prio_phase`); where none is read,
                // the default.
                (self.calc_phase, self.calc_late) = (0, false);
                "read".into()
            }
            "calc_phase" => {
                // Whole seconds, and a fraction for a period late in its second.
                let (whole, frac) = v.trim().split_once('.').unwrap_or((v.trim(), ""));
                if !frac.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!(
                        "{} is not a number of seconds from 0 to 86400",
                        quote(v)
                    ));
                }
                let text = secs(&mut self.calc_phase, count(whole, 0, 86_400)?);
                self.calc_late = frac.bytes().any(|b| b != b'0');
                if self.calc_late {
                    format!("{text}.{}", frac.trim_end_matches('0'))
                } else {
                    text
                }
            }
            "calc_early" => {
                let (secs, text) = seconds_list(v)?;
                self.calc_early = secs;
                text
            }
            "calc_early_bf" => {
                let (secs, text) = seconds_list(v)?;
                self.calc_early_bf = secs;
                text
            }
            "PriorityUsageResetPeriod" => {
                let up = v.trim().to_ascii_uppercase();
                self.reset = match up.as_str() {
                    "NONE" => ResetPeriod::None,
                    "NOW" => ResetPeriod::Now,
                    "DAILY" => ResetPeriod::Every(86400),
                    "WEEKLY" => ResetPeriod::Every(7 * 86400),
                    "MONTHLY" => ResetPeriod::Every(30 * 86400),
                    "QUARTERLY" => ResetPeriod::Every(91 * 86400),
                    "YEARLY" => ResetPeriod::Every(365 * 86400),
                    _ => {
                        return Err(format!(
                            "{} is not NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY or YEARLY",
                            quote(v)
                        ))
                    }
                };
                up
            }
            "PriorityFavorSmall" => {
                self.favor_small = yes_no(v)?;
                if self.favor_small { "YES" } else { "NO" }.into()
            }
            "PriorityFlags" => {
                let mut flags = Vec::new();
                for f in items(v) {
                    let up = f.to_ascii_uppercase();
                    // FAIR_TREE names the default since Slurm 19.05 (older slurm.confs still
                    // carry it): read_config.c sets PRIORITY_FLAGS_FAIR_TREE before reading the
                    // flags and only NO_FAIR_TREE or DEPTH_OBLIVIOUS clear it.
                    if up == "NONE" || up == "FAIR_TREE" {
                        continue;
                    }
                    if up == "DEPTH_OBLIVIOUS" {
                        return Err("DEPTH_OBLIVIOUS: Slurm's depth-oblivious fairshare is not \
                                    modelled (Fair Tree, the default, or NO_FAIR_TREE's classic \
                                    fairshare are)"
                            .into());
                    }
                    if !FLAGS.contains(&up.as_str()) {
                        return Err(format!(
                            "unknown priority flag {}; known: {}",
                            quote(&f),
                            FLAGS.join(", ")
                        ));
                    }
                    if !flags.contains(&up) {
                        flags.push(up);
                    }
                }
                let has = |f: &str| flags.iter().any(|x| x == f);
                self.fair_tree = !has("NO_FAIR_TREE");
                self.calculate_running = has("CALCULATE_RUNNING");
                self.small_relative_to_time = has("SMALL_RELATIVE_TO_TIME");
                self.flags = flags;
                list_text(&self.flags)
            }
            "FairShareDampeningFactor" => {
                let d = count(v, 1, 10_000)?;
                fmt(&mut self.damp_factor, d as f64)
            }
            "PriorityJobFactor" => fmt(&mut self.partition_job_factor, job_factor(v)?),
            "AccountingStorageEnforce" => {
                let mut words = Vec::new();
                for w in items(v) {
                    let low = w.to_ascii_lowercase();
                    if !ENFORCE.contains(&low.as_str()) {
                        return Err(format!(
                            "{} is not one of {}",
                            quote(&w),
                            ENFORCE.join(", ")
                        ));
                    }
                    if low != "none" && !words.contains(&low) {
                        words.push(low);
                    }
                }
                self.enforce_limits = words
                    .iter()
                    .any(|w| matches!(w.as_str(), "limits" | "2" | "safe" | "all"));
                list_text(&words)
            }
            "bf_interval" => secs(&mut self.bf_interval, count_of(v, 1, 10_800, "seconds")?),
            "bf_resolution" => secs(&mut self.bf_resolution, count_of(v, 1, 3600, "seconds")?),
            "bf_window" => {
                let m = count_of(v, 1, 30 * 1440, "minutes")?;
                self.bf_window = m as Time * 60;
                m.to_string()
            }
            "bf_max_job_test" => {
                self.bf_max_job_test = count(v, 1, 1_000_000)? as usize;
                self.bf_max_job_test.to_string()
            }
            "bf_node_space_size" => match v.trim() {
                t if t.eq_ignore_ascii_case("bf_max_job_test") => {
                    self.bf_node_space_size = None;
                    "bf_max_job_test".into()
                }
                t => {
                    let n = count(t, 2, 2_000_000)? as usize;
                    self.bf_node_space_size = Some(n);
                    n.to_string()
                }
            },
            "bf_max_job_user" => {
                self.bf_max_job_user = count(v, 0, 1_000_000)? as usize;
                self.bf_max_job_user.to_string()
            }
            "bf_continue" => {
                self.bf_continue = yes_no(v)?;
                if self.bf_continue { "yes" } else { "no" }.into()
            }
            "bf_min_prio_reserve" => {
                let p = count(v, 0, u64::from(u32::MAX))?;
                fmt(&mut self.bf_min_prio_reserve, p as f64)
            }
            "bf_phase" => match v.trim() {
                "none" => {
                    self.bf_phase = None;
                    "none".into()
                }
                t => {
                    let p = count_of(t, 0, 86_400, "seconds")?;
                    self.bf_phase = Some(p as Time);
                    p.to_string()
                }
            },
            "default_queue_depth" => {
                self.default_queue_depth = count(v, 0, 1_000_000)? as usize;
                self.default_queue_depth.to_string()
            }
            "sched_interval" => secs(&mut self.sched_interval, count_of(v, 1, 86_400, "seconds")?),
            "sched_phase" => secs(&mut self.sched_phase, count_of(v, 0, 86_400, "seconds")?),
            "batch_sched_delay" => secs(
                &mut self.batch_sched_delay,
                count_of(v, 0, 86_400, "seconds")?,
            ),
            "KillWait" => secs(&mut self.kill_wait, count_of(v, 0, 65_533, "seconds")?),
            "OverTimeLimit" => {
                // Minutes, or UNLIMITED (read_config.c: also INFINITE).
                let t = v.trim();
                if t.eq_ignore_ascii_case("unlimited") || t.eq_ignore_ascii_case("infinite") {
                    self.over_time_limit = None;
                    "UNLIMITED".into()
                } else {
                    let m = count_of(t, 0, 65_533, "minutes")?;
                    self.over_time_limit = Some(m as Time * 60);
                    m.to_string()
                }
            }
            "MaxJobsAccrue" => match v.trim() {
                t if t.eq_ignore_ascii_case("none") => {
                    self.max_jobs_accrue = None;
                    "none".into()
                }
                t => {
                    let n = count(t, 0, u64::from(u32::MAX) - 1)?;
                    self.max_jobs_accrue = Some(n as u32);
                    n.to_string()
                }
            },
            _ => return Err(format!("{name} is not a parameter of the slurm policy")),
        };
        Ok(canon)
    }
}

mod conf_keys;
mod sides;
mod slurm_conf;
mod values;

pub use conf_keys::{conf_keys, ConfKeys};
pub use slurm_conf::{check_conf_values, conf_pairs};

#[cfg(test)]
mod tests;
