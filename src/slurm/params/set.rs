//! Each parameter set from its text as slurm.conf (or a `slurm` spec key) writes it, checked as
//! Slurm checks it, with the canonical text a spec records ([`SlurmParams::set`]).

use super::values::{
    count, count_of, fmt, items, job_factor, list_text, minutes, number, seconds_list, secs, time,
    whole_weight, yes_no,
};
use super::{ResetPeriod, SlurmParams};
use crate::quote::quote;
use crate::Time;

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
    /// Sets parameter `name` (one of [`NAMES`](super::NAMES), exact spelling) from its text; returns the
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
                let table = crate::slurm::qos::parse_key(v)?;
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
