//! Step-function time series (busy processors, queue length), several policies overlaid.

use super::legend::Key;
use super::time_axes::{framed, time_chart, TimeAxes};
use super::ChartResult;
use crate::sim::Schedule;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Numbers per point in the flat form: `[time, busy, queued]`.
pub const POINT_FIELDS: usize = 3;

/// The schedule's series in flat form.
pub fn points(s: &Schedule) -> Vec<f64> {
    s.series
        .iter()
        .flat_map(|p| [p.time as f64, f64::from(p.busy), f64::from(p.queued)])
        .collect()
}

/// At most two points (min and max) per pixel column, in time order, as a step line.
fn decimate(flat: &[f64], column: usize, t0: f64, t1: f64, columns: usize) -> Vec<(f64, f64)> {
    let pts: Vec<(f64, f64)> = flat
        .chunks_exact(POINT_FIELDS)
        .map(|c| (c[0], c[column]))
        .collect();
    let mut out = Vec::new();
    let bin_w = (t1 - t0) / columns.max(1) as f64;
    let mut prev_y: Option<f64> = None;
    let mut i = 0;
    while i < pts.len() {
        let (t, y) = pts[i];
        let bin = ((t - t0) / bin_w).floor();
        let mut j = i;
        let (mut lo, mut hi) = (y, y);
        while j + 1 < pts.len() && ((pts[j + 1].0 - t0) / bin_w).floor() == bin {
            j += 1;
            lo = lo.min(pts[j].1);
            hi = hi.max(pts[j].1);
        }
        if let Some(p) = prev_y {
            out.push((t, p));
        }
        if j > i {
            out.push((t, lo));
            out.push((t, hi));
        }
        out.push((pts[j].0, pts[j].1));
        prev_y = Some(pts[j].1);
        i = j + 1;
    }
    out
}

/// Draws `column` (1 = busy processors, 2 = queue length) of each series, overlaid.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[Vec<f64>],
    keys: &[Key],
    column: usize,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    let column = column.clamp(1, POINT_FIELDS - 1);
    let all = || series.iter().flat_map(|s| s.chunks_exact(POINT_FIELDS));
    let t0 = all().map(|c| c[0]).fold(f64::INFINITY, f64::min);
    let t1 = all().map(|c| c[0]).fold(f64::NEG_INFINITY, f64::max);
    let ymax = all().map(|c| c[column]).fold(0.0, f64::max).max(1.0);
    let (t0, t1) = if t0.is_finite() && t1 > t0 {
        (t0, t1)
    } else {
        (0.0, 1.0)
    };
    let n = series.len().min(keys.len());
    let plot = framed(root, title, &keys[..n])?;
    let mut chart = time_chart(&plot, &TimeAxes::lines(""), (t0, t1), ymax * 1.05)?;
    let columns = chart.plotting_area().dim_in_pixel().0 as usize;
    for (s, key) in series.iter().zip(&keys[..n]) {
        chart.draw_series(LineSeries::new(
            decimate(s, column, t0, t1, columns),
            key.colour.mix(0.7).stroke_width(1),
        ))?;
    }
    Ok(())
}
