//! The `draw_*` exports: the engine's charts drawn onto the page's canvases.

use super::check::{check_size, records, user_ids, whole, EXACT, USER_FIELDS, VIOLATION_FIELDS};
use super::scaled::Scaled;
use crate::charts::legend::Key;
use crate::charts::{bars, eet_box, eet_heatmap, gantt, series, sweep as sweep_chart};
use crate::metrics::eet_heatmap::{heatmap, Violation};
use crate::quote::quote;
use plotters::prelude::*;
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

/// The drawing area of a canvas, in CSS pixels at its `data-dpr` (see [`Scaled`]).
pub(super) fn canvas_root(
    canvas: HtmlCanvasElement,
) -> Result<DrawingArea<Scaled, plotters::coord::Shift>, JsError> {
    Scaled::new(canvas)
        .map(|b| b.into_drawing_area())
        .ok_or_else(|| JsError::new("canvas has no 2d context"))
}

pub(super) fn drawn<E: std::error::Error + Send + Sync>(
    r: Result<(), plotters::drawing::DrawingAreaErrorKind<E>>,
) -> Result<(), JsError> {
    r.map_err(|e| JsError::new(&format!("drawing failed: {e}")))
}

/// The Gantt rows of `procs` processors: grouped by the cluster's nodes `nodes` gives (see
/// [`draw_gantt`]), or when it is undefined or null by nodes of `cores` (0: none).
pub(super) fn node_rows(
    nodes: JsValue,
    procs: u32,
    cores: u32,
) -> Result<gantt::NodeRows, JsError> {
    if nodes.is_undefined() || nodes.is_null() {
        return Ok(gantt::NodeRows::uniform(procs, cores));
    }
    #[derive(serde::Deserialize)]
    struct Given {
        first: Vec<u32>,
        names: Vec<String>,
        #[serde(default)]
        gpus: Vec<u32>,
        #[serde(default)]
        gpu_jobs: Vec<u32>,
        #[serde(default)]
        lane_first: Vec<u32>,
        #[serde(default)]
        lane_rows: Vec<u32>,
    }
    let g: Given =
        serde_wasm_bindgen::from_value(nodes).map_err(|e| JsError::new(&format!("nodes: {e}")))?;
    gantt::NodeRows::named(g.first, g.names, procs)
        .and_then(|r| r.with_gpus(g.gpus, g.gpu_jobs))
        .and_then(|r| r.with_lanes(g.lane_first, g.lane_rows, procs))
        .map_err(|e| JsError::new(&e))
}

/// Draws the Gantt chart of `rects` (see [`Session::rects`](super::Session::rects)) over `[t0, t1]`; returns the
/// plotting area in canvas pixels, `[x0, y0, x1, y1]`. `cores` > 0 (the node model's cores per
/// node) groups the rows by node; non-empty `factors` (see [`Session::factors`](super::Session::factors))
/// colour the jobs by penalty factor. `nodes` (optional: a cluster's
/// [`Session::node_rows`](super::Session::node_rows), `{first, names, gpus, gpu_jobs}`, with
/// `lane_first` and `lane_rows` on a cluster with GPUs, `procs` then its `rows`) groups the rows
/// by the cluster's nodes instead, its GPU jobs drawn darker, each node's GPU lanes above its
/// cores. `user_names` (optional: [`Session::user_names`](super::Session::user_names)) names
/// the users in the legend.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn draw_gantt(
    canvas: HtmlCanvasElement,
    rects: &[f64],
    procs: u32,
    t0: f64,
    t1: f64,
    title: &str,
    cores: u32,
    factors: &[f64],
    nodes: JsValue,
    user_names: JsValue,
) -> Result<Vec<i32>, JsError> {
    if !(t0.is_finite() && t1.is_finite()) {
        return Err(JsError::new("time window must be finite"));
    }
    let rows = node_rows(nodes, procs, cores)?;
    let root = canvas_root(canvas)?;
    let rects = gantt::unflatten(rects);
    let names: Vec<String> = if user_names.is_undefined() || user_names.is_null() {
        Vec::new()
    } else {
        serde_wasm_bindgen::from_value(user_names)
            .map_err(|e| JsError::new(&format!("user names: {e}")))?
    };
    let area = gantt::draw_rows(&root, &rects, procs, &rows, factors, &names, t0, t1, title)
        .map_err(|e| JsError::new(&format!("drawing failed: {e}")))?;
    drawn(root.present())?;
    Ok(area.to_vec())
}

