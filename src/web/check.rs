//! Validation of what the page hands in: typed arrays, whole numbers, seeds, canvas sizes.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

/// Fields per user of [`Session::eet_users`](super::Session::eet_users).
pub(super) const USER_FIELDS: usize = 5;
/// Fields per violated EET of [`Session::violations`](super::Session::violations).
pub(super) const VIOLATION_FIELDS: usize = 3;
/// Times and user ids must be whole numbers below this magnitude (2^53).
pub(super) const EXACT: f64 = 9_007_199_254_740_992.0;

/// The elements of `list` as vectors; each must be a Float64Array of whole records of `fields`.
pub(super) fn records(
    list: &js_sys::Array,
    what: &str,
    fields: usize,
) -> Result<Vec<Vec<f64>>, JsError> {
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

pub(super) fn whole(x: f64) -> Option<i64> {
    (x.is_finite() && x.fract() == 0.0 && x.abs() < EXACT).then_some(x as i64)
}

/// Refuses canvases too small for a chart's margins and labels.
pub(super) fn check_size(canvas: &HtmlCanvasElement, min: (u32, u32)) -> Result<(), JsError> {
    let (w, h) = (canvas.width(), canvas.height());
    if w < min.0 || h < min.1 {
        return Err(JsError::new(&format!(
            "canvas {w} x {h} is too small (at least {} x {})",
            min.0, min.1
        )));
    }
    Ok(())
}
pub(super) fn user_ids(list: &[f64], what: &str) -> Result<Vec<i64>, JsError> {
    list.iter()
        .map(|&u| whole(u).ok_or_else(|| JsError::new(&format!("{what}: {u} is not a user id"))))
        .collect()
}

/// A seed must be a whole number from 0 to 2^53 - 1 (what a JS number holds exactly).
pub(super) fn check_seed(seed: f64) -> Result<u64, JsError> {
    if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed < EXACT) {
        return Err(JsError::new(&format!(
            "seed {seed}: must be a whole number from 0 to 2^53 - 1"
        )));
    }
    Ok(seed as u64)
}
