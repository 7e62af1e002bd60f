//! JavaScript policies (`js:NAME`): the page's own code decides at every scheduling pass. The
//! worker compiles the user's `schedule(view)` and hands [`Session::run_js`] a function
//! `decide(pass)` (a reused typed array of job indices; see `www/custom.js`,
//! which builds the `view` object from them and [`Session::job_view`]). This side turns the
//! returned value into numbers — anything but an array of numbers is an error naming what was
//! returned — and [`policy::External`] checks each id against the engine's state (waiting,
//! fits, not twice). An exception thrown by the user's code ends the run with its message.

use super::{check, js_progress, to_js, Session};
use crate::metrics::catalogue;
use crate::policy::{self, PassView, Pick};
use crate::quote::quote;
use crate::run::RunResult;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Longest policy name accepted (it is shown in tables and legends).
const MAX_NAME: usize = 40;

/// The name of a JavaScript policy as results show it: `js:NAME`.
pub(super) fn js_spec(name: &str) -> Result<String, JsError> {
    let name = name.trim();
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    if !ok {
        return Err(JsError::new(&format!(
            "custom policy name {}: 1 to {MAX_NAME} letters, digits, '-', '_' or '.'",
            quote(name)
        )));
    }
    Ok(format!("js:{name}"))
}

/// How a returned value is shown in an error message.
fn show(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        return quote(&s);
    }
    if v.is_undefined() {
        return "undefined".into();
    }
    // JSON writes NaN and the infinities as null, and has no text for a function (a schedule
    // that returns `view.waiting.map` instead of calling it): say what they are.
    if let Some(x) = v.as_f64() {
        return match x {
            x if x.is_nan() => "NaN".into(),
            x if x.is_infinite() && x > 0.0 => "Infinity".into(),
            x if x.is_infinite() => "-Infinity".into(),
            x => format!("{x}"),
        };
    }
    if v.is_function() {
        return "a function (not called?)".into();
    }
    js_sys::JSON::stringify(v)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| "a value JSON cannot write".into())
        .chars()
        .take(60)
        .collect()
}

/// The message of a thrown value.
fn thrown(e: &JsValue) -> String {
    match e.dyn_ref::<js_sys::Error>() {
        Some(err) => {
            let name = err.name().as_string().unwrap_or_default();
            let msg = err.message().as_string().unwrap_or_default();
            if name.is_empty() || name == "Error" || msg.starts_with(&name) {
                msg
            } else {
                format!("{name}: {msg}")
            }
        }
        None => format!("threw {}", show(e)),
    }
}

/// One element of the returned array: a job id, or `{id, reason}` (the reason a string).
fn pick(x: &JsValue, i: usize) -> Result<Pick, String> {
    if let Some(id) = x.as_f64() {
        return Ok(Pick::from(id));
    }
    let bad = || {
        format!(
            "schedule(view) returned {} at position {i}: each element is a job id or {{id, reason}} (reason a string)",
            show(x)
        )
    };
    if !x.is_object() || js_sys::Array::is_array(x) {
        return Err(bad());
    }
    let get = |key: &str| js_sys::Reflect::get(x, &JsValue::from_str(key)).map_err(|_| bad());
    let id = get("id")?.as_f64().ok_or_else(bad)?;
    let reason = get("reason")?;
    let reason = if reason.is_undefined() || reason.is_null() {
        None
    } else {
        Some(reason.as_string().ok_or_else(bad)?)
    };
    Ok(Pick { id, reason })
}

/// The jobs in the value `schedule(view)` returned, for a trace of `jobs` jobs.
fn ids(v: &JsValue, jobs: usize) -> Result<Vec<Pick>, String> {
    // A Promise (an async function, or a value awaited) was shown as "{}".
    let then = js_sys::Reflect::get(v, &JsValue::from_str("then")).ok();
    if v.is_object() && then.is_some_and(|t| t.is_function()) {
        return Err(
            "schedule(view) returned a Promise: it must return its array of job ids at once \
             (not an async function, no await)"
                .into(),
        );
    }
    if !js_sys::Array::is_array(v) {
        return Err(format!(
            "schedule(view) returned {}: it must return an array of job ids",
            show(v)
        ));
    }
    let arr: &js_sys::Array = v.unchecked_ref();
    let mut out = Vec::with_capacity(policy::answer_len(arr.length().into(), jobs)?);
    for (i, x) in arr.iter().enumerate() {
        out.push(pick(&x, i)?);
    }
    Ok(out)
}

