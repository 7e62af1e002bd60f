//! Log-scale axes with one label per tick. plotters' own log axis, over a decade or two, adds
//! light points at 2, 3, ... 10 times each power of ten, so each decade's end comes twice (10
//! as a light point, 10 again as the next power, a rounding apart: two labels "10" drawn over
//! each other) and every integer between is labelled. Here the labelled (bold) ticks are 1, 2,
//! 3 and 5 times each power of ten over at most about a decade, 1, 2 and 5 over up to three
//! and a half, the powers alone beyond; the grid (light) lines stay at every integer multiple.
//! An axis that knows its length in pixels ([`log_axis_fit`]) labels no more than those pixels
//! hold side by side.

use plotters::coord::combinators::{BindKeyPoints, IntoLogRange, LogCoord, WithKeyPoints};

/// A log axis over `lo..hi` (both above 0) with [`log_ticks`]' ticks.
pub fn log_axis(lo: f64, hi: f64) -> WithKeyPoints<LogCoord<f64>> {
    let (bold, light) = log_ticks(lo, hi);
    (lo..hi)
        .log_scale()
        .with_key_points(bold)
        .with_light_points(light)
}

/// A log axis over `lo..hi` whose labels, side by side along `pixels` pixels, do not run into
/// each other ([`log_ticks_fit`]): a horizontal axis.
pub fn log_axis_fit(lo: f64, hi: f64, pixels: u32) -> WithKeyPoints<LogCoord<f64>> {
    let (bold, light) = log_ticks_fit(lo, hi, pixels);
    (lo..hi)
        .log_scale()
        .with_key_points(bold)
        .with_light_points(light)
}

/// The labelled ticks and the grid lines of a log axis over `lo..hi`, each ascending, each
/// value once.
pub fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    log_ticks_fit(lo, hi, u32::MAX)
}

/// [`log_ticks`] on an axis `pixels` long, its labels side by side: 1, 2 and 5 times each power
/// only when a decade spans 120 pixels (5 and 10 are 0.3 decade apart, and a label such as
/// "1000" with some air takes about 36 pixels), 3 too from 200; else the powers alone. (The
/// A-vs-B scatter of a Slurm log, a third of the page wide over three decades, wrote "200",
/// "500" and "1000" into one another.)
pub fn log_ticks_fit(lo: f64, hi: f64, pixels: u32) -> (Vec<f64>, Vec<f64>) {
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    if !(lo > 0.0 && hi.is_finite()) {
        return (Vec::new(), Vec::new());
    }
    let decades = (hi / lo).log10();
    let per_decade = f64::from(pixels) / decades.max(1e-9);
    let labelled: &[u32] = if decades <= 1.2 && per_decade >= 200.0 {
        &[1, 2, 3, 5]
    } else if decades <= 3.5 && per_decade >= 120.0 {
        &[1, 2, 5]
    } else {
        &[1]
    };
    let inside = |v: f64| v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9);
    let (mut bold, mut light) = (Vec::new(), Vec::new());
    let first = lo.log10().floor() as i32;
    let last = hi.log10().ceil() as i32;
    for e in first..=last {
        let power = 10f64.powi(e);
        for m in 1..=9u32 {
            let v = f64::from(m) * power;
            if !inside(v) {
                continue;
            }
            light.push(v);
            if labelled.contains(&m) {
                bold.push(v);
            }
        }
    }
    (bold, light)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_decades_are_labelled_1_2_5_and_each_value_comes_once() {
        // 1..70: 1.85 decades, so 1, 2 and 5 times each power: 1 2 5 10 20 50; the grid at every integer
        // multiple: 1..9, 10..70 (16 lines), 10 once.
        let (bold, light) = log_ticks(1.0, 70.0);
        assert_eq!(bold, vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0]);
        assert_eq!(light.len(), 16);
        assert_eq!(light.iter().filter(|&&v| v == 10.0).count(), 1);
    }

    #[test]
    fn short_and_long_spans() {
        // 3..25: under a decade, so 1, 2, 3, 5 times: 3 5 10 20.
        assert_eq!(log_ticks(3.0, 25.0).0, vec![3.0, 5.0, 10.0, 20.0]);
        // 1..1e5: five decades, the powers alone.
        assert_eq!(
            log_ticks(1.0, 1e5).0,
            vec![1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0]
        );
        // Bounds given the other way round, or not above 0: the same, or none.
        assert_eq!(log_ticks(25.0, 3.0).0, vec![3.0, 5.0, 10.0, 20.0]);
        assert!(log_ticks(0.0, 10.0).0.is_empty());
    }

    #[test]
    fn an_axis_of_few_pixels_labels_fewer_ticks() {
        // 1..1500: 3.18 decades. Over 600 pixels (189 a decade) 1, 2 and 5 times each power;
        // over 210 (66 a decade: 500 and 1000 would stand 20 pixels apart) the powers alone.
        assert_eq!(log_ticks_fit(1.0, 1500.0, 600).0, log_ticks(1.0, 1500.0).0);
        assert_eq!(
            log_ticks_fit(1.0, 1500.0, 210).0,
            vec![1.0, 10.0, 100.0, 1000.0]
        );
        // 3..25 (0.92 decade) over 150 pixels (163 a decade): 1, 2 and 5 times, not 3.
        assert_eq!(log_ticks_fit(3.0, 25.0, 150).0, vec![5.0, 10.0, 20.0]);
        // The grid stays at every integer multiple.
        assert_eq!(log_ticks_fit(1.0, 1500.0, 210).1, log_ticks(1.0, 1500.0).1);
    }
}
