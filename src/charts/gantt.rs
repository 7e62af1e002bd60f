//! The Gantt chart: processors x time, each job a rectangle per contiguous processor interval,
//! coloured by user, with a legend of the heaviest users. Preempted (killed and restarted)
//! attempts are drawn in a lighter shade of their user's colour with a dark outline, so that the
//! wasted work shows.

pub use super::gantt_rects::{
    attempts, each_rect, flatten, rects, unflatten, Attempt, Rect, RECT_FIELDS,
};
pub use super::gantt_rows::NodeRows;
use super::legend::LegendStyle;
use super::palette::UserColours;
use super::time_axes::{time_chart, TimeAxes};
use super::ChartResult;
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The legend label of preempted attempts.
pub const PREEMPTED_LABEL: &str = "preempted run";

/// Grid colour slots at or above this mark preempted attempts (slot - PREEMPTED_SLOT is the
/// user's colour slot).
const PREEMPTED_SLOT: u8 = 64;

/// Grid colour slots at or above this mark jobs that ask for GPUs (drawn in
/// [`gpu_fill`]'s darker shade; slot - GPU_SLOT is the slot without the mark).
const GPU_SLOT: u8 = 128;

/// The legend label of jobs that ask for GPUs.
pub const GPU_LABEL: &str = "GPU jobs";

/// The legend label of the GPU lanes ([`super::gpu_lanes`]).
pub const LANES_LABEL: &str = "GPU lanes";

/// The background of GPU lanes, so that a free GPU shows.
pub const LANE_BACKGROUND: RGBColor = RGBColor(226, 233, 245);

/// The lines between GPU lanes (and between a node's cores and its lanes).
const LANE_LINE: RGBColor = RGBColor(200, 208, 222);

/// The darker shade of `c` that jobs asking for GPUs are filled with (on a cluster).
pub fn gpu_fill(c: RGBColor) -> RGBColor {
    let dark = |x: u8| (u16::from(x) * 11 / 20) as u8;
    RGBColor(dark(c.0), dark(c.1), dark(c.2))
}

/// The lighter shade of `c` that preempted attempts are filled with.
pub fn preempted_fill(c: RGBColor) -> RGBColor {
    let light = |x: u8| ((u16::from(x) * 2 + 255 * 3) / 5) as u8;
    RGBColor(light(c.0), light(c.1), light(c.2))
}

/// The outline of preempted attempts.
pub const PREEMPTED_OUTLINE: RGBColor = RGBColor(40, 40, 40);

/// Where the plotting area lies in the drawing, in pixels: `[x0, y0, x1, y1]` (x1, y1 excluded),
/// so that a front end can map the pointer to (time, processor).
pub type PlotArea = [i32; 4];

/// Draws the rectangles that intersect `[t0, t1)` on a machine of `procs` processors and returns
/// the plotting area.
///
/// Level of detail: a rectangle at least two pixels wide is drawn as it is; narrower ones are
/// painted into a grid of the plot's pixels, whose same-colour runs are then drawn, merged
/// across neighbouring columns. A year of short jobs thus costs what its pixels cost.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    rects: &[Rect],
    procs: u32,
    t0: f64,
    t1: f64,
    title: &str,
) -> Result<PlotArea, DrawingAreaErrorKind<DB::ErrorType>> {
    draw_nodes(root, rects, procs, 0, t0, t1, title)
}

/// Upper bounds of the penalty-factor classes of the penalty colouring, and their colours (the
/// last class is everything above 1.5).
pub const PENALTY_CLASSES: [(f64, &str); 5] = [
    (1.0, "factor 1"),
    (1.1, "<= 1.1"),
    (1.25, "<= 1.25"),
    (1.5, "<= 1.5"),
    (f64::INFINITY, "> 1.5"),
];
const PENALTY_COLOURS: [RGBColor; 5] = [
    RGBColor(120, 170, 120),
    RGBColor(240, 210, 90),
    RGBColor(240, 150, 60),
    RGBColor(215, 80, 40),
    RGBColor(140, 20, 30),
];

