//! The axes the charts over time share: a caption, time along x from `t0` to `t1` (labels from
//! [`super::time_label`]), a count along y from 0 (whole-number labels).

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

/// How the axes look.
#[derive(Debug, Clone, Copy)]
pub struct TimeAxes<'a> {
    pub title: &'a str,
    /// Width of the y labels' area, pixels.
    pub y_label_area: u32,
    /// Bold grid lines at the labels (line charts) or none (Gantt charts).
    pub grid: bool,
    pub x_desc: Option<&'a str>,
    pub y_desc: Option<&'a str>,
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

/// A chart over time: seconds along x, a number along y.
pub type TimeChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The chart over `[t0, t1]` x `[0, ymax]` on `area`, its axes drawn.
pub fn time_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    axes: &TimeAxes,
    (t0, t1): (f64, f64),
    ymax: f64,
) -> Result<TimeChart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut chart = ChartBuilder::on(area)
        .caption(axes.title, ("sans-serif", 15))
        .margin(6)
        .x_label_area_size(28)
        .y_label_area_size(axes.y_label_area)
        .build_cartesian_2d(t0..t1, 0.0..ymax)?;
    let span = t1 - t0;
    let x_label = |x: &f64| super::time_label(*x, span);
    let y_label = |y: &f64| format!("{y:.0}");
    let mut mesh = chart.configure_mesh();
    if axes.grid {
        mesh.max_light_lines(0);
    } else {
        mesh.disable_mesh();
    }
    mesh.x_labels(8)
        .y_labels(6)
        .x_label_formatter(&x_label)
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
