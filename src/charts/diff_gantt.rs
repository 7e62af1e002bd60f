//! Two schedules overlaid (evalys's diff-Gantt): processors x time, where only A runs a job in
//! one colour, where only B does in another, where both do in a third; the processors idle in
//! both stay white.
//!
//! The schedules are painted into a grid of the plot's pixels (A and B one bit each), whose
//! same-state runs in each row are drawn: the cost is the pixels', not the jobs'.

use super::gantt::{PlotArea, Rect};
use super::legend::Key;
use super::time_axes::{framed, time_chart, TimeAxes};
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;
use std::collections::{BTreeMap, HashSet};

/// Colours of "A only", "B only", "both".
pub const DIFF_COLOURS: [RGBColor; 3] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(150, 150, 150),
];

/// The pixel grid: `w` x `h` cells over `[t0, t1)` x `[0, procs)`, row 0 at the top.
struct Cells {
    w: usize,
    h: usize,
    procs: u32,
    t0: f64,
    t1: f64,
}

/// Paints `rects` into `grid` (row-major, see [`Cells`]) with bit `bit`.
fn paint(grid: &mut [u8], c: &Cells, rects: &[Rect], bit: u8) {
    let (w, h, t0, t1) = (c.w, c.h, c.t0, c.t1);
    let (sx, sy) = (w as f64 / (t1 - t0), h as f64 / f64::from(c.procs.max(1)));
    for r in rects {
        if r.end <= t0 || r.start >= t1 || r.hi <= r.lo {
            continue;
        }
        let x0 = ((r.start - t0) * sx).floor().clamp(0.0, w as f64) as usize;
        let x1 = (((r.end - t0) * sx).ceil().clamp(0.0, w as f64) as usize)
            .max(x0 + 1)
            .min(w);
        let top = h as f64 - f64::from(r.hi) * sy;
        let bottom = h as f64 - f64::from(r.lo) * sy;
        let y0 = top.floor().clamp(0.0, h as f64) as usize;
        let y1 = (bottom.ceil().clamp(0.0, h as f64) as usize)
            .max(y0 + 1)
            .min(h);
        for row in y0..y1 {
            for cell in &mut grid[row * w + x0..row * w + x1] {
                *cell |= bit;
            }
        }
    }
}

/// The state grid of A (bit 1) and B (bit 2) over `[t0, t1)` at `w` x `h` cells.
pub fn grid(a: &[Rect], b: &[Rect], procs: u32, t0: f64, t1: f64, w: usize, h: usize) -> Vec<u8> {
    let mut g = vec![0u8; w * h];
    if t1 > t0 && w > 0 && h > 0 {
        let c = Cells {
            w,
            h,
            procs,
            t0,
            t1,
        };
        paint(&mut g, &c, a, 1);
        paint(&mut g, &c, b, 2);
    }
    g
}

/// How the diff-Gantt reads: the names of A and B, its title, the axes' names.
#[derive(Debug, Clone, Copy)]
pub struct DiffStyle<'a> {
    /// The names of A and B in the legend ("only A", "only B").
    pub labels: [&'a str; 2],
    pub title: &'a str,
    /// The x axis's name, the plain Gantt's ("time"); empty for none.
    pub x_desc: &'a str,
    /// The y axis's name, the plain Gantt's ([`NodeRows::desc`](super::gantt::NodeRows::desc):
    /// "processors", "processors of 12 nodes" on a cluster); empty for none.
    pub y_desc: &'a str,
}

/// Draws A and B overlaid over `[t0, t1]` as `style` says. Returns the plotting area.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: &[Rect],
    b: &[Rect],
    procs: u32,
    t0: f64,
    t1: f64,
    style: &DiffStyle,
) -> Result<PlotArea, DrawingAreaErrorKind<DB::ErrorType>> {
    let DiffStyle {
        labels,
        title,
        x_desc,
        y_desc,
    } = *style;
    let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
    let procs = procs.max(1);
    let names = [
        format!("only {}", labels[0]),
        format!("only {}", labels[1]),
        "both".to_string(),
    ];
    let keys: Vec<Key> = names
        .into_iter()
        .zip(DIFF_COLOURS)
        .map(|(label, colour)| Key { label, colour })
        .collect();
    let plot = framed(root, title, &keys)?;
    let axes = TimeAxes {
        x_desc: (!x_desc.is_empty()).then_some(x_desc),
        y_desc: (!y_desc.is_empty()).then_some(y_desc),
        ..TimeAxes::gantt("")
    };
    let mut chart = time_chart(&plot, &axes, (t0, t1), f64::from(procs))?;
    let (w, h) = chart.plotting_area().dim_in_pixel();
    let (w, h) = (w as usize, h as usize);
    let g = grid(a, b, procs, t0, t1, w, h);
    let (dt, dp) = (
        (t1 - t0) / w.max(1) as f64,
        f64::from(procs) / h.max(1) as f64,
    );
    // Same-state runs of each row, merged with the identical runs of the rows below them.
    let mut cells = Vec::new();
    // Ordered, so that the cells (and the SVG) come out in the same order in every run.
    let mut open: BTreeMap<(usize, usize, u8), usize> = BTreeMap::new();
    let mut emit = |(x0, x1, state): (usize, usize, u8), r0: usize, r1: usize| {
        let p_hi = f64::from(procs) - r0 as f64 * dp;
        let p_lo = f64::from(procs) - r1 as f64 * dp;
        cells.push(Rectangle::new(
            [(t0 + x0 as f64 * dt, p_lo), (t0 + x1 as f64 * dt, p_hi)],
            DIFF_COLOURS[usize::from(state) - 1].filled(),
        ));
    };
    for row in 0..=h {
        let mut runs = Vec::new();
        if row < h {
            let line = &g[row * w..(row + 1) * w];
            let mut x = 0;
            while x < w {
                let s = line[x];
                let mut e = x + 1;
                while e < w && line[e] == s {
                    e += 1;
                }
                if s != 0 {
                    runs.push((x, e, s));
                }
                x = e;
            }
        }
        let here: HashSet<(usize, usize, u8)> = runs.iter().copied().collect();
        let ended: Vec<_> = open.keys().filter(|k| !here.contains(k)).copied().collect();
        for k in ended {
            if let Some(r0) = open.remove(&k) {
                emit(k, r0, row);
            }
        }
        for k in runs {
            open.entry(k).or_insert(row);
        }
    }
    chart.draw_series(cells)?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    Ok([xr.start, yr.start, xr.end, yr.end])
}
