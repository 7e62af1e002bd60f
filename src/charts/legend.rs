//! One legend style for every chart, modelled on plotters' own `SeriesLabelStyle` builder:
//! the label font size, the size of each entry's marker, and (for the boxed legends plotters
//! draws) where the box sits, its background and border. A chart naming several series lays
//! its legend out beside the plot ([`LegendStyle::outside`]): a column on the right when the
//! labels leave the plot room, else rows above it, so that a legend never covers data; the
//! legends drawn beside a chart (the Gantt chart's users and penalty classes, the EET heatmap's
//! colour scale) take their font and swatches from it too, so no chart sets a size of its own.
//! A series is named by a [`Key`]: its label and its colour, which the page keeps per policy
//! when it hides others.

use super::palette::COLOURS;
use super::ChartResult;
use plotters::chart::{ChartContext, SeriesLabelPosition};
use plotters::coord::{CoordTranslate, Shift};
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;
use plotters::style::FontDesc;

/// A series as a legend names it: its label and its colour.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub label: String,
    pub colour: RGBColor,
}

impl Key {
    /// Keys coloured in palette order.
    pub fn list(labels: &[String]) -> Vec<Key> {
        Self::slotted(labels, &[])
    }

    /// Keys coloured by palette slot: `slots[i]` for label `i` (a policy keeps its colour when
    /// the others are hidden), palette order past the end of `slots`.
    pub fn slotted(labels: &[String], slots: &[u8]) -> Vec<Key> {
        labels
            .iter()
            .enumerate()
            .map(|(i, label)| {
                let slot = slots.get(i).map_or(i, |&s| usize::from(s));
                Key {
                    label: label.clone(),
                    colour: COLOURS[slot % COLOURS.len()],
                }
            })
            .collect()
    }
}

/// The result of laying out a drawing area.
pub type AreaResult<DB> =
    Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The caption of every chart: its font.
pub fn caption_font() -> FontDesc<'static> {
    ("sans-serif", 15).into_font()
}

/// `area` filled white with `title` on top (none when empty; cut with "…" when wider than the
/// area): the area below it.
pub fn titled<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, title: &str) -> AreaResult<DB> {
    area.fill(&WHITE)?;
    if title.is_empty() {
        return Ok(area.clone());
    }
    let font = TextStyle::from(caption_font());
    let width = area.dim_in_pixel().0.saturating_sub(8);
    area.titled(&fit(area, title, &font, width)?, font)
}

/// `text` as it fits `width` pixels in `font`: whole, or cut with "…".
pub fn fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    font: &TextStyle,
    width: u32,
) -> Result<String, plotters::drawing::DrawingAreaErrorKind<DB::ErrorType>> {
    if area.estimate_text_size(text, font)?.0 <= width {
        return Ok(text.to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    for keep in (1..chars.len()).rev() {
        let cut: String = chars[..keep].iter().collect::<String>() + "…";
        if area.estimate_text_size(&cut, font)?.0 <= width {
            return Ok(cut);
        }
    }
    Ok("…".into())
}

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

    /// Draws the legend of `keys` outside the plot: a column on the right of `area` when the
    /// widest entry takes at most a third of its width, else rows of entries above the plot
    /// (each entry as wide as its measured label). Returns the area left for the plot (all of
    /// `area` when there are no keys).
    pub fn outside<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        keys: &[Key],
    ) -> AreaResult<DB> {
        if keys.is_empty() {
            return Ok(area.clone());
        }
        let font = TextStyle::from(self.font());
        let mut widths = Vec::with_capacity(keys.len());
        for k in keys {
            let (w, _) = area.estimate_text_size(&k.label, &font)?;
            widths.push(self.side_text_x(0) + w as i32);
        }
        let (w, h) = area.dim_in_pixel();
        let (w, h) = (w as i32, h as i32);
        let widest = widths.iter().copied().max().unwrap_or(0);
        let row = self.row();
        let pad = 8;
        if 3 * (widest + 2 * pad) <= w && (keys.len() as i32) * row + pad <= h {
            let (plot, side) = area.split_horizontally(w - widest - 2 * pad);
            let top = ((h - keys.len() as i32 * row) / 2).clamp(pad, 40);
            for (i, k) in keys.iter().enumerate() {
                self.side_entry(&side, (pad, top + i as i32 * row), k.colour, &k.label)?;
            }
            return Ok(plot);
        }
        // Rows: entries left to right, wrapping at the area's width.
        let gap = 14;
        let mut places = Vec::with_capacity(keys.len());
        let (mut x, mut y) = (pad, 2);
        for &width in &widths {
            if x > pad && x + width > w - pad {
                x = pad;
                y += row;
            }
            places.push((x, y));
            x += width + gap;
        }
        let used = (y + row + 4).min(h / 2);
        let (strip, plot) = area.split_vertically(used);
        for (k, &at) in keys.iter().zip(&places) {
            if at.1 + row <= used {
                self.side_entry(&strip, at, k.colour, &k.label)?;
            }
        }
        Ok(plot)
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
