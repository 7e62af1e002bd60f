//! Expected end times (EET) of every job, per Algorithm 1 of Tóth & Klusáček, with the
//! capacity options. Decisions where the paper is silent:
//!
//! - **Runtime**: a job's area is its processors x `Job::runtime`, the runtime it has in the
//!   simulation (the trace runtime, cut at the requested time when the input kills jobs there),
//!   so that a schedule that runs the job without waiting can always meet an EET of a user who
//!   has the machine alone. Time units are seconds of the simulation's clock.
//! - **Capacity**: `equal` gives every user the machine size divided by the number of distinct
//!   users in the job set (after the input rules; user id -1 counts as one user). A number
//!   gives every user that many processors; per-user overrides replace it for named users.
//! - **Fractional capacities** are exact: each capacity is a fraction n / d (equal: M / U; a
//!   number: its decimal digits, at most 6 after the point) and one user's computation scales
//!   capacity, requests and areas by d, so Algorithm 1 runs on integers (u128).
//! - **Memory**: used when a machine memory size (KB) is given and at least one job has a
//!   memory figure: the job's need is `requested_memory` (field 10, KB per processor) when > 0,
//!   else `used_memory` (field 7), times its processors, rounded up to whole KB; jobs without
//!   either need no memory. A user's memory capacity is the same fraction of the machine's
//!   memory as its CPU capacity is of the processors. The EET is the later of the two.
//! - A capacity must be positive and at most 10^12; anything else is an error, not a panic.

use super::eet_profile::CapacityProfile;
use crate::input::JobSet;
use crate::Time;
use foldhash::HashMap;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// The capacity every user expects (before per-user overrides).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Capacity {
    /// Machine size / number of users (the default).
    #[default]
    Equal,
    /// This many processors for every user.
    Procs(f64),
}

impl FromStr for Capacity {
    type Err = EetError;

    /// `equal` or a positive number of processors.
    fn from_str(s: &str) -> Result<Self, EetError> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("equal") {
            return Ok(Capacity::Equal);
        }
        let v: f64 = s
            .parse()
            .map_err(|_| EetError(format!("capacity \"{s}\": expected equal or a number")))?;
        fraction(v)?;
        Ok(Capacity::Procs(v))
    }
}

/// The options of the EET model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct EetOptions {
    pub capacity: Capacity,
    /// `(user, processors)`: capacities that replace `capacity` for these users.
    pub user_capacity: Vec<(i64, f64)>,
    /// Machine memory in KB; memory counts only when this is given and the trace has memory.
    pub machine_memory: Option<u64>,
}

/// An option the EET model cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("EET: {0}")]
pub struct EetError(pub String);

/// Parses `USER=N` (a per-user capacity override).
pub fn parse_user_capacity(s: &str) -> Result<(i64, f64), EetError> {
    let bad = || EetError(format!("\"{s}\": expected USER=PROCESSORS, e.g. 12=64"));
    let (u, v) = s.split_once('=').ok_or_else(bad)?;
    let user: i64 = u.trim().parse().map_err(|_| bad())?;
    let Capacity::Procs(v) = v.parse::<Capacity>()? else {
        return Err(bad());
    };
    Ok((user, v))
}

/// A positive capacity as an exact fraction `(numerator, denominator)`.
fn fraction(v: f64) -> Result<(u128, u128), EetError> {
    if !(v.is_finite() && v > 0.0 && v <= 1e12) {
        return Err(EetError(format!(
            "capacity {v}: must be a number of processors > 0 and <= 10^12"
        )));
    }
    let mut d: u128 = 1;
    for _ in 0..=6 {
        let n = (v * d as f64).round();
        if n >= 1.0 && (n / d as f64 - v).abs() <= v * 1e-15 {
            return Ok(reduce(n as u128, d));
        }
        d *= 10;
    }
    Err(EetError(format!(
        "capacity {v}: use at most 6 decimal digits"
    )))
}

fn reduce(n: u128, d: u128) -> (u128, u128) {
    let (mut a, mut b) = (n, d);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    (n / a.max(1), d / a.max(1))
}

/// The expected end times of a job set.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    /// Per job (indexed like [`JobSet::jobs`]): the EET, the maximum over the resources.
    pub eet: Vec<Time>,
    /// Per job: the EET by processors alone.
    pub cpu: Vec<Time>,
    /// Per job: the EET by memory alone, when memory counts.
    pub memory: Option<Vec<Time>>,
    /// Per user, in order of first appearance: `(user, capacity in processors)`.
    pub capacities: Vec<(i64, f64)>,
    pub options: EetOptions,
}

impl Expected {
    pub fn memory_used(&self) -> bool {
        self.memory.is_some()
    }
}

