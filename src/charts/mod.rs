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
mod gantt_rects;
pub mod gantt_rows;
pub mod gpu_lanes;
pub mod legend;
pub mod log_axis;
pub mod multiples;
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
