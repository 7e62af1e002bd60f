//! The `draw_*` exports of the distributions and of two schedules compared job by job: CDFs,
//! box plots by job class, the A-vs-B scatter and the diff-Gantt.

use super::check::check_size;
use super::draw::{canvas_root, drawn, float_arrays};
use crate::charts::legend::Key;
use crate::charts::{cdf, class_box, diff_gantt, gantt, scatter};
use crate::quote::quote;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// Fields per job in [`Session::jobs`](super::Session::jobs): the registry's `JOB` layout.
const JOB_FIELDS: usize = crate::output::layouts::JOB.fields.len();
const JOB_START: usize = crate::output::layouts::JOB.field("start");
const JOB_END: usize = crate::output::layouts::JOB.field("end");
const JOB_PROCS: usize = crate::output::layouts::JOB.field("procs");

fn figure_style(figure: &str) -> Result<(cdf::CdfStyle, &'static str), JsError> {
    match figure {
        "wait" => Ok((cdf::CdfStyle::wait(), "wait (s, log)")),
        "bsld" => Ok((cdf::CdfStyle::bsld(), "bounded slowdown (log)")),
        _ => Err(JsError::new(&format!(
            "figure {}: expected \"wait\" or \"bsld\"",
            quote(figure)
        ))),
    }
}

/// Draws the CDF of a per-job figure (`"wait"` or `"bsld"`) per policy: `sorted` holds one
/// ascending Float64Array per label (jobs that never ran left out); `highlight` >= 0 draws
/// that policy thick; `slots` (optional) gives each label's palette slot.
#[wasm_bindgen]
pub fn draw_cdf(
    canvas: HtmlCanvasElement,
    sorted: js_sys::Array,
    labels: Vec<String>,
    figure: &str,
    highlight: i32,
    title: &str,
    slots: Option<Vec<u8>>,
) -> Result<(), JsError> {
    let (mut style, _) = figure_style(figure)?;
    style.highlight = usize::try_from(highlight).ok();
    let data = float_arrays(&sorted, "sorted")?;
    if data.len() != labels.len() {
        return Err(JsError::new(&format!(
            "{} arrays for {} labels",
            data.len(),
            labels.len()
        )));
    }
    if let Some(i) = data.iter().position(|v| v.windows(2).any(|w| w[0] > w[1])) {
        return Err(JsError::new(&format!("array {i} is not sorted ascending")));
    }
    let keys = Key::slotted(&labels, &slots.unwrap_or_default());
    let series: Vec<(Key, Vec<f64>)> = keys.into_iter().zip(data).collect();
    check_size(&canvas, (200, 150))?;
    let root = canvas_root(canvas)?;
    drawn(cdf::draw(&root, &series, &style, title))?;
    drawn(root.present())
}

/// Each job's class from a [`Session::jobs`](super::Session::jobs) array: `by` = `"size"`
/// (serial / small / big on a machine of `procs`) or `"runtime"` (short / medium / long);
/// 255 for a job that never ran. The names of the classes: [`class_names`].
#[wasm_bindgen]
pub fn job_classes(jobs: &[f64], procs: u32, by: &str) -> Result<Vec<u8>, JsError> {
    if !jobs.len().is_multiple_of(JOB_FIELDS) {
        return Err(JsError::new(&format!(
            "jobs: {} numbers, not a multiple of {JOB_FIELDS}",
            jobs.len()
        )));
    }
    groups(by)?;
    let size = by == "size";
    Ok(jobs
        .chunks_exact(JOB_FIELDS)
        .map(|j| {
            let (start, end) = (j[JOB_START], j[JOB_END]);
            if !(start >= 0.0 && end >= start) {
                u8::MAX
            } else if size {
                class_box::size_class(j[JOB_PROCS], procs)
            } else {
                class_box::runtime_class(end - start)
            }
        })
        .collect())
}

/// The names of the job classes of [`job_classes`], class 0 first.
#[wasm_bindgen]
pub fn class_names(by: &str) -> Result<Vec<String>, JsError> {
    Ok(groups(by)?.iter().map(|s| s.to_string()).collect())
}

fn groups(by: &str) -> Result<&'static [&'static str], JsError> {
    match by {
        "size" => Ok(&class_box::SIZE_CLASSES),
        "runtime" => Ok(&class_box::RUNTIME_CLASSES),
        _ => Err(JsError::new(&format!(
            "by {}: expected \"size\" or \"runtime\"",
            quote(by)
        ))),
    }
}

/// Numbers per class in [`class_boxes`]: `[n, p5, q1, median, q3, p95]`.
const BOX_FIELDS: usize = 6;

/// The box of each job class of one policy's per-job figure (`values` in job order, `classes`
/// from [`job_classes`] with the same `by`): `[n, p5, q1, median, q3, p95]` per class (n = 0:
/// no job in the class). Computed once per comparison; [`draw_class_box`] draws them.
#[wasm_bindgen]
pub fn class_boxes(values: &[f64], classes: &[u8], by: &str) -> Result<Vec<f64>, JsError> {
    let groups = groups(by)?;
    if values.len() != classes.len() {
        return Err(JsError::new(&format!(
            "{} values for {} classes",
            values.len(),
            classes.len()
        )));
    }
    Ok(class_box::boxes(values, classes, groups.len())
        .iter()
        .flat_map(|b| match b {
            Some(b) => [
                b.n as f64,
                b.p5,
                b.quartiles.q1,
                b.quartiles.median,
                b.quartiles.q3,
                b.p95,
            ],
            None => [0.0; BOX_FIELDS],
        })
        .collect())
}