/// A job's memory need in whole KB (0 when the trace gives none; at most 2^40 KB, a petabyte,
/// which keeps the scaled arithmetic within u128).
pub fn memory_kb(job: &crate::job::Job) -> u128 {
    let per_proc = if job.requested_memory > 0.0 {
        job.requested_memory
    } else if job.used_memory > 0.0 {
        job.used_memory
    } else {
        return 0;
    };
    let kb = (per_proc * f64::from(job.procs)).ceil();
    if kb.is_finite() && kb > 0.0 {
        (kb as u128).min(1 << 40)
    } else {
        0
    }
}

/// The runtime Algorithm 1 uses (see the module documentation).
fn runtime(job: &crate::job::Job) -> u128 {
    job.runtime.max(0) as u128
}

/// Computes every job's EET under `opts` (Algorithm 1 per user and resource, arrival order).
pub fn expected_end_times(set: &JobSet, opts: &EetOptions) -> Result<Expected, EetError> {
    let users = set.users();
    let overrides: HashMap<i64, (u128, u128)> = opts
        .user_capacity
        .iter()
        .map(|&(u, v)| Ok((u, fraction(v)?)))
        .collect::<Result<_, EetError>>()?;
    let m = u128::from(set.procs.max(1));
    let base = match opts.capacity {
        Capacity::Equal => reduce(m, users.len().max(1) as u128),
        Capacity::Procs(v) => fraction(v)?,
    };
    let slot: HashMap<i64, usize> = users.iter().enumerate().map(|(i, &u)| (u, i)).collect();
    let caps: Vec<(u128, u128)> = users
        .iter()
        .map(|u| overrides.get(u).copied().unwrap_or(base))
        .collect();
    let mem_total = opts
        .machine_memory
        .filter(|&kb| kb > 0 && set.jobs.iter().any(|j| memory_kb(j) > 0))
        .map(u128::from);

    // Jobs grouped by user, each group in arrival order (a counting sort by user slot).
    let n = set.jobs.len();
    let job_slot: Vec<usize> = set.jobs.iter().map(|j| slot[&j.user]).collect();
    let mut starts = vec![0usize; users.len() + 1];
    for &s in &job_slot {
        starts[s + 1] += 1;
    }
    for i in 0..users.len() {
        starts[i + 1] += starts[i];
    }
    let mut order = vec![0usize; n];
    let mut fill = starts.clone();
    for (j, &s) in job_slot.iter().enumerate() {
        order[fill[s]] = j;
        fill[s] += 1;
    }

    let mut cpu = vec![0; n];
    let mut memory = mem_total.map(|_| vec![0; n]);
    for (u, &(num, den)) in caps.iter().enumerate() {
        let group = &order[starts[u]..starts[u + 1]];
        let mut profile = CapacityProfile::new(num);
        for &j in group {
            let job = &set.jobs[j];
            let r = u128::from(job.procs) * den;
            cpu[j] = profile.place(job.submit, r, r.saturating_mul(runtime(job)));
        }
        if let (Some(total), Some(memory)) = (mem_total, memory.as_mut()) {
            // Capacity num / den of m processors = num * total / (den * m) KB: scale by den * m.
            let mut profile = CapacityProfile::new(num * total);
            for &j in group {
                let job = &set.jobs[j];
                let r = memory_kb(job) * den * m;
                memory[j] = profile.place(job.submit, r, r.saturating_mul(runtime(job)));
            }
        }
    }
    let eet = match &memory {
        Some(mem) => cpu.iter().zip(mem).map(|(&a, &b)| a.max(b)).collect(),
        None => cpu.clone(),
    };
    Ok(Expected {
        eet,
        cpu,
        memory,
        capacities: users
            .iter()
            .zip(&caps)
            .map(|(&u, &(n, d))| (u, n as f64 / d as f64))
            .collect(),
        options: opts.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacities_are_exact_fractions() {
        assert_eq!(fraction(3.0).unwrap(), (3, 1));
        assert_eq!(fraction(2.5).unwrap(), (5, 2));
        assert_eq!(fraction(0.1).unwrap(), (1, 10));
        assert_eq!(reduce(1024, 213), (1024, 213));
        assert_eq!(reduce(100, 40), (5, 2));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e13] {
            assert!(fraction(bad).is_err(), "{bad}");
        }
        assert!(fraction(1.0 / 3.0).is_err());
        assert_eq!("equal".parse::<Capacity>().unwrap(), Capacity::Equal);
        assert_eq!("4.5".parse::<Capacity>().unwrap(), Capacity::Procs(4.5));
        assert!("four".parse::<Capacity>().is_err());
        assert_eq!(parse_user_capacity("12=64").unwrap(), (12, 64.0));
        assert!(parse_user_capacity("12=equal").is_err());
        assert!(parse_user_capacity("x=3").is_err());
    }
}
