//! The wasm facade: every `#[wasm_bindgen]` item of schedlab lives in this module tree, and
//! nothing else does: here the session (a thin adapter over the pipeline, `run::Trace`: load a
//! trace, run policies, hand back typed arrays), the policy and metrics catalogues, the options
//! schema and the sweep helpers; `draw.rs` and `draw_trace.rs` the `draw_*` chart exports;
//! `check.rs` the input validation they share.
//!
//! Every export returns `Result<_, JsError>`; user input (trace bytes, options, spec strings,
//! seeds) is validated here or by the engine, never unwrapped. A panic hook records a panic so
//! that the page can stop calling in (`has_panicked`). Bulk results cross as typed arrays.

mod check;
mod cluster;
mod compare;
mod custom;
mod draw;
mod draw_trace;
mod feed;
mod rows;
mod scaled;
mod workload;

pub use cluster::*;
pub use compare::*;
pub use draw::*;
pub use draw_trace::*;

use crate::charts::{gantt, series};
use crate::metrics::eet_heatmap::violations;
use crate::metrics::{catalogue, METRICS};
use crate::options::{SessionOptions, OPTIONS};
use crate::policy;
use crate::run::{RunResult, Trace};
use crate::sweep;
use crate::swf::ReadOptions;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use wasm_bindgen::prelude::*;

static PANICKED: AtomicBool = AtomicBool::new(false);

#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        PANICKED.store(true, Ordering::SeqCst);
        web_sys::console::error_1(&format!("schedlab panicked: {info}").into());
    }));
}

/// True once the module has panicked: the page must make no further calls.
#[wasm_bindgen]
pub fn has_panicked() -> bool {
    PANICKED.load(Ordering::SeqCst)
}

#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsError> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The policy catalogue: names, keys with defaults and allowed values, descriptions, sources.
#[wasm_bindgen]
pub fn policies() -> Result<JsValue, JsError> {
    to_js(&policy::catalogue())
}

/// The canonical form of a spec string, or an error listing what is valid.
#[wasm_bindgen]
pub fn canonical_spec(spec: &str) -> Result<String, JsError> {
    policy::canonical(spec).map_err(|e| JsError::new(&e.to_string()))
}

/// A fresh seed from the browser's random source.
#[wasm_bindgen]
pub fn random_seed() -> Result<f64, JsError> {
    getrandom::u32()
        .map(f64::from)
        .map_err(|e| JsError::new(&format!("no random source: {e}")))
}

/// The metrics catalogue: `[{name, label, short, unit, digits, better, family, path}]`, in
/// table order; the page's results table and sweep panel show these.
#[wasm_bindgen]
pub fn metrics() -> Result<JsValue, JsError> {
    to_js(&METRICS)
}

/// The options schema (`[{key, flag, form, field, group, kind, default, label}]`).
#[wasm_bindgen]
pub fn options_schema() -> Result<JsValue, JsError> {
    to_js(&OPTIONS)
}

/// The facts of a loaded trace, as the page shows them.
#[derive(Serialize)]
struct Facts<'a> {
    name: &'a str,
    jobs: usize,
    users: usize,
    procs: u32,
    procs_source: &'a str,
    span: i64,
    /// With `skipped_never`: [`crate::input::JobSet::skipped_split`], the CLI's trace line.
    skipped: u64,
    skipped_never: Option<String>,
    skipped_reasons: Vec<String>,
    warnings: Vec<String>,
    /// The users' names by id ([`Session::user_names`]).
    user_names: &'a [String],
    /// The note on an sshare file whose associations miss the trace's users or accounts
    /// ([`crate::slurm::site_note::sshare_note`], what `schedlab run --sshare` prints); `None`
    /// without one, or when every user and account is in it.
    sshare_note: Option<String>,
    /// Each job's Slurm `JobID` in job order, one a line (an sacct log's: [`Session::job_ids`]);
    /// `None` for a trace that numbers its jobs alone. One string, not one per job: the page
    /// reads the few it shows.
    job_ids: Option<String>,
    /// The note on a qos file that lacks QOS the trace's jobs run in
    /// ([`crate::slurm::site_note::qos_note`], what `schedlab run --qos` prints); `None` without
    /// one, or when it lists every QOS of the log.
    qos_note: Option<String>,
    /// The note on an assoc file that lacks accounts of the trace
    /// ([`crate::slurm::site_note::assoc_note`], what `schedlab run --assoc` prints); `None`
    /// without one, or when it has every account of the log.
    assoc_note: Option<String>,
    /// What the `slurm` policy reads of the loops' phases from the log
    /// ([`crate::policy::slurm::phases_note`] of `slurm` under the site's slurm.conf, what
    /// `schedlab run -p slurm` prints); `None` for a log that shows none (not a Slurm log).
    /// The page shows it when a `slurm` policy runs.
    phases_note: Option<String>,
}

