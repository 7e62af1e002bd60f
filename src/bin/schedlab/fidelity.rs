//! `schedlab run --fidelity N`: each policy's schedule against the trace's own (recorded waits),
//! the figures of `metrics::fidelity`, and the N jobs furthest off with why the simulation
//! started them when it did.

use schedlab::input::JobSet;
use schedlab::metrics::fidelity::{self, CLOSE};
use schedlab::replay::recorded::Logged;
use schedlab::run::{RunResult, Trace};
use std::fmt::Write;
use std::io::Read;
use std::path::Path;

/// The text of the trace file `path` (plain or gzip); empty when it cannot be read as text.
pub fn trace_text(path: &Path) -> String {
    let Ok(bytes) = std::fs::read(path) else {
        return String::new();
    };
    let mut text = String::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let _ = flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_string(&mut text);
        return text;
    }
    String::from_utf8(bytes).unwrap_or_default()
}

/// What the log at `path` records of `set`'s jobs beyond them, read again from its text: an
/// sacct log's `NodeList` and `Priority` ([`Logged::from_sacct`]), an `sacct --json` dump's
/// priorities ([`Logged::from_sacct_json`]); nothing for any other trace.
pub fn logged(path: &Path, set: &JobSet) -> Result<Logged, String> {
    let text = trace_text(path);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    // In the order the reader tells them (`workload::detect`).
    if schedlab::workload::sacct::json::looks_like(text.as_bytes()) {
        return Ok(Logged::from_sacct_json(&text, &set.jobs));
    }
    if schedlab::workload::sacct::looks_like(first) {
        return Logged::from_sacct(&text, &path.display().to_string(), &set.jobs);
    }
    Ok(Logged::empty(&set.jobs))
}

/// The fidelity section of the table: a row of figures per policy, then per policy its `n`
/// furthest jobs. A note instead when the trace records no wait. `typed`: each run's spec as
/// the user wrote it: a policy is labelled as in the table above (`slurm (1)` for a long spec,
/// given in full under the table), so that two long specs that differ only in their last keys
/// stay apart.
/// `names`: each job as the log names it (an sacct log's `JobID`, so that an admin finds it in
/// sacct; else its job number: `JobSet::log_id`).
pub fn section(
    trace: &Trace,
    results: &[&RunResult],
    (typed, names): (&[&str], &[String]),
    n: usize,
) -> String {
    let mut out = String::new();
    let rows: Vec<_> = results
        .iter()
        .map(|r| (r, fidelity::gaps(&trace.jobs, &r.schedule)))
        .collect();
    if rows.iter().all(|(_, g)| g.is_empty()) {
        return "\nRecorded against simulated wait: the trace records no wait (SWF field 3, an \
                sacct log's Start)\n"
            .into();
    }
    let specs = results.iter().map(|r| r.spec.as_str());
    let (labels, _) = crate::table::labels(specs.zip(typed.iter().copied()));
    let width = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(out, "\nRecorded against simulated wait (per job, seconds)");
    let _ = writeln!(
        out,
        "{:<width$} {:>8} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "policy",
        "jobs",
        "recorded",
        "simulated",
        "mean |e|",
        "median |e|",
        "p90 |e|",
        format!("<={CLOSE}s"),
        "CDF gap"
    );
    for ((_, gaps), label) in rows.iter().zip(&labels) {
        let Some(f) = fidelity::fidelity(gaps) else {
            continue;
        };
        let _ = writeln!(
            out,
            "{:<width$} {:>8} {:>10.1} {:>10.1} {:>10.1} {:>10.0} {:>10.0} {:>7.1}% {:>8.3}",
            label,
            f.compared,
            f.mean_recorded,
            f.mean_simulated,
            f.mean_abs,
            f.median_abs,
            f.p90_abs,
            f.close * 100.0,
            f.cdf_gap
        );
    }
    for ((r, gaps), label) in rows.iter().zip(&labels) {
        let far = fidelity::furthest(gaps, n);
        if far.is_empty() {
            continue;
        }
        // A schedule that is the trace's own (historic) has no job off: said, not a table of
        // zeros.
        if far.iter().all(|g| g.error() == 0) {
            let _ = writeln!(out, "\n{label}: every job starts at its recorded wait");
            continue;
        }
        let _ = writeln!(out, "\nFurthest off under {label}:");
        let _ = writeln!(
            out,
            "{:>10} {:>10} {:>10} {:>10}  {:<14} {:>10}",
            "job", "recorded", "simulated", "error", "start reason", "waited for"
        );
        let s = &r.schedule;
        for g in far {
            let waited = s.jobs[g.job]
                .waited_for()
                .map_or("-", |k| names[k].as_str());
            let _ = writeln!(
                out,
                "{:>10} {:>10} {:>10} {:>+10}  {:<14} {:>10}",
                names[g.job],
                g.recorded,
                g.simulated,
                g.error(),
                s.reason_word(g.job),
                waited
            );
        }
    }
    out
}
