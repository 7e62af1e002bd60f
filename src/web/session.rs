//! The session: a loaded trace ([`Trace`], the pipeline the CLI uses too), its Slurm site and
//! the runs made on it; `facts.rs` tells what the trace is, `results.rs` hands back a run's
//! results.

use super::{check, feed, js_progress, to_js};
use crate::metrics::catalogue;
use crate::options::SessionOptions;
use crate::run::{RunResult, Trace};
use crate::swf::ReadOptions;
use wasm_bindgen::prelude::*;

/// A loaded trace (with its metrics options and expected end times: [`Trace`], the pipeline
/// the CLI uses too) and the runs made on it (in order).
#[wasm_bindgen]
pub struct Session {
    pub(super) trace: Trace,
    /// The Slurm site the `slurm` policy reads (the options' `slurm_conf`, `sshare`, `qos` and
    /// `assoc` texts).
    pub(super) site: Option<crate::slurm::Site>,
    pub(super) runs: Vec<RunResult>,
}

#[wasm_bindgen]
impl Session {
    /// Reads a trace (plain or gzip bytes: a `Uint8Array` or an `ArrayBuffer`, read a chunk at
    /// a time, never copied whole into wasm memory: `feed.rs`) with the given options
    /// ([`SessionOptions`]: the fields of the options schema).
    #[wasm_bindgen(constructor)]
    pub fn new(name: &str, bytes: JsValue, options: JsValue) -> Result<Session, JsError> {
        let bytes = if let Some(buffer) = bytes.dyn_ref::<js_sys::ArrayBuffer>() {
            js_sys::Uint8Array::new(buffer)
        } else {
            bytes
                .dyn_into::<js_sys::Uint8Array>()
                .map_err(|_| JsError::new(&format!("{name}: the trace is not a Uint8Array")))?
        };
        let opts: SessionOptions = if options.is_undefined() || options.is_null() {
            SessionOptions::default()
        } else {
            serde_wasm_bindgen::from_value(options)
                .map_err(|e| JsError::new(&format!("options: {e}")))?
        };
        let read = ReadOptions {
            strict: opts.strict,
            ..ReadOptions::default()
        };
        let trace = feed::read_array(name, &bytes, &read, &opts.input)
            .and_then(|(workload, jobs)| Trace::of_jobs(workload, jobs, opts.metrics))
            .map_err(|e| JsError::new(&e.to_string()))?;
        let site = crate::slurm::Site::of_texts(
            opts.slurm_conf
                .as_deref()
                .map(|t| (t, opts.slurm_conf_name.as_deref().unwrap_or("slurm.conf"))),
            opts.sshare
                .as_deref()
                .map(|t| (t, opts.sshare_name.as_deref().unwrap_or("sshare"))),
            opts.qos
                .as_deref()
                .map(|t| (t, opts.qos_name.as_deref().unwrap_or("qos"))),
            opts.assoc
                .as_deref()
                .map(|t| (t, opts.assoc_name.as_deref().unwrap_or("assoc"))),
        )
        .map_err(|e| JsError::new(&e))?
        .map(|site| trace.named_site(site));
        Ok(Session {
            trace,
            site,
            runs: Vec::new(),
        })
    }

    /// The trace's user names by id (user `id` is `names[id - 1]`): an sacct log names its
    /// users in its header notes; empty when the trace only numbers them (SWF). The page shows
    /// users by these names ([`crate::workload::names`]).
    pub fn user_names(&self) -> Vec<String> {
        self.trace.jobs.names.users.clone()
    }

    /// What the trace looks like before any run: arrivals by hour, day and week, sizes,
    /// runtimes, requested-time accuracy, offered load, heaviest users (see
    /// [`crate::trace_stats::TraceStats`]); drawn by [`super::draw_trace`].
    pub fn trace_stats(&self) -> Result<JsValue, JsError> {
        to_js(&crate::trace_stats::trace_stats(
            &self.trace.jobs,
            &self.trace.workload.header,
        ))
    }

    /// Runs one policy; `progress(done, total)` is called now and then and may return `false`
    /// to cancel. Returns the metrics report (the objects `schedlab run --json` prints).
    pub fn run(
        &mut self,
        spec: &str,
        seed: f64,
        progress: Option<js_sys::Function>,
    ) -> Result<JsValue, JsError> {
        let seed = check::check_seed(seed)?;
        let mut report = js_progress(progress.as_ref());
        let result = self
            .trace
            .run_at(spec, self.site.as_ref(), seed, Some(&mut report))
            .map_err(|e| JsError::new(&e.to_string()))?;
        let out = to_js(&self.trace.report(&result))?;
        self.runs.push(result);
        Ok(out)
    }

    /// Runs one policy for a sweep and returns one metric (a [`super::metrics`] name) of it; the
    /// run is not kept. NaN for a node-model metric without the node model.
    pub fn measure(&mut self, spec: &str, seed: f64, metric: &str) -> Result<f64, JsError> {
        let seed = check::check_seed(seed)?;
        let metric = catalogue::lookup(metric).map_err(|e| JsError::new(&e))?;
        let result = self
            .trace
            .run_at(spec, self.site.as_ref(), seed, None)
            .map_err(|e| JsError::new(&e.to_string()))?;
        Ok(result.metric(metric).unwrap_or(f64::NAN))
    }

    pub(super) fn last(&self) -> Result<&RunResult, JsError> {
        self.runs.last().ok_or_else(|| JsError::new("no run yet"))
    }

    pub(super) fn nth(&self, index: u32) -> Result<&RunResult, JsError> {
        self.runs.get(index as usize).ok_or_else(|| {
            JsError::new(&format!(
                "no run number {index} (runs: {})",
                self.runs.len()
            ))
        })
    }
}