/// A loaded trace (with its metrics options and expected end times: [`Trace`], the pipeline
/// the CLI uses too) and the runs made on it (in order).
#[wasm_bindgen]
pub struct Session {
    trace: Trace,
    /// The Slurm site the `slurm` policy reads (the options' `slurm_conf`, `sshare`, `qos` and
    /// `assoc` texts).
    site: Option<crate::slurm::Site>,
    runs: Vec<RunResult>,
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

    pub fn facts(&self) -> Result<JsValue, JsError> {
        let w = &self.trace.workload;
        let j = &self.trace.jobs;
        // An issue of the whole file (a truncated gzip stream: the jobs after it are lost) is a
        // warning shown as such, as the CLI's "1 warning" says, not one of the skipped lines
        // folded away under a count of 0 skipped.
        // (A Batsim job the reader skipped has line 0 too, as a skipped line: kept below.)
        let whole =
            |i: &&crate::swf::LineIssue| i.line == 0 && i.severity == crate::swf::Severity::Warning;
        let mut warnings: Vec<String> = w
            .issues
            .iter()
            .filter(whole)
            .map(|i| format!("{}: {i}", w.source))
            .collect();
        warnings.extend(j.warnings.iter().cloned());
        let mut reasons: Vec<String> = w
            .issues
            .iter()
            .filter(|i| !whole(i))
            .take(5)
            .map(|i| format!("{}: {i}", w.source))
            .collect();
        // The file and the job, as the CLI names them (a Batsim workload's by its place in `jobs`).
        reasons.extend(
            j.skipped
                .iter()
                .take(5)
                .map(|s| format!("{}: {}: {}", w.source, j.words.job(s.line, s.id), s.reason)),
        );
        let (skipped, skipped_never) = j.skipped_split();
        let first = j.jobs.first().map_or(0, |x| x.submit);
        let last = j.jobs.last().map_or(0, |x| x.submit);
        to_js(&Facts {
            name: &j.name,
            jobs: j.simulated_count(),
            users: j.users().len(),
            procs: j.procs,
            procs_source: &j.procs_source,
            span: last - first,
            skipped,
            skipped_never,
            skipped_reasons: reasons,
            warnings,
            user_names: &j.names.users,
            sshare_note: self
                .site
                .as_ref()
                .and_then(crate::slurm::site_note::sshare_note),
            job_ids: self.job_ids(),
            qos_note: self
                .site
                .as_ref()
                .and_then(crate::slurm::site_note::qos_note),
            assoc_note: self
                .site
                .as_ref()
                .and_then(crate::slurm::site_note::assoc_note),
            phases_note: match &self.site {
                Some(site) => crate::policy::slurm::phases_note("slurm", site),
                None => crate::policy::slurm::phases_note(
                    "slurm",
                    &self.trace.named_site(crate::slurm::Site::default()),
                ),
            },
        })
    }

    /// The jobs' Slurm `JobID`s in job order, one a line, as `schedlab run --fidelity` names
    /// them (the log's `JobID` of each job's line); `None` when the trace records none (not an
    /// sacct log).
    fn job_ids(&self) -> Option<String> {
        let set = &self.trace.jobs;
        if set.log_ids.is_empty() {
            return None;
        }
        Some(set.log_id_list().join("\n"))
    }

