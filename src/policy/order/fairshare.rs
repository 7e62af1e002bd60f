//! Fairshare: waiting jobs ordered by their user's recent usage, least first, ties by arrival;
//! re-ordered at every scheduling pass (`queue=fairshare,halflife=S`; the `fairshare-fcfs` and
//! `fairshare-easy` policies).
//!
//! Decisions (the user-aware-metrics paper only says priorities are "updated continuously as
//! jobs are being processed", after Maui):
//! - A user's usage is processor-seconds, exponentially decayed with half-life `halflife`
//!   seconds: a processor-second used `a` seconds ago counts `2^(-a / halflife)`.
//! - Usage accrues continuously while a job runs, not when it starts or ends: between events a
//!   user running `R` processors has `U(t + d) = U(t) e^(-l d) + R (1 - e^(-l d)) / l` with
//!   `l = ln 2 / halflife`. Jobs started in a pass therefore do not change the order within
//!   that pass (no time passes); they weigh from the next instant on.
//! - Every user has the same share, so the priority is the usage itself.
//! - Usages stay comparable at any age: besides the usage itself each user keeps its natural
//!   logarithm, decayed exactly (`ln U - l d`), so a user idle for thousands of half-lives,
//!   whose usage underflows to 0, still ranks behind a user who never ran and against other
//!   idle users by how much and how long ago they used the machine. Usages of at least
//!   [`TINY`] compare by value, smaller ones by logarithm (below every value of at least TINY).
//! - The key of a job is its user's usage at the pass (a user's key is computed once a pass).

use super::QueueOrder;
use crate::policy::keys::Params;
use crate::policy::SpecError;
use crate::sim::{Ctx, Happening, Jobs};
use crate::Time;
use std::collections::HashMap;

/// The default half-life of usage, seconds (one day).
pub const DEFAULT_HALFLIFE: &str = "86400";

/// Usages below this compare by their logarithm (far above the subnormal range, where the
/// decayed value loses precision before it reaches 0).
const TINY: f64 = 1e-250;

#[derive(Debug, Clone, Copy)]
struct Usage {
    /// Decayed usage at `at`, processor-seconds.
    value: f64,
    /// Its natural logarithm (-inf: never ran), decayed without underflow.
    log: f64,
    /// Processors running now.
    running: f64,
    at: Time,
}

impl Default for Usage {
    fn default() -> Self {
        Self {
            value: 0.0,
            log: f64::NEG_INFINITY,
            running: 0.0,
            at: 0,
        }
    }
}

/// ln(e^a + e^b), exact when either is -inf.
fn log_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// Users' usage.
pub struct Fairshare {
    lambda: f64,
    job_user: Vec<u32>,
    usage: Vec<Usage>,
    /// Per user: its key in the pass `key_pass` says (the key is computed once a pass).
    key: Vec<f64>,
    key_pass: Vec<u64>,
    /// The current pass (counted from 1).
    pass: u64,
}

impl Fairshare {
    /// Usage decayed with `halflife` seconds.
    pub fn new(halflife: f64) -> Self {
        Self {
            lambda: std::f64::consts::LN_2 / halflife,
            job_user: Vec::new(),
            usage: Vec::new(),
            key: Vec::new(),
            key_pass: Vec::new(),
            pass: 0,
        }
    }

    /// The decayed usage of user `u` at `now`.
    fn usage_at(&self, u: usize, now: Time) -> f64 {
        let s = &self.usage[u];
        let x = self.lambda * (now - s.at) as f64;
        // 1 - e^-x as -expm1(-x): exact for the small x of long half-lives.
        s.value * (-x).exp() - s.running * (-x).exp_m1() / self.lambda
    }

    /// The logarithm of the decayed usage of user `u` at `now`.
    fn log_usage_at(&self, u: usize, now: Time) -> f64 {
        let s = &self.usage[u];
        let x = self.lambda * (now - s.at) as f64;
        let accrued = -s.running * (-x).exp_m1() / self.lambda;
        let accrued = if accrued > 0.0 {
            accrued.ln()
        } else {
            f64::NEG_INFINITY
        };
        log_add(s.log - x, accrued)
    }

    /// The priority key of user `u` at `now` (smaller first): the usage, or below [`TINY`]
    /// its logarithm (negative: below every usage of at least TINY).
    fn user_key(&self, u: usize, now: Time) -> f64 {
        let v = self.usage_at(u, now);
        if v >= TINY {
            v
        } else {
            self.log_usage_at(u, now)
        }
    }

    /// Brings user `u`'s usage to `now` and changes its running processors by `delta`.
    fn account(&mut self, u: usize, now: Time, delta: f64) {
        let value = self.usage_at(u, now);
        let log = self.log_usage_at(u, now);
        let s = &mut self.usage[u];
        s.value = value;
        s.log = log;
        s.at = now;
        s.running = (s.running + delta).max(0.0);
    }

    /// Takes in what happened since the previous pass (arrivals, ends, preemptions).
    fn observe(&mut self, c: &Ctx<'_>) {
        let now = c.now();
        for h in c.happenings() {
            match *h {
                Happening::Finished { job, .. } => {
                    let procs = f64::from(c.job(job).procs);
                    self.account(self.job_user[job] as usize, now, -procs);
                }
                Happening::Preempted(job) => {
                    let procs = f64::from(c.job(job).procs);
                    self.account(self.job_user[job] as usize, now, -procs);
                }
                Happening::Submitted(_) | Happening::PlanExtended { .. } => {}
            }
        }
    }
}

/// Reads the `halflife` key and builds the order.
pub(super) fn build(p: &Params) -> Result<Option<Box<dyn QueueOrder>>, SpecError> {
    Ok(Some(Box::new(Fairshare::new(super::halflife(p)?))))
}

impl QueueOrder for Fairshare {
    fn prepare(&mut self, jobs: Jobs<'_>) {
        let mut slot: HashMap<i64, u32> = HashMap::new();
        self.job_user = jobs
            .iter()
            .map(|j| {
                let n = slot.len() as u32;
                *slot.entry(j.user).or_insert(n)
            })
            .collect();
        self.usage = vec![Usage::default(); slot.len()];
        self.key = vec![0.0; slot.len()];
        self.key_pass = vec![0; slot.len()];
    }

    fn begin(&mut self, c: &mut Ctx<'_>) {
        self.observe(c);
        self.pass += 1;
    }

    /// The user's usage now (computed for the user's first job of the pass).
    fn key(&mut self, c: &Ctx<'_>, j: usize) -> f64 {
        let u = self.job_user[j] as usize;
        if self.key_pass[u] != self.pass {
            self.key[u] = self.user_key(u, c.now());
            self.key_pass[u] = self.pass;
        }
        self.key[u]
    }

    /// The jobs started in the pass: their users' usage starts accruing.
    fn started(&mut self, c: &Ctx<'_>, jobs: &[usize]) {
        let now = c.now();
        for &j in jobs {
            let u = self.job_user[j] as usize;
            self.account(u, now, f64::from(c.job(j).procs));
        }
    }
}
