//! Colours: one per heavy user, grey for the rest.

use plotters::style::RGBColor;
use std::collections::HashMap;

/// Distinct colours (Tableau 10 and a few more), then grey for every other user.
pub const COLOURS: [RGBColor; 12] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(255, 157, 167),
    RGBColor(156, 117, 95),
    RGBColor(96, 99, 160),
    RGBColor(160, 203, 232),
    RGBColor(140, 209, 125),
];
pub const OTHER: RGBColor = RGBColor(186, 176, 172);

/// Users ranked by weight (heaviest first); the first [`COLOURS`]`.len()` get a colour each.
pub struct UserColours {
    pub ranked: Vec<(i64, f64)>,
    index: HashMap<i64, usize>,
}

impl UserColours {
    pub fn new(weights: impl Iterator<Item = (i64, f64)>) -> Self {
        let mut total: HashMap<i64, f64> = HashMap::new();
        for (u, w) in weights {
            *total.entry(u).or_default() += w;
        }
        let mut ranked: Vec<(i64, f64)> = total.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let index = ranked
            .iter()
            .take(COLOURS.len())
            .enumerate()
            .map(|(i, &(u, _))| (u, i))
            .collect();
        Self { ranked, index }
    }

    pub fn of(&self, user: i64) -> RGBColor {
        self.colour(self.slot(user))
    }

    /// The user's colour slot: an index into [`COLOURS`], or `COLOURS.len()` for "others".
    pub fn slot(&self, user: i64) -> u8 {
        self.index
            .get(&user)
            .map_or(COLOURS.len() as u8, |&i| i as u8)
    }

    pub fn colour(&self, slot: u8) -> RGBColor {
        COLOURS.get(usize::from(slot)).copied().unwrap_or(OTHER)
    }
}
