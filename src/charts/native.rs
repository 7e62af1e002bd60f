//! Native rendering: SVG strings and PNG files, with the embedded DejaVu Sans font.

use plotters::prelude::*;
use std::sync::Once;

static FONT: Once = Once::new();

/// Registers the embedded font as "sans-serif" (once per process).
pub fn ensure_font() {
    FONT.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
        // The embedded font is known to be valid; a failure would only lose text, not panic.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, bytes);
    });
}

/// Renders a chart into an SVG string of `size` pixels.
pub fn svg<F>(size: (u32, u32), draw: F) -> Result<String, String>
where
    F: FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), String>,
{
    ensure_font();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}
