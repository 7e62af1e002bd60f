//! The Gantt chart: processors x time, each job a rectangle per contiguous processor interval,
//! coloured by user, with a legend of the heaviest users.

use super::palette::UserColours;
use super::{time_label, ChartResult};
use crate::input::JobSet;
use crate::sim::Schedule;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One rectangle: processors `[lo, hi)` over `[start, end)`, of job index `job` and its user.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub start: f64,
    pub end: f64,
    pub lo: u32,
    pub hi: u32,
    pub user: i64,
    pub job: u32,
}

/// Numbers per rectangle in the flat form the page exchanges: `[start, end, lo, hi, user, job]`.
pub const RECT_FIELDS: usize = 6;

/// The rectangles of every execution attempt of schedule `s`.
pub fn rects(set: &JobSet, s: &Schedule) -> Vec<Rect> {
    let mut out = Vec::with_capacity(set.jobs.len());
    for run in s.runs() {
        for &(lo, hi) in run.procs.intervals() {
            out.push(Rect {
                start: run.start as f64,
                end: run.end as f64,
                lo,
                hi,
                user: set.jobs[run.job].user,
                job: run.job as u32,
            });
        }
    }
    out
}

/// Flattens rectangles to `[start, end, lo, hi, user, job, ...]`.
pub fn flatten(rects: &[Rect]) -> Vec<f64> {
    rects
        .iter()
        .flat_map(|r| {
            [
                r.start,
                r.end,
                f64::from(r.lo),
                f64::from(r.hi),
                r.user as f64,
                f64::from(r.job),
            ]
        })
        .collect()
}

/// Reads the flat form back; incomplete trailing numbers are ignored.
pub fn unflatten(flat: &[f64]) -> Vec<Rect> {
    flat.chunks_exact(RECT_FIELDS)
        .map(|c| Rect {
            start: c[0],
            end: c[1],
            lo: c[2].max(0.0) as u32,
            hi: c[3].max(0.0) as u32,
            user: c[4] as i64,
            job: c[5].max(0.0) as u32,
        })
        .collect()
}

/// Draws the rectangles that intersect `[t0, t1)` on a machine of `procs` processors.
///
/// Level of detail: rectangles narrower than a pixel column are drawn one pixel wide, and a
/// rectangle that would cover exactly the same pixels in the same colour as the previous one
/// drawn is skipped, so that a year of jobs costs about as much as the pixels it covers.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    rects: &[Rect],
    procs: u32,
    t0: f64,
    t1: f64,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    root.fill(&WHITE)?;
    let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
    let procs_f = f64::from(procs.max(1));
    let users = UserColours::new(
        rects
            .iter()
            .map(|r| (r.user, (r.end - r.start) * f64::from(r.hi - r.lo))),
    );
    let (area, legend) = root.split_horizontally(root.dim_in_pixel().0.saturating_sub(110));
    let mut chart = ChartBuilder::on(&area)
        .caption(title, ("sans-serif", 15))
        .margin(6)
        .x_label_area_size(28)
        .y_label_area_size(48)
        .build_cartesian_2d(t0..t1, 0.0..procs_f)?;
    let span = t1 - t0;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(8)
        .y_labels(6)
        .x_label_formatter(&|x| time_label(*x, span))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_desc("time")
        .y_desc("processors")
        .draw()?;
    let x_range = chart.plotting_area().get_x_range();
    let width_px = chart.plotting_area().dim_in_pixel().0.max(1) as f64;
    let sec_per_px = (x_range.end - x_range.start) / width_px;
    let mut last: Option<(i64, u32, u32, RGBColor)> = None;
    let visible = rects
        .iter()
        .filter(|r| r.end > t0 && r.start < t1 && r.hi > r.lo);
    let mut shapes = Vec::new();
    for r in visible {
        let colour = users.of(r.user);
        let x0 = r.start.max(t0);
        let mut x1 = r.end.min(t1);
        if x1 - x0 < sec_per_px {
            x1 = (x0 + sec_per_px).min(t1);
            let key = ((x0 / sec_per_px) as i64, r.lo, r.hi, colour);
            if last == Some(key) {
                continue;
            }
            last = Some(key);
        }
        shapes.push(Rectangle::new(
            [(x0, f64::from(r.lo)), (x1, f64::from(r.hi))],
            colour.filled(),
        ));
    }
    chart.draw_series(shapes)?;
    draw_legend(&legend, &users)
}

/// The colour legend of the heaviest users.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    users: &UserColours,
) -> ChartResult<DB::ErrorType> {
    let style = ("sans-serif", 12).into_font();
    area.draw(&Text::new("users", (8, 12), style.clone()))?;
    for (i, &(u, _)) in users
        .ranked
        .iter()
        .take(super::palette::COLOURS.len())
        .enumerate()
    {
        let y = 30 + 16 * i as i32;
        area.draw(&Rectangle::new(
            [(8, y), (20, y + 11)],
            users.of(u).filled(),
        ))?;
        area.draw(&Text::new(format!("{u}"), (26, y), style.clone()))?;
    }
    if users.ranked.len() > super::palette::COLOURS.len() {
        let y = 30 + 16 * super::palette::COLOURS.len() as i32;
        area.draw(&Rectangle::new(
            [(8, y), (20, y + 11)],
            super::palette::OTHER.filled(),
        ))?;
        area.draw(&Text::new("others", (26, y), style))?;
    }
    Ok(())
}
