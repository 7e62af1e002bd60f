//! The typed-array layouts the facade hands the page (one registry): per flat array, its fields
//! in order. `www/layouts.js` is generated from it ([`js`]; a test checks it is up to date), so
//! the page reads fields by name, never by a number typed twice.

use crate::input::JobSet;
use crate::metrics::{per_job, MetricOptions};
use crate::sim::reason::BUILT_IN;
use crate::sim::Schedule;

/// One flat array: `fields` repeat per element.
pub struct Layout {
    /// The JavaScript constant's name (`RECT`, `JOB`, ...).
    pub name: &'static str,
    /// The facade function that returns it.
    pub export: &'static str,
    pub fields: &'static [&'static str],
    pub doc: &'static str,
}

impl Layout {
    /// The offset of field `name` (a compile-time error when used in a constant and missing).
    pub const fn field(&self, name: &str) -> usize {
        let mut i = 0;
        while i < self.fields.len() {
            if eq(self.fields[i].as_bytes(), name.as_bytes()) {
                return i;
            }
            i += 1;
        }
        panic!("no such field in the layout");
    }
}

const fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Gantt rectangles (`Session::rects`, [`crate::charts::gantt::flatten`]).
pub const RECT: Layout = Layout {
    name: "RECT",
    export: "Session.rects",
    fields: &["start", "end", "lo", "hi", "user", "job", "kind"],
    doc: "one execution attempt's rectangle: processors [lo, hi) (rows with GPU lanes: Session.node_rows), job index, kind 1 = a preempted attempt, + 2 = GPU lanes",
};

/// Per job of a run (`Session::jobs`, [`job_row`]).
pub const JOB: Layout = Layout {
    name: "JOB",
    export: "Session.jobs",
    fields: &[
        "id",
        "user",
        "submit",
        "start",
        "end",
        "procs",
        "wait",
        "bsld",
        "reason",
        "reservation",
        "waitedFor",
    ],
    doc: "per job in arrival order: start/end -1 when it did not run; reason a START_REASONS code (16 + i: the run's start_reason_words[i]); reservation the first reservation (-1: none); waitedFor the index of the running job whose planned end it was (-1: none)",
};

/// Busy processors and queue length over time (`Session::series`).
pub const SERIES: Layout = Layout {
    name: "SERIES",
    export: "Session.series",
    fields: &["time", "busy", "queued"],
    doc: "one point per instant with a change",
};

/// Every layout.
pub const LAYOUTS: &[Layout] = &[RECT, JOB, SERIES];

/// One job's row of [`JOB`].
pub fn job_row(set: &JobSet, s: &Schedule, j: usize, opts: &MetricOptions) -> [f64; 11] {
    let job = &set.jobs[j];
    let rec = &s.jobs[j];
    let m = per_job(set, s, j, opts);
    [
        job.id as f64,
        job.user as f64,
        job.submit as f64,
        rec.start as f64,
        rec.end as f64,
        f64::from(job.procs),
        m.as_ref().map_or(-1.0, |m| m.wait as f64),
        m.as_ref().map_or(-1.0, |m| m.bsld),
        f64::from(rec.reason.code()),
        rec.first_reservation()
            .filter(|&t| t != crate::Time::MAX)
            .map_or(-1.0, |t| t as f64),
        rec.waited_for().map_or(-1.0, |k| k as f64),
    ]
}

/// `www/layouts.js`: per layout an object of field offsets plus its `stride`, and the start
/// reasons by code.
pub fn js() -> String {
    let mut out = String::from(
        "// Generated from src/output/layouts.rs (the typed-array layouts) by\n\
         // `UPDATE_LAYOUTS=1 cargo test --test integration layouts::`; a test checks that it is up to date.\n\
         // Do not edit: change the registry and regenerate.\n",
    );
    for l in LAYOUTS {
        out.push_str(&format!("\n// {}: {}.\n", l.export, l.doc));
        let fields: Vec<String> = l
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| format!("{f}: {i}"))
            .collect();
        out.push_str(&format!(
            "export const {} = Object.freeze({{ {}, stride: {} }});\n",
            l.name,
            fields.join(", "),
            l.fields.len()
        ));
    }
    let words: Vec<String> = std::iter::once("''".to_string())
        .chain(BUILT_IN.iter().map(|(_, w)| format!("'{w}'")))
        .collect();
    out.push_str(&format!(
        "\n// Start reasons by code (JOB.reason): 0 none, then the built-in words; 16 + i is a policy's own word i.\n\
         export const START_REASONS = Object.freeze([{}]);\n",
        words.join(", ")
    ));
    out
}
