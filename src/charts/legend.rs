//! One legend style for every chart, modelled on plotters' own `SeriesLabelStyle` builder
//! (which draws the boxed legends): where the box sits, how opaque its background is, its
//! border, the label font size and the size of each entry's marker. Charts take
//! [`LegendStyle::default`], placed where their data leaves room ([`LegendStyle::at`]); the
//! legends drawn beside a chart (the Gantt chart's users and penalty classes, the EET heatmap's
//! colour scale) take their font and swatches from it too, so no chart sets a size of its own.

use super::ChartResult;
use plotters::chart::{ChartContext, SeriesLabelPosition};
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::FontDesc;

/// How a legend looks.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendStyle {
    /// Where the boxed legend sits in the plotting area.
    pub position: SeriesLabelPosition,
    /// Opacity of the box's white background: lines under the box show through a little.
    pub background_alpha: f64,
    /// The colour of the box's one-pixel border.
    pub border: RGBColor,
    /// The label font size in pixels (sans-serif).
    pub font_size: u32,
    /// Width and height in pixels of an entry's marker (a filled bar, or a dot of the height).
    pub marker: (u32, u32),
}

impl Default for LegendStyle {
    fn default() -> Self {
        LegendStyle {
            position: SeriesLabelPosition::UpperRight,
            background_alpha: 0.85,
            border: BLACK,
            font_size: 12,
            marker: (14, 8),
        }
    }
}

impl LegendStyle {
    /// The same style placed at `position`.
    pub fn at(mut self, position: SeriesLabelPosition) -> Self {
        self.position = position;
        self
    }

    /// The label font.
    pub fn font(&self) -> FontDesc<'static> {
        ("sans-serif", self.font_size).into_font()
    }

    /// An entry's marker: a bar of [`marker`](Self::marker) size in `colour`, for
    /// `SeriesAnno::legend` (plotters hands it the left middle of the entry's marker slot).
    pub fn bar(&self, colour: RGBColor) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
        let (w, h) = (self.marker.0 as i32, self.marker.1 as i32);
        move |(x, y)| Rectangle::new([(x, y - h / 2), (x + w, y + h - h / 2)], colour.filled())
    }

    /// An entry's marker for point charts: a dot as high as the marker, at its middle.
    pub fn dot(&self, colour: RGBColor) -> impl Fn((i32, i32)) -> Circle<(i32, i32), i32> {
        let (w, h) = (self.marker.0 as i32, self.marker.1 as i32);
        move |(x, y)| Circle::new((x + w / 2, y), h / 2, colour.filled())
    }

    /// Draws the boxed legend of the chart's labelled series.
    pub fn draw<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
        &self,
        chart: &mut ChartContext<'a, DB, CT>,
    ) -> ChartResult<DB::ErrorType> {
        chart
            .configure_series_labels()
            .position(self.position.clone())
            .background_style(WHITE.mix(self.background_alpha))
            .border_style(self.border)
            .label_font(self.font())
            .draw()
    }

    /// The height of one entry of a side legend (a text line and a little air).
    pub fn row(&self) -> i32 {
        self.font_size as i32 + 4
    }

    /// The square swatch of a side legend entry whose line starts at `(x, y)`, as high as the
    /// text (its label starts at [`side_text_x`](Self::side_text_x)).
    pub fn swatch(&self, (x, y): (i32, i32)) -> [(i32, i32); 2] {
        let s = self.font_size as i32;
        [(x, y), (x + s, y + s - 1)]
    }

    /// Where the label of a side legend entry starting at `x` begins.
    pub fn side_text_x(&self, x: i32) -> i32 {
        x + self.font_size as i32 + 6
    }

    /// One side legend entry: a filled swatch and its label, the line starting at `(x, y)`.
    pub fn side_entry<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y): (i32, i32),
        colour: RGBColor,
        label: &str,
    ) -> ChartResult<DB::ErrorType> {
        area.draw(&Rectangle::new(self.swatch((x, y)), colour.filled()))?;
        area.draw(&Text::new(label, (self.side_text_x(x), y), self.font()))
    }
}
