//! The trace view's chart exports (`trace_charts`, `trace_chart_summary`, `draw_trace`) and
//! the charts' policy colours for the page's swatches.

use super::check::check_size;
use super::draw::{canvas_root, drawn};
use crate::charts::trace as trace_chart;
use crate::quote::quote;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

/// The charts' policy colours (palette slot i is entry i) as `#rrggbb`, for the page's own
/// swatches beside the charts.
#[wasm_bindgen]
pub fn chart_colours() -> Vec<String> {
    crate::charts::palette::COLOURS
        .iter()
        .map(|c| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2))
        .collect()
}

/// The trace view's charts: `[{name, title}]`, in the order the page shows them.
#[wasm_bindgen]
pub fn trace_charts() -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct Chart {
        name: &'static str,
        title: &'static str,
    }
    super::to_js(
        &trace_chart::TRACE_CHARTS
            .iter()
            .map(|&(name, title)| Chart { name, title })
            .collect::<Vec<_>>(),
    )
}

/// Trace chart `name` of `stats` in words: its text alternative.
#[wasm_bindgen]
pub fn trace_chart_summary(stats: JsValue, name: &str) -> Result<String, JsError> {
    let stats: crate::trace_stats::TraceStats = serde_wasm_bindgen::from_value(stats)
        .map_err(|e| JsError::new(&format!("trace statistics: {e}")))?;
    trace_chart::summary(&stats, name)
        .ok_or_else(|| JsError::new(&format!("trace chart {}: unknown", quote(name))))
}

/// Draws trace chart `name` (see [`trace_charts`]) of `stats` (a
/// [`Session::trace_stats`](super::Session::trace_stats) object).
#[wasm_bindgen]
pub fn draw_trace(canvas: HtmlCanvasElement, stats: JsValue, name: &str) -> Result<(), JsError> {
    let stats: crate::trace_stats::TraceStats = serde_wasm_bindgen::from_value(stats)
        .map_err(|e| JsError::new(&format!("trace statistics: {e}")))?;
    check_size(&canvas, (160, 120))?;
    let root = canvas_root(canvas)?;
    let drawn_chart = trace_chart::draw(&root, &stats, name).ok_or_else(|| {
        JsError::new(&format!(
            "trace chart {}: valid: {}",
            quote(name),
            trace_chart::chart_names()
        ))
    })?;
    drawn(drawn_chart)?;
    drawn(root.present())
}