/// Draws column `column` (1 busy, 2 queued) of several series (see [`Session::series`](super::Session::series));
/// `slots` (optional) gives each label's palette slot, so that a policy keeps its colour when
/// others are hidden.
#[wasm_bindgen]
pub fn draw_series(
    canvas: HtmlCanvasElement,
    series_list: js_sys::Array,
    labels: Vec<String>,
    column: u32,
    title: &str,
    slots: Option<Vec<u8>>,
) -> Result<(), JsError> {
    let data = float_arrays(&series_list, "series")?;
    let keys = Key::slotted(&labels, &slots.unwrap_or_default());
    let root = canvas_root(canvas)?;
    drawn(series::draw(&root, &data, &keys, column as usize, title))?;
    drawn(root.present())
}

/// Draws column `column` (1 busy, 2 queued) of several series as means over bins of `bin`
/// seconds (0: one bin per pixel column); `highlight` >= 0 draws that policy thick; `columns`
/// > 0 draws small multiples in that many columns (see [`draw_bin_means`] for `slots`).
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn draw_series_binned(
    canvas: HtmlCanvasElement,
    series_list: js_sys::Array,
    labels: Vec<String>,
    column: u32,
    bin: f64,
    highlight: i32,
    title: &str,
    columns: Option<u32>,
    slots: Option<Vec<u8>>,
) -> Result<(), JsError> {
    if !(bin.is_finite() && bin >= 0.0) {
        return Err(JsError::new(&format!("bin {bin}: must be seconds >= 0")));
    }
    let data = float_arrays(&series_list, "series")?;
    let style = crate::charts::binned::BinnedStyle {
        highlight: usize::try_from(highlight).ok(),
        columns: columns.unwrap_or(0) as usize,
        ..crate::charts::binned::BinnedStyle::overlaid(bin)
    };
    let keys = Key::slotted(&labels, &slots.unwrap_or_default());
    check_size(&canvas, (200, 120))?;
    let root = canvas_root(canvas)?;
    drawn(crate::charts::binned::draw(
        &root,
        &data,
        &keys,
        column as usize,
        &style,
        title,
    ))?;
    drawn(root.present())
}

/// Means of column `column` (1 busy, 2 queued) of a series over bins of `bin` seconds (see
/// [`crate::charts::binned::bin_means`]): `[bin start, mean]` each, for [`draw_bin_means`].
#[wasm_bindgen]
pub fn series_bin_means(series: &[f64], column: u32, bin: f64) -> Result<Vec<f64>, JsError> {
    if !(bin.is_finite() && bin > 0.0) {
        return Err(JsError::new(&format!("bin {bin}: must be seconds > 0")));
    }
    Ok(
        crate::charts::binned::bin_means(series, column as usize, bin)
            .into_iter()
            .flat_map(|(t, v)| [t, v])
            .collect(),
    )
}

/// Draws bin means (one [`series_bin_means`] array per label, bins of `bin` seconds) over
/// `[t0, t1]`; `highlight` >= 0 draws that policy thick; `columns` > 0 draws small multiples
/// (a panel per policy, the others in grey) in that many columns; `slots` (optional) gives each label's palette slot, so that a policy keeps its colour when
/// others are hidden.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn draw_bin_means(
    canvas: HtmlCanvasElement,
    means: js_sys::Array,
    labels: Vec<String>,
    bin: f64,
    t0: f64,
    t1: f64,
    highlight: i32,
    title: &str,
    columns: Option<u32>,
    slots: Option<Vec<u8>>,
) -> Result<(), JsError> {
    if !(bin.is_finite() && bin > 0.0) {
        return Err(JsError::new(&format!("bin {bin}: must be seconds > 0")));
    }
    let lines: Vec<Vec<(f64, f64)>> = float_arrays(&means, "means")?
        .iter()
        .map(|m| m.chunks_exact(2).map(|c| (c[0], c[1])).collect())
        .collect();
    let style = crate::charts::binned::BinnedStyle {
        highlight: usize::try_from(highlight).ok(),
        columns: columns.unwrap_or(0) as usize,
        ..crate::charts::binned::BinnedStyle::overlaid(bin)
    };
    let keys = Key::slotted(&labels, &slots.unwrap_or_default());
    check_size(&canvas, (200, 120))?;
    let root = canvas_root(canvas)?;
    drawn(crate::charts::binned::draw_means(
        &root,
        &lines,
        &keys,
        bin,
        (t0, t1),
        &style,
        title,
    ))?;
    drawn(root.present())
}

