//! The axes the charts over time share: a caption, time along x from `t0` to `t1`, a count along
//! y from 0 (whole-number labels, no more than the whole numbers in range). Time ticks fall on
//! round steps ([`ticks`]: 1, 2, 5, 10, 15, 30 s or min, 1, 2, 3, 6, 12 h, 1, 2, 7, 14 d, ...)
//! as many as their measured labels leave room for, and read in one format with the page's
//! durations ([`time_text`]: "3d 12h").

use super::legend::{caption_font, AreaResult};
use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// How the axes look.
#[derive(Debug, Clone, Copy)]
pub struct TimeAxes<'a> {
    /// The caption; empty for none (when the caller drew it, see [`super::legend::titled`]).
    pub title: &'a str,
    /// Width of the y labels' area, pixels.
    pub y_label_area: u32,
    /// Bold grid lines at the labels (line charts) or none (Gantt charts).
    pub grid: bool,
    pub x_desc: Option<&'a str>,
    pub y_desc: Option<&'a str>,
    /// The most y labels (fewer on small panels).
    pub y_labels: usize,
}

impl<'a> TimeAxes<'a> {
    /// Line-chart axes: grid lines, 48 pixels of y labels, no axis names.
    pub fn lines(title: &'a str) -> Self {
        TimeAxes {
            title,
            y_label_area: 48,
            grid: true,
            x_desc: None,
            y_desc: None,
            y_labels: 6,
        }
    }

    /// Gantt axes: no grid.
    pub fn gantt(title: &'a str) -> Self {
        TimeAxes {
            grid: false,
            ..Self::lines(title)
        }
    }
}

/// The round tick steps, in seconds.
const STEPS: [f64; 27] = [
    1.0, 2.0, 5.0, 10.0, 15.0, 30.0, // seconds
    60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, // minutes
    3600.0, 7200.0, 10800.0, 21600.0, 43200.0, // hours
    86400.0, 172800.0, 432000.0, 604800.0, 1209600.0, 2592000.0, // days
    4320000.0, 8640000.0, 17280000.0, 43200000.0,
];

/// The multiples of `step` in `[t0, t1]`.
fn multiples(t0: f64, t1: f64, step: f64) -> Vec<f64> {
    let first = (t0 / step).ceil() as i64;
    let last = (t1 / step).floor() as i64;
    (first..=last.max(first - 1))
        .map(|k| k as f64 * step)
        .collect()
}

/// Ticks over `[t0, t1]` seconds: the multiples of the smallest round step giving at most
/// `most` of them; with the step. A span past the last step takes multiples of it by tens.
pub fn ticks(t0: f64, t1: f64, most: usize) -> (Vec<f64>, f64) {
    let most = most.max(2);
    let span = (t1 - t0).max(1e-9);
    let mut step = STEPS
        .iter()
        .copied()
        .find(|s| span / s <= most as f64)
        .unwrap_or(STEPS[STEPS.len() - 1]);
    while span / step > most as f64 {
        step *= 10.0;
    }
    (multiples(t0, t1, step), step)
}

/// `t` seconds as days, hours, minutes and seconds down to the unit of `step` ("3d 12h",
/// "45m", "0"); the page's durations read the same.
pub fn time_text(t: f64, step: f64) -> String {
    if !t.is_finite() {
        return "–".into();
    }
    let neg = t < 0.0;
    let mut s = t.abs().round() as u64;
    let finest = if step >= 86400.0 {
        86400
    } else if step >= 3600.0 {
        3600
    } else if step >= 60.0 {
        60
    } else {
        1
    };
    let mut parts = Vec::new();
    for (unit, size) in [("d", 86400), ("h", 3600), ("m", 60), ("s", 1)] {
        if size < finest {
            break;
        }
        if s >= size {
            parts.push(format!("{}{unit}", s / size));
            s %= size;
        }
    }
    if parts.is_empty() {
        return "0".into();
    }
    format!("{}{}", if neg { "-" } else { "" }, parts.join(" "))
}

/// Round ticks over `[t0, t1]` whose labels, measured in `font`, fit `width` pixels with air
/// between them: the ticks and the step.
pub fn fitting_ticks<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (t0, t1): (f64, f64),
    width: u32,
    font: &TextStyle,
) -> Result<(Vec<f64>, f64), DrawingAreaErrorKind<DB::ErrorType>> {
    let mut most = (width / 40).max(2) as usize;
    loop {
        let (ts, step) = ticks(t0, t1, most);
        let mut widest = 0;
        for &t in &ts {
            widest = widest.max(area.estimate_text_size(&time_text(t, step), font)?.0);
        }
        if most <= 2 || (widest + 16) as usize * ts.len() <= width as usize {
            return Ok((ts, step));
        }
        most -= 1;
    }
}

/// Seconds along an axis whose labelled points are round ticks, read by [`time_text`].
#[derive(Clone)]
pub struct TimeRange {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
    step: f64,
}

