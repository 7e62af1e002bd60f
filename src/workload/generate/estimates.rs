//! User runtime estimates after Tsafrir, Etsion & Feitelson, "Modeling user runtime
//! estimates" (JSSPP 2005): estimates are few "round" values (a handful of them cover most
//! jobs), the longest allowed estimate is among the most popular, popularity falls with rank,
//! and each job gets an estimate at least its runtime, longer jobs the longer estimates.
//!
//! Our reading, with our own parameters (the paper's fitted tables are not reproduced):
//! - the values are the round durations of `ROUND` up to the maximum estimate (the
//!   smallest round value at least the longest runtime, and at least one hour);
//! - popularity: the maximum gets [`MAX_SHARE`] of the jobs; the others, in the popularity order
//!   of `ROUND` (as users choose them: 1 h, 30 min, 2 h, 10 min, ...), weights 1 / rank;
//! - assignment: as many values as jobs are drawn and sorted, the jobs sorted by runtime,
//!   the k-th shortest job gets the k-th smallest value; a value below the job's runtime is
//!   raised to the smallest round value at least the runtime.

use rand::Rng;
use rand_pcg::Pcg64;

/// Round durations in seconds, most popular first (after the maximum).
const ROUND: [i64; 24] = [
    3600, 1800, 7200, 600, 14_400, 900, 300, 43_200, 28_800, 86_400, 1200, 21_600, 10_800, 60, 120,
    64_800, 129_600, 36_000, 18_000, 2700, 5400, 172_800, 259_200, 345_600,
];
/// Share of the jobs that get the maximum estimate.
pub const MAX_SHARE: f64 = 0.15;

/// Requested times for jobs of these runtimes (same order), seeded by `rng`.
pub fn assign(runtimes: &[i64], rng: &mut Pcg64) -> Vec<i64> {
    let mut sorted_round: Vec<i64> = ROUND.to_vec();
    sorted_round.sort_unstable();
    let longest = runtimes.iter().copied().max().unwrap_or(0).max(3600);
    let max = sorted_round
        .iter()
        .copied()
        .find(|&v| v >= longest)
        .unwrap_or(longest);
    let values: Vec<i64> = ROUND.iter().copied().filter(|&v| v < max).collect();
    // Cumulative weights: the maximum first, then 1 / rank.
    let rest: f64 = (1..=values.len()).map(|r| 1.0 / r as f64).sum();
    let mut cum = Vec::with_capacity(values.len());
    let mut acc = MAX_SHARE;
    for r in 1..=values.len() {
        acc += (1.0 - MAX_SHARE) / rest / r as f64;
        cum.push(acc);
    }
    let mut draws: Vec<i64> = (0..runtimes.len())
        .map(|_| {
            let u: f64 = rng.random();
            if u < MAX_SHARE || values.is_empty() {
                max
            } else {
                let k = cum.partition_point(|&c| c < u).min(values.len() - 1);
                values[k]
            }
        })
        .collect();
    draws.sort_unstable();
    let mut order: Vec<usize> = (0..runtimes.len()).collect();
    order.sort_by_key(|&i| (runtimes[i], i));
    let mut out = vec![0; runtimes.len()];
    for (k, &i) in order.iter().enumerate() {
        let run = runtimes[i];
        out[i] = if draws[k] >= run {
            draws[k]
        } else {
            sorted_round
                .iter()
                .copied()
                .find(|&v| v >= run)
                .unwrap_or(max)
                .min(max)
                .max(run)
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn estimates_cover_runtimes_and_are_few_round_values() {
        let mut rng = Pcg64::seed_from_u64(1);
        let mut model = super::super::lublin::Lublin::new(128);
        let runs: Vec<i64> = (0..5000).map(|_| model.next(&mut rng).runtime).collect();
        let est = assign(&runs, &mut rng);
        assert!(runs.iter().zip(&est).all(|(r, e)| e >= r));
        let mut distinct = est.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(distinct.len() <= ROUND.len());
        assert!(distinct.iter().all(|v| ROUND.contains(v)));
        // The maximum (the smallest round value >= the longest runtime) holds about its share
        // and is one of the two most popular values.
        let longest = *runs.iter().max().unwrap();
        let max = *distinct.last().unwrap();
        assert!(max >= longest);
        let count = |v: i64| est.iter().filter(|&&e| e == v).count();
        assert!(count(max) as f64 >= 0.9 * MAX_SHARE * est.len() as f64);
        let above = distinct.iter().filter(|&&v| count(v) > count(max)).count();
        assert!(above <= 1, "{above} values more popular than the maximum");
    }
}