/// The Float64Arrays of `list` (named `what` in the error).
pub(super) fn float_arrays(list: &js_sys::Array, what: &str) -> Result<Vec<Vec<f64>>, JsError> {
    list.iter()
        .map(|v| {
            v.dyn_into::<js_sys::Float64Array>()
                .map(|a| a.to_vec())
                .map_err(|_| JsError::new(&format!("{what} must be Float64Arrays")))
        })
        .collect()
}

/// Draws one bar per label; `slots` (optional) gives each label's palette slot, so that a policy keeps its colour when
/// others are hidden.
#[wasm_bindgen]
pub fn draw_bars(
    canvas: HtmlCanvasElement,
    labels: Vec<String>,
    values: &[f64],
    title: &str,
    slots: Option<Vec<u8>>,
) -> Result<(), JsError> {
    let keys = Key::slotted(&labels, &slots.unwrap_or_default());
    let root = canvas_root(canvas)?;
    drawn(bars::draw(&root, &keys, values, title))?;
    drawn(root.present())
}

/// Draws a box plot per policy of one per-user figure, `figure` = `"veet"` (VEET_u, percent,
/// linear 0-100) or `"wt"` (WT_u, processor-seconds, log axis); `users` holds one
/// [`Session::eet_users`](super::Session::eet_users) array per label.
#[wasm_bindgen]
pub fn draw_eet_box(
    canvas: HtmlCanvasElement,
    users: js_sys::Array,
    labels: Vec<String>,
    figure: &str,
    title: &str,
    slots: Option<Vec<u8>>,
) -> Result<(), JsError> {
    let (column, style) = match figure {
        "veet" => (3, eet_box::BoxStyle::veet()),
        "wt" => (4, eet_box::BoxStyle::wt()),
        _ => {
            return Err(JsError::new(&format!(
                "figure {}: expected \"veet\" or \"wt\"",
                quote(figure)
            )))
        }
    };
    let data = records(&users, "users", USER_FIELDS)?;
    if data.len() != labels.len() {
        return Err(JsError::new(&format!(
            "{} user arrays for {} labels",
            data.len(),
            labels.len()
        )));
    }
    let series: Vec<(Key, Vec<f64>)> = Key::slotted(&labels, &slots.unwrap_or_default())
        .into_iter()
        .zip(&data)
        .map(|(key, d)| {
            let values = d.chunks_exact(USER_FIELDS).map(|u| u[column]).collect();
            (key, values)
        })
        .collect();
    check_size(&canvas, (160, 120))?;
    let root = canvas_root(canvas)?;
    drawn(eet_box::draw(&root, &series, &style, title))?;
    drawn(root.present())
}

/// Options of [`draw_eet_heatmap`].
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct HeatOptions {
    /// Colour by ln(1 + count).
    log: bool,
    /// Row order: `"total"` (most violations first, the default) or `"user"`.
    sort: Option<String>,
    exclude: Vec<f64>,
    only: Vec<f64>,
    /// Also show users without violated EETs (among those with a violation in some panel).
    all_users: bool,
    /// The trace's user names by id ([`Session::user_names`](super::Session::user_names)):
    /// rows read `alice` rather than `user 1`.
    names: Vec<String>,
}

impl HeatOptions {
    fn style(&self) -> Result<eet_heatmap::HeatStyle, JsError> {
        let order = match self.sort.as_deref() {
            None | Some("total") => eet_heatmap::RowOrder::Total,
            Some("user") => eet_heatmap::RowOrder::User,
            Some(other) => {
                return Err(JsError::new(&format!(
                    "sort {}: expected \"total\" or \"user\"",
                    quote(other)
                )))
            }
        };
        Ok(eet_heatmap::HeatStyle {
            log: self.log,
            order,
            exclude: user_ids(&self.exclude, "exclude")?,
            only: user_ids(&self.only, "only")?,
            all_users: self.all_users,
            names: self.names.clone(),
        })
    }
}