/// Draws box plots of a per-job figure (`"wait"` or `"bsld"`) by job class: `boxes` holds one
/// [`class_boxes`] array per label, computed with the same `by`; `slots` (optional) gives
/// each label's palette slot.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn draw_class_box(
    canvas: HtmlCanvasElement,
    boxes: js_sys::Array,
    labels: Vec<String>,
    figure: &str,
    by: &str,
    title: &str,
    slots: Option<Vec<u8>>,
) -> Result<(), JsError> {
    let (_, y_desc) = figure_style(figure)?;
    let groups = groups(by)?;
    let data = float_arrays(&boxes, "boxes")?;
    if data.len() != labels.len() || data.iter().any(|v| v.len() != groups.len() * BOX_FIELDS) {
        return Err(JsError::new(&format!(
            "one array of {} numbers per label",
            groups.len() * BOX_FIELDS
        )));
    }
    let boxes: Vec<Vec<Option<class_box::ClassBox>>> = data
        .iter()
        .map(|v| {
            v.chunks_exact(BOX_FIELDS)
                .map(|c| {
                    (c[0] >= 1.0).then(|| class_box::ClassBox {
                        n: c[0] as usize,
                        p5: c[1],
                        quartiles: crate::metrics::Quartiles {
                            min: c[1],
                            q1: c[2],
                            median: c[3],
                            q3: c[4],
                            max: c[5],
                        },
                        p95: c[5],
                    })
                })
                .collect()
        })
        .collect();
    check_size(&canvas, (200, 150))?;
    let root = canvas_root(canvas)?;
    let keys = Key::slotted(&labels, &slots.unwrap_or_default());
    drawn(class_box::draw(
        &root, groups, &keys, &boxes, 1.0, y_desc, title,
    ))?;
    drawn(root.present())
}

/// Draws each job's figure under policy A (`xs`) against B (`ys`), log-log with the diagonal,
/// coloured by `slots` (an index into the palette per job; `legend` names the slots shown).
/// Returns `[x0, y0, x1, y1, floor, top]`: the plotting area in canvas pixels and the range of
/// both log axes, for hit-testing.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn draw_scatter(
    canvas: HtmlCanvasElement,
    xs: &[f64],
    ys: &[f64],
    slots: &[u8],
    legend: Vec<String>,
    x_desc: &str,
    y_desc: &str,
    title: &str,
) -> Result<Vec<f64>, JsError> {
    if xs.len() != ys.len() || xs.len() != slots.len() {
        return Err(JsError::new(&format!(
            "xs, ys and slots differ in length: {}, {}, {}",
            xs.len(),
            ys.len(),
            slots.len()
        )));
    }
    let style = scatter::ScatterStyle {
        floor: 1.0,
        x_desc: x_desc.into(),
        y_desc: y_desc.into(),
        legend,
    };
    check_size(&canvas, (200, 150))?;
    let root = canvas_root(canvas)?;
    let (area, top) = scatter::draw(&root, xs, ys, slots, &style, title)
        .map_err(|e| JsError::new(&format!("drawing failed: {e}")))?;
    drawn(root.present())?;
    let mut out: Vec<f64> = area.iter().map(|&v| f64::from(v)).collect();
    out.extend([style.floor, top]);
    Ok(out)
}

/// Draws the schedules A and B (Gantt rectangles, see [`Session::rects`](super::Session::rects))
/// overlaid over `[t0, t1]`; returns the plotting area `[x0, y0, x1, y1]`. `nodes` (optional:
/// a cluster's [`Session::node_rows`](super::Session::node_rows), as
/// [`draw_gantt`](super::draw::draw_gantt) takes it) names the y axis as the Gantt chart does
/// ("processors of 12 nodes"); without it, "processors".
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn draw_diff_gantt(
    canvas: HtmlCanvasElement,
    a: &[f64],
    b: &[f64],
    procs: u32,
    t0: f64,
    t1: f64,
    label_a: &str,
    label_b: &str,
    title: &str,
    nodes: JsValue,
) -> Result<Vec<i32>, JsError> {
    if !(t0.is_finite() && t1.is_finite() && t0 < t1) {
        return Err(JsError::new(&format!(
            "time window [{t0}, {t1}]: must be finite with t0 < t1"
        )));
    }
    let (a, b) = (gantt::unflatten(a), gantt::unflatten(b));
    check_size(&canvas, (200, 150))?;
    let root = canvas_root(canvas)?;
    let y_desc = super::draw::node_rows(nodes, procs, 0)?.desc();
    let style = diff_gantt::DiffStyle {
        labels: [label_a, label_b],
        title,
        x_desc: "time",
        y_desc: &y_desc,
    };
    let area = diff_gantt::draw(&root, &a, &b, procs, t0, t1, &style)
        .map_err(|e| JsError::new(&format!("drawing failed: {e}")))?;
    drawn(root.present())?;
    Ok(area.to_vec())
}

/// Two wait columns of the same jobs compared (A: the recorded schedule or a policy, B: a
/// policy): `{compared, mean_recorded, mean_simulated, mean_abs, median_abs, p90_abs, close,
/// cdf_gap}` ([`crate::metrics::fidelity`]; "recorded" is A, "simulated" B), or `null` when no
/// job ran under both.
#[wasm_bindgen]
pub fn compare_waits(a: &[f64], b: &[f64]) -> Result<JsValue, JsError> {
    if a.len() != b.len() {
        return Err(JsError::new(&format!(
            "columns of {} and {} jobs",
            a.len(),
            b.len()
        )));
    }
    let gaps = crate::metrics::fidelity::gaps_of_columns(a, b);
    super::to_js(&crate::metrics::fidelity::fidelity(&gaps))
}
