//! Large typed arrays built a chunk at a time: the rows are written into a JavaScript
//! `Float64Array` chunk by chunk, so that the wasm memory holds one chunk, not a copy of the
//! whole array (a trace of 10 M jobs has 880 MB of job rows).

use js_sys::Float64Array;

/// Rows per chunk.
const CHUNK_ROWS: usize = 1 << 14;

/// A `Float64Array` of the numbers `chunk(range)` gives for each range of at most
/// [`CHUNK_ROWS`] of `rows` rows, in order; `len` is their total count.
pub(super) fn rows_to_js(
    rows: usize,
    len: usize,
    mut chunk: impl FnMut(std::ops::Range<usize>) -> Vec<f64>,
) -> Result<Float64Array, String> {
    let total = u32::try_from(len).map_err(|_| format!("{len} numbers: too many for one array"))?;
    let out = Float64Array::new_with_length(total);
    let mut at = 0u32;
    for start in (0..rows).step_by(CHUNK_ROWS) {
        let part = chunk(start..(start + CHUNK_ROWS).min(rows));
        let end = u32::try_from(part.len())
            .ok()
            .and_then(|n| at.checked_add(n))
            .filter(|&end| end <= total)
            .ok_or_else(|| "rows longer than announced".to_string())?;
        out.subarray(at, end).copy_from(&part);
        at = end;
    }
    Ok(out)
}
