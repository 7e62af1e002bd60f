//! Summary statistics.

use serde::Serialize;

/// Mean, median, 95th percentile and maximum of a sample (all 0 for an empty sample).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Summary {
    pub mean: f64,
    pub median: f64,
    pub p95: f64,
    pub max: f64,
}

impl Summary {
    /// Summarises `values` (reordered in place). Percentiles use the nearest-rank method;
    /// the median of an even-sized sample is the mean of the two middle values.
    pub fn of(values: &mut [f64]) -> Summary {
        let n = values.len();
        if n == 0 {
            return Summary::default();
        }
        values.sort_unstable_by(f64::total_cmp);
        let mean = values.iter().sum::<f64>() / n as f64;
        let median = if n % 2 == 1 {
            values[n / 2]
        } else {
            (values[n / 2 - 1] + values[n / 2]) / 2.0
        };
        Summary {
            mean,
            median,
            p95: nearest_rank(values, 0.95),
            max: values[n - 1],
        }
    }
}

/// The nearest-rank percentile of sorted, non-empty `values`.
pub fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_by_hand() {
        let mut v: Vec<f64> = (1..=20).rev().map(f64::from).collect();
        let s = Summary::of(&mut v);
        assert_eq!(s.mean, 10.5);
        assert_eq!(s.median, 10.5);
        assert_eq!(s.p95, 19.0);
        assert_eq!(s.max, 20.0);
        assert_eq!(Summary::of(&mut [3.0]).p95, 3.0);
        assert_eq!(Summary::of(&mut []), Summary::default());
    }
}
