//! Box plots of a per-job figure by job class (by processors: serial / small / big; by runtime:
//! short / medium / long), one box per policy in each class, on a log y axis.
//!
//! The box spans the quartiles with a line at the median; the whiskers reach the 5th and 95th
//! percentiles (with tens of thousands of jobs, the far tail is read from the CDFs).

use super::legend::{fit, titled, Key, LegendStyle};
use super::log_axis::log_axis;
use super::ChartResult;
use crate::metrics::Quartiles;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A job's class by processors on a machine of `procs`: 0 serial (1 processor), 1 small (up to a
/// quarter of the machine), 2 big (more than a quarter, PV-EASY's "big jobs").
pub fn size_class(job_procs: f64, procs: u32) -> u8 {
    if job_procs <= 1.0 {
        0
    } else if job_procs * 4.0 <= f64::from(procs) {
        1
    } else {
        2
    }
}

/// The names of [`size_class`]es.
pub const SIZE_CLASSES: [&str; 3] = ["serial (1)", "small (≤ 1/4 machine)", "big (> 1/4)"];

/// A job's class by runtime (s): 0 short (< 10 min), 1 medium (< 3 h), 2 long.
pub fn runtime_class(runtime: f64) -> u8 {
    if runtime < 600.0 {
        0
    } else if runtime < 10_800.0 {
        1
    } else {
        2
    }
}

/// The names of [`runtime_class`]es.
pub const RUNTIME_CLASSES: [&str; 3] = ["short (< 10 min)", "medium (< 3 h)", "long (≥ 3 h)"];

/// One box: 5th percentile, quartiles, 95th percentile, and how many values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassBox {
    pub p5: f64,
    pub quartiles: Quartiles,
    pub p95: f64,
    pub n: usize,
}

/// Nearest-rank percentile of sorted values.
fn rank(sorted: &[f64], p: f64) -> f64 {
    let k = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[k - 1]
}

/// The boxes of `values` grouped by `classes` (same length; classes >= `groups` are left out):
/// one per class, `None` for an empty class.
pub fn boxes(values: &[f64], classes: &[u8], groups: usize) -> Vec<Option<ClassBox>> {
    let mut by: Vec<Vec<f64>> = vec![Vec::new(); groups];
    for (&v, &c) in values.iter().zip(classes) {
        if v.is_finite() {
            if let Some(g) = by.get_mut(usize::from(c)) {
                g.push(v);
            }
        }
    }
    by.into_iter()
        .map(|mut v| {
            if v.is_empty() {
                return None;
            }
            let quartiles = Quartiles::of(&mut v); // sorts v
            Some(ClassBox {
                p5: rank(&v, 0.05),
                quartiles,
                p95: rank(&v, 0.95),
                n: v.len(),
            })
        })
        .collect()
}

/// Draws `boxes[policy][class]` with the class names `groups` and policy names `labels`; values
/// below `floor` are drawn at it (log axis).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    groups: &[&str],
    keys: &[Key],
    boxes: &[Vec<Option<ClassBox>>],
    floor: f64,
    y_desc: &str,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    let plot = LegendStyle::default().outside(&titled(root, title)?, keys)?;
    let n = boxes.len().max(1);
    let floor = if floor.is_finite() && floor > 0.0 {
        floor
    } else {
        1.0
    };
    let top = boxes
        .iter()
        .flatten()
        .flatten()
        .map(|b| b.p95)
        .filter(|v| v.is_finite())
        .fold(floor * 10.0, f64::max);
    let slot = n as f64 + 1.0;
    let width = groups.len() as f64 * slot;
    // The class names under their groups: on one line when the widest fits a group's width,
    // else the name over its parenthesis (each line cut to fit).
    let font = TextStyle::from(("sans-serif", 12).into_font());
    let group_w = plot.dim_in_pixel().0.saturating_sub(76) / groups.len().max(1) as u32;
    let mut widest = 0;
    for g in groups {
        widest = widest.max(plot.estimate_text_size(g, &font)?.0);
    }
    let mut lines: Vec<Vec<String>> = Vec::with_capacity(groups.len());
    for g in groups {
        let parts: Vec<&str> = if widest + 8 <= group_w {
            vec![g]
        } else {
            match g.split_once(" (") {
                Some((name, _)) => vec![name, &g[name.len() + 1..]],
                None => vec![g],
            }
        };
        let mut fitted = Vec::with_capacity(parts.len());
        for p in parts {
            fitted.push(fit(&plot, p, &font, group_w.saturating_sub(6).max(12))?);
        }
        lines.push(fitted);
    }
    let rows = lines.iter().map(Vec::len).max().unwrap_or(1) as u32;
    let mut chart = ChartBuilder::on(&plot)
        .margin(8)
        .x_label_area_size(14 * rows + 14)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..width, log_axis(floor, top * 2.0))?;
    let centre = |g: usize| g as f64 * slot + slot / 2.0;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_label_formatter(&|y| {
            if *y >= 1e4 {
                format!("{y:.0e}")
            } else {
                format!("{y:.0}")
            }
        })
        .y_desc(y_desc)
        .draw()?;
    // The class names under the axis, centred on their group of boxes.
    let font = font.pos(Pos::new(HPos::Center, VPos::Top));
    for (g, parts) in lines.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(centre(g), floor));
        for (k, line) in parts.iter().enumerate() {
            root.draw(&Text::new(
                line.clone(),
                (x, y + 6 + 14 * k as i32),
                font.clone(),
            ))?;
        }
    }
    let at = |v: f64| v.max(floor);
    for (i, (per_class, key)) in boxes.iter().zip(keys).enumerate() {
        let colour = key.colour;
        for (g, b) in per_class.iter().enumerate().take(groups.len()) {
            let Some(b) = b else { continue };
            let c = g as f64 * slot + 1.0 + i as f64;
            let (half, q) = (0.35, b.quartiles);
            chart.draw_series([
                Rectangle::new(
                    [(c - half, at(q.q1)), (c + half, at(q.q3))],
                    colour.mix(0.5).filled(),
                ),
                Rectangle::new(
                    [(c - half, at(q.q1)), (c + half, at(q.q3))],
                    colour.stroke_width(1),
                ),
            ])?;
            chart.draw_series([
                PathElement::new(
                    vec![(c - half, at(q.median)), (c + half, at(q.median))],
                    BLACK.stroke_width(2),
                ),
                PathElement::new(vec![(c, at(q.q3)), (c, at(b.p95))], colour.stroke_width(1)),
                PathElement::new(vec![(c, at(q.q1)), (c, at(b.p5))], colour.stroke_width(1)),
            ])?;
        }
    }
    Ok(())
}