    /// The trace's user names by id (user `id` is `names[id - 1]`): an sacct log names its
    /// users in its header notes; empty when the trace only numbers them (SWF). The page shows
    /// users by these names ([`crate::workload::names`]).
    pub fn user_names(&self) -> Vec<String> {
        self.trace.jobs.names.users.clone()
    }

    /// What the trace looks like before any run: arrivals by hour, day and week, sizes,
    /// runtimes, requested-time accuracy, offered load, heaviest users (see
    /// [`crate::trace_stats::TraceStats`]); drawn by [`draw_trace`].
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

    /// Runs one policy for a sweep and returns one metric (a [`metrics`] name) of it; the
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

    fn last(&self) -> Result<&RunResult, JsError> {
        self.runs.last().ok_or_else(|| JsError::new("no run yet"))
    }

    fn nth(&self, index: u32) -> Result<&RunResult, JsError> {
        self.runs.get(index as usize).ok_or_else(|| {
            JsError::new(&format!(
                "no run number {index} (runs: {})",
                self.runs.len()
            ))
        })
    }

    /// Gantt rectangles of the last run: `[start, end, lo, hi, user, job, kind]` each (kind 1:
    /// a preempted attempt, 0: the final one). On a cluster with GPUs, in the rows of
    /// [`Session::node_rows`] with a lane per GPU (kind + 2: a rectangle of GPU lanes).
    pub fn rects(&self) -> Result<js_sys::Float64Array, JsError> {
        use crate::charts::gpu_lanes;
        let (set, s) = (&self.trace.jobs, &self.last()?.schedule);
        let written = match set.placement.as_deref() {
            Some(p) if gpu_lanes::has_lanes(p) => {
                let (rows, _) = gpu_lanes::node_rows(p);
                let spans = gpu_lanes::assign(p, s);
                let each = || gpu_lanes::each_rect(&set.jobs, s, p, &rows, &spans);
                flat_rects(each().count(), each())
            }
            _ => flat_rects(gantt::each_rect(set, s).count(), gantt::each_rect(set, s)),
        };
        written.map_err(|e| JsError::new(&format!("rects: {e}")))
    }

    /// Penalty factor of each job of the last run (node model), empty when the model is off.
    pub fn factors(&self) -> Result<Vec<f64>, JsError> {
        Ok(crate::metrics::penalty::factors(&self.last()?.schedule).unwrap_or_default())
    }

    /// Per job of the last run, the layout `JOB` of [`crate::output::layouts`] (`www/layouts.js`):
    /// `[id, user, submit, start, end, procs, wait, bsld, reason, reservation, waitedFor]`.
    pub fn jobs(&self) -> Result<js_sys::Float64Array, JsError> {
        let r = self.last()?;
        let set = &self.trace.jobs;
        let opts = &self.trace.metrics;
        let n = set.jobs.len();
        let row = |i| crate::output::layouts::job_row(set, &r.schedule, i, opts);
        let width = if n == 0 { 0 } else { row(0).len() };
        rows::rows_to_js(n, n * width, |range| range.flat_map(row).collect())
            .map_err(|e| JsError::new(&format!("jobs: {e}")))
    }