impl TimeRange {
    /// `[t0, t1]` with round ticks whose labels in `font` fit `width` pixels (see
    /// [`fitting_ticks`]).
    pub fn fitted<DB: DrawingBackend>(
        area: &DrawingArea<DB, Shift>,
        (t0, t1): (f64, f64),
        width: u32,
        font: &TextStyle,
    ) -> Result<Self, DrawingAreaErrorKind<DB::ErrorType>> {
        let (ticks, step) = fitting_ticks(area, (t0, t1), width, font)?;
        Ok(TimeRange {
            inner: (t0..t1).into(),
            ticks,
            step,
        })
    }
}

impl Ranged for TimeRange {
    type ValueType = f64;
    type FormatOption = NoDefaultFormatting;

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        let most = hint.max_num_points();
        if hint.weight().allow_light_points() || most == 0 {
            return Vec::new();
        }
        // Every k-th tick when fewer are asked for.
        let k = self.ticks.len().div_ceil(most).max(1);
        self.ticks.iter().step_by(k).copied().collect()
    }
}

impl ValueFormatter<f64> for TimeRange {
    fn format_ext(&self, value: &f64) -> String {
        time_text(*value, self.step)
    }
}

/// A chart over time: seconds along x (round ticks), a number along y.
pub type TimeChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<TimeRange, RangedCoordf64>>;

/// The chart over `[t0, t1]` x `[0, ymax]` on `area`, its axes drawn.
pub fn time_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    axes: &TimeAxes,
    (t0, t1): (f64, f64),
    ymax: f64,
) -> Result<TimeChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let label_font = TextStyle::from(("sans-serif", 12).into_font());
    let (w, _) = area.dim_in_pixel();
    let plot_w = w.saturating_sub(axes.y_label_area + 12).max(40);
    let x = TimeRange::fitted(area, (t0, t1), plot_w, &label_font)?;
    // Room for the tick labels, and the axis name under them.
    let x_area = if axes.x_desc.is_some() { 40 } else { 24 };
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(6)
        .margin_right(12)
        .x_label_area_size(x_area)
        .y_label_area_size(axes.y_label_area);
    if !axes.title.is_empty() {
        builder.caption(axes.title, caption_font());
    }
    let mut chart = builder.build_cartesian_2d(x, 0.0..ymax)?;
    let y_label = |y: &f64| format!("{y:.0}");
    let mut mesh = chart.configure_mesh();
    if axes.grid {
        mesh.max_light_lines(0);
    } else {
        mesh.disable_mesh();
    }
    // A count has whole-number labels: no more labels than whole numbers in 0..ymax (with 6
    // labels on 0..2.1, ticks fell at 0.5 and read "0, 0, 1, 2, 2").
    let whole = (ymax.max(0.0).floor() as usize).saturating_add(1).max(2);
    mesh.x_labels(1000)
        .y_labels(axes.y_labels.min(whole))
        .x_label_style(label_font.clone())
        .y_label_formatter(&y_label);
    if let Some(d) = axes.x_desc {
        mesh.x_desc(d);
    }
    if let Some(d) = axes.y_desc {
        mesh.y_desc(d);
    }
    mesh.draw()?;
    Ok(chart)
}

/// Lays out a chart of several series over time on `root`: its title on top, the legend of
/// `keys` outside the plot; the area left for the axes and the plot.
pub fn framed<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    keys: &[super::legend::Key],
) -> AreaResult<DB> {
    let body = super::legend::titled(root, title)?;
    super::legend::LegendStyle::default().outside(&body, keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The y labels of a time chart whose y axis ends at `ymax`, as drawn.
    fn y_labels(ymax: f64) -> Vec<String> {
        let svg = super::super::native::svg((400, 300), |root| {
            time_chart(root, &TimeAxes::lines(""), (0.0, 3600.0), ymax)
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .unwrap();
        // The labels left of the plot (x < 48): the y axis's.
        let mut out = Vec::new();
        for piece in svg.split("<text").skip(1) {
            let x: f64 = piece
                .split("x=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::MAX);
            let text = piece
                .split('>')
                .nth(1)
                .unwrap_or("")
                .split('<')
                .next()
                .unwrap_or("");
            if x < 48.0 {
                out.push(text.trim().to_owned());
            }
        }
        out
    }

    #[test]
    fn count_labels_are_whole_and_distinct() {
        // A queue of at most 2 jobs: the axis ends at 2 * 1.05 = 2.1. Six labels put ticks at
        // 0, 0.5, 1, 1.5 and 2, read "0 0 1 2 2"; whole labels are 0, 1, 2.
        for ymax in [1.05, 2.1, 3.15, 4.2, 5.25, 7.0, 250.0] {
            let labels = y_labels(ymax);
            assert!(labels.len() >= 2, "{ymax}: {labels:?}");
            let mut seen = labels.clone();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), labels.len(), "{ymax}: {labels:?}");
        }
        let mut two = y_labels(2.1);
        two.sort();
        assert_eq!(two, ["0", "1", "2"]);
    }
}
