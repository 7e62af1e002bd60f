//! The EET heatmap (Fig. 7 of Tóth & Klusáček): one panel per policy, users as rows, time as
//! columns, the colour of a cell the number of the user's violated EETs there (see
//! [`crate::metrics::eet_heatmap`]), and the machine's busy processors as a strip under it.
//!
//! Every panel shows the same users in the same order and one colour scale (the largest cell
//! of all panels), so panels compare. Rows: by default the users with at least one violated EET
//! in some panel, sorted by their total (sum of their cells over the panels, most first); a
//! set of users can be left out or shown alone. One rectangle is drawn per non-zero cell: bin
//! the heatmap at about one bin per pixel column ([`plot_width`]) to keep the drawing small.

use super::time_axes::TimeRange;
use super::ChartResult;
use crate::metrics::eet_heatmap::Heatmap;
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;
use std::collections::HashMap;

/// One policy's panel.
pub struct HeatPanel<'a> {
    pub title: String,
    pub map: &'a Heatmap,
    /// The schedule's series in the flat form of [`super::series::points`].
    pub busy: &'a [f64],
    pub procs: u32,
    /// Memory in use, when the trace has memory figures: drawn as a second strip.
    pub memory: Option<MemoryStrip<'a>>,
}

/// Memory in use ([`crate::metrics::eet_heatmap::memory_series`]: flat `[time, KB]` pairs) and
/// the top of its axis in KB (the machine's memory when known, else the peak in use).
#[derive(Clone, Copy)]
pub struct MemoryStrip<'a> {
    pub series: &'a [f64],
    pub capacity: f64,
}

/// Row order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowOrder {
    /// Most violations (sum of the cells over the panels) first.
    #[default]
    Total,
    /// Ascending user id.
    User,
}

/// Which rows and colours.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeatStyle {
    /// Colour by ln(1 + count) instead of the count.
    pub log: bool,
    pub order: RowOrder,
    /// Users left out.
    pub exclude: Vec<i64>,
    /// When not empty, only these users.
    pub only: Vec<i64>,
    /// Also show users without any violated EET.
    pub all_users: bool,
    /// The trace's user names by id (`names[id - 1]`, [`Names::users`]): a row reads `alice`
    /// rather than `user 1`; empty (or too short) leaves the numbers.
    ///
    /// [`Names::users`]: crate::workload::names::Names::users
    pub names: Vec<String>,
}

/// Steps of the colour legend (each a rectangle).
pub const LEGEND_STEPS: usize = 32;
const LEGEND_WIDTH: u32 = 96;
const Y_LABELS: u32 = 64;
const MARGIN: u32 = 6;

/// Width in pixels of the heat area of a chart `width` pixels wide: bin at this many bins for
/// one bin per pixel column.
pub fn plot_width(width: u32) -> u32 {
    width
        .saturating_sub(LEGEND_WIDTH + Y_LABELS + 2 * MARGIN)
        .max(1)
}

