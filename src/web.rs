//! The wasm facade: every `#[wasm_bindgen]` item of schedlab lives here, and nothing else does.
//!
//! Every export returns `Result<_, JsError>`; user input (trace bytes, options, spec strings,
//! seeds) is validated here or by the engine, never unwrapped. A panic hook records a panic so
//! that the page can stop calling in (`has_panicked`). Bulk results cross as typed arrays.

use crate::charts::{bars, eet_box, eet_heatmap, gantt, series};
use crate::input::InputOptions;
use crate::metrics::eet_heatmap::{heatmap, violations, Violation};
use crate::metrics::ClassicOptions;
use crate::policy;
use crate::run::{self, RunResult, Trace};
use crate::swf::ReadOptions;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

static PANICKED: AtomicBool = AtomicBool::new(false);

#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        PANICKED.store(true, Ordering::SeqCst);
        web_sys::console::error_1(&format!("schedlab panicked: {info}").into());
    }));
}

/// True once the module has panicked: the page must make no further calls.
#[wasm_bindgen]
pub fn has_panicked() -> bool {
    PANICKED.load(Ordering::SeqCst)
}

#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The policy catalogue: names, keys with defaults and allowed values, descriptions, sources.
#[wasm_bindgen]
pub fn policies() -> Result<JsValue, JsError> {
    to_js(&policy::catalogue())
}

/// The canonical form of a spec string, or an error listing what is valid.
#[wasm_bindgen]
pub fn canonical_spec(spec: &str) -> Result<String, JsError> {
    policy::canonical(spec).map_err(|e| JsError::new(&e.to_string()))
}

/// A fresh seed from the browser's random source.
#[wasm_bindgen]
pub fn random_seed() -> Result<f64, JsError> {
    getrandom::u32()
        .map(f64::from)
        .map_err(|e| JsError::new(&format!("no random source: {e}")))
}

/// Options of [`Session::new`]: the input semantics plus strict reading.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct SessionOptions {
    #[serde(flatten)]
    input: InputOptions,
    strict: bool,
}

/// The facts of a loaded trace, as the page shows them.
#[derive(Serialize)]
struct Facts<'a> {
    name: &'a str,
    jobs: usize,
    users: usize,
    procs: u32,
    procs_source: &'a str,
    span: i64,
    skipped: u64,
    skipped_reasons: Vec<String>,
    warnings: &'a [String],
}

/// A loaded trace and the runs made on it (in order).
#[wasm_bindgen]
pub struct Session {
    trace: Trace,
    runs: Vec<RunResult>,
}

