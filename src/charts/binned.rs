//! Busy processors or queue length per policy averaged over bins of a chosen width (an hour, a
//! day, a week): with a dozen policies, raw steps become spikes on spikes, bin means stay
//! readable. One policy may be highlighted (drawn thick, the others light), or each drawn in
//! a small panel of its own over the others in grey ([`BinnedStyle::columns`]), so that a dozen
//! close lines never merge into one band.

use super::legend::Key;
use super::multiples;
use super::series::POINT_FIELDS;
use super::time_axes::{framed, time_chart, TimeAxes};
use super::ChartResult;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The time-weighted mean of column `column` of a step series (flat `[time, busy, queued]`,
/// each value holding until the next point) over bins `[t0 + k w, t0 + (k+1) w)` from the first
/// point's time `t0` to the last's; `(bin start, mean)` per bin. A bin the series does not
/// reach is left out.
pub fn bin_means(flat: &[f64], column: usize, width: f64) -> Vec<(f64, f64)> {
    let pts: Vec<(f64, f64)> = flat
        .chunks_exact(POINT_FIELDS)
        .map(|c| (c[0], c[column.clamp(1, POINT_FIELDS - 1)]))
        .filter(|p| p.0.is_finite() && p.1.is_finite())
        .collect();
    let (Some(first), Some(last)) = (pts.first(), pts.last()) else {
        return Vec::new();
    };
    let (t0, t1) = (first.0, last.0);
    if !(width.is_finite() && width > 0.0) || t1 <= t0 {
        return pts;
    }
    let bins = ((t1 - t0) / width).ceil().min(1e6) as usize;
    let mut area = vec![0.0; bins];
    let mut cover = vec![0.0; bins];
    for w in pts.windows(2) {
        let ((a, v), (b, _)) = (w[0], w[1]);
        let mut t = a;
        while t < b {
            let k = (((t - t0) / width) as usize).min(bins - 1);
            let end = (t0 + (k + 1) as f64 * width).min(b);
            let end = if end <= t { b } else { end };
            area[k] += v * (end - t);
            cover[k] += end - t;
            t = end;
        }
    }
    (0..bins)
        .filter(|&k| cover[k] > 0.0)
        .map(|k| (t0 + k as f64 * width, area[k] / cover[k]))
        .collect()
}

/// How the chart looks.
#[derive(Debug, Clone, PartialEq)]
pub struct BinnedStyle {
    /// Bin width in seconds; 0 draws the raw steps' bin means at one bin per pixel column.
    pub bin: f64,
    /// The policy drawn thick, the others light.
    pub highlight: Option<usize>,
    pub y_desc: String,
    /// 0: the lines overlaid in one plot; n: small multiples, one panel per policy in n columns.
    pub columns: usize,
}

impl BinnedStyle {
    /// Overlaid lines over bins of `bin` seconds.
    pub fn overlaid(bin: f64) -> Self {
        BinnedStyle {
            bin,
            highlight: None,
            y_desc: String::new(),
            columns: 0,
        }
    }
}

/// Draws column `column` (1 busy, 2 queued) of each series as bin means, overlaid.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Vec<f64>],
    keys: &[Key],
    column: usize,
    style: &BinnedStyle,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    let all = || series.iter().flat_map(|s| s.chunks_exact(POINT_FIELDS));
    let t0 = all().map(|c| c[0]).fold(f64::INFINITY, f64::min);
    let t1 = all().map(|c| c[0]).fold(f64::NEG_INFINITY, f64::max);
    let (t0, t1) = if t0.is_finite() && t1 > t0 {
        (t0, t1)
    } else {
        (0.0, 1.0)
    };
    let width = if style.bin > 0.0 {
        style.bin
    } else {
        let px = root.dim_in_pixel().0.max(100);
        (t1 - t0) / f64::from(px)
    };
    let lines: Vec<Vec<(f64, f64)>> = series.iter().map(|s| bin_means(s, column, width)).collect();
    draw_means(root, &lines, keys, width, (t0, t1), style, title)
}

/// The steps of bin means of `width` seconds, the last ending at `t1`.
fn steps(line: &[(f64, f64)], width: f64, t1: f64) -> Vec<(f64, f64)> {
    line.iter()
        .flat_map(|&(t, v)| [(t, v), ((t + width).min(t1), v)])
        .collect()
}

/// The grey of the other policies' lines behind a panel's own.
const OTHERS: RGBColor = RGBColor(200, 200, 200);

/// Draws bin means prepared by [`bin_means`] (bins of `width` seconds) over `span`.
pub fn draw_means<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lines: &[Vec<(f64, f64)>],
    keys: &[Key],
    width: f64,
    (t0, t1): (f64, f64),
    style: &BinnedStyle,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    let (t0, t1) = if t0.is_finite() && t1 > t0 {
        (t0, t1)
    } else {
        (0.0, 1.0)
    };
    let ymax = lines
        .iter()
        .flatten()
        .map(|p| p.1)
        .fold(0.0, f64::max)
        .max(1.0);
    let n = lines.len().min(keys.len());
    if style.columns > 0 && n > 1 {
        let panels = multiples::panels(root, title, n, style.columns)?;
        for (i, panel) in panels.iter().enumerate() {
            let axes = TimeAxes {
                y_labels: 3,
                ..TimeAxes::lines(&keys[i].label)
            };
            let mut chart = time_chart(panel, &axes, (t0, t1), ymax * 1.05)?;
            for (j, line) in lines.iter().enumerate().take(n) {
                if j != i {
                    chart.draw_series(LineSeries::new(
                        steps(line, width, t1),
                        OTHERS.stroke_width(1),
                    ))?;
                }
            }
            let own = keys[i].colour.stroke_width(2);
            chart.draw_series(LineSeries::new(steps(&lines[i], width, t1), own))?;
        }
        return Ok(());
    }
    let plot = framed(root, title, &keys[..n])?;
    let axes = TimeAxes {
        y_label_area: 52,
        y_desc: Some(style.y_desc.as_str()),
        ..TimeAxes::lines("")
    };
    let mut chart = time_chart(&plot, &axes, (t0, t1), ymax * 1.05)?;
    // The highlighted line last, on top.
    let mut order: Vec<usize> = (0..n).collect();
    if let Some(h) = style.highlight.filter(|&h| h < n) {
        order.retain(|&i| i != h);
        order.push(h);
    }
    for i in order {
        let (w, alpha) = match style.highlight {
            Some(h) if h == i => (3, 1.0),
            Some(_) => (1, 0.25),
            None => (1, 0.85),
        };
        let stroke = keys[i].colour.mix(alpha).stroke_width(w);
        chart.draw_series(LineSeries::new(steps(&lines[i], width, t1), stroke))?;
    }
    Ok(())
}