/// Draws the EET heatmap of policy `panel` over `[t0, t1]`, with its busy processors
/// (`busy`: its [`Session::series`](super::Session::series)) under it, and its memory in use (`memory`: its
/// [`Session::memory`](super::Session::memory), empty when the trace has none) up to `memory_capacity` KB. `violations` holds every compared policy's
/// [`Session::violations`](super::Session::violations), so that the rows (users, order) and the colour scale are those of
/// all the panels: one canvas per policy, each drawn alone, still compares. `options`:
/// `{log, sort: "total" | "user", exclude: [ids], only: [ids], names: [user names]}`. Returns the users shown, top
/// row first.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn draw_eet_heatmap(
    canvas: HtmlCanvasElement,
    violations_list: js_sys::Array,
    panel: u32,
    busy: &[f64],
    memory: &[f64],
    memory_capacity: f64,
    procs: u32,
    t0: f64,
    t1: f64,
    title: &str,
    options: JsValue,
) -> Result<Vec<f64>, JsError> {
    let opts: HeatOptions = if options.is_undefined() || options.is_null() {
        HeatOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| JsError::new(&format!("heatmap options: {e}")))?
    };
    let style = opts.style()?;
    if !(t0.is_finite() && t1.is_finite() && t0.abs() < EXACT && t1.abs() < EXACT && t0 < t1) {
        return Err(JsError::new(&format!(
            "time window [{t0}, {t1}]: must be finite with t0 < t1"
        )));
    }
    if !busy
        .chunks_exact(series::POINT_FIELDS)
        .remainder()
        .is_empty()
    {
        return Err(JsError::new(&format!(
            "busy: {} numbers, not a multiple of {}",
            busy.len(),
            series::POINT_FIELDS
        )));
    }
    if !(memory.len().is_multiple_of(2) && memory_capacity.is_finite() && memory_capacity >= 0.0) {
        return Err(JsError::new(&format!(
            "memory: {} numbers (pairs expected), capacity {memory_capacity}",
            memory.len()
        )));
    }
    let lists = records(&violations_list, "violations", VIOLATION_FIELDS)?;
    let index = panel as usize;
    if index >= lists.len() {
        return Err(JsError::new(&format!(
            "panel {panel}: there are {} policies",
            lists.len()
        )));
    }
    let parsed = lists
        .iter()
        .map(|l| {
            l.chunks_exact(VIOLATION_FIELDS)
                .map(|c| match (whole(c[0]), whole(c[1]), whole(c[2])) {
                    (Some(user), Some(start), Some(end)) => Ok(Violation { user, start, end }),
                    _ => Err(JsError::new(&format!(
                        "violation [{}, {}, {}]: expected whole numbers",
                        c[0], c[1], c[2]
                    ))),
                })
                .collect::<Result<Vec<_>, JsError>>()
        })
        .collect::<Result<Vec<_>, JsError>>()?;
    let mut users: Vec<i64> = parsed.iter().flatten().map(|v| v.user).collect();
    users.sort_unstable();
    users.dedup();
    check_size(&canvas, (240, 160))?;
    let bins = eet_heatmap::plot_width(canvas.width());
    let width = (t1 - t0) / f64::from(bins);
    let maps: Vec<_> = parsed
        .iter()
        .map(|v| heatmap(&users, v, t0, width, bins))
        .collect();
    let panels: Vec<eet_heatmap::HeatPanel> = maps
        .iter()
        .enumerate()
        .map(|(i, map)| eet_heatmap::HeatPanel {
            title: if i == index {
                title.to_string()
            } else {
                String::new()
            },
            map,
            busy: if i == index { busy } else { &[] },
            procs,
            memory: (i == index && !memory.is_empty()).then_some(eet_heatmap::MemoryStrip {
                series: memory,
                capacity: memory_capacity,
            }),
        })
        .collect();
    let root = canvas_root(canvas)?;
    let shown = eet_heatmap::draw_one(&root, &panels, index, &style)
        .map_err(|e| JsError::new(&format!("drawing failed: {e}")))?;
    drawn(root.present())?;
    Ok(shown.into_iter().map(|u| u as f64).collect())
}

/// Draws a sweep: one line per policy (`labels`) of the mean of metric `metric` over `values`
/// of key `key`, in a min-max band; `stats` holds `[mean, min, max]` per value, the values of
/// the first policy first.
#[wasm_bindgen]
pub fn draw_sweep(
    canvas: HtmlCanvasElement,
    values: Vec<String>,
    labels: Vec<String>,
    stats: &[f64],
    key: &str,
    metric: &str,
    title: &str,
) -> Result<(), JsError> {
    if values.is_empty() || labels.is_empty() {
        return Err(JsError::new(
            "a sweep needs at least one value and one policy",
        ));
    }
    let lines = sweep_chart::unflatten(&labels, values.len(), stats).ok_or_else(|| {
        JsError::new(&format!(
            "stats: {} numbers for {} policies x {} values x {}",
            stats.len(),
            labels.len(),
            values.len(),
            crate::sweep::STAT_FIELDS
        ))
    })?;
    check_size(&canvas, (240, 160))?;
    let root = canvas_root(canvas)?;
    drawn(sweep_chart::draw(
        &root, &values, &lines, key, metric, title,
    ))?;
    drawn(root.present())
}
