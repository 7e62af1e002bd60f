//! A bar chart of one value per policy: columns while the measured labels fit side by side
//! under them, else horizontal bars with the labels on their left (cut with "…" past 45 % of
//! the width).

use super::legend::{fit, titled, Key, LegendStyle};
use super::ChartResult;
use plotters::coord::Shift;
use plotters::prelude::*;

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    keys: &[Key],
    values: &[f64],
    title: &str,
) -> ChartResult<DB::ErrorType> {
    let root = &titled(root, title)?;
    let n = values.len().min(keys.len());
    let labels: Vec<String> = keys[..n].iter().map(|k| k.label.clone()).collect();
    let font = TextStyle::from(LegendStyle::default().font());
    let mut widest = 0;
    for l in &labels {
        widest = widest.max(root.estimate_text_size(l, &font)?.0);
    }
    let room = root.dim_in_pixel().0.saturating_sub(72);
    if n as u32 * (widest + 12) > room {
        return horizontal(root, &keys[..n], &values[..n], &font);
    }
    let ymax = axis_top(values.iter().copied());
    // The columns on a continuous axis, one unit per policy, labelled at their centres: a
    // segmented axis of one policy (0..0) had no width, and its one column was drawn at the
    // axis, a sliver over the value labels.
    let mut chart = ChartBuilder::on(root)
        .margin(6)
        .x_label_area_size(28)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5..n.max(1) as f64 - 0.5, 0.0..ymax * 1.1)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_max_light_lines(0)
        .x_labels(n * 2 + 1)
        .x_label_style(font.clone())
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| value_label(*y, ymax))
        .draw()?;
    chart.draw_series((0..n).map(|i| {
        let v = if values[i].is_finite() {
            values[i]
        } else {
            0.0
        };
        let x = i as f64;
        Rectangle::new([(x - 0.4, 0.0), (x + 0.4, v)], keys[i].colour.filled())
    }))?;
    Ok(())
}

/// One horizontal bar per key, the labels (cut to fit) left of the bars.
fn horizontal<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    keys: &[Key],
    values: &[f64],
    font: &TextStyle,
) -> ChartResult<DB::ErrorType> {
    let n = values.len();
    let value = |i: usize| {
        if values[i].is_finite() {
            values[i].max(0.0)
        } else {
            0.0
        }
    };
    let xmax = axis_top((0..n).map(value));
    let most = root.dim_in_pixel().0 * 45 / 100;
    let mut labels = Vec::with_capacity(n);
    let mut widest = 0;
    for k in keys {
        let l = fit(root, &k.label, font, most)?;
        widest = widest.max(root.estimate_text_size(&l, font)?.0);
        labels.push(l);
    }
    // As many value labels as their measured width leaves room for.
    let value_w = root
        .estimate_text_size(&value_label(xmax * 1.1, xmax), font)?
        .0
        .max(1);
    let plot_w = root.dim_in_pixel().0.saturating_sub(widest + 24);
    let ticks = (plot_w / (value_w + 16)).clamp(2, 10) as usize;
    let mut chart = ChartBuilder::on(root)
        .margin(6)
        .x_label_area_size(24)
        .y_label_area_size(widest + 12)
        .build_cartesian_2d(0.0..xmax * 1.1, -0.5..n as f64 - 0.5)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_max_light_lines(0)
        .x_labels(ticks)
        .x_label_style(font.clone())
        .y_labels(n * 2 + 1)
        .y_label_style(font.clone())
        .y_label_formatter(&|y| {
            let i = y.round();
            // Top to bottom in label order.
            if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                labels[n - 1 - i as usize].clone()
            } else {
                String::new()
            }
        })
        .x_label_formatter(&|x| value_label(*x, xmax))
        .draw()?;
    chart.draw_series((0..n).map(|i| {
        let y = (n - 1 - i) as f64;
        Rectangle::new(
            [(0.0, y - 0.35), (value(i), y + 0.35)],
            keys[i].colour.filled(),
        )
    }))?;
    Ok(())
}

/// The top of the value axis: the largest finite value, or 1 when none is above 0 (every
/// policy's mean wait 0 made an axis from 0 to 1e-9, its five ticks all labelled "0.0").
fn axis_top(values: impl Iterator<Item = f64>) -> f64 {
    let top = values.filter(|v| v.is_finite()).fold(0.0, f64::max);
    if top > 0.0 {
        top
    } else {
        1.0
    }
}

/// A value axis label: whole numbers from a top of 100, one decimal down to a top of 0.1, and
/// below as many as tell the ticks apart (a top of 0.04 labelled every tick "0.0").
fn value_label(x: f64, top: f64) -> String {
    if top >= 100.0 {
        format!("{x:.0}")
    } else {
        let decimals = (-top.log10().floor()).clamp(1.0, 9.0) as usize;
        format!("{x:.decimals$}")
    }
}

#[cfg(test)]
mod tests {
    use super::{axis_top, value_label};

    /// Five ticks from 0 to the top * 1.1, labelled as the chart labels them.
    fn ticks(values: &[f64]) -> Vec<String> {
        let top = axis_top(values.iter().copied());
        (0..5)
            .map(|i| value_label(top * 1.1 * i as f64 / 4.0, top))
            .collect()
    }

    #[test]
    fn the_value_axis_tells_its_ticks_apart() {
        // All zero (every policy's mean wait 0 s): an axis 0..1.1, labels 0.0 0.3 0.6 0.8 1.1
        // (0.275 steps, one decimal); before, 0..1.1e-9 and "0.0" five times.
        assert_eq!(ticks(&[0.0, 0.0]), ["0.0", "0.3", "0.6", "0.8", "1.1"]);
        assert_eq!(ticks(&[f64::NAN]), ["0.0", "0.3", "0.6", "0.8", "1.1"]);
        // A top of 0.04: steps of 0.011, two decimals: 0.00 0.01 0.02 0.03 0.04.
        assert_eq!(
            ticks(&[0.04, 0.01]),
            ["0.00", "0.01", "0.02", "0.03", "0.04"]
        );
        // Unchanged above 0.1: one decimal below 100, none from 100.
        assert_eq!(ticks(&[0.5]), ["0.0", "0.1", "0.3", "0.4", "0.6"]);
        assert_eq!(ticks(&[40.0]), ["0.0", "11.0", "22.0", "33.0", "44.0"]);
        assert_eq!(ticks(&[3533.5]), ["0", "972", "1943", "2915", "3887"]);
    }
}
