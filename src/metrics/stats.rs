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
        sort_total(values);
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

/// Minimum, quartiles and maximum of a sample (all 0 for an empty sample): what a box plot draws.
/// Quartiles interpolate linearly between closest ranks (the method of numpy's default and of
/// plotters' `Quartiles`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Quartiles {
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
}

impl Quartiles {
    /// Quartiles of `values` (reordered in place); NaNs sort last.
    pub fn of(values: &mut [f64]) -> Quartiles {
        if values.is_empty() {
            return Quartiles::default();
        }
        sort_total(values);
        Quartiles {
            min: values[0],
            q1: interpolated(values, 0.25),
            median: interpolated(values, 0.5),
            q3: interpolated(values, 0.75),
            max: values[values.len() - 1],
        }
    }
}

/// Sorts `values` in `f64::total_cmp` order, in linear time (a radix sort over the bits,
/// mapped so that their unsigned order is the total order). Values that compare equal under
/// `total_cmp` have the same bits, so the result is the very sequence any sort by `total_cmp`
/// gives, and sums over it (the means) keep their order to the last bit.
///
/// Samples of schedules often repeat their smallest value (a wait of 0, a slowdown of 1 for
/// every job that did not wait): the copies of the minimum are set in front and only the
/// others are sorted. The result is the same sequence (copies of a value have the same bits).
pub fn sort_total(values: &mut [f64]) {
    if values.is_empty() {
        return;
    }
    // `total_cmp`'s key: the bits as a signed integer, the magnitude bits of negative values
    // flipped (the map is its own inverse).
    let key = |bits: u64| (bits ^ ((((bits as i64) >> 63) as u64) >> 1)) as i64;
    let min_key = values.iter().fold(i64::MAX, |m, v| m.min(key(v.to_bits())));
    let bits = key(min_key as u64) as u64;
    let min = f64::from_bits(bits);
    // The others to the back (read from the end: the write index never passes the read one).
    // Branch-free: every value is written, and the write index moves on past the others
    // only (`k > i` throughout, so `k - 1` is a slot already read).
    let mut k = values.len();
    for i in (0..values.len()).rev() {
        let v = values[i];
        values[k - 1] = v;
        k -= usize::from(v.to_bits() != bits);
    }
    let (front, rest) = values.split_at_mut(k);
    front.fill(min);
    radsort::sort(rest);
}

/// The `q` quantile of sorted, non-empty `values`, interpolating between closest ranks.
pub fn interpolated(sorted: &[f64], q: f64) -> f64 {
    let rank = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = rank.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo as f64)
}

/// The nearest-rank percentile of sorted, non-empty `values`.
pub fn nearest_rank(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The largest distance between the empirical CDFs of `a` and `b` (the two-sample
/// Kolmogorov–Smirnov distance, 0 to 1; 0 when either is empty).
pub fn cdf_gap(a: &[f64], b: &[f64]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (mut i, mut k, mut gap) = (0, 0, 0.0f64);
    while i < a.len() || k < b.len() {
        let x = match (a.get(i), b.get(k)) {
            (Some(&x), Some(&y)) => x.min(y),
            (Some(&x), None) | (None, Some(&x)) => x,
            (None, None) => break,
        };
        while a.get(i).is_some_and(|&v| v <= x) {
            i += 1;
        }
        while b.get(k).is_some_and(|&v| v <= x) {
            k += 1;
        }
        gap = gap.max((i as f64 / a.len() as f64 - k as f64 / b.len() as f64).abs());
    }
    gap
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

    /// `sort_total` gives `v` the very sequence (to the bit) a comparison sort by `total_cmp` does.
    fn assert_sorts_as_total_cmp(v: Vec<f64>, what: &str) {
        let mut want = v.clone();
        want.sort_unstable_by(f64::total_cmp);
        let mut got = v;
        sort_total(&mut got);
        let bits = |x: &[f64]| x.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want), "{what}");
    }

    #[test]
    fn radix_order_is_total_cmp_order() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let specials = [
            0.0,
            -0.0,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            f64::MIN,
        ];
        for n in [0, 1, 2, 7, 100, 5000] {
            let v: Vec<f64> = (0..n)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    match seed % 4 {
                        0 => specials[i % specials.len()],
                        1 => (seed >> 40) as f64 - 1000.0,
                        2 => f64::from_bits(seed),
                        _ => (seed % 1000) as f64 / 7.0,
                    }
                })
                .collect();
            assert_sorts_as_total_cmp(v, &format!("n {n}"));
        }
    }

    #[test]
    fn repeated_minimum_sorts_as_total_cmp_does() {
        // Samples whose smallest value comes back often (waits of 0, slowdowns of 1), with
        // -0.0 and 0.0 (distinct under total_cmp) and a NaN above everything.
        let mut seed = 0x1234_5678_9abc_def1u64;
        for (min, n) in [
            (0.0, 1000),
            (1.0, 3000),
            (-0.0, 2000),
            (f64::NEG_INFINITY, 50),
        ] {
            let v: Vec<f64> = (0..n)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    match (i, seed % 5) {
                        (0, _) => f64::NAN,
                        (_, 0..=2) => min,
                        (_, 3) => 0.0,
                        _ => (seed >> 11) as f64 / 1e3 + min.max(0.0),
                    }
                })
                .collect();
            assert_sorts_as_total_cmp(v, &format!("min {min}"));
        }
    }

    #[test]
    fn quartiles_by_hand() {
        // plotters' documented example: [7, 15, 36, 39, 40, 41] -> q1 20.25, median 37.5,
        // q3 39.75 (ranks 1.25, 2.5, 3.75 between closest values).
        let mut v = vec![41.0, 7.0, 36.0, 15.0, 40.0, 39.0];
        let q = Quartiles::of(&mut v);
        assert_eq!(
            (q.min, q.q1, q.median, q.q3, q.max),
            (7.0, 20.25, 37.5, 39.75, 41.0)
        );
        let q = Quartiles::of(&mut [5.0]);
        assert_eq!(
            (q.min, q.q1, q.median, q.q3, q.max),
            (5.0, 5.0, 5.0, 5.0, 5.0)
        );
        assert_eq!(Quartiles::of(&mut []), Quartiles::default());
    }
}