#[wasm_bindgen]
impl Session {
    /// What a policy may know of each job, in arrival order (the order of the indices
    /// `run_js` passes): `[id, user, procs, submit, requested, estimate]` each; `requested` is
    /// the planning estimate where the trace has no requested time.
    pub fn job_view(&self) -> Vec<f64> {
        self.trace
            .jobs
            .jobs
            .iter()
            .flat_map(|j| {
                [
                    j.id as f64,
                    j.user as f64,
                    f64::from(j.procs),
                    j.submit as f64,
                    j.requested().unwrap_or(j.estimate) as f64,
                    j.estimate as f64,
                ]
            })
            .collect()
    }

    /// Runs a JavaScript policy named `js:NAME`: at every scheduling pass `decide(pass)` is
    /// called with a Float64Array holding `[now, free, W, R, L, A]`, then the L indices of the
    /// jobs the previous pass started (they left the waiting list), the A indices of the jobs
    /// submitted since (they joined its end, in arrival order; the W waiting jobs are the
    /// previous ones minus the L plus the A), then R `[index, start, planned end]` triples of
    /// the running jobs (earliest planned end first). Only the change is sent, so a pass costs
    /// what changed, not the length of the queue. The array is reused, valid during the call
    /// only. It returns the jobs to start now: ids, or `{id, reason}` with the policy's own
    /// start reason (a word; see [`crate::sim::StartReason`]).
    /// `progress` as in [`Session::run`]. Returns the metrics report.
    pub fn run_js(
        &mut self,
        name: &str,
        decide: js_sys::Function,
        seed: f64,
        progress: Option<js_sys::Function>,
    ) -> Result<JsValue, JsError> {
        let result = self.simulate_js(name, &decide, seed, progress.as_ref())?;
        let out = to_js(&self.trace.report(&result))?;
        self.runs.push(result);
        Ok(out)
    }

    /// One metric of a JavaScript policy's run, as [`Session::measure`] gives it for a spec
    /// (sweeps): the run is not kept.
    pub fn measure_js(
        &mut self,
        name: &str,
        decide: js_sys::Function,
        seed: f64,
        metric: &str,
    ) -> Result<f64, JsError> {
        let metric = catalogue::lookup(metric).map_err(|e| JsError::new(&e))?;
        let result = self.simulate_js(name, &decide, seed, None)?;
        Ok(result.metric(metric).unwrap_or(f64::NAN))
    }
}

impl Session {
    /// Simulates the JavaScript policy `js:NAME` deciding through `decide` (see
    /// [`Session::run_js`]).
    fn simulate_js(
        &self,
        name: &str,
        decide: &js_sys::Function,
        seed: f64,
        progress: Option<&js_sys::Function>,
    ) -> Result<RunResult, JsError> {
        let spec = js_spec(name)?;
        let seed = check::check_seed(seed)?;
        // One buffer for the whole run (grown when a pass needs more): the pass is written into
        // it and `decide` reads it during the call; no array is allocated per pass.
        let mut data: Vec<f64> = Vec::new();
        let mut buf = js_sys::Float64Array::new_with_length(4096);
        let jobs = self.trace.jobs.jobs.len();
        let decider = |v: &PassView<'_>| -> Result<Vec<Pick>, String> {
            data.clear();
            data.extend([
                v.now as f64,
                f64::from(v.free),
                v.waiting.len() as f64,
                v.running.len() as f64,
                v.left.len() as f64,
                v.arrived.len() as f64,
            ]);
            data.extend(v.left.iter().map(|&j| j as f64));
            data.extend(v.arrived.iter().map(|&j| j as f64));
            for &(j, start, end) in v.running {
                data.extend([j as f64, start as f64, end as f64]);
            }
            let n = data.len() as u32;
            if n > buf.length() {
                buf = js_sys::Float64Array::new_with_length(n.saturating_mul(2));
            }
            buf.subarray(0, n).copy_from(&data);
            let out = decide.call1(&JsValue::NULL, &buf).map_err(|e| thrown(&e))?;
            ids(&out, jobs)
        };
        let mut pol = policy::External::new(spec, decider);
        let mut report = js_progress(progress);
        self.trace
            .run_with(&mut pol, seed, Some(&mut report))
            .map_err(|e| JsError::new(&e.to_string()))
    }
}