/// The colour of `t` in [0, 1]: gold through orange and red to dark red (the upper part of
/// ColorBrewer's YlOrRd, so that the smallest non-zero cell still stands out from white).
pub fn heat_colour(t: f64) -> RGBColor {
    const STOPS: [(f64, f64, f64); 4] = [
        (254.0, 217.0, 118.0),
        (253.0, 141.0, 60.0),
        (227.0, 26.0, 28.0),
        (128.0, 0.0, 38.0),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        1.0
    };
    let x = t * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The scale position of a cell value.
fn scale(v: f64, max: f64, log: bool) -> f64 {
    if max <= 0.0 {
        0.0
    } else if log {
        v.ln_1p() / max.ln_1p()
    } else {
        v / max
    }
}

/// The value at scale position `t` (legend labels).
fn unscale(t: f64, max: f64, log: bool) -> f64 {
    if log {
        (t * max.ln_1p()).exp_m1()
    } else {
        t * max
    }
}

/// The users shown, top row first.
pub fn rows(panels: &[HeatPanel<'_>], style: &HeatStyle) -> Vec<i64> {
    let mut total: HashMap<i64, f64> = HashMap::new();
    let mut order: Vec<i64> = Vec::new();
    for p in panels {
        for r in &p.map.rows {
            let t = total.entry(r.user).or_insert_with(|| {
                order.push(r.user);
                0.0
            });
            *t += r.total;
        }
    }
    order.retain(|u| {
        (style.only.is_empty() || style.only.contains(u))
            && !style.exclude.contains(u)
            && (style.all_users || total[u] > 0.0)
    });
    match style.order {
        RowOrder::Total => order.sort_by(|a, b| total[b].total_cmp(&total[a]).then(a.cmp(b))),
        RowOrder::User => order.sort_unstable(),
    }
    order
}

/// The users shown (top row first), their row index, and the largest cell among them: what
/// every panel shares.
fn layout(panels: &[HeatPanel<'_>], style: &HeatStyle) -> (Vec<i64>, HashMap<i64, usize>, f64) {
    let users = rows(panels, style);
    let shown: HashMap<i64, usize> = users.iter().enumerate().map(|(i, &u)| (u, i)).collect();
    let max = panels
        .iter()
        .flat_map(|p| p.map.rows.iter())
        .filter(|r| shown.contains_key(&r.user))
        .flat_map(|r| r.cells.iter().map(|c| c.1))
        .fold(0.0, f64::max);
    (users, shown, max)
}

/// Draws the panels stacked, with one colour legend on the right.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    panels: &[HeatPanel<'_>],
    style: &HeatStyle,
) -> ChartResult<DB::ErrorType> {
    root.fill(&WHITE)?;
    let (users, shown, max) = layout(panels, style);
    let (w, _) = root.dim_in_pixel();
    let (main, legend) = root.split_horizontally(w.saturating_sub(LEGEND_WIDTH));
    let parts = main.split_evenly((panels.len().max(1), 1));
    for (p, area) in panels.iter().zip(&parts) {
        draw_panel(area, p, &users, &shown, max, style)?;
    }
    draw_legend(&legend, max, style.log)
}

/// Draws panel `index` of `panels` alone (one chart per policy, e.g. one canvas each), with the
/// rows and colour scale of all the panels, so that separate charts still compare; the other
/// panels' `busy` is not read. Returns the users shown, top row first (empty when `index` is
/// out of range: nothing is drawn but the background).
pub fn draw_one<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    panels: &[HeatPanel<'_>],
    index: usize,
    style: &HeatStyle,
) -> Result<Vec<i64>, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let Some(p) = panels.get(index) else {
        return Ok(Vec::new());
    };
    let (users, shown, max) = layout(panels, style);
    let (w, _) = root.dim_in_pixel();
    let (main, legend) = root.split_horizontally(w.saturating_sub(LEGEND_WIDTH));
    draw_panel(&main, p, &users, &shown, max, style)?;
    draw_legend(&legend, max, style.log)?;
    Ok(users)
}

/// A row's label: the user's name when the trace gives one, else `user 3`.
fn row_label(names: &[String], user: i64) -> String {
    crate::workload::names::name_of(names, user)
        .map_or_else(|| format!("user {user}"), str::to_string)
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &HeatPanel<'_>,
    users: &[i64],
    shown: &HashMap<i64, usize>,
    max: f64,
    style: &HeatStyle,
) -> ChartResult<DB::ErrorType> {
    let log = style.log;
    // Time in seconds; the lowest strip labels it with round ticks (`time_axes`).
    let (t0, t1) = (p.map.t0, p.map.t1().max(p.map.t0 + 1.0));
    let (_, h) = area.dim_in_pixel();
    let one = (f64::from(h) * 0.2).clamp(24.0, 60.0) as u32;
    let strip = if p.memory.is_some() { 2 * one } else { one } + 24;
    let (top, bottom) = area.split_vertically(h.saturating_sub(strip));
    let n = users.len().max(1);
    // Segment k of the y axis is row n - 1 - k. plotters' integer ranges include their end, so
    // 0..n - 1 has the n segments (0..1 when n is 1: a one-value range does not map).
    let mut chart = ChartBuilder::on(&top)
        .caption(&p.title, ("sans-serif", 14))
        .margin(MARGIN)
        .margin_bottom(4)
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(t0..t1, (0..(n - 1).max(1)).into_segmented())?;
    let label_rows = (top.dim_in_pixel().1 / 14).max(1) as usize;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(0)
        .y_labels(n.min(label_rows))
        .y_label_formatter(&|y| match y {
            SegmentValue::CenterOf(i) if *i < n => users
                .get(n - 1 - *i)
                .map_or(String::new(), |&u| row_label(&style.names, u)),
            _ => String::new(),
        })
        .y_label_style(("sans-serif", 10))
        .draw()?;
    if users.is_empty() {
        let mid = ((t0 + t1) / 2.0, SegmentValue::CenterOf(0));
        chart.draw_series(std::iter::once(Text::new(
            "no violated EETs",
            mid,
            ("sans-serif", 13),
        )))?;
    }
    let wid = p.map.width;
    let cells = p
        .map
        .rows
        .iter()
        .filter_map(|r| shown.get(&r.user).map(|&i| (i, r)));
    chart.draw_series(cells.flat_map(|(i, r)| {
        let y = n - 1 - i;
        r.cells.iter().map(move |&(bin, v)| {
            let x0 = t0 + f64::from(bin) * wid;
            Rectangle::new(
                [
                    (x0, SegmentValue::Exact(y)),
                    (x0 + wid, SegmentValue::Exact(y + 1)),
                ],
                heat_colour(scale(v, max, log)).filled(),
            )
        })
    }))?;
    let axis = (t0, t1);
    let busy = Strip {
        flat: p.busy,
        fields: super::series::POINT_FIELDS,
        top: f64::from(p.procs.max(1)),
        desc: "busy",
        label_unit: 1.0,
        colour: RGBColor(110, 110, 110),
    };
    match p.memory {
        Some(m) => {
            let (mem_area, busy_area) = bottom.split_vertically(one);
            let mem = Strip {
                flat: m.series,
                fields: 2,
                top: m.capacity.max(1.0),
                desc: "memory (GB)",
                label_unit: 1024.0 * 1024.0,
                colour: RGBColor(70, 110, 160),
            };
            draw_strip(&mem_area, &mem, axis, false)?;
            draw_strip(&busy_area, &busy, axis, true)
        }
        None => draw_strip(&bottom, &busy, axis, true),
    }
}

/// A step series drawn as a filled strip under a panel.
struct Strip<'a> {
    flat: &'a [f64],
    /// Numbers per point; the value is the second.
    fields: usize,
    /// Top of the strip's axis.
    top: f64,
    desc: &'static str,
    /// The values per unit of the axis labels (memory is in KB, labelled in GB).
    label_unit: f64,
    colour: RGBColor,
}

