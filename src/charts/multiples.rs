//! Small multiples: a chart's title over a grid of equal panels, one per series, filled row by
//! row.

use super::legend::titled;
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;

/// The rows of `n` panels in `columns` columns.
pub fn rows(n: usize, columns: usize) -> usize {
    n.div_ceil(columns.max(1))
}

/// `root` titled with `title`, split into `n` panels in `columns` columns (row by row).
pub fn panels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    n: usize,
    columns: usize,
) -> Result<Vec<DrawingArea<DB, Shift>>, DrawingAreaErrorKind<DB::ErrorType>> {
    let body = titled(root, title)?;
    let columns = columns.clamp(1, n.max(1));
    let mut all = body.split_evenly((rows(n, columns), columns));
    all.truncate(n);
    Ok(all)
}
