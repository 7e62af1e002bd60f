//! The EET heatmap as CSV: one row per non-zero cell.

use crate::metrics::eet_heatmap::Heatmap;
use std::io::Write;

/// Writes `user, bin_start, count`: every non-zero cell of `h`, row by row, bins ascending.
/// `bin_start` is the cell's start in simulation seconds; `count` the time-average number of
/// the user's violated EETs over the cell (see [`crate::metrics::eet_heatmap`]).
pub fn heatmap_csv<W: Write>(out: W, h: &Heatmap) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(["user", "bin_start", "count"])?;
    for row in &h.rows {
        for &(bin, v) in &row.cells {
            w.write_record([
                row.user.to_string(),
                (h.t0 + f64::from(bin) * h.width).to_string(),
                v.to_string(),
            ])?;
        }
    }
    w.flush()?;
    Ok(())
}
