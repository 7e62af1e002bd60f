//! What a trace looks like before any policy runs: when jobs arrive (hour of day, day of week,
//! week), how wide and long they are, how good the requested times are, how much work is
//! offered over time and which users bring it.
//!
//! Computed from the prepared [`JobSet`] (the jobs the simulation sees, after the input rules).
//! Clock: with the header's `UnixStartTime`, a job's local time is `UnixStartTime + TimeZone +
//! origin + submit` (the SWF `TimeZone` is the offset of standard time from UTC; daylight saving
//! is not applied); without it, hours and days count from the trace's time 0.

use crate::input::JobSet;
pub use crate::request_stats::RequestStats;
use crate::swf::SwfHeader;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

const DAY: i64 = 86_400;
const WEEK: i64 = 7 * DAY;
/// Most bins of the per-week and per-day series (about 180 years of days): a trace spanning
/// longer has its later arrivals counted in the last bin. Found by fuzzing: a trace spanning
/// 10^18 seconds made these series allocate terabytes.
const MAX_TIME_BINS: usize = 1 << 16;
/// Bins of the runtime / requested histogram: 20 of 5 % up to 100 %, and one for overruns.
pub const ACCURACY_BINS: usize = 21;
/// How many of the most common requested times are listed.
pub const TOP_REQUESTED: usize = 10;
/// How many users are listed by share of the work.
pub const TOP_USERS: usize = 20;

/// A user's part of the work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserShare {
    pub user: i64,
    /// The user's name when the trace names its users (an sacct log's header notes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub jobs: u64,
    /// Processor-seconds (processors x simulated runtime).
    pub work: f64,
    /// Fraction of the trace's work, 0..1.
    pub share: f64,
}

impl UserShare {
    /// How the user is shown: its name, else its number.
    pub fn label(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.user.to_string())
    }
}

/// The statistics of a trace; every histogram is a list of counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceStats {
    pub name: String,
    pub jobs: u64,
    pub users: u64,
    pub procs: u32,
    /// `"local"` (from the header's UnixStartTime and TimeZone) or `"relative"` (from time 0).
    pub clock: String,
    /// Submissions per hour of the day, 0-23.
    pub per_hour: Vec<u64>,
    /// Submissions per day of the week, Monday first (with a relative clock: day 1 = time 0's).
    pub per_weekday: Vec<u64>,
    /// Submissions per week from the first submission.
    pub per_week: Vec<u64>,
    /// Jobs by processors: bin k holds 2^k <= procs < 2^(k+1).
    pub procs_log2: Vec<u64>,
    /// Jobs by simulated runtime: bin 0 holds runtime 0, bin k >= 1 holds 2^(k-1) <= runtime <
    /// 2^k seconds.
    pub runtime_log2: Vec<u64>,
    /// Jobs with a requested time, by trace runtime / requested time: bin k < 20 holds
    /// k/20 <= ratio < (k+1)/20, bin 20 holds ratio >= 1 (reached or passed the request).
    pub accuracy: Vec<u64>,
    /// Jobs with a requested time.
    pub with_request: u64,
    /// Jobs whose trace runtime reached their requested time (ratio >= 1).
    pub reached_request: u64,
    /// The most common requested times, `(seconds, jobs)`, most jobs first (ties: shorter first).
    pub top_requested: Vec<(i64, u64)>,
    /// Jobs with a requested time by it, in the bins of `runtime_log2` (Zotkin et al. section
    /// 7, Figure 12: requested against actual runtimes).
    #[serde(default)]
    pub requested_log2: Vec<u64>,
    /// Jobs whose requested time is round: a multiple of 5 minutes under an hour, or of an hour
    /// (section 7: "more than 92%" on CTC).
    #[serde(default)]
    pub round_requested: u64,
    /// Per most common requested time (the order of `top_requested`): the median
    /// overestimation factor, requested / trace runtime, over its jobs that ran at least a
    /// second (section 7, Figures 13-15: 7.3, 13.3 and 2.0 for 15 min, 2 h and 18 h on CTC);
    /// 0 when none did.
    #[serde(default)]
    pub overestimation: Vec<f64>,
    /// Processor-seconds submitted per day (from the first submission's day) over the machine's
    /// processor-seconds per day.
    pub load_per_day: Vec<f64>,
    /// Offered load over the submissions' span: work / (procs x (last submit - first submit)),
    /// the metric `load`'s definition (PV-EASY's Table 3); 0 when every job is submitted at
    /// one instant. (Over the span plus a day, as the per-day series counts, a trace of a few
    /// minutes read as a machine almost idle.)
    pub load_overall: f64,
    /// The offered load over time in bins the submissions' span suits: per day (the same as
    /// `load_per_day`) over two days or more, per hour over two hours or more, else per minute
    /// (per day, a Slurm run of a few minutes read as one invisible bar under 1 %).
    #[serde(default)]
    pub load_series: Vec<f64>,
    /// The bin of `load_series`: `day`, `hour` or `minute`.
    #[serde(default)]
    pub load_bin: String,
    /// The heaviest users, most work first (ties: lower id first), at most [`TOP_USERS`].
    pub top_users: Vec<UserShare>,
    /// What the jobs ask beyond processors (GPUs, memory, nodes, partitions); absent when
    /// nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<RequestStats>,
}