/// A strip under a panel (busy processors, memory in use), averaged per pixel column; the time
/// labels go under the lowest strip only.
fn draw_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    strip: &Strip<'_>,
    (t0, t1): (f64, f64),
    time_labels: bool,
) -> ChartResult<DB::ErrorType> {
    let top = strip.top;
    let font = TextStyle::from(("sans-serif", 11).into_font());
    let width = area.dim_in_pixel().0.saturating_sub(Y_LABELS + 2 * MARGIN);
    let x = TimeRange::fitted(area, (t0, t1), width, &font)?;
    let mut chart = ChartBuilder::on(area)
        .margin(MARGIN)
        .margin_top(2)
        .x_label_area_size(if time_labels { 20 } else { 0 })
        .y_label_area_size(Y_LABELS)
        .build_cartesian_2d(x, 0.0..top)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(if time_labels { 10 } else { 0 })
        .y_labels(2)
        .x_label_style(font.clone())
        .y_label_style(("sans-serif", 10))
        .axis_desc_style(("sans-serif", 11))
        .y_label_formatter(&|y| short_number(*y / strip.label_unit))
        .y_desc(strip.desc)
        .draw()?;
    let cols = chart.plotting_area().dim_in_pixel().0.max(1) as usize;
    let avg = column_average_of(strip.flat, strip.fields, t0, t1, cols);
    let step = (t1 - t0) / cols as f64;
    let mut pts = vec![(t0, 0.0)];
    for (c, &b) in avg.iter().enumerate() {
        let b = b.min(top);
        pts.push((t0 + c as f64 * step, b));
        pts.push((t0 + (c + 1) as f64 * step, b));
    }
    pts.push((t1, 0.0));
    chart.draw_series(std::iter::once(Polygon::new(pts, strip.colour.filled())))?;
    Ok(())
}