#[wasm_bindgen]
impl Session {
    /// Reads a trace (plain or gzip bytes) with the given options.
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, bytes: &[u8], options: JsValue) -> Result<Session, JsError> {
        let opts: SessionOptions = if options.is_undefined() || options.is_null() {
            SessionOptions::default()
        } else {
            serde_wasm_bindgen::from_value(options)
                .map_err(|e| JsError::new(&format!("options: {e}")))?
        };
        let read = ReadOptions {
            strict: opts.strict,
            ..ReadOptions::default()
        };
        let trace = run::load_bytes(name, bytes, &read, &opts.input)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(Session {
            trace,
            runs: Vec::new(),
        })
    }

    pub fn facts(&self) -> Result<JsValue, JsError> {
        let w = &self.trace.workload;
        let j = &self.trace.jobs;
        let mut reasons: Vec<String> = w
            .issues
            .iter()
            .take(5)
            .map(|i| format!("{}: {i}", w.source))
            .collect();
        reasons.extend(
            j.skipped
                .iter()
                .take(5)
                .map(|s| format!("line {} (job {}): {}", s.line, s.id, s.reason)),
        );
        let first = j.jobs.first().map_or(0, |x| x.submit);
        let last = j.jobs.last().map_or(0, |x| x.submit);
        to_js(&Facts {
            name: &j.name,
            jobs: j.jobs.len(),
            users: j.users().len(),
            procs: j.procs,
            procs_source: &j.procs_source,
            span: last - first,
            skipped: j.skipped_count(),
            skipped_reasons: reasons,
            warnings: &j.warnings,
        })
    }

    /// Runs one policy; `progress(done, total)` is called now and then and may return `false`
    /// to cancel. Returns the metrics report (the objects `schedlab run --json` prints).
    pub fn run(
        &mut self,
        spec: &str,
        seed: f64,
        progress: Option<js_sys::Function>,
    ) -> Result<JsValue, JsError> {
        if !(seed.is_finite()
            && seed >= 0.0
            && seed.fract() == 0.0
            && seed < 9_007_199_254_740_992.0)
        {
            return Err(JsError::new(&format!(
                "seed {seed}: must be a whole number from 0 to 2^53 - 1"
            )));
        }
        let mut report = |done: usize, total: usize| match &progress {
            Some(f) => f
                .call2(
                    &JsValue::NULL,
                    &(done as f64).into(),
                    &(total as f64).into(),
                )
                .map_or(true, |v| v.as_bool() != Some(false)),
            None => true,
        };
        let result = run::run_policy(
            &self.trace.jobs,
            spec,
            seed as u64,
            &ClassicOptions::default(),
            Some(&mut report),
        )
        .map_err(|e| JsError::new(&e.to_string()))?;
        let out = to_js(&result.report(&self.trace.jobs))?;
        self.runs.push(result);
        Ok(out)
    }

    fn last(&self) -> Result<&RunResult, JsError> {
        self.runs.last().ok_or_else(|| JsError::new("no run yet"))
    }

    fn nth(&self, index: u32) -> Result<&RunResult, JsError> {
        self.runs.get(index as usize).ok_or_else(|| {
            JsError::new(&format!(
                "no run number {index} (runs: {})",
                self.runs.len()
            ))
        })
    }

    /// Gantt rectangles of the last run: `[start, end, lo, hi, user, job]` each.
    pub fn rects(&self) -> Result<Vec<f64>, JsError> {
        Ok(gantt::flatten(&gantt::rects(
            &self.trace.jobs,
            &self.last()?.schedule,
        )))
    }

    /// Per job of the last run: `[id, user, submit, start, end, procs, wait, bsld]`.
    pub fn jobs(&self) -> Result<Vec<f64>, JsError> {
        let r = self.last()?;
        let set = &self.trace.jobs;
        let opts = ClassicOptions::default();
        Ok(set
            .jobs
            .iter()
            .enumerate()
            .flat_map(|(i, job)| {
                let rec = &r.schedule.jobs[i];
                let m = crate::metrics::per_job(set, &r.schedule, i, &opts);
                [
                    job.id as f64,
                    job.user as f64,
                    job.submit as f64,
                    rec.start as f64,
                    rec.end as f64,
                    f64::from(job.procs),
                    m.map_or(-1.0, |m| m.wait as f64),
                    m.map_or(-1.0, |m| m.bsld),
                ]
            })
            .collect())
    }

    /// The jobs CSV of run `index` (Batsim / evalys columns, as `schedlab run --jobs-csv`).
    pub fn jobs_csv(&self, index: u32) -> Result<String, JsError> {
        let mut out = Vec::new();
        crate::output::jobs_csv(&mut out, &self.trace.jobs, &self.nth(index)?.schedule)
            .map_err(|e| JsError::new(&e.to_string()))?;
        String::from_utf8(out).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The runs CSV of run `index` (one row per execution attempt).
    pub fn runs_csv(&self, index: u32) -> Result<String, JsError> {
        let mut out = Vec::new();
        crate::output::runs_csv(&mut out, &self.trace.jobs, &self.nth(index)?.schedule)
            .map_err(|e| JsError::new(&e.to_string()))?;
        String::from_utf8(out).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Memory in use over the last run, `[time, KB]` pairs; empty when the trace has no memory
    /// figures.
    pub fn memory(&self) -> Result<Vec<f64>, JsError> {
        let r = self.last()?;
        Ok(
            crate::metrics::eet_heatmap::memory_series(&self.trace.jobs, &r.schedule)
                .unwrap_or_default(),
        )
    }

    /// Busy processors and queue length of the last run: `[time, busy, queued]` each.
    pub fn series(&self) -> Result<Vec<f64>, JsError> {
        Ok(series::points(&self.last()?.schedule))
    }

    /// Per user of the last run, in order of first appearance (users with a job that ran):
    /// `[user, jobs, violated, VEET_u, WT_u]` each (see [`crate::metrics::eet::UserEet`]).
    pub fn eet_users(&self) -> Result<Vec<f64>, JsError> {
        Ok(self
            .last()?
            .eet
            .users
            .iter()
            .flat_map(|u| {
                [
                    u.user as f64,
                    u.jobs as f64,
                    u.violated as f64,
                    u.veet,
                    u.wt,
                ]
            })
            .collect())
    }

    /// The violated EETs of the last run, in job order: `[user, start, end]` each, the interval
    /// the violation covers in the heatmap (see [`Violation`]).
    pub fn violations(&self) -> Result<Vec<f64>, JsError> {
        let r = self.last()?;
        Ok(violations(&self.trace.jobs, &r.eet)
            .iter()
            .flat_map(|v| [v.user as f64, v.start as f64, v.end as f64])
            .collect())
    }
}

/// Fields per user of [`Session::eet_users`].
const USER_FIELDS: usize = 5;
/// Fields per violated EET of [`Session::violations`].
const VIOLATION_FIELDS: usize = 3;
/// Times and user ids must be whole numbers below this magnitude (2^53).
const EXACT: f64 = 9_007_199_254_740_992.0;

/// The elements of `list` as vectors; each must be a Float64Array of whole records of `fields`.
fn records(list: &js_sys::Array, what: &str, fields: usize) -> Result<Vec<Vec<f64>>, JsError> {
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            let a = v
                .dyn_into::<js_sys::Float64Array>()
                .map_err(|_| JsError::new(&format!("{what} {i}: not a Float64Array")))?
                .to_vec();
            if !a.chunks_exact(fields).remainder().is_empty() {
                return Err(JsError::new(&format!(
                    "{what} {i}: {} numbers, not a multiple of {fields}",
                    a.len()
                )));
            }
            Ok(a)
        })
        .collect()
}