    /// The jobs CSV of run `index` (Batsim / evalys columns, as `schedlab run --jobs-csv`).
    pub fn jobs_csv(&self, index: u32) -> Result<String, JsError> {
        let mut out = Vec::new();
        crate::output::jobs_csv(&mut out, &self.trace.jobs, &self.nth(index)?.schedule)
            .map_err(|e| JsError::new(&e.to_string()))?;
        String::from_utf8(out).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The runs CSV of run `index` (one row per execution attempt).
    pub fn runs_csv(&self, index: u32) -> Result<String, JsError> {
        let mut out = Vec::new();
        crate::output::runs_csv(&mut out, &self.trace.jobs, &self.nth(index)?.schedule)
            .map_err(|e| JsError::new(&e.to_string()))?;
        String::from_utf8(out).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Memory in use over the last run, `[time, KB]` pairs; empty when the trace has no memory
    /// figures.
    pub fn memory(&self) -> Result<Vec<f64>, JsError> {
        let r = self.last()?;
        Ok(
            crate::metrics::eet_heatmap::memory_series(&self.trace.jobs, &r.schedule)
                .unwrap_or_default(),
        )
    }

    /// Busy processors and queue length of the last run: `[time, busy, queued]` each.
    pub fn series(&self) -> Result<Vec<f64>, JsError> {
        Ok(series::points(&self.last()?.schedule))
    }

    /// Per user of the last run, in order of first appearance (users with a job that ran):
    /// `[user, jobs, violated, VEET_u, WT_u]` each (see [`crate::metrics::eet::UserEet`]).
    pub fn eet_users(&self) -> Result<Vec<f64>, JsError> {
        Ok(self
            .last()?
            .eet
            .users
            .iter()
            .flat_map(|u| {
                [
                    u.user as f64,
                    u.jobs as f64,
                    u.violated as f64,
                    u.veet,
                    u.wt,
                ]
            })
            .collect())
    }

    /// The violated EETs of the last run, in job order: `[user, start, end]` each, the interval
    /// the violation covers in the heatmap (see [`crate::metrics::eet_heatmap::Violation`]).
    pub fn violations(&self) -> Result<Vec<f64>, JsError> {
        let r = self.last()?;
        Ok(
            violations(&self.trace.jobs, &r.schedule, self.trace.expected())
                .iter()
                .flat_map(|v| [v.user as f64, v.start as f64, v.end as f64])
                .collect(),
        )
    }
}

/// The runs of a sweep of `policy` over `vary` (`KEY=v1,v2,...` or `KEY=a,b,...,z`; empty: no
/// key varied): `{key, values, specs}`, one canonical spec per value, each checked. Errors name
/// the policy and what is wrong.
#[wasm_bindgen]
pub fn sweep_specs(policy_spec: &str, vary: &str) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Plan {
        key: String,
        values: Vec<String>,
        specs: Vec<String>,
    }
    let fail = |e: String| JsError::new(&format!("{policy_spec}: {e}"));
    let (key, values) = if vary.trim().is_empty() {
        (String::new(), vec![String::new()])
    } else {
        sweep::parse_vary(vary).map_err(|e| JsError::new(&format!("vary {vary:?}: {e}")))?
    };
    if let Some(name) = policy_spec.trim().strip_prefix("js:") {
        // A JavaScript policy has no keys: the same run at every value (a flat reference line;
        // the page runs it once per seed).
        let spec = custom::js_spec(name)?;
        let specs = vec![spec; values.len()];
        return to_js(&Plan { key, values, specs });
    }
    let specs = values
        .iter()
        .map(|v| {
            let spec = if key.is_empty() {
                policy_spec.to_string()
            } else {
                sweep::with_key(policy_spec, &key, v).map_err(&fail)?
            };
            policy::canonical(&spec).map_err(|e| fail(e.to_string()))
        })
        .collect::<Result<Vec<_>, JsError>>()?;
    to_js(&Plan { key, values, specs })
}

/// The engine's progress callback over the page's `progress(done, total)` function (none: never
/// cancels); the run stops when the function returns `false`.
pub(crate) fn js_progress(
    progress: Option<&js_sys::Function>,
) -> impl FnMut(usize, usize) -> bool + '_ {
    move |done, total| match progress {
        Some(f) => f
            .call2(
                &JsValue::NULL,
                &(done as f64).into(),
                &(total as f64).into(),
            )
            .map_or(true, |v| v.as_bool() != Some(false)),
        None => true,
    }
}

/// The `n` rectangles of `rects` as one flat array, written a chunk at a time: they are never
/// all held.
fn flat_rects(
    n: usize,
    mut rects: impl Iterator<Item = gantt::Rect>,
) -> Result<js_sys::Float64Array, String> {
    rows::rows_to_js(n, n * gantt::RECT_FIELDS, |r| {
        gantt::flatten(&rects.by_ref().take(r.len()).collect::<Vec<_>>())
    })
}
