//! The JavaScript policy protocol's engine side: what a page's policy answers at each pass
//! (`policy::External`, fed by `www/custom.js` through `src/web/custom.rs`). The bytes script
//! the answers: per pass, a length (up to 2^32 - 1, what a JavaScript array may claim) and
//! elements drawn from the jobs waiting, running, finished or not yet submitted, doubles of any
//! bits (NaN, infinities, -0, fractions, beyond 2^53), repeats, and start reasons (the built-in
//! words, new words, empty, long, any text). When the bytes run out the policy answers as FCFS,
//! so that runs also reach their end.
//!
//! What must hold: no panic; an answer longer than the trace is refused by
//! `policy::answer_len` before anything is allocated; a run that ends well passes the schedule
//! checker and gives every metric; a run that fails says why (an invalid decision, the policy's
//! own error, jobs left waiting, passes without time advancing), never "cancelled"; the same
//! bytes give the same outcome twice.

use super::small_trace;
use schedlab::metrics::METRICS;
use schedlab::policy::{answer_len, External, PassView, Pick};
use schedlab::run::{Error, Trace};
use schedlab::sim::{check::check, SimError};

/// Doubles that sit on the edges of what a job id may be.
const EDGES: [f64; 12] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    -0.0,
    0.5,
    9_007_199_254_740_992.0,
    9_007_199_254_740_994.0,
    1e308,
    -1.0,
    4_294_967_295.0,
    9.223_372_036_854_776e18,
    5e-324,
];

/// Start reasons: the built-in words, a new word, and words that must be refused.
const WORDS: [&str; 9] = [
    "head",
    "ahead",
    "backfilled",
    "restarted",
    "replay",
    "mine",
    "",
    "two words",
    "a-word-far-longer-than-any-start-reason-should-ever-be-allowed-to-be",
];

/// Reads the script of answers from the fuzz bytes.
struct Script<'d> {
    data: &'d [u8],
}

impl Script<'_> {
    fn byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.data.split_first()?;
        self.data = rest;
        Some(b)
    }

    fn bytes(&mut self, n: usize) -> &[u8] {
        let (head, rest) = self.data.split_at(n.min(self.data.len()));
        self.data = rest;
        head
    }

    /// One answer, or `None` once the bytes are spent.
    fn answer(&mut self, v: &PassView<'_>, trace: &Trace) -> Option<Result<Vec<Pick>, String>> {
        let jobs = &trace.jobs.jobs;
        let head = self.byte()?;
        if head == 0xff {
            return Some(Err("TypeError: view.queue is undefined".into()));
        }
        // The length a JavaScript array claims: small, or one of the huge ones.
        let claimed: u64 = match head >> 5 {
            7 => u64::from(u32::MAX),
            6 => u64::from(self.byte().unwrap_or(0)) << 24,
            _ => u64::from(head & 7),
        };
        let n = match answer_len(claimed, jobs.len()) {
            Ok(n) => n,
            Err(msg) => {
                assert!(
                    claimed > jobs.len() as u64,
                    "{claimed} elements refused: {msg}"
                );
                return Some(Err(msg));
            }
        };
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let tag = self.byte().unwrap_or(0);
            let pick = |k: &[usize], b: u8| k.get(usize::from(b) % k.len().max(1)).copied();
            let b = self.byte().unwrap_or(0);
            let id = match tag % 8 {
                0 | 5 => pick(&v.waiting.to_vec(), b).map(|j| jobs[j].id as f64),
                1 => pick(&v.running.iter().map(|r| r.0).collect::<Vec<_>>(), b)
                    .map(|j| jobs[j].id as f64),
                2 => Some(jobs[usize::from(b) % jobs.len()].id as f64),
                3 => {
                    let raw = self.bytes(8);
                    let mut eight = [0u8; 8];
                    eight[..raw.len()].copy_from_slice(raw);
                    Some(f64::from_le_bytes(eight))
                }
                4 => Some(EDGES[usize::from(b) % EDGES.len()]),
                6 => out.last().map(|p: &Pick| p.id),
                _ => pick(&v.waiting.to_vec(), b).map(|j| jobs[j].id as f64 + 0.5),
            };
            let Some(id) = id else { continue };
            let reason = match tag >> 3 {
                0..=15 => None,
                16..=27 => Some(WORDS[usize::from(b) % WORDS.len()].to_string()),
                _ => {
                    let len = usize::from(self.byte().unwrap_or(0) % 80);
                    Some(String::from_utf8_lossy(self.bytes(len)).into_owned())
                }
            };
            out.push(Pick { id, reason });
        }
        Some(Ok(out))
    }
}

/// FCFS: the heads of the waiting list in arrival order while they fit.
fn fcfs(v: &PassView<'_>, trace: &Trace) -> Vec<Pick> {
    let mut free = v.free;
    let mut out = Vec::new();
    for j in v.waiting {
        let job = &trace.jobs.jobs[j];
        if job.procs > free {
            break;
        }
        free -= job.procs;
        out.push(Pick::from(job.id as f64));
    }
    out
}

/// One run of the scripted policy: the jobs CSV of its schedule, or its error.
fn run(trace: &Trace, data: &[u8]) -> Result<String, String> {
    let mut script = Script { data };
    let decider = |v: &PassView<'_>| -> Result<Vec<Pick>, String> {
        script
            .answer(v, trace)
            .unwrap_or_else(|| Ok(fcfs(v, trace)))
    };
    let mut policy = External::new("js:fuzz", decider);
    match trace.run_with(&mut policy, 1, None) {
        Ok(r) => {
            if let Err(e) = check(&trace.jobs.jobs, &r.schedule) {
                panic!("invariants violated:\n{}", e.join("\n"));
            }
            for m in METRICS {
                let _ = r.metric(m);
            }
            serde_json::to_string(&trace.report(&r)).expect("the report serializes");
            let mut csv = Vec::new();
            schedlab::output::jobs_csv(&mut csv, &trace.jobs, &r.schedule).expect("jobs CSV");
            Ok(String::from_utf8(csv).expect("the CSV is text"))
        }
        Err(Error::Sim(SimError::Cancelled)) => panic!("a run nobody cancelled was cancelled"),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains("js:fuzz"),
                "the error does not name the policy: {msg}"
            );
            Err(msg)
        }
    }
}

/// The first byte picks the machine model (plain or nodes); the rest scripts the answers.
pub fn js_protocol(data: &[u8]) {
    let Some((&model, script)) = data.split_first() else {
        return;
    };
    let trace = small_trace(model & 1 == 1);
    let first = run(&trace, script);
    assert_eq!(
        first,
        run(&trace, script),
        "the same answers gave another outcome"
    );
}
