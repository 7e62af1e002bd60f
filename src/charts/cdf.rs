//! Empirical CDFs of a per-job figure (wait, bounded slowdown), one line per policy, on a log x
//! axis: the standard figure of the field.
//!
//! Values below the axis floor (a wait of 0, drawn at 1 s) count at the floor, so every curve
//! reaches the share of jobs at or below it at the left edge. Each curve is evaluated at one x
//! per pixel column (binary search in the sorted values), so drawing costs O(width x log n).

use super::legend::{titled, Key, LegendStyle};
use super::log_axis::log_axis_fit;
use super::ChartResult;
use plotters::coord::Shift;
use plotters::prelude::*;

/// How the chart looks.
#[derive(Debug, Clone, PartialEq)]
pub struct CdfStyle {
    /// The left end of the log x axis; smaller values are counted there.
    pub floor: f64,
    pub x_desc: String,
    /// The policy drawn thick (the others thinner and lighter), if any.
    pub highlight: Option<usize>,
}

impl CdfStyle {
    pub fn wait() -> CdfStyle {
        CdfStyle {
            floor: 1.0,
            x_desc: "wait (s, log; 0 counted at 1 s)".into(),
            highlight: None,
        }
    }

    pub fn bsld() -> CdfStyle {
        CdfStyle {
            floor: 1.0,
            x_desc: "bounded slowdown (log)".into(),
            highlight: None,
        }
    }
}

/// `values` without the non-finite ones, sorted ascending.
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_unstable_by(f64::total_cmp);
    v
}

/// The share of `sorted` values <= x.
pub fn share_at(sorted: &[f64], x: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted.partition_point(|&v| v <= x) as f64 / sorted.len() as f64
}

fn fmt_x(x: f64) -> String {
    if x >= 1e4 {
        format!("{:.0e}", x)
    } else {
        format!("{x:.0}")
    }
}

/// Draws one CDF per `(key, sorted values)`; see [`sorted`].
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[(Key, Vec<f64>)],
    style: &CdfStyle,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    let keys: Vec<Key> = series.iter().map(|s| s.0.clone()).collect();
    let plot = LegendStyle::default().outside(&titled(root, title)?, &keys)?;
    let floor = if style.floor.is_finite() && style.floor > 0.0 {
        style.floor
    } else {
        1.0
    };
    let top = series
        .iter()
        .filter_map(|s| s.1.last().copied())
        .filter(|v| v.is_finite())
        .fold(floor * 10.0, f64::max);
    // As many x labels as the axis holds side by side (the plot's width less the y labels' 52
    // pixels and the margins).
    let width = plot.dim_in_pixel().0.saturating_sub(52 + 16);
    let mut chart = ChartBuilder::on(&plot)
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(log_axis_fit(floor, top * 1.2, width), 0.0..1.0)?;
    chart
        .configure_mesh()
        .x_label_formatter(&|x| fmt_x(*x))
        .y_label_formatter(&|y| format!("{:.0} %", y * 100.0))
        .x_desc(style.x_desc.as_str())
        .y_desc("share of jobs")
        .draw()?;
    let columns = chart.plotting_area().dim_in_pixel().0.max(2) as usize;
    let (l0, l1) = (floor.ln(), (top * 1.2).ln());
    let xs: Vec<f64> = (0..=columns)
        .map(|i| (l0 + (l1 - l0) * i as f64 / columns as f64).exp())
        .collect();
    for (i, (key, values)) in series.iter().enumerate() {
        let colour = key.colour;
        let (width, alpha) = match style.highlight {
            Some(h) if h == i => (3, 1.0),
            Some(_) => (1, 0.35),
            None => (2, 0.9),
        };
        let mut pts = Vec::with_capacity(xs.len() * 2);
        let mut prev = None;
        for &x in &xs {
            let y = share_at(values, x);
            if let Some(p) = prev {
                if p != y {
                    pts.push((x, p));
                }
            }
            pts.push((x, y));
            prev = Some(y);
        }
        chart.draw_series(LineSeries::new(pts, colour.mix(alpha).stroke_width(width)))?;
    }
    Ok(())
}