/// The class of a penalty factor in [`PENALTY_CLASSES`].
pub fn penalty_class(factor: f64) -> u8 {
    PENALTY_CLASSES
        .iter()
        .position(|&(hi, _)| factor <= hi)
        .unwrap_or(PENALTY_CLASSES.len() - 1) as u8
}

/// [`draw`] with the rows grouped by node when `cores` > 0 (the node model): a thin line
/// between consecutive nodes of `cores` processors (while nodes are at least 3 pixels high), and
/// the axis labelled by node.
pub fn draw_nodes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    rects: &[Rect],
    procs: u32,
    cores: u32,
    t0: f64,
    t1: f64,
    title: &str,
) -> Result<PlotArea, DrawingAreaErrorKind<DB::ErrorType>> {
    draw_coloured(root, rects, procs, cores, &[], t0, t1, title)
}

/// [`draw_nodes`] with jobs coloured by penalty factor when `factors` (indexed by job) is not
/// empty: five classes from factor 1 to above 1.5 (a job without a factor counts as 1).
#[allow(clippy::too_many_arguments)]
pub fn draw_coloured<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    rects: &[Rect],
    procs: u32,
    cores: u32,
    factors: &[f64],
    t0: f64,
    t1: f64,
    title: &str,
) -> Result<PlotArea, DrawingAreaErrorKind<DB::ErrorType>> {
    let rows = NodeRows::uniform(procs, cores);
    draw_rows(root, rects, procs, &rows, factors, &[], t0, t1, title)
}

