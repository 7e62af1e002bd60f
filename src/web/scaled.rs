//! Canvases at the device pixel ratio: the page sizes a canvas at `ratio` x its CSS size and sets
//! `data-dpr`; the charts are drawn in CSS pixels (the sizes and fonts they were designed for)
//! through a context scaled by the ratio, so they are crisp on high-DPI screens and the plotting
//! areas they return stay in CSS pixels for hit-testing.

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The canvas's `data-dpr` (1 when absent or not a number in [1, 8]).
fn ratio(canvas: &HtmlCanvasElement) -> f64 {
    js_sys::Reflect::get(canvas, &JsValue::from_str("dataset"))
        .and_then(|d| js_sys::Reflect::get(&d, &JsValue::from_str("dpr")))
        .ok()
        .and_then(|v| v.as_string())
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|r| r.is_finite() && (1.0..=8.0).contains(r))
        .unwrap_or(1.0)
}

/// A canvas backend reporting the CSS size, over a context scaled by the pixel ratio.
pub struct Scaled {
    inner: CanvasBackend,
    size: (u32, u32),
}

impl Scaled {
    pub fn new(canvas: HtmlCanvasElement) -> Option<Scaled> {
        let r = ratio(&canvas);
        let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        context.set_transform(r, 0.0, 0.0, r, 0.0, 0.0).ok()?;
        let size = (
            (f64::from(canvas.width()) / r).round() as u32,
            (f64::from(canvas.height()) / r).round() as u32,
        );
        Some(Scaled {
            inner: CanvasBackend::with_canvas_object(canvas)?,
            size,
        })
    }
}

/// The canvas backend's error type.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;
type Res = Result<(), DrawingErrorKind<CanvasError>>;

impl DrawingBackend for Scaled {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Res {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Res {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Res {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, s: &S) -> Res {
        self.inner.draw_line(from, to, s)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        s: &S,
        fill: bool,
    ) -> Res {
        self.inner.draw_rect(upper_left, bottom_right, s, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Res {
        self.inner.draw_path(path, s)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        s: &S,
        fill: bool,
    ) -> Res {
        self.inner.draw_circle(center, radius, s, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        s: &S,
    ) -> Res {
        self.inner.fill_polygon(vert, s)
    }

    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, s: &T, pos: BackendCoord) -> Res {
        self.inner.draw_text(text, s, pos)
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        s: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        self.inner.estimate_text_size(text, s)
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Res {
        self.inner.blit_bitmap(pos, size, src)
    }
}