fn whole(x: f64) -> Option<i64> {
    (x.is_finite() && x.fract() == 0.0 && x.abs() < EXACT).then_some(x as i64)
}

/// Refuses canvases too small for a chart's margins and labels.
fn check_size(canvas: &HtmlCanvasElement, min: (u32, u32)) -> Result<(), JsError> {
    let (w, h) = (canvas.width(), canvas.height());
    if w < min.0 || h < min.1 {
        return Err(JsError::new(&format!(
            "canvas {w} x {h} is too small (at least {} x {})",
            min.0, min.1
        )));
    }
    Ok(())
}

fn canvas_root(
    canvas: HtmlCanvasElement,
) -> Result<DrawingArea<CanvasBackend, plotters::coord::Shift>, JsError> {
    CanvasBackend::with_canvas_object(canvas)
        .map(|b| b.into_drawing_area())
        .ok_or_else(|| JsError::new("canvas has no 2d context"))
}

fn drawn<E: std::error::Error + Send + Sync>(
    r: Result<(), plotters::drawing::DrawingAreaErrorKind<E>>,
) -> Result<(), JsError> {
    r.map_err(|e| JsError::new(&format!("drawing failed: {e}")))
}

/// Draws the Gantt chart of `rects` (see [`Session::rects`]) over `[t0, t1]`; returns the
/// plotting area in canvas pixels, `[x0, y0, x1, y1]`.
#[wasm_bindgen]
pub fn draw_gantt(
    canvas: HtmlCanvasElement,
    rects: &[f64],
    procs: u32,
    t0: f64,
    t1: f64,
    title: &str,
) -> Result<Vec<i32>, JsError> {
    if !(t0.is_finite() && t1.is_finite()) {
        return Err(JsError::new("time window must be finite"));
    }
    let root = canvas_root(canvas)?;
    let area = gantt::draw(&root, &gantt::unflatten(rects), procs, t0, t1, title)
        .map_err(|e| JsError::new(&format!("drawing failed: {e}")))?;
    drawn(root.present())?;
    Ok(area.to_vec())
}