/// The local-time offset of time 0 and whether it is known.
fn clock(header: &SwfHeader, origin: i64) -> (i64, bool) {
    match header.unix_start_time {
        Some(unix) => (
            unix.saturating_add(header.time_zone.unwrap_or(0))
                .saturating_add(origin),
            true,
        ),
        None => (0, false),
    }
}

fn bump(v: &mut Vec<u64>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

/// The bin of `x` >= 1 in powers of two: floor(log2 x).
fn log2_bin(x: u64) -> usize {
    (63 - x.max(1).leading_zeros()) as usize
}

/// [`TraceStats::load_series`] and its bin: the days' loads over two days of submissions or
/// more, else the work submitted per hour (two hours or more) or per minute from the first
/// submission, over the machine's processor-seconds in that bin.
fn load_series(set: &JobSet, per_day: &[f64], first: i64, last: i64) -> (&'static str, Vec<f64>) {
    let span = last.saturating_sub(first);
    if span >= 2 * DAY {
        return ("day", per_day.to_vec());
    }
    let (name, bin) = if span >= 2 * 3600 {
        ("hour", 3600)
    } else {
        ("minute", 60)
    };
    let bins = (span / bin) as usize + 1;
    let mut work = vec![0.0; bins];
    for j in &set.jobs {
        let k = (j.submit.saturating_sub(first) / bin) as usize;
        work[k.min(bins - 1)] += f64::from(j.procs) * j.runtime.max(0) as f64;
    }
    let capacity = f64::from(set.procs.max(1)) * bin as f64;
    (name, work.iter().map(|w| w / capacity).collect())
}

/// The statistics of `set`, whose trace header is `header`.
pub fn trace_stats(set: &JobSet, header: &SwfHeader) -> TraceStats {
    let (offset, local) = clock(header, set.origin);
    let mut per_hour = vec![0; 24];
    let mut per_weekday = vec![0; 7];
    let mut per_week = Vec::new();
    let mut procs_log2 = Vec::new();
    let mut runtime_log2 = Vec::new();
    let mut accuracy = vec![0; ACCURACY_BINS];
    let (mut with_request, mut reached_request) = (0, 0);
    let mut requested: HashMap<i64, u64> = HashMap::new();
    let mut requested_log2 = Vec::new();
    let mut round_requested = 0;
    let mut work_per_day: Vec<f64> = Vec::new();
    let mut users: HashMap<i64, (u64, f64)> = HashMap::new();
    let first = set.jobs.iter().map(|j| j.submit).min().unwrap_or(0);
    let last = set.jobs.iter().map(|j| j.submit).max().unwrap_or(0);
    let first_day = (first.saturating_add(offset)).div_euclid(DAY);
    for j in &set.jobs {
        let t = j.submit.saturating_add(offset);
        per_hour[t.rem_euclid(DAY) as usize / 3600] += 1;
        // 1970-01-01 was a Thursday: day 0 is index 3 with Monday first.
        let weekday = if local {
            (t.div_euclid(DAY) + 3).rem_euclid(7)
        } else {
            t.div_euclid(DAY).rem_euclid(7)
        };
        per_weekday[weekday as usize] += 1;
        let week = j.submit.saturating_sub(first) / WEEK;
        bump(&mut per_week, (week as usize).min(MAX_TIME_BINS - 1));
        bump(&mut procs_log2, log2_bin(u64::from(j.procs)));
        let runtime = j.runtime.max(0) as u64;
        let rbin = if runtime == 0 {
            0
        } else {
            log2_bin(runtime) + 1
        };
        bump(&mut runtime_log2, rbin);
        if let Some(req) = j.requested().filter(|&r| r > 0) {
            with_request += 1;
            *requested.entry(req).or_default() += 1;
            bump(&mut requested_log2, log2_bin(req as u64) + 1);
            if (req < 3600 && req % 300 == 0) || req % 3600 == 0 {
                round_requested += 1;
            }
            let run = j.trace_runtime.max(0);
            let bin = if run >= req {
                reached_request += 1;
                ACCURACY_BINS - 1
            } else {
                // k/20 <= run/req < (k+1)/20, in integers.
                ((run as i128 * 20) / req as i128) as usize
            };
            accuracy[bin.min(ACCURACY_BINS - 1)] += 1;
        }
        let work = f64::from(j.procs) * j.runtime.max(0) as f64;
        let day =
            (t.div_euclid(DAY).saturating_sub(first_day).max(0) as usize).min(MAX_TIME_BINS - 1);
        if work_per_day.len() <= day {
            work_per_day.resize(day + 1, 0.0);
        }
        work_per_day[day] += work;
        let u = users.entry(j.user).or_default();
        u.0 += 1;
        u.1 += work;
    }
    let capacity = f64::from(set.procs.max(1)) * DAY as f64;
    let total_work: f64 = users.values().map(|u| u.1).sum();
    let mut top_requested: Vec<(i64, u64)> = requested.into_iter().collect();
    top_requested.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    top_requested.truncate(TOP_REQUESTED);
    let overestimation = top_requested
        .iter()
        .map(|&(req, _)| {
            let mut f: Vec<f64> = set
                .jobs
                .iter()
                .filter(|j| j.requested() == Some(req) && j.trace_runtime > 0)
                .map(|j| req as f64 / j.trace_runtime as f64)
                .collect();
            f.sort_by(f64::total_cmp);
            match f.len() {
                0 => 0.0,
                n if n % 2 == 1 => f[n / 2],
                n => (f[n / 2 - 1] + f[n / 2]) / 2.0,
            }
        })
        .collect();
    let n_users = users.len() as u64;
    let mut top_users: Vec<UserShare> = users
        .into_iter()
        .map(|(user, (jobs, work))| UserShare {
            user,
            name: set.names.has_users().then(|| set.names.user(user)),
            jobs,
            work,
            share: if total_work > 0.0 {
                work / total_work
            } else {
                0.0
            },
        })
        .collect();
    top_users.sort_by(|a, b| b.work.total_cmp(&a.work).then(a.user.cmp(&b.user)));
    top_users.truncate(TOP_USERS);
    let load_per_day: Vec<f64> = work_per_day.iter().map(|w| w / capacity).collect();
    let (load_bin, load_series) = load_series(set, &load_per_day, first, last);
    let span = last.saturating_sub(first) as f64;
    TraceStats {
        name: set.name.clone(),
        jobs: set.jobs.len() as u64,
        users: n_users,
        procs: set.procs,
        clock: if local { "local" } else { "relative" }.into(),
        per_hour,
        per_weekday,
        per_week,
        procs_log2,
        runtime_log2,
        accuracy,
        with_request,
        reached_request,
        top_requested,
        requested_log2,
        round_requested,
        overestimation,
        load_per_day,
        load_series,
        load_bin: load_bin.into(),
        load_overall: if span <= 0.0 {
            0.0
        } else {
            total_work / (f64::from(set.procs.max(1)) * span)
        },
        top_users,
        requests: RequestStats::of(set),
    }
}

/// A duration in the largest unit that keeps it short: 90 -> "1.5min", 7200 -> "2h".
pub fn short_duration(s: f64) -> String {
    let (v, unit) = if s >= 2.0 * DAY as f64 {
        (s / DAY as f64, "d")
    } else if s >= 3600.0 {
        (s / 3600.0, "h")
    } else if s >= 60.0 {
        (s / 60.0, "min")
    } else {
        (s, "s")
    };
    if (v - v.round()).abs() < 0.05 {
        format!("{}{unit}", v.round())
    } else {
        format!("{v:.1}{unit}")
    }
}

impl TraceStats {
    /// A plain-text summary, as `schedlab trace` prints it.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}: {}, {}, {} processors; offered load {:.1} % of the machine\n",
            self.name,
            crate::plural::count(self.jobs, "job"),
            crate::plural::count(self.users, "user"),
            self.procs,
            self.load_overall * 100.0
        );
        let pct = |a: u64, b: u64| {
            if b > 0 {
                a as f64 * 100.0 / b as f64
            } else {
                0.0
            }
        };
        s += &format!(
            "requested times: {} one; {:.1} % of them ran until it (runtime >= requested)\n",
            match self.with_request {
                1 => "1 job has".to_string(),
                n => format!("{n} jobs have"),
            },
            pct(self.reached_request, self.with_request)
        );
        if !self.top_requested.is_empty() {
            let list: Vec<String> = self
                .top_requested
                .iter()
                .map(|(r, n)| format!("{} ({n})", short_duration(*r as f64)))
                .collect();
            s += &format!("most common requested times: {}\n", list.join(", "));
            let factors: Vec<String> = self
                .top_requested
                .iter()
                .zip(&self.overestimation)
                .map(|((r, _), f)| format!("{} {f:.1}", short_duration(*r as f64)))
                .collect();
            s += &format!(
                "median overestimation (requested / runtime) by requested time: {}\n",
                factors.join(", ")
            );
            s += &format!(
                "round requests (5-minute multiples under 1h, whole hours): {:.1} %\n",
                pct(self.round_requested, self.with_request)
            );
        }
        let hours: Vec<String> = self.per_hour.iter().map(u64::to_string).collect();
        s += &format!(
            "jobs per hour of day ({} clock): {}\n",
            self.clock,
            hours.join(" ")
        );
        let days: Vec<String> = self.per_weekday.iter().map(u64::to_string).collect();
        s += &format!("jobs per day of week (Mon..Sun): {}\n", days.join(" "));
        if let Some(r) = &self.requests {
            s += &r.summary(self.jobs);
        }
        s += "heaviest users (share of processor-seconds, jobs):\n";
        for u in self.top_users.iter().take(10) {
            s += &format!(
                "  user {:>6}  {:5.1} %  {}\n",
                u.label(),
                u.share * 100.0,
                crate::plural::count(u.jobs, "job")
            );
        }
        s
    }
}
