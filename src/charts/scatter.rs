//! Two schedules job by job: each job's figure (wait, bounded slowdown) under policy A (x)
//! against policy B (y), log-log, with the diagonal: below it B did better, above it worse.
//!
//! Points are coloured by a slot per job (an index into [`COLOURS`], e.g. a user colour or a
//! size class; other slots are grey) and drawn once per pixel (the lowest slot there), as small
//! squares: a hundred thousand jobs cost what the pixels they cover cost. Values below the floor
//! are drawn at it.

use super::legend::{titled, Key, LegendStyle};
use super::log_axis::log_axis_fit;
use super::palette::{COLOURS, OTHER};
use plotters::coord::Shift;
use plotters::prelude::*;

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
    let keys: Vec<Key> = (style.legend.iter().enumerate())
        .map(|(i, name)| Key {
            label: name.clone(),
            colour: slot_colour(i as u8),
        })
        .collect();
    let plot = LegendStyle::default().outside(&titled(root, title)?, &keys)?;
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
    // Both axes labelled alike, as many labels as the x axis holds side by side (its width:
    // the plot's less the y labels' 60 pixels and the margins).
    let width = plot.dim_in_pixel().0.saturating_sub(60 + 16);
    let mut chart = ChartBuilder::on(&plot)
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            log_axis_fit(floor, top, width),
            log_axis_fit(floor, top, width),
        )?;
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
    // One point per pixel: the lowest slot seen there (coloured slots over grey), drawn as a
    // 3 x 3 pixel square in the drawing's own pixels.
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let (w, h) = (
        (xr.end - xr.start).max(1) as usize,
        (yr.end - yr.start).max(1) as usize,
    );
    let mut grid = vec![u8::MAX; w * h];
    let mut hit = vec![false; w * h];
    for i in 0..n {
        if !(xs[i].is_finite() && ys[i].is_finite()) {
            continue;
        }
        let (px, py) = chart.backend_coord(&(at(xs[i]), at(ys[i])));
        let (cx, cy) = ((px - xr.start) as usize, (py - yr.start) as usize);
        if px < xr.start || py < yr.start || cx >= w || cy >= h {
            continue;
        }
        let k = cy * w + cx;
        hit[k] = true;
        grid[k] = grid[k].min(slots.get(i).copied().unwrap_or(u8::MAX));
    }
    let mut points: Vec<(i32, i32, u8)> = (0..w * h)
        .filter(|&k| hit[k])
        .map(|k| {
            (
                (k % w) as i32 + xr.start,
                (k / w) as i32 + yr.start,
                grid[k],
            )
        })
        .collect();
    // Grey first, then the coloured slots over them.
    points.sort_by_key(|&(_, _, slot)| std::cmp::Reverse(slot));
    for (x, y, slot) in points {
        root.draw(&Rectangle::new(
            [(x - 1, y - 1), (x + 2, y + 2)],
            slot_colour(slot).mix(0.75).filled(),
        ))?;
    }
    Ok(([xr.start, yr.start, xr.end, yr.end], top))
}
