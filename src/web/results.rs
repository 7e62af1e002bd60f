//! A run's results as the page reads them: Gantt rectangles, per-job rows, CSV exports,
//! series, the EET figures.

use super::{rows, Session};
use crate::charts::{gantt, series};
use crate::metrics::eet_heatmap::violations;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Session {
    /// Gantt rectangles of the last run: `[start, end, lo, hi, user, job, kind]` each (kind 1:
    /// a preempted attempt, 0: the final one). On a cluster with GPUs, in the rows of
    /// [`Session::node_rows`] with a lane per GPU (kind + 2: a rectangle of GPU lanes).
    pub fn rects(&self) -> Result<js_sys::Float64Array, JsError> {
        use crate::charts::gpu_lanes;
        let (set, s) = (&self.trace.jobs, &self.last()?.schedule);
        let written = match set.placement.as_deref() {
            Some(p) if gpu_lanes::has_lanes(p) => {
                let (rows, _) = gpu_lanes::node_rows(p);
                let spans = gpu_lanes::assign(p, s);
                let each = || gpu_lanes::each_rect(&set.jobs, s, p, &rows, &spans);
                flat_rects(each().count(), each())
            }
            _ => flat_rects(gantt::each_rect(set, s).count(), gantt::each_rect(set, s)),
        };
        written.map_err(|e| JsError::new(&format!("rects: {e}")))
    }

    /// Penalty factor of each job of the last run (node model), empty when the model is off.
    pub fn factors(&self) -> Result<Vec<f64>, JsError> {
        Ok(crate::metrics::penalty::factors(&self.last()?.schedule).unwrap_or_default())
    }

    /// Per job of the last run, the layout `JOB` of [`crate::output::layouts`] (`www/layouts.js`):
    /// `[id, user, submit, start, end, procs, wait, bsld, reason, reservation, waitedFor]`.
    pub fn jobs(&self) -> Result<js_sys::Float64Array, JsError> {
        let r = self.last()?;
        let set = &self.trace.jobs;
        let opts = &self.trace.metrics;
        let n = set.jobs.len();
        let row = |i| crate::output::layouts::job_row(set, &r.schedule, i, opts);
        let width = if n == 0 { 0 } else { row(0).len() };
        rows::rows_to_js(n, n * width, |range| range.flat_map(row).collect())
            .map_err(|e| JsError::new(&format!("jobs: {e}")))
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
    /// the violation covers in the heatmap (see [`crate::metrics::eet_heatmap::Violation`]).
    pub fn violations(&self) -> Result<Vec<f64>, JsError> {
        let r = self.last()?;
        Ok(
            violations(&self.trace.jobs, &r.schedule, self.trace.expected())
                .iter()
                .flat_map(|v| [v.user as f64, v.start as f64, v.end as f64])
                .collect(),
        )
    }
}

/// The `n` rectangles of `rects` as one flat array, written a chunk at a time: they are never
/// all held.
fn flat_rects(
    n: usize,
    mut rects: impl Iterator<Item = gantt::Rect>,
) -> Result<js_sys::Float64Array, String> {
    rows::rows_to_js(n, n * gantt::RECT_FIELDS, |r| {
        gantt::flatten(&rects.by_ref().take(r.len()).collect::<Vec<_>>())
    })
}
