//! GPUs of generated jobs: a share of the jobs asks for GPUs, their count drawn from weighted
//! counts. Drawn from a generator of their own (seeded from the workload's seed), so that the
//! jobs themselves (submit times, sizes, runtimes, estimates) are the same with or without
//! GPUs; with a share of 0 nothing is drawn and the output is what it was before GPUs.

use crate::quote::quote;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// GPU counts of a GPU job and their weights when none are given: 1 (4), 2 (2), 4 (1), 8 (1),
/// i.e. half of the GPU jobs take one GPU, a quarter two, an eighth four and an eighth eight.
pub const DEFAULT_COUNTS: [(u32, f64); 4] = [(1, 4.0), (2, 2.0), (4, 1.0), (8, 1.0)];

/// Added to the seed for the GPUs' generator (any fixed odd constant: the golden ratio's).
const GPU_STREAM: u64 = 0x9E37_79B9_7F4A_7C15;

/// Reads `1:4,2:2,4:1` (GPU count `:` weight, or a bare count of weight 1).
pub fn parse_counts(text: &str) -> Result<Vec<(u32, f64)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| {
            let (count, weight) = part.split_once(':').unwrap_or((part, "1"));
            let c = count.trim().parse::<u32>().ok().filter(|&c| c >= 1);
            let w = weight.trim().parse::<f64>().ok();
            match (c, w) {
                (Some(c), Some(w)) => Ok((c, w)),
                _ => Err(format!(
                    "GPU counts: {} is not COUNT:WEIGHT (a count from 1, a weight > 0)",
                    quote(part)
                )),
            }
        })
        .collect()
}

/// Checks a share and its counts (the default counts when `counts` is empty).
pub fn check(share: f64, counts: &[(u32, f64)]) -> Result<(), String> {
    if !(0.0..=1.0).contains(&share) {
        return Err(format!("GPU share {share}: must be 0 to 1"));
    }
    for &(c, w) in counts {
        if c == 0 || c > u32::MAX / 2 || !(w.is_finite() && w > 0.0) {
            return Err(format!(
                "GPU count {c} of weight {w}: counts are 1 to {}, weights finite and > 0",
                u32::MAX / 2
            ));
        }
    }
    Ok(())
}

/// The GPUs of `jobs` jobs (0 for a job without), drawn for workload seed `seed`: each job
/// asks for GPUs with probability `share`, a count then drawn from `counts` (weights
/// normalized; [`DEFAULT_COUNTS`] when empty). All zero without drawing when `share` is 0.
pub fn draw(jobs: usize, seed: u64, share: f64, counts: &[(u32, f64)]) -> Vec<u32> {
    if share <= 0.0 {
        return vec![0; jobs];
    }
    let counts = if counts.is_empty() {
        &DEFAULT_COUNTS[..]
    } else {
        counts
    };
    let total: f64 = counts.iter().map(|&(_, w)| w).sum();
    let mut rng = Pcg64::seed_from_u64(seed.wrapping_add(GPU_STREAM));
    (0..jobs)
        .map(|_| {
            if rng.random::<f64>() >= share {
                return 0;
            }
            let mut u = rng.random::<f64>() * total;
            for &(c, w) in counts {
                if u < w {
                    return c;
                }
                u -= w;
            }
            counts[counts.len() - 1].0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_shares() {
        assert_eq!(
            parse_counts("1:4, 2:2,8").unwrap(),
            [(1, 4.0), (2, 2.0), (8, 1.0)]
        );
        assert!(parse_counts("0:1").is_err());
        assert!(parse_counts("two").is_err());
        assert!(check(1.5, &[]).is_err());
        assert!(check(0.5, &[(1, 0.0)]).is_err());
        assert!(check(0.5, &[(1, f64::NAN)]).is_err());
        assert!(check(0.3, &DEFAULT_COUNTS).is_ok());
        assert_eq!(draw(3, 1, 0.0, &[]), [0, 0, 0]);
        // One count only: every GPU job takes it; a share of 1: every job.
        assert!(draw(50, 1, 1.0, &[(3, 1.0)]).iter().all(|&g| g == 3));
        // About the share asked, and the default counts in their proportions.
        let g = draw(20_000, 7, 0.25, &[]);
        let share = g.iter().filter(|&&x| x > 0).count() as f64 / 20_000.0;
        assert!((share - 0.25).abs() < 0.02, "{share}");
        let ones = g.iter().filter(|&&x| x == 1).count() as f64;
        let eights = g.iter().filter(|&&x| x == 8).count() as f64;
        assert!((ones / eights - 4.0).abs() < 0.8, "{ones} {eights}");
        assert_eq!(g, draw(20_000, 7, 0.25, &[]));
    }
}
