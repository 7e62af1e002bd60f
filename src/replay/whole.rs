//! The whole run (issue 34): a full simulation of a policy on a log's jobs (their submissions,
//! recorded run times and requests) against the recorded run, by the figures a real Slurm
//! keeps from one run of a workload to the next: the mean wait, each account's mean wait and
//! the wait distribution (the largest gap between the two empirical CDFs, the two-sample
//! Kolmogorov-Smirnov statistic). "Apart" is |a - b| / mean(a, b), as
//! `scripts/slurm-compare.py` measures two real runs against each other: the noise floor.

use super::Replay;
use crate::metrics::stats::cdf_gap;
use crate::sim::{self, Policy, SimError};
use std::collections::BTreeMap;

/// The waits of one run, seconds, with each job's account.
#[derive(Debug, Clone, PartialEq)]
pub struct Waits {
    /// (account, wait) per job.
    pub jobs: Vec<(String, f64)>,
}

/// How far two runs are apart.
#[derive(Debug, Clone, PartialEq)]
pub struct Distance {
    /// Mean wait of each run.
    pub mean: (f64, f64),
    /// Per account (by name): its mean wait in each run and how far apart they are.
    pub accounts: Vec<(String, f64, f64, f64)>,
    /// The largest gap between the two wait CDFs.
    pub cdf_gap: f64,
}

/// |a - b| / mean(a, b) (0 when both are 0).
pub fn apart(a: f64, b: f64) -> f64 {
    let m = (a + b) / 2.0;
    if m > 0.0 {
        (a - b).abs() / m
    } else {
        0.0
    }
}

impl Waits {
    /// The mean wait (0 without jobs).
    pub fn mean(&self) -> f64 {
        mean(self.jobs.iter().map(|j| j.1))
    }

    /// The mean wait of each account, by name.
    pub fn per_account(&self) -> BTreeMap<&str, f64> {
        let mut sums: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
        for (a, w) in &self.jobs {
            let s = sums.entry(a.as_str()).or_default();
            s.0 += w;
            s.1 += 1;
        }
        sums.into_iter()
            .map(|(a, (s, n))| (a, s / n as f64))
            .collect()
    }

    /// How far `other` is from this run (accounts in either).
    pub fn distance(&self, other: &Waits) -> Distance {
        let (a, b) = (self.per_account(), other.per_account());
        let names: std::collections::BTreeSet<&str> = a.keys().chain(b.keys()).copied().collect();
        let accounts = names
            .into_iter()
            .map(|n| {
                let (x, y) = (a.get(n).copied(), b.get(n).copied());
                let (x, y) = (x.unwrap_or(0.0), y.unwrap_or(0.0));
                (n.to_string(), x, y, apart(x, y))
            })
            .collect();
        let w = |r: &Waits| r.jobs.iter().map(|j| j.1).collect::<Vec<f64>>();
        Distance {
            mean: (self.mean(), other.mean()),
            accounts,
            cdf_gap: cdf_gap(&w(self), &w(other)),
        }
    }
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        s / n as f64
    }
}

impl Distance {
    /// How far apart the mean waits are.
    pub fn mean_apart(&self) -> f64 {
        apart(self.mean.0, self.mean.1)
    }

    /// The largest per-account "apart".
    pub fn worst_account(&self) -> f64 {
        self.accounts.iter().map(|a| a.3).fold(0.0, f64::max)
    }
}

impl std::fmt::Display for Distance {
    /// `mean wait 150.7 / 121.1 s (21.7% apart); accounts bio 23/9 s (88%), ...; CDF gap 0.133`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "mean wait {:.1} / {:.1} s ({:.1}% apart); accounts",
            self.mean.0,
            self.mean.1,
            100.0 * self.mean_apart()
        )?;
        for (n, x, y, d) in &self.accounts {
            write!(f, " {n} {x:.0}/{y:.0} s ({:.0}%)", 100.0 * d)?;
        }
        write!(f, "; largest wait CDF gap {:.3}", self.cdf_gap)
    }
}

impl Replay<'_> {
    /// The recorded run's waits.
    pub fn recorded_waits(&self) -> Waits {
        self.waits(|j| self.starts[j])
    }

    /// The waits of a full simulation of `policy` on the log's jobs (recorded run times, on
    /// the log's cluster when it has one).
    pub fn simulated_waits(&self, policy: &mut dyn Policy, seed: u64) -> Result<Waits, SimError> {
        let s = self.simulate(policy, seed)?;
        let rejected: std::collections::HashSet<usize> = s.rejected.iter().map(|r| r.0).collect();
        let mut w = self.waits(|j| s.jobs[j].start);
        let kept = (0..self.jobs.len()).filter(|j| !rejected.contains(j));
        w.jobs = kept.map(|j| w.jobs[j].clone()).collect();
        Ok(w)
    }

    /// The full simulation of `policy` on the log's jobs, as [`Replay::simulated_waits`]
    /// measures it: each job's simulated start against [`Replay::starts`]. It is the run of
    /// every front end ([`crate::run::simulate_set`]): a policy that models a controller's
    /// time-limit checks ([`Policy::limit_checks`]: `slurm`) has a job that reaches its limit
    /// ended at the first check at or after it, wherever it starts
    /// ([`sim::LimitChecks::reaches_limit`]: on a log, the jobs whose recorded end is at or
    /// after the check due at their recorded start), so `schedlab run` gives the same
    /// schedule; any other runs the jobs' recorded times, never cut at the limit.
    ///
    /// A policy that replays the log (`historic`) is shown its earlier runs and recorded nodes,
    /// as `schedlab run` shows them: its whole run is the recorded one.
    pub fn simulate(&self, policy: &mut dyn Policy, seed: u64) -> Result<sim::Schedule, SimError> {
        crate::run::show_recorded(self.set, policy);
        crate::run::simulate_set(self.set, &self.jobs, None, policy, seed, None)
    }

    fn waits(&self, start: impl Fn(usize) -> crate::Time) -> Waits {
        let jobs = (0..self.jobs.len())
            .map(|j| {
                let account = self.set.accounts.get(j).cloned().unwrap_or_default();
                (account, (start(j) - self.jobs[j].submit) as f64)
            })
            .collect();
        Waits { jobs }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(jobs: &[(&str, f64)]) -> Waits {
        Waits {
            jobs: jobs.iter().map(|&(a, w)| (a.to_string(), w)).collect(),
        }
    }

    /// Worked by hand: waits {0, 10, 20} (a, a, b) against {0, 30} (a, b): means 10 and 15
    /// (40% apart); a 5 / 0 s (200%), b 20 / 30 s (40%); CDFs at 0: 1/3 vs 1/2, at 10:
    /// 2/3 vs 1/2, at 20: 1 vs 1/2 (the largest gap, 0.5), at 30: 1 vs 1.
    #[test]
    fn distance_worked_by_hand() {
        let a = run(&[("a", 0.0), ("a", 10.0), ("b", 20.0)]);
        let b = run(&[("a", 0.0), ("b", 30.0)]);
        let d = a.distance(&b);
        assert_eq!(d.mean, (10.0, 15.0));
        assert!((d.mean_apart() - 0.4).abs() < 1e-12);
        assert_eq!(d.accounts[0], ("a".to_string(), 5.0, 0.0, 2.0));
        assert_eq!(d.accounts[1].3, 0.4);
        assert!((d.cdf_gap - 0.5).abs() < 1e-12);
        assert_eq!(cdf_gap(&[1.0, 2.0], &[1.0, 2.0]), 0.0);
    }
}
