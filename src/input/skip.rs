//! Why a raw job is skipped: the first rule it breaks, in the words the reports use.

use super::{InputOptions, Job, Wide, MAX_TIME};
use crate::swf::words::{Field, Words};

/// The reason a raw job (see `raw`: `runtime` is the processor count, `trace_runtime` field 4,
/// `estimate` field 9, `submit` field 2) is not simulated on `procs` processors, or `None`.
/// `first_line` is the line of an earlier job with the same number (0: not known). `words`:
/// the trace's (a Batsim workload's fields are its keys, its jobs placed in `jobs`).
pub(super) fn skip_reason(
    r: &Job,
    procs: u32,
    opts: &InputOptions,
    first_line: Option<u64>,
    words: Words,
) -> Option<String> {
    let p = r.runtime;
    let field = |f| words.field(f);
    if let Some(first) = first_line {
        Some(match (first, words) {
            (0, _) => format!("duplicate job number {} (an earlier job has it)", r.id),
            (_, Words::Swf) => format!("duplicate job number {} (first on line {first})", r.id),
            (_, Words::Batsim | Words::SlurmJson) => format!(
                "id: duplicate job number {} (first at {})",
                r.id,
                words.place(first)
            ),
        })
    } else if r.trace_runtime < 0 {
        // -1 is SWF's "unknown"; any other negative value is no runtime at all (wagap-2013's
        // line 4186: -1359980917, minus its submit time: an end time of 0 taken as known).
        let what = match r.trace_runtime {
            -1 => "unknown",
            _ => "negative",
        };
        Some(format!(
            "{}: {what} runtime ({})",
            field(Field::Run),
            r.trace_runtime
        ))
    } else if let Some((f, v)) = [
        (Field::Submit, r.submit),
        (Field::Run, r.trace_runtime),
        (Field::Requested, r.estimate),
        (Field::Wait, r.trace_wait().unwrap_or(0)),
    ]
    .into_iter()
    .find(|&(_, v)| v > MAX_TIME)
    {
        Some(format!("{}: {v} s is beyond 2^53 s", field(f)))
    } else if r.submit < 0 {
        Some(format!(
            "{}: negative submit time ({})",
            field(Field::Submit),
            r.submit
        ))
    } else if p <= 0 {
        Some(format!("{}: no processor count", field(Field::AnyProcs)))
    } else if p > i64::from(procs) && opts.wide == Wide::Skip {
        Some(format!(
            "{}: {p} processors, wider than the machine ({procs})",
            field(Field::Procs)
        ))
    } else if opts.skip_status.contains(&r.status) {
        Some(format!(
            "{}: status {} is skipped by option",
            field(Field::Status),
            r.status
        ))
    } else if opts.skip_zero_runtime && r.trace_runtime == 0 {
        Some(format!(
            "{}: zero runtime is skipped by option",
            field(Field::Run)
        ))
    } else {
        None
    }
}
