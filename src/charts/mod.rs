//! Charts, as functions generic over plotters' `DrawingBackend`: the page draws them on canvases
//! (plotters-canvas), the CLI and the tests render them to SVG or PNG.
//!
//! Each chart takes plain data (the arrays the page's worker sends back, or what
//! [`gantt::rects`] and [`series::points`] extract from a schedule) and a drawing area.

pub mod bars;
pub mod binned;
pub mod cdf;
pub mod class_box;
pub mod columns;
pub mod diff_gantt;
pub mod eet_box;
pub mod eet_heatmap;
pub mod gantt;
pub mod legend;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod palette;
pub mod scatter;
pub mod series;
pub mod sweep;
pub mod time_axes;
pub mod trace;

use plotters::drawing::DrawingAreaErrorKind;

/// The error of a chart function on backend `E`.
pub type ChartResult<E> = Result<(), DrawingAreaErrorKind<E>>;

/// A time axis label: seconds as s, min, h or d, whichever reads best for the span.
pub fn time_label(t: f64, span: f64) -> String {
    let (unit, div) = if span >= 4.0 * 86400.0 {
        ("d", 86400.0)
    } else if span >= 4.0 * 3600.0 {
        ("h", 3600.0)
    } else if span >= 240.0 {
        ("min", 60.0)
    } else {
        ("s", 1.0)
    };
    let v = t / div;
    if (v - v.round()).abs() < 1e-9 {
        format!("{}{unit}", v.round())
    } else {
        format!("{v:.1}{unit}")
    }
}