/// [`draw_coloured`] with the rows grouped by the nodes `rows` gives (a cluster's: a line
/// between nodes while they are at least 3 pixels apart, and the names that fit on the axis,
/// see [`NodeRows`]). The legend names the users by `names` (`names[id - 1]`, the trace's
/// [`Names::users`](crate::workload::names::Names::users); empty: their numbers).
#[allow(clippy::too_many_arguments)]
pub fn draw_rows<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    rects: &[Rect],
    procs: u32,
    rows: &NodeRows,
    factors: &[f64],
    names: &[String],
    t0: f64,
    t1: f64,
    title: &str,
) -> Result<PlotArea, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let by_penalty = !factors.is_empty();
    let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
    let procs_f = f64::from(procs.max(1));
    let users = UserColours::new(
        rects
            .iter()
            .map(|r| (r.user, (r.end - r.start) * f64::from(r.hi - r.lo))),
    );
    // The title across the whole width, then the legend column beside the plot.
    let body = super::legend::titled(root, title)?;
    let (area, legend) = body.split_horizontally(body.dim_in_pixel().0.saturating_sub(110));
    let y_desc = rows.desc();
    // Node names replace the processor numbers when some fit (the plot's height estimated
    // from the area's: the margins and the time axis take about 52 pixels).
    let est_px = f64::from(area.dim_in_pixel().1.saturating_sub(52)) / procs_f;
    let named = !rows.labels(procs, est_px).is_empty();
    let axes = TimeAxes {
        x_desc: Some("time"),
        y_desc: Some(&y_desc),
        y_labels: if named { 0 } else { 6 },
        ..TimeAxes::gantt("")
    };
    let mut chart = time_chart(&area, &axes, (t0, t1), procs_f)?;
    let (w, h) = chart.plotting_area().dim_in_pixel();
    let mut grid = Grid::new(w.max(1) as usize, h.max(1) as usize, t0, t1, procs_f);
    let mut shapes = Vec::new();
    let mut outlines = Vec::new();
    let base = |slot: u8| {
        if by_penalty {
            PENALTY_COLOURS[usize::from(slot).min(PENALTY_COLOURS.len() - 1)]
        } else {
            users.colour(slot)
        }
    };
    let fill = |slot: u8| {
        let (gpu, slot) = if slot >= GPU_SLOT {
            (true, slot - GPU_SLOT)
        } else {
            (false, slot)
        };
        let c = if slot >= PREEMPTED_SLOT {
            preempted_fill(base(slot - PREEMPTED_SLOT))
        } else {
            base(slot)
        };
        if gpu {
            gpu_fill(c)
        } else {
            c
        }
    };
    // The GPU lanes' background, under the jobs.
    chart.draw_series(rows.lane_bands().map(|(first, h, g)| {
        let (lo, hi) = (f64::from(first), f64::from(first + h * g));
        Rectangle::new([(t0, lo), (t1, hi)], LANE_BACKGROUND.filled())
    }))?;
    let mut gpu_jobs = false;
    for r in rects
        .iter()
        .filter(|r| r.end > t0 && r.start < t1 && r.hi > r.lo)
    {
        let own = if by_penalty {
            penalty_class(factors.get(r.job as usize).copied().unwrap_or(1.0))
        } else {
            users.slot(r.user)
        };
        let gpu = rows.uses_gpus(r.job);
        gpu_jobs |= gpu;
        let colour =
            own + if r.preempted { PREEMPTED_SLOT } else { 0 } + if gpu { GPU_SLOT } else { 0 };
        let (x0, x1) = (r.start.max(t0), r.end.min(t1));
        if x1 - x0 >= 2.0 * grid.sec_per_px {
            let corners = [(x0, f64::from(r.lo)), (x1, f64::from(r.hi))];
            shapes.push(Rectangle::new(corners, fill(colour).filled()));
            if r.preempted {
                outlines.push(Rectangle::new(corners, PREEMPTED_OUTLINE.stroke_width(1)));
            }
        } else {
            grid.paint(x0, x1, r.lo, r.hi, colour);
        }
    }
    for (c0, c1, y0, y1, colour) in grid.runs() {
        shapes.push(Rectangle::new(
            [
                (grid.time_of(c0), grid.procs_of(y0)),
                (grid.time_of(c1), grid.procs_of(y1)),
            ],
            fill(colour).filled(),
        ));
    }
    chart.draw_series(shapes)?;
    chart.draw_series(outlines)?;
    // A line under each lane while lanes are at least MIN_NODE_PX high.
    let px_per_row = 1.0 / grid.procs_per_px;
    chart.draw_series(
        rows.lane_bands()
            .filter(|&(_, h, _)| f64::from(h) * px_per_row >= super::gantt_rows::MIN_NODE_PX)
            .flat_map(|(first, h, g)| (0..g).map(move |i| f64::from(first + i * h)))
            .map(|y| PathElement::new([(t0, y), (t1, y)], LANE_LINE.stroke_width(1))),
    )?;
    let separator = RGBColor(150, 150, 150);
    chart.draw_series(
        rows.separators(1.0 / grid.procs_per_px)
            .into_iter()
            .map(|b| {
                let y = f64::from(b);
                PathElement::new([(t0, y), (t1, y)], separator.stroke_width(1))
            }),
    )?;
    if named {
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        let font = TextStyle::from(("sans-serif", 11).into_font())
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (centre, name) in rows.labels(procs, 1.0 / grid.procs_per_px) {
            let y = ys.end - (centre / grid.procs_per_px).round() as i32;
            root.draw(&Text::new(
                name.to_string(),
                (xs.start - 4, y),
                font.clone(),
            ))?;
        }
    }
    if by_penalty {
        draw_penalty_legend(&legend)?;
    } else {
        draw_legend(&legend, &users, names, rects.iter().any(|r| r.preempted))?;
    }
    // At the legend's foot, whatever it lists above: GPU jobs, and the lanes above them.
    let style = LegendStyle::default();
    let mut y = legend.dim_in_pixel().1 as i32 - style.row() - 4;
    if gpu_jobs {
        style.side_entry(&legend, (8, y), gpu_fill(super::palette::OTHER), GPU_LABEL)?;
        y -= style.row();
    }
    if rows.lane_bands().next().is_some() {
        style.side_entry(&legend, (8, y), LANE_BACKGROUND, LANES_LABEL)?;
    }
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    Ok([xs.start, ys.start, xs.end, ys.end])
}

/// The plot's pixels, each holding the colour slot + 1 of the last narrow job painted on it.
struct Grid {
    w: usize,
    h: usize,
    cells: Vec<u8>,
    t0: f64,
    sec_per_px: f64,
    procs_per_px: f64,
}

