//! Workload generation for the page.

use wasm_bindgen::prelude::*;

use crate::workload::generate::{generate, gpus, GenerateSpec};

/// Most jobs the page generates (on its main thread; the CLI makes up to 10 million).
pub const PAGE_MAX_JOBS: u32 = 200_000;

/// A generated workload as SWF text (bytes), e.g. `generate_workload("lublin", 256, 10000, 1,
/// 0, "")`. The seed is a whole number in 0..2^53 (a JavaScript number); `gpu_share` of the jobs
/// ask for GPUs, their counts drawn from `gpu_counts` (`1:4,2:2`; empty: the default counts), as
/// `schedlab generate --gpu-share --gpu-counts`.
#[wasm_bindgen]
pub fn generate_workload(
    model: &str,
    procs: u32,
    jobs: u32,
    seed: f64,
    gpu_share: f64,
    gpu_counts: &str,
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
    let gpu_counts =
        gpus::parse_counts(gpu_counts).map_err(|e| JsError::new(&format!("generate: {e}")))?;
    let w = generate(&GenerateSpec {
        gpu_share,
        gpu_counts,
        ..GenerateSpec::new(model, procs, jobs as usize, seed as u64)
    })
    .map_err(|e| JsError::new(&e.to_string()))?;
    let mut out = Vec::with_capacity(w.records.len() * 48);
    crate::swf::write(&mut out, &w).map_err(|e| JsError::new(&format!("generate: {e}")))?;
    Ok(out)
}
