//! A column chart of labelled values (histograms, counts per hour, load per day), linear or log
//! y axis, with an optional horizontal reference line.

use super::log_axis::log_axis;
use super::palette::COLOURS;
use super::ChartResult;
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;

/// The data: one column per label.
#[derive(Debug, Clone, PartialEq)]
pub struct Columns {
    pub labels: Vec<String>,
    pub values: Vec<f64>,
}

/// How the chart looks.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnStyle {
    pub colour: RGBColor,
    /// Logarithmic y axis (from 1; zero columns are not drawn).
    pub log_y: bool,
    pub x_desc: String,
    pub y_desc: String,
    /// A horizontal line at this value with its label (e.g. 100 % of the machine).
    pub reference: Option<(f64, String)>,
    /// At most this many x labels (evenly picked; fewer when the measured labels would touch).
    pub max_labels: usize,
}

impl Default for ColumnStyle {
    fn default() -> Self {
        ColumnStyle {
            colour: COLOURS[0],
            log_y: false,
            x_desc: String::new(),
            y_desc: String::new(),
            reference: None,
            max_labels: 24,
        }
    }
}

fn fmt_y(y: f64) -> String {
    if y >= 1e6 {
        format!("{:.1}M", y / 1e6)
    } else if y >= 1e4 {
        format!("{:.0}k", y / 1e3)
    } else if y >= 100.0 || (y - y.round()).abs() < 1e-9 {
        format!("{y:.0}")
    } else {
        format!("{y:.2}")
    }
}

/// The labels of a linear y axis over `0..hi` (plotters' key points for its default 10
/// labels), each with the decimals the finest of them needs (at most 2; none from 100 up, as
/// [`fmt_y`]): one axis read "3" beside "3.50", the whole numbers without decimals.
fn y_decimals(hi: f64) -> usize {
    use plotters::coord::ranged1d::Ranged;
    use plotters::coord::types::RangedCoordf64;
    let points = RangedCoordf64::from(0.0..hi).key_points(10);
    (0..2)
        .find(|&d| {
            let scale = 10f64.powi(d as i32);
            (points.iter())
                .filter(|p| p.abs() < 100.0)
                .all(|p| (p * scale - (p * scale).round()).abs() < 1e-6)
        })
        .unwrap_or(2)
}

/// A label of a linear y axis with `decimals` (from [`y_decimals`]).
fn fmt_y_at(y: f64, decimals: usize) -> String {
    if y.abs() >= 100.0 {
        fmt_y(y)
    } else {
        format!("{y:.decimals$}")
    }
}

/// Is `y` 1, 2 or 5 times a power of ten? The log axis labels only those: plotters puts a key
/// point at every whole number up to 10 and every ten up to 100, and over one or two decades
/// their labels ran into each other ("8", "9", "10").
fn one_two_five(y: f64) -> bool {
    if !(y.is_finite() && y > 0.0) {
        return false;
    }
    let m = y / 10f64.powf(y.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().any(|k| (m - k).abs() < 1e-6)
}

/// Draws the columns; non-finite and negative values are drawn as 0.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &Columns,
    style: &ColumnStyle,
    title: &str,
) -> ChartResult<DB::ErrorType> {
    root.fill(&WHITE)?;
    let n = data.values.len().min(data.labels.len());
    let value = |i: usize| {
        let v = data.values[i];
        if v.is_finite() && v > 0.0 {
            v
        } else {
            0.0
        }
    };
    let top = (0..n)
        .map(value)
        .chain(style.reference.as_ref().map(|r| r.0))
        .fold(0.0, f64::max);
    let x = -0.5..(n.max(1) as f64 - 0.5);
    let font = TextStyle::from(("sans-serif", 12).into_font());
    let y_area = if style.y_desc.is_empty() { 48 } else { 64 };
    let plot_w = root.dim_in_pixel().0.saturating_sub(y_area + 16).max(1);
    let every = label_every(root, &data.labels[..n], plot_w, &font)?
        .max(n.div_ceil(style.max_labels.max(1)))
        .max(1);
    let label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() > 1e-6 || i < 0.0 || !labelled(i as usize, n, every) {
            return String::new();
        }
        data.labels[i as usize].clone()
    };
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(title, ("sans-serif", 15))
        .margin(8)
        .x_label_area_size(if style.x_desc.is_empty() { 24 } else { 40 })
        .y_label_area_size(y_area);
    let colour = style.colour;
    let bar = |i: usize, lo: f64| {
        let mut r = Rectangle::new(
            [(i as f64 - 0.5, lo), (i as f64 + 0.5, value(i))],
            colour.filled(),
        );
        let gap = if n > 60 { 0 } else { 2 };
        r.set_margin(0, 0, gap, gap);
        r
    };
    if style.log_y {
        // The axis starts below 1, so that a column of 1 (a count of one job) has a height: from
        // 1 it had none, and a trace's rare sizes or runtimes did not show.
        const BOTTOM: f64 = 0.5;
        let hi = (top * 2.0).max(10.0);
        let mut chart = builder.build_cartesian_2d(x, log_axis(BOTTOM, hi))?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n.clamp(1, 200))
            .x_label_style(font.clone())
            .x_label_formatter(&label)
            .y_label_formatter(&|y| {
                if *y >= 1.0 && one_two_five(*y) {
                    fmt_y(*y)
                } else {
                    String::new()
                }
            })
            .x_desc(style.x_desc.as_str())
            .y_desc(style.y_desc.as_str())
            .draw()?;
        chart.draw_series((0..n).filter(|&i| value(i) >= 1.0).map(|i| bar(i, BOTTOM)))?;
        reference(&mut chart, style, n)?;
    } else {
        // Counts (every value whole) are labelled at whole numbers only: a trace of a few jobs
        // read "0.10", "0.20" ... jobs.
        let whole = (0..n).all(|i| value(i).fract() == 0.0);
        let hi = (top * 1.08).max(1e-9);
        let decimals = y_decimals(hi);
        let mut chart = builder.build_cartesian_2d(x, 0.0..hi)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n.clamp(1, 200))
            .x_label_style(font.clone())
            .x_label_formatter(&label)
            .y_label_formatter(&|y| {
                if whole && (y - y.round()).abs() > 1e-9 {
                    String::new()
                } else if whole {
                    fmt_y(*y)
                } else {
                    fmt_y_at(*y, decimals)
                }
            })
            .x_desc(style.x_desc.as_str())
            .y_desc(style.y_desc.as_str())
            .draw()?;
        chart.draw_series((0..n).filter(|&i| value(i) > 0.0).map(|i| bar(i, 0.0)))?;
        reference(&mut chart, style, n)?;
    }
    Ok(())
}