impl Grid {
    fn new(w: usize, h: usize, t0: f64, t1: f64, procs: f64) -> Self {
        Self {
            w,
            h,
            cells: vec![0; w * h],
            t0,
            sec_per_px: (t1 - t0) / w as f64,
            procs_per_px: procs / h as f64,
        }
    }

    fn paint(&mut self, x0: f64, x1: f64, lo: u32, hi: u32, slot: u8) {
        let col =
            |t: f64| (((t - self.t0) / self.sec_per_px).floor().max(0.0) as usize).min(self.w - 1);
        let row = |p: f64| ((p / self.procs_per_px).max(0.0) as usize).min(self.h);
        let (c0, c1) = (col(x0), col(x1));
        let (r0, r1) = (
            row(f64::from(lo)),
            row(f64::from(hi)).max(row(f64::from(lo)) + 1).min(self.h),
        );
        for c in c0..=c1 {
            self.cells[c * self.h + r0.min(self.h - 1)..c * self.h + r1].fill(slot + 1);
        }
    }

    /// Same-colour vertical runs, merged with identical runs of the following columns:
    /// `(first column, column after the last, first row, row after the last, colour slot)`.
    fn runs(&self) -> Vec<(usize, usize, usize, usize, u8)> {
        let mut done = Vec::new();
        // Ordered, so that the runs (and the SVG) come out in the same order in every run.
        let mut open: std::collections::BTreeMap<(usize, usize, u8), usize> = Default::default();
        let mut seen = Vec::new();
        for c in 0..=self.w {
            seen.clear();
            if c < self.w {
                let col = &self.cells[c * self.h..(c + 1) * self.h];
                let mut r = 0;
                while r < self.h {
                    let v = col[r];
                    let mut e = r + 1;
                    while e < self.h && col[e] == v {
                        e += 1;
                    }
                    if v > 0 {
                        seen.push((r, e, v - 1));
                    }
                    r = e;
                }
            }
            open.retain(|&(r0, r1, v), &mut start| {
                let cont = seen.contains(&(r0, r1, v));
                if !cont {
                    done.push((start, c, r0, r1, v));
                }
                cont
            });
            for &k in &seen {
                open.entry(k).or_insert(c);
            }
        }
        done
    }

    fn time_of(&self, col: usize) -> f64 {
        self.t0 + col as f64 * self.sec_per_px
    }

    fn procs_of(&self, row: usize) -> f64 {
        row as f64 * self.procs_per_px
    }
}

/// The legend of the penalty colouring.
fn draw_penalty_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
) -> ChartResult<DB::ErrorType> {
    let legend = LegendStyle::default();
    area.draw(&Text::new("penalty factor", (8, 12), legend.font()))?;
    for (i, (&(_, label), colour)) in PENALTY_CLASSES.iter().zip(PENALTY_COLOURS).enumerate() {
        legend.side_entry(area, (8, 30 + legend.row() * i as i32), colour, label)?;
    }
    Ok(())
}

/// The colour legend of the heaviest users (by name when `names` has them), and the "preempted run" entry when `preempted`.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    users: &UserColours,
    names: &[String],
    preempted: bool,
) -> ChartResult<DB::ErrorType> {
    let legend = LegendStyle::default();
    area.draw(&Text::new("users", (8, 12), legend.font()))?;
    let shown = users.ranked.len().min(super::palette::COLOURS.len());
    let mut y = 30;
    for &(u, _) in &users.ranked[..shown] {
        let name =
            crate::workload::names::name_of(names, u).map_or_else(|| u.to_string(), str::to_string);
        legend.side_entry(area, (8, y), users.of(u), &name)?;
        y += legend.row();
    }
    if users.ranked.len() > shown {
        legend.side_entry(area, (8, y), super::palette::OTHER, "others")?;
        y += legend.row();
    }
    if preempted {
        y += 8;
        legend.side_entry(
            area,
            (8, y),
            preempted_fill(super::palette::OTHER),
            PREEMPTED_LABEL,
        )?;
        area.draw(&Rectangle::new(
            legend.swatch((8, y)),
            PREEMPTED_OUTLINE.stroke_width(1),
        ))?;
    }
    Ok(())
}
