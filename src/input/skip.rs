//! Why a raw job is skipped: the first rule it breaks, in the words the reports use.

use super::{InputOptions, Job, Wide, MAX_TIME};

/// The reason a raw job (see `raw`: `runtime` is the processor count, `trace_runtime` field 4,
/// `estimate` field 9, `submit` field 2) is not simulated on `procs` processors, or `None`.
/// `first_line` is the line of an earlier job with the same number (0: a format without lines,
/// Batsim JSON).
pub(super) fn skip_reason(
    r: &Job,
    procs: u32,
    opts: &InputOptions,
    first_line: Option<u64>,
) -> Option<String> {
    let p = r.runtime;
    if let Some(first) = first_line {
        Some(match first {
            0 => format!("duplicate job number {} (an earlier job has it)", r.id),
            _ => format!("duplicate job number {} (first on line {first})", r.id),
        })
    } else if r.trace_runtime < 0 {
        Some(format!(
            "field 4 (run_time): unknown runtime ({})",
            r.trace_runtime
        ))
    } else if let Some((field, v)) = [
        ("field 2 (submit_time)", r.submit),
        ("field 4 (run_time)", r.trace_runtime),
        ("field 9 (requested_time)", r.estimate),
        ("field 3 (wait_time)", r.trace_wait().unwrap_or(0)),
    ]
    .into_iter()
    .find(|&(_, v)| v > MAX_TIME)
    {
        Some(format!("{field}: {v} s is beyond 2^53 s"))
    } else if r.submit < 0 {
        Some(format!(
            "field 2 (submit_time): negative submit time ({})",
            r.submit
        ))
    } else if p <= 0 {
        Some("fields 5 and 8 (processors): no processor count".to_string())
    } else if p > i64::from(procs) && opts.wide == Wide::Skip {
        Some(format!(
            "field 5 (allocated_processors): {p} processors, wider than the machine ({procs})"
        ))
    } else if opts.skip_status.contains(&r.status) {
        Some(format!(
            "field 11 (status): status {} is skipped by option",
            r.status
        ))
    } else if opts.skip_zero_runtime && r.trace_runtime == 0 {
        Some("field 4 (run_time): zero runtime is skipped by option".to_string())
    } else {
        None
    }
}