/// 0.5, 950, 12k, 3.4M, 1.2G: axis labels that fit the label area.
fn short_number(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.1}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if a < 10.0 && v.fract() != 0.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    }
}

/// Time-average of the busy column of flat series points over `cols` equal columns of
/// `[t0, t1)` (the value of a point holds until the next point).
pub fn column_average(flat: &[f64], t0: f64, t1: f64, cols: usize) -> Vec<f64> {
    column_average_of(flat, super::series::POINT_FIELDS, t0, t1, cols)
}

/// [`column_average`] of the second number of flat points of `fields` numbers each.
pub fn column_average_of(flat: &[f64], fields: usize, t0: f64, t1: f64, cols: usize) -> Vec<f64> {
    let mut out = vec![0.0; cols];
    let width = (t1 - t0) / cols as f64;
    if !(width.is_finite() && width > 0.0) || cols == 0 {
        return out;
    }
    let pts: Vec<(f64, f64)> = flat
        .chunks_exact(fields.max(2))
        .map(|c| (c[0], c[1]))
        .collect();
    for (k, &(a, busy)) in pts.iter().enumerate() {
        let b = pts.get(k + 1).map_or(t1, |p| p.0);
        let (a, b) = (a.max(t0), b.min(t1));
        if b <= a || busy == 0.0 {
            continue;
        }
        let first = ((a - t0) / width).floor() as usize;
        let last = (((b - t0) / width).ceil() as usize).min(cols);
        for (c, slot) in out.iter_mut().enumerate().take(last).skip(first) {
            let lo = a.max(t0 + c as f64 * width);
            let hi = b.min(t0 + (c + 1) as f64 * width);
            if hi > lo {
                *slot += busy * (hi - lo) / width;
            }
        }
    }
    out
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    max: f64,
    log: bool,
) -> ChartResult<DB::ErrorType> {
    let style = ("sans-serif", 11).into_font();
    area.draw(&Text::new("violated", (10, 8), style.clone()))?;
    area.draw(&Text::new("EETs", (10, 20), style.clone()))?;
    let (x0, y0, height) = (12, 40, 160);
    let step = height / LEGEND_STEPS as i32;
    for k in 0..LEGEND_STEPS {
        let t = 1.0 - (k as f64 + 0.5) / LEGEND_STEPS as f64;
        let y = y0 + k as i32 * step;
        area.draw(&Rectangle::new(
            [(x0, y), (x0 + 14, y + step)],
            heat_colour(t).filled(),
        ))?;
    }
    let bottom = y0 + step * LEGEND_STEPS as i32;
    // No EET violated in any panel: one word, not a scale of "0.00" three times.
    if max <= 0.0 {
        area.draw(&Text::new("none", (x0 + 20, bottom - 5), style))?;
        return Ok(());
    }
    for (t, y) in [(1.0, y0), (0.5, (y0 + bottom) / 2), (0.0, bottom)] {
        let v = unscale(t, max, log);
        // Two decimals at most, none that are zeros: "5", "2.5", "0" (it read "5.00", "2.50").
        let text = if v >= 100.0 {
            format!("{v:.0}")
        } else {
            let t = format!("{v:.2}");
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        area.draw(&Text::new(text, (x0 + 20, y - 5), style.clone()))?;
    }
    if log {
        area.draw(&Text::new("(log)", (x0, bottom + 12), style))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::short_number;

    #[test]
    fn axis_labels_are_short_and_keep_a_decimal_below_ten() {
        let got: Vec<String> = [0.0, 0.5, 2.0, 950.0, 12_345.0, 3.4e6, 1.2e9]
            .into_iter()
            .map(short_number)
            .collect();
        assert_eq!(got, ["0", "0.5", "2", "950", "12k", "3.4M", "1.2G"]);
        // Memory in KB labelled in GB: 50,000,000 KB is 47.7 GB, shown as 48.
        assert_eq!(short_number(5e7 / (1024.0 * 1024.0)), "48");
    }
}
