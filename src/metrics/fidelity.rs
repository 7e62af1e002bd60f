//! Replay fidelity: a simulated schedule against the trace's own. Each job's recorded wait (SWF
//! field 3; an sacct log's Start − Submit) beside its simulated wait: the error per job, how the
//! errors spread, how far apart the two wait distributions are, and the jobs furthest off (the
//! reader then asks the schedule why they started when they did: their start reason and the job
//! they waited for). The view an admin reads before trusting a what-if on their own log.

use super::stats;
use crate::input::JobSet;
use crate::sim::{Outcome, Schedule};
use crate::Time;

/// A job's error is "close" within this many seconds.
pub const CLOSE: Time = 60;

/// One job, recorded against simulated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    /// The job's index in the job set.
    pub job: usize,
    pub recorded: Time,
    pub simulated: Time,
}

impl Gap {
    /// Simulated minus recorded wait: positive when the simulation made the job wait longer.
    pub fn error(&self) -> Time {
        self.simulated - self.recorded
    }
}

/// The figures of a simulated schedule against the recorded one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Fidelity {
    /// Jobs with a recorded wait that ran in the simulation (the ones compared).
    pub compared: usize,
    pub mean_recorded: f64,
    pub mean_simulated: f64,
    /// Mean, median and 90th percentile (nearest rank) of |error|, seconds.
    pub mean_abs: f64,
    pub median_abs: f64,
    pub p90_abs: f64,
    /// Share of the compared jobs whose |error| is at most [`CLOSE`].
    pub close: f64,
    /// The largest vertical gap between the CDFs of the recorded and the simulated waits
    /// (the Kolmogorov–Smirnov distance, 0 to 1).
    pub cdf_gap: f64,
}

/// Every job with a recorded wait that ran in `s`, in job order.
pub fn gaps(jobs: &JobSet, s: &Schedule) -> Vec<Gap> {
    jobs.jobs
        .iter()
        .zip(&s.jobs)
        .enumerate()
        .filter(|(_, (_, rec))| matches!(rec.outcome, Outcome::Completed | Outcome::Killed))
        .filter_map(|(j, (job, rec))| {
            Some(Gap {
                job: j,
                recorded: job.trace_wait()?,
                simulated: rec.start - job.submit,
            })
        })
        .collect()
}

/// The figures of `gaps`; `None` when there is none (no recorded wait in the trace).
pub fn fidelity(gaps: &[Gap]) -> Option<Fidelity> {
    if gaps.is_empty() {
        return None;
    }
    let n = gaps.len() as f64;
    let mut abs: Vec<Time> = gaps.iter().map(|g| g.error().abs()).collect();
    abs.sort_unstable();
    let rank = |q: f64| abs[((q * n).ceil() as usize).clamp(1, abs.len()) - 1] as f64;
    let recorded: Vec<f64> = gaps.iter().map(|g| g.recorded as f64).collect();
    let simulated: Vec<f64> = gaps.iter().map(|g| g.simulated as f64).collect();
    Some(Fidelity {
        compared: gaps.len(),
        mean_recorded: recorded.iter().sum::<f64>() / n,
        mean_simulated: simulated.iter().sum::<f64>() / n,
        mean_abs: abs.iter().sum::<Time>() as f64 / n,
        median_abs: rank(0.5),
        p90_abs: rank(0.9),
        close: abs.iter().filter(|&&e| e <= CLOSE).count() as f64 / n,
        cdf_gap: stats::cdf_gap(&recorded, &simulated),
    })
}

/// The gaps of two wait columns of the same jobs (`a` recorded or policy A, `b` simulated or
/// policy B; a job counts when both are finite and >= 0).
pub fn gaps_of_columns(a: &[f64], b: &[f64]) -> Vec<Gap> {
    a.iter()
        .zip(b)
        .enumerate()
        .filter(|(_, (x, y))| x.is_finite() && y.is_finite() && **x >= 0.0 && **y >= 0.0)
        .map(|(job, (&x, &y))| Gap {
            job,
            recorded: x.round() as Time,
            simulated: y.round() as Time,
        })
        .collect()
}

/// The `n` jobs furthest off (largest |error|, ties by job order), furthest first.
pub fn furthest(gaps: &[Gap], n: usize) -> Vec<Gap> {
    let mut by: Vec<Gap> = gaps.to_vec();
    by.sort_by_key(|g| (std::cmp::Reverse(g.error().abs()), g.job));
    by.truncate(n);
    by
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gap(job: usize, recorded: Time, simulated: Time) -> Gap {
        Gap {
            job,
            recorded,
            simulated,
        }
    }

    #[test]
    fn figures_worked_by_hand() {
        // Errors 0, +30, -100, +400: |e| sorted 0, 30, 100, 400.
        let g = [
            gap(0, 10, 10),
            gap(1, 0, 30),
            gap(2, 200, 100),
            gap(3, 0, 400),
        ];
        let f = fidelity(&g).unwrap();
        assert_eq!(f.compared, 4);
        assert_eq!(f.mean_recorded, 52.5); // (10 + 0 + 200 + 0) / 4
        assert_eq!(f.mean_simulated, 135.0); // (10 + 30 + 100 + 400) / 4
        assert_eq!(f.mean_abs, 132.5);
        assert_eq!(f.median_abs, 30.0); // nearest rank: the 2nd of 4
        assert_eq!(f.p90_abs, 400.0); // the 4th of 4
        assert_eq!(f.close, 0.5); // 0 and 30 are within 60 s
                                  // Recorded 0, 0, 10, 200; simulated 10, 30, 100, 400: after 0, 2 of 4 against 0 of 4.
        assert_eq!(f.cdf_gap, 0.5);
        let far = furthest(&g, 2);
        assert_eq!(far, vec![gap(3, 0, 400), gap(2, 200, 100)]);
        assert_eq!(fidelity(&[]), None);
    }

    #[test]
    fn the_same_waits_are_a_perfect_replay() {
        let g: Vec<Gap> = (0..50)
            .map(|j| gap(j, j as Time * 7, j as Time * 7))
            .collect();
        let f = fidelity(&g).unwrap();
        assert_eq!(
            (f.mean_abs, f.p90_abs, f.close, f.cdf_gap),
            (0.0, 0.0, 1.0, 0.0)
        );
        // The same distribution, shuffled between jobs: no CDF gap, yet errors.
        let g: Vec<Gap> = (0..50)
            .map(|j| gap(j, j as Time * 7, (49 - j) as Time * 7))
            .collect();
        let f = fidelity(&g).unwrap();
        assert_eq!(f.cdf_gap, 0.0);
        assert!(f.mean_abs > 100.0);
    }
}
