//! Workload generation for the page.

use wasm_bindgen::prelude::*;

use crate::workload::generate::{generate, GenerateSpec};

/// Most jobs the page generates (on its main thread; the CLI makes up to 10 million).
pub const PAGE_MAX_JOBS: u32 = 200_000;

/// A generated workload as SWF text (bytes), e.g. `generate_workload("lublin", 256, 10000, 1)`.
/// The seed is a whole number in 0..2^53 (a JavaScript number).
#[wasm_bindgen]
pub fn generate_workload(
    model: &str,
    procs: u32,
    jobs: u32,
    seed: f64,
) -> Result<Vec<u8>, JsError> {
    if !(seed.is_finite() && seed >= 0.0 && seed.fract() == 0.0 && seed <= 9_007_199_254_740_991.0)
    {
        return Err(JsError::new(&format!(
            "generate: seed {seed}: must be a whole number >= 0"
        )));
    }
    if jobs > PAGE_MAX_JOBS {
        return Err(JsError::new(&format!(
            "generate: {jobs} jobs: the page makes at most {PAGE_MAX_JOBS} (the schedlab command makes more)"
        )));
    }
    let w = generate(&GenerateSpec::new(model, procs, jobs as usize, seed as u64))
        .map_err(|e| JsError::new(&e.to_string()))?;
    let mut out = Vec::with_capacity(w.records.len() * 48);
    crate::swf::write(&mut out, &w).map_err(|e| JsError::new(&format!("generate: {e}")))?;
    Ok(out)
}