/// Draws column `column` (1 busy, 2 queued) of several series (see [`Session::series`]).
#[wasm_bindgen]
pub fn draw_series(
    canvas: HtmlCanvasElement,
    series_list: js_sys::Array,
    labels: Vec<String>,
    column: u32,
    title: &str,
) -> Result<(), JsError> {
    let data = series_list
        .iter()
        .map(|v| {
            v.dyn_into::<js_sys::Float64Array>()
                .map(|a| a.to_vec())
                .map_err(|_| JsError::new("series must be Float64Arrays"))
        })
        .collect::<Result<Vec<Vec<f64>>, JsError>>()?;
    let root = canvas_root(canvas)?;
    drawn(series::draw(&root, &data, &labels, column as usize, title))?;
    drawn(root.present())
}

/// Draws one bar per label.
#[wasm_bindgen]
pub fn draw_bars(
    canvas: HtmlCanvasElement,
    labels: Vec<String>,
    values: &[f64],
    title: &str,
) -> Result<(), JsError> {
    let root = canvas_root(canvas)?;
    drawn(bars::draw(&root, &labels, values, title))?;
    drawn(root.present())
}

/// Draws a box plot per policy of one per-user figure, `figure` = `"veet"` (VEET_u, percent,
/// linear 0-100) or `"wt"` (WT_u, processor-seconds, log axis); `users` holds one
/// [`Session::eet_users`] array per label.
#[wasm_bindgen]
pub fn draw_eet_box(
    canvas: HtmlCanvasElement,
    users: js_sys::Array,
    labels: Vec<String>,
    figure: &str,
    title: &str,
) -> Result<(), JsError> {
    let (column, style) = match figure {
        "veet" => (3, eet_box::BoxStyle::veet()),
        "wt" => (4, eet_box::BoxStyle::wt()),
        _ => {
            return Err(JsError::new(&format!(
                "figure {figure:?}: expected \"veet\" or \"wt\""
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
    let series: Vec<(String, Vec<f64>)> = labels
        .into_iter()
        .zip(&data)
        .map(|(label, d)| {
            let values = d.chunks_exact(USER_FIELDS).map(|u| u[column]).collect();
            (label, values)
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
}

fn user_ids(list: &[f64], what: &str) -> Result<Vec<i64>, JsError> {
    list.iter()
        .map(|&u| whole(u).ok_or_else(|| JsError::new(&format!("{what}: {u} is not a user id"))))
        .collect()
}

impl HeatOptions {
    fn style(&self) -> Result<eet_heatmap::HeatStyle, JsError> {
        let order = match self.sort.as_deref() {
            None | Some("total") => eet_heatmap::RowOrder::Total,
            Some("user") => eet_heatmap::RowOrder::User,
            Some(other) => {
                return Err(JsError::new(&format!(
                    "sort {other:?}: expected \"total\" or \"user\""
                )))
            }
        };
        Ok(eet_heatmap::HeatStyle {
            log: self.log,
            order,
            exclude: user_ids(&self.exclude, "exclude")?,
            only: user_ids(&self.only, "only")?,
            all_users: self.all_users,
        })
    }
}

/// Draws the EET heatmap of policy `panel` over `[t0, t1]`, with its busy processors
/// (`busy`: its [`Session::series`]) under it, and its memory in use (`memory`: its
/// [`Session::memory`], empty when the trace has none) up to `memory_capacity` KB. `violations` holds every compared policy's
/// [`Session::violations`], so that the rows (users, order) and the colour scale are those of
/// all the panels: one canvas per policy, each drawn alone, still compares. `options`:
/// `{log, sort: "total" | "user", exclude: [ids], only: [ids]}`. Returns the users shown, top
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