/// What the chart shows, in words (its text alternative): how many columns of what, and the
/// highest three with their values.
pub fn summary(data: &Columns, style: &ColumnStyle) -> String {
    let n = data.values.len().min(data.labels.len());
    let mut order: Vec<usize> = (0..n).filter(|&i| data.values[i].is_finite()).collect();
    order.sort_by(|&a, &b| data.values[b].total_cmp(&data.values[a]).then(a.cmp(&b)));
    let top: Vec<String> = order
        .iter()
        .take(3)
        .map(|&i| format!("{} ({})", data.labels[i], fmt_y(data.values[i])))
        .collect();
    let what = match (style.y_desc.as_str(), style.x_desc.as_str()) {
        ("", "") => String::new(),
        (y, "") => format!(" of {y}"),
        ("", x) => format!(" by {x}"),
        (y, x) => format!(" of {y} by {x}"),
    };
    format!("{n} columns{what}; highest: {}", top.join(", "))
}

/// Is column `i` of `n` labelled, when every `every`-th is: the first, every `every`-th after it,
/// and the last, which ends a histogram's range (a runtime histogram's longest jobs were left
/// unlabelled when `n - 1` was no multiple); the one before the last goes when it would stand
/// closer than `every` columns to it.
pub fn labelled(i: usize, n: usize, every: usize) -> bool {
    i + 1 == n || (i < n && i.is_multiple_of(every) && i + every < n)
}

/// Label every k-th of `labels` under columns sharing `width` pixels: the smallest k for which
/// the widest label, measured in `font`, and some air fit in k columns.
pub fn label_every<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: &[String],
    width: u32,
    font: &TextStyle,
) -> Result<usize, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut widest = 0;
    for l in labels {
        widest = widest.max(area.estimate_text_size(l, font)?.0);
    }
    let column = f64::from(width) / labels.len().max(1) as f64;
    Ok(((f64::from(widest) + 8.0) / column).ceil().max(1.0) as usize)
}

fn reference<DB: DrawingBackend, Y>(
    chart: &mut ChartContext<DB, Cartesian2d<plotters::coord::types::RangedCoordf64, Y>>,
    style: &ColumnStyle,
    n: usize,
) -> ChartResult<DB::ErrorType>
where
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    if let Some((y, text)) = &style.reference {
        let red = RGBColor(200, 30, 30);
        chart.draw_series(LineSeries::new(
            [(-0.5, *y), (n as f64 - 0.5, *y)],
            red.stroke_width(1),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            text.clone(),
            (-0.4, *y),
            ("sans-serif", 12).into_font().color(&red),
        )))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The y labels of a linear column chart of `values`, as drawn (left of the plot).
    fn y_labels(values: &[f64]) -> Vec<String> {
        let data = Columns {
            labels: (0..values.len()).map(|i| i.to_string()).collect(),
            values: values.to_vec(),
        };
        let svg = super::super::native::svg((400, 300), |root| {
            draw(root, &data, &ColumnStyle::default(), "t").map_err(|e| e.to_string())
        })
        .unwrap();
        let mut out = Vec::new();
        for piece in svg.split("<text").skip(1) {
            let x: f64 = (piece.split("x=\"").nth(1))
                .and_then(|r| r.split('"').next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::MAX);
            let text = piece.split('>').nth(1).unwrap_or("").split('<').next();
            let text = text.unwrap_or("").trim();
            if x < 48.0 && !text.is_empty() {
                out.push(text.to_owned());
            }
        }
        out
    }

    /// Worked by hand: medians 3.5 and 1.25 (the trace view's overestimation): the axis ends
    /// at 3.5 x 1.08 = 3.78, plotters' labels fall every 0.5 (0, 0.5, ... 3.5), which read
    /// "0", "0.50", "1", ... "3.50": each now with one decimal, "0.0" to "3.5". Medians 35
    /// and 12.5: labels every 5, whole, "0" to "35".
    #[test]
    fn one_axis_one_number_of_decimals() {
        assert_eq!(y_decimals(3.78), 1);
        assert_eq!(y_decimals(37.8), 0);
        assert_eq!(y_decimals(0.378), 2);
        let labels = y_labels(&[3.5, 1.25]);
        assert!(labels.contains(&"3.5".to_owned()), "{labels:?}");
        assert!(labels.contains(&"1.0".to_owned()), "{labels:?}");
        assert!(
            labels
                .iter()
                .all(|l| l.split('.').nth(1).map(str::len) == Some(1)),
            "{labels:?}"
        );
        let labels = y_labels(&[35.0, 12.5]);
        assert!(
            labels.contains(&"35".to_owned()) && !labels.iter().any(|l| l.contains('.')),
            "{labels:?}"
        );
    }
}
