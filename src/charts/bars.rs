//! A bar chart of one value per policy.

use super::palette::COLOURS;
use super::ChartResult;
use plotters::coord::Shift;
use plotters::prelude::*;

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    labels: &[String],
    values: &[f64],
    title: &str,
) -> ChartResult<DB::ErrorType> {
    root.fill(&WHITE)?;
    let n = values.len().min(labels.len());
    let ymax = values
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max)
        .max(1e-9);
    let mut chart = ChartBuilder::on(root)
        .caption(title, ("sans-serif", 15))
        .margin(6)
        .x_label_area_size(28)
        .y_label_area_size(56)
        .build_cartesian_2d((0..n.max(1) - 1).into_segmented(), 0.0..ymax * 1.1)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_max_light_lines(0)
        .x_labels(n.max(1))
        .x_label_formatter(&|x| match x {
            SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .y_label_formatter(&|y| {
            if ymax >= 100.0 {
                format!("{y:.0}")
            } else {
                format!("{y:.1}")
            }
        })
        .draw()?;
    chart.draw_series((0..n).map(|i| {
        let v = if values[i].is_finite() {
            values[i]
        } else {
            0.0
        };
        let mut bar = Rectangle::new(
            [
                (SegmentValue::Exact(i), 0.0),
                (SegmentValue::Exact(i + 1), v),
            ],
            COLOURS[i % COLOURS.len()].filled(),
        );
        bar.set_margin(0, 0, 12, 12);
        bar
    }))?;
    Ok(())
}
