//! Two schedules job by job: each job's figure (wait, bounded slowdown) under policy A (x)
//! against policy B (y), log-log, with the diagonal: below it B did better, above it worse.
//!
//! Points are coloured by a slot per job (an index into [`COLOURS`], e.g. a user colour or a
//! size class; other slots are grey) and drawn once per pixel: a hundred thousand jobs cost what
//! the pixels they cover cost. Values below the floor are drawn at it.

use super::palette::{COLOURS, OTHER};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::HashSet;

/// How the chart looks.
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterStyle {
    /// The low end of both log axes.
    pub floor: f64,
    pub x_desc: String,
    pub y_desc: String,
    /// Legend: the name of each colour slot shown (slot i = `COLOURS[i]`, others grey).
    pub legend: Vec<String>,
}

/// The colour of a slot.
pub fn slot_colour(slot: u8) -> RGBColor {
    COLOURS.get(usize::from(slot)).copied().unwrap_or(OTHER)
}

/// Draws the points `(xs[i], ys[i])` coloured by `slots[i]`; returns the plotting area in
/// pixels `[x0, y0, x1, y1]` and the axes' top (both axes run from the floor to it).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    xs: &[f64],
    ys: &[f64],
    slots: &[u8],
    style: &ScatterStyle,
    title: &str,
) -> Result<([i32; 4], f64), plotters::drawing::DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let floor = if style.floor.is_finite() && style.floor > 0.0 {
        style.floor
    } else {
        1.0
    };
    let n = xs.len().min(ys.len());
    let top = xs[..n]
        .iter()
        .chain(&ys[..n])
        .copied()
        .filter(|v| v.is_finite())
        .fold(floor * 10.0, f64::max)
        * 1.5;
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 15))
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d((floor..top).log_scale(), (floor..top).log_scale())?;
    let fmt = |v: &f64| {
        if *v >= 1e4 {
            format!("{v:.0e}")
        } else {
            format!("{v:.0}")
        }
    };
    chart
        .configure_mesh()
        .x_label_formatter(&fmt)
        .y_label_formatter(&fmt)
        .x_desc(style.x_desc.as_str())
        .y_desc(style.y_desc.as_str())
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(floor, floor), (top, top)],
        BLACK.mix(0.6).stroke_width(1),
    ))?;
    let at = |v: f64| if v.is_finite() { v.max(floor) } else { floor };
    let mut seen: HashSet<(i32, i32, u8)> = HashSet::new();
    let mut points: Vec<((f64, f64), u8)> = Vec::new();
    // Grey first, then the coloured slots over them.
    for i in 0..n {
        if !(xs[i].is_finite() && ys[i].is_finite()) {
            continue;
        }
        let slot = slots.get(i).copied().unwrap_or(u8::MAX);
        let p = (at(xs[i]), at(ys[i]));
        let px = chart.backend_coord(&p);
        if seen.insert((px.0, px.1, slot)) {
            points.push((p, slot));
        }
    }
    points.sort_by_key(|&(_, slot)| std::cmp::Reverse(slot));
    chart.draw_series(
        points
            .iter()
            .map(|&(p, slot)| Circle::new(p, 2, slot_colour(slot).mix(0.75).filled())),
    )?;
    for (i, name) in style.legend.iter().enumerate() {
        let colour = slot_colour(i as u8);
        chart
            .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?
            .label(name.clone())
            .legend(move |(x, y)| Circle::new((x + 6, y), 4, colour.filled()));
    }
    if !style.legend.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 11))
            .draw()?;
    }
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    Ok(([xr.start, yr.start, xr.end, yr.end], top))
}
