//! Fairshare priority, shared by `fairshare-fcfs` and `fairshare-easy`: waiting jobs ordered by
//! their user's recent usage, least first, ties by arrival; re-ordered at every scheduling pass.
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
//! - The order is the merge of the users' queues (each in arrival order) by (usage, arrival),
//!   produced lazily from a heap, so a pass that looks at the first few jobs costs
//!   O(users with waiting jobs x log) whatever the queue's length.

use super::{Params, SpecError};
use crate::input::Job;
use crate::sim::{Ctx, Happening};
use crate::Time;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

/// The default half-life of usage, seconds (one day).
pub(super) const DEFAULT_HALFLIFE: &str = "86400";

#[derive(Debug, Clone, Copy, Default)]
struct Usage {
    /// Decayed usage at `at`, processor-seconds.
    value: f64,
    /// Processors running now.
    running: f64,
    at: Time,
}

/// Users' usage and queues, and the priority order of one pass.
pub(super) struct Fairshare {
    lambda: f64,
    job_user: Vec<u32>,
    usage: Vec<Usage>,
    /// Per user: waiting jobs in arrival order.
    queues: Vec<VecDeque<usize>>,
    /// Merge heap of the current pass: (usage bits, job, user, position in its queue).
    heap: BinaryHeap<Reverse<(u64, usize, u32, usize)>>,
    /// Jobs handed out in the current pass.
    handed: Vec<usize>,
}

/// Reads `halflife` (seconds, > 0) and returns it with its canonical text.
pub(super) fn halflife(p: &Params) -> Result<(f64, String), SpecError> {
    let raw = p.raw("halflife");
    match raw.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok((v, format!("{v}"))),
        _ => Err(p.error(format!(
            "halflife={raw} is not valid; valid values: a number of seconds > 0"
        ))),
    }
}

impl Fairshare {
    pub(super) fn new(halflife: f64) -> Self {
        Self {
            lambda: std::f64::consts::LN_2 / halflife,
            job_user: Vec::new(),
            usage: Vec::new(),
            queues: Vec::new(),
            heap: BinaryHeap::new(),
            handed: Vec::new(),
        }
    }

    pub(super) fn prepare(&mut self, jobs: &[Job]) {
        let mut slot: HashMap<i64, u32> = HashMap::new();
        self.job_user = jobs
            .iter()
            .map(|j| {
                let n = slot.len() as u32;
                *slot.entry(j.user).or_insert(n)
            })
            .collect();
        self.usage = vec![Usage::default(); slot.len()];
        self.queues = vec![VecDeque::new(); slot.len()];
    }

    /// The decayed usage of user `u` at `now`.
    fn usage_at(&self, u: usize, now: Time) -> f64 {
        let s = &self.usage[u];
        let x = self.lambda * (now - s.at) as f64;
        // 1 - e^-x as -expm1(-x): exact for the small x of long half-lives.
        s.value * (-x).exp() - s.running * (-x).exp_m1() / self.lambda
    }

    /// Brings user `u`'s usage to `now` and changes its running processors by `delta`.
    fn account(&mut self, u: usize, now: Time, delta: f64) {
        let value = self.usage_at(u, now);
        let s = &mut self.usage[u];
        s.value = value;
        s.at = now;
        s.running = (s.running + delta).max(0.0);
    }

    fn enqueue(&mut self, j: usize) {
        let q = &mut self.queues[self.job_user[j] as usize];
        if let Err(pos) = q.binary_search(&j) {
            q.insert(pos, j);
        }
    }

    /// Takes in what happened since the previous pass (arrivals, ends, preemptions).
    pub(super) fn observe(&mut self, c: &Ctx<'_>) {
        let now = c.now();
        for h in c.happenings() {
            match *h {
                Happening::Submitted(j) => self.enqueue(j),
                Happening::Finished { job, .. } => {
                    let procs = f64::from(c.job(job).procs);
                    self.account(self.job_user[job] as usize, now, -procs);
                }
                Happening::Preempted(job) => {
                    let procs = f64::from(c.job(job).procs);
                    self.account(self.job_user[job] as usize, now, -procs);
                    self.enqueue(job);
                }
                Happening::PlanExtended { .. } => {}
            }
        }
    }

    /// Starts this pass's order: every user with waiting jobs, keyed by its usage now.
    pub(super) fn order(&mut self, now: Time) {
        self.heap.clear();
        self.handed.clear();
        for u in 0..self.queues.len() {
            if let Some(&first) = self.queues[u].front() {
                let key = self.usage_at(u, now);
                let bits = if key > 0.0 { key.to_bits() } else { 0 };
                self.heap.push(Reverse((bits, first, u as u32, 0)));
            }
        }
    }

    /// The next waiting job in priority order (each job once per pass).
    pub(super) fn next(&mut self) -> Option<usize> {
        let Reverse((key, job, u, pos)) = self.heap.pop()?;
        if let Some(&after) = self.queues[u as usize].get(pos + 1) {
            self.heap.push(Reverse((key, after, u, pos + 1)));
        }
        self.handed.push(job);
        Some(job)
    }

    /// Ends the pass: jobs handed out and no longer waiting were started; their users' usage
    /// starts accruing now.
    pub(super) fn settle(&mut self, c: &Ctx<'_>) {
        let now = c.now();
        let handed = std::mem::take(&mut self.handed);
        for &j in &handed {
            if c.waiting().binary_search(&j).is_ok() {
                continue;
            }
            let u = self.job_user[j] as usize;
            self.account(u, now, f64::from(c.job(j).procs));
            let q = &mut self.queues[u];
            if let Ok(pos) = q.binary_search(&j) {
                q.remove(pos);
            }
        }
        self.handed = handed;
        self.handed.clear();
        self.heap.clear();
    }
}
