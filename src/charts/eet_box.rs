//! Box plots of a per-user figure (VEET_u, WT_u) for several policies side by side, as in
//! Fig. 6 of Tóth & Klusáček.
//!
//! The box spans the quartiles q1..q3 with a line at the median (linear interpolation, see
//! [`Quartiles`]). The paper's box plot shows "minimum, lower quartile, median, upper quartile
//! and the maximum, plus possible extreme outliers marked as dots": whiskers go to the minimum
//! and maximum of the values within Tukey's far-out fences (q1 - 3 IQR, q3 + 3 IQR), and the
//! values beyond them are dots. Without extreme outliers the whiskers are the minimum and
//! maximum. On a log axis values below the axis floor (1, e.g. a WT_u of 0) are drawn at it.

use super::legend::{titled, Key, LegendStyle};
use super::log_axis::log_axis;
use super::ChartResult;
use crate::metrics::Quartiles;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One box's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxStats {
    pub quartiles: Quartiles,
    /// Whisker ends: the extreme values within the far-out fences.
    pub low: f64,
    pub high: f64,
}

/// The box of `values`, and the extreme outliers (beyond 3 IQR from the box).
pub fn box_stats(values: &[f64]) -> Option<(BoxStats, Vec<f64>)> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    let q = Quartiles::of(&mut v);
    let iqr = q.q3 - q.q1;
    let (lo_fence, hi_fence) = (q.q1 - 3.0 * iqr, q.q3 + 3.0 * iqr);
    let inside = |x: &f64| *x >= lo_fence && *x <= hi_fence;
    let low = v
        .iter()
        .copied()
        .filter(inside)
        .fold(f64::INFINITY, f64::min);
    let high = v
        .iter()
        .copied()
        .filter(inside)
        .fold(f64::NEG_INFINITY, f64::max);
    let outliers = v.iter().copied().filter(|x| !inside(x)).collect();
    Some((
        BoxStats {
            quartiles: q,
            low,
            high,
        },
        outliers,
    ))
}

/// How the y axis is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxStyle {
    /// Logarithmic y axis from 1.
    pub log: bool,
    /// Fixed top of a linear axis (e.g. 100 for percentages).
    pub y_max: Option<f64>,
    pub y_desc: String,
}

impl BoxStyle {
    /// VEET_u: percent of a user's jobs, linear axis from 0 to 100.
    pub fn veet() -> BoxStyle {
        BoxStyle {
            log: false,
            y_max: Some(100.0),
            y_desc: "VEET_u: % of the user's jobs late".into(),
        }
    }

    /// WT_u: processor-seconds, log axis.
    pub fn wt() -> BoxStyle {
        BoxStyle {
            log: true,
            y_max: None,
            y_desc: "WT_u: processor-seconds late (log)".into(),
        }
    }
}

/// Draws one box per `(key, values)`, side by side, each in its key's colour: named under the
/// axis when the measured labels fit side by side, else in a legend outside the plot.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[(Key, Vec<f64>)],
    style: &BoxStyle,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    let body = titled(root, title)?;
    let legend = LegendStyle::default();
    let mut widest = 0;
    for s in series {
        widest = widest.max(
            body.estimate_text_size(&s.0.label, &legend.font().into())?
                .0,
        );
    }
    let room = body.dim_in_pixel().0.saturating_sub(80);
    let under = series.len() as u32 * (widest + 10) <= room;
    let keys: Vec<Key> = series.iter().map(|s| s.0.clone()).collect();
    let plot = if under {
        body
    } else {
        legend.outside(&body, &keys)?
    };
    let named = if under { series.len() } else { 0 };
    let n = series.len().max(1);
    let top = series
        .iter()
        .flat_map(|s| s.1.iter().copied())
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let x = -0.5..n as f64 - 0.5;
    let mut builder = ChartBuilder::on(&plot);
    builder
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(64);
    if style.log {
        let hi = (top * 2.0).max(10.0);
        let chart = builder.build_cartesian_2d(x, log_axis(1.0, hi))?;
        boxes(chart, series, style, 1.0, named)
    } else {
        let hi = style.y_max.unwrap_or((top * 1.05).max(1.0));
        let chart = builder.build_cartesian_2d(x, 0.0..hi)?;
        boxes(chart, series, style, f64::NEG_INFINITY, named)
    }
}

fn boxes<DB: DrawingBackend, Y>(
    mut chart: ChartContext<'_, DB, Cartesian2d<RangedCoordf64, Y>>,
    series: &[(Key, Vec<f64>)],
    style: &BoxStyle,
    floor: f64,
    named: usize,
) -> ChartResult<DB::ErrorType>
where
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 {
            series
                .get(i as usize)
                .map(|s| s.0.label.clone())
                .unwrap_or_default()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_max_light_lines(0)
        .x_labels(named)
        .x_label_formatter(&label)
        .y_label_formatter(&|y| {
            if style.log {
                format!("{y:.0e}")
            } else {
                format!("{y:.0}")
            }
        })
        .y_desc(style.y_desc.as_str())
        .draw()?;
    let at = |v: f64| v.max(floor);
    for (i, (key, values)) in series.iter().enumerate() {
        let Some((b, outliers)) = box_stats(values) else {
            continue;
        };
        let colour = key.colour;
        let (c, half, cap) = (i as f64, 0.3, 0.12);
        let q = b.quartiles;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(c - half, at(q.q1)), (c + half, at(q.q3))],
            colour.mix(0.45).filled(),
        )))?;
        let stroke = colour.stroke_width(2);
        let line = |pts: Vec<(f64, f64)>| PathElement::new(pts, stroke);
        chart.draw_series([
            line(vec![
                (c - half, at(q.q1)),
                (c + half, at(q.q1)),
                (c + half, at(q.q3)),
                (c - half, at(q.q3)),
                (c - half, at(q.q1)),
            ]),
            PathElement::new(
                vec![(c - half, at(q.median)), (c + half, at(q.median))],
                BLACK.stroke_width(2),
            ),
            line(vec![(c, at(q.q3)), (c, at(b.high))]),
            line(vec![(c, at(q.q1)), (c, at(b.low))]),
            line(vec![(c - cap, at(b.high)), (c + cap, at(b.high))]),
            line(vec![(c - cap, at(b.low)), (c + cap, at(b.low))]),
        ])?;
        chart.draw_series(
            outliers
                .iter()
                .map(|&v| Circle::new((c, at(v)), 3, colour.stroke_width(1))),
        )?;
    }
    Ok(())
}
