//! The wasm facade: every `#[wasm_bindgen]` item of schedlab lives in this module tree, and
//! nothing else does: here the policy and metrics catalogues, the options schema and the sweep
//! helpers; `session.rs` the session (a thin adapter over the pipeline, `run::Trace`: load a
//! trace, run policies), `facts.rs` what a loaded trace is, `results.rs` a run's results as
//! typed arrays and CSV; `draw.rs` and `draw_trace.rs` the `draw_*` chart exports; `check.rs`
//! the input validation they share.
//!
//! Every export returns `Result<_, JsError>`; user input (trace bytes, options, spec strings,
//! seeds) is validated here or by the engine, never unwrapped. A panic hook records a panic so
//! that the page can stop calling in (`has_panicked`). Bulk results cross as typed arrays.

mod check;
mod cluster;
mod compare;
mod custom;
mod draw;
mod draw_trace;
mod facts;
mod feed;
mod results;
mod rows;
mod scaled;
mod session;
mod workload;

pub use cluster::*;
pub use compare::*;
pub use draw::*;
pub use draw_trace::*;
pub use session::Session;

use crate::metrics::METRICS;
use crate::options::OPTIONS;
use crate::policy;
use crate::quote::quote;
use crate::sweep;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use wasm_bindgen::prelude::*;

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

/// The metrics catalogue: `[{name, label, short, unit, digits, better, family, path}]`, in
/// table order; the page's results table and sweep panel show these.
#[wasm_bindgen]
pub fn metrics() -> Result<JsValue, JsError> {
    to_js(&METRICS)
}

/// The options schema (`[{key, flag, form, field, group, kind, default, label}]`).
#[wasm_bindgen]
pub fn options_schema() -> Result<JsValue, JsError> {
    to_js(&OPTIONS)
}

/// The runs of a sweep of `policy` over `vary` (`KEY=v1,v2,...` or `KEY=a,b,...,z`; empty: no
/// key varied): `{key, values, specs}`, one canonical spec per value, each checked. Errors name
/// the policy and what is wrong.
#[wasm_bindgen]
pub fn sweep_specs(policy_spec: &str, vary: &str) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Plan {
        key: String,
        values: Vec<String>,
        specs: Vec<String>,
    }
    let fail = |e: String| JsError::new(&format!("{policy_spec}: {e}"));
    let (key, values) = if vary.trim().is_empty() {
        (String::new(), vec![String::new()])
    } else {
        sweep::parse_vary(vary).map_err(|e| JsError::new(&format!("vary {}: {e}", quote(vary))))?
    };
    if let Some(name) = policy_spec.trim().strip_prefix("js:") {
        // A JavaScript policy has no keys: the same run at every value (a flat reference line;
        // the page runs it once per seed).
        let spec = custom::js_spec(name)?;
        let specs = vec![spec; values.len()];
        return to_js(&Plan { key, values, specs });
    }
    let specs = values
        .iter()
        .map(|v| {
            let spec = if key.is_empty() {
                policy_spec.to_string()
            } else {
                sweep::with_key(policy_spec, &key, v).map_err(&fail)?
            };
            policy::canonical(&spec).map_err(|e| fail(e.to_string()))
        })
        .collect::<Result<Vec<_>, JsError>>()?;
    to_js(&Plan { key, values, specs })
}

/// The engine's progress callback over the page's `progress(done, total)` function (none: never
/// cancels); the run stops when the function returns `false`.
pub(crate) fn js_progress(
    progress: Option<&js_sys::Function>,
) -> impl FnMut(usize, usize) -> bool + '_ {
    move |done, total| match progress {
        Some(f) => f
            .call2(
                &JsValue::NULL,
                &(done as f64).into(),
                &(total as f64).into(),
            )
            .map_or(true, |v| v.as_bool() != Some(false)),
        None => true,
    }
}
