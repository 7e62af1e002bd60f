//! The sweep chart: one metric over the values of a key, one line per policy (the mean over the
//! seeds) in a band from the minimum to the maximum.

use super::legend::{titled, Key, LegendStyle};
use super::ChartResult;
use crate::sweep::{Stat, STAT_FIELDS};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One policy's line: its label and a [`Stat`] per value.
pub struct SweepLine {
    pub label: String,
    pub stats: Vec<Stat>,
}

/// Reads `[mean, min, max, ...]` (values of the first line, then of the second, ...) back into
/// lines of `values` stats each; `None` when the numbers do not make whole lines.
pub fn unflatten(labels: &[String], values: usize, flat: &[f64]) -> Option<Vec<SweepLine>> {
    if flat.len() != labels.len() * values * STAT_FIELDS {
        return None;
    }
    Some(
        labels
            .iter()
            .zip(flat.chunks(values.max(1) * STAT_FIELDS))
            .map(|(label, chunk)| SweepLine {
                label: label.clone(),
                stats: chunk
                    .chunks_exact(STAT_FIELDS)
                    .map(|c| Stat {
                        mean: c[0],
                        min: c[1],
                        max: c[2],
                    })
                    .collect(),
            })
            .collect(),
    )
}

/// The x position of each value: the values themselves when they are all numbers, else their
/// ranks (the axis then labels the ranks with the values).
fn positions(values: &[String]) -> (Vec<f64>, bool) {
    let nums: Option<Vec<f64>> = values
        .iter()
        .map(|v| v.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect();
    match nums {
        Some(n) if !n.is_empty() => (n, true),
        _ => ((0..values.len()).map(|i| i as f64).collect(), false),
    }
}

fn short(x: f64) -> String {
    if x != 0.0 && (x.abs() >= 1e5 || x.abs() < 1e-3) {
        format!("{x:.2e}")
    } else {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Draws `lines` over `values` of key `key`; `metric` names the y axis.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    values: &[String],
    lines: &[SweepLine],
    key: &str,
    metric: &str,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    let labels: Vec<String> = lines.iter().map(|l| l.label.clone()).collect();
    let keys = Key::list(&labels);
    let plot = LegendStyle::default().outside(&titled(root, title)?, &keys)?;
    let (xs, numeric) = positions(values);
    let (mut x0, mut x1) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if !(x0.is_finite() && x1 > x0) {
        let c = if x0.is_finite() { x0 } else { 0.0 };
        (x0, x1) = (c - 0.5, c + 0.5);
    }
    let pad = (x1 - x0) * 0.03;
    let finite = lines
        .iter()
        .flat_map(|l| l.stats.iter())
        .flat_map(|s| [s.mean, s.min, s.max])
        .filter(|v| v.is_finite());
    let (mut y0, mut y1) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    if !(y0.is_finite() && y1 > y0) {
        let c = if y0.is_finite() { y0 } else { 0.0 };
        (y0, y1) = (c - 1.0, c + 1.0);
    }
    let ypad = (y1 - y0) * 0.06;
    let mut chart = ChartBuilder::on(&plot)
        .margin(8)
        .x_label_area_size(34)
        .y_label_area_size(58)
        .build_cartesian_2d(x0 - pad..x1 + pad, y0 - ypad..y1 + ypad)?;
    let label_of = |x: &f64| {
        if numeric {
            short(*x)
        } else {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                values.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        }
    };
    chart
        .configure_mesh()
        .max_light_lines(0)
        .x_labels(if numeric { 10 } else { values.len().max(1) })
        .y_labels(6)
        .x_label_formatter(&label_of)
        .y_label_formatter(&|y| short(*y))
        .x_desc(key)
        .y_desc(metric)
        .draw()?;
    for (line, key) in lines.iter().zip(&keys) {
        let colour = key.colour;
        let pts: Vec<(f64, Stat)> = xs
            .iter()
            .zip(&line.stats)
            .filter(|(_, s)| s.mean.is_finite() && s.min.is_finite() && s.max.is_finite())
            .map(|(&x, &s)| (x, s))
            .collect();
        if pts.len() > 1 {
            let band: Vec<(f64, f64)> = pts
                .iter()
                .map(|(x, s)| (*x, s.max))
                .chain(pts.iter().rev().map(|(x, s)| (*x, s.min)))
                .collect();
            chart.draw_series(std::iter::once(Polygon::new(
                band,
                colour.mix(0.18).filled(),
            )))?;
        } else if let Some((x, s)) = pts.first() {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(*x, s.min), (*x, s.max)],
                colour.mix(0.5).stroke_width(6),
            )))?;
        }
        chart.draw_series(LineSeries::new(
            pts.iter().map(|(x, s)| (*x, s.mean)),
            colour.stroke_width(2),
        ))?;
        chart.draw_series(
            pts.iter()
                .map(|(x, s)| Circle::new((*x, s.mean), 3, colour.filled())),
        )?;
    }
    Ok(())
}
