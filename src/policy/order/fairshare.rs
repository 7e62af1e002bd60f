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
//! - The order is the merge of the users' queues (each in arrival order) by (usage, arrival),
//!   produced from a heap up to the most jobs the start rule looks at.

use super::QueueOrder;
use crate::sim::{Ctx, Happening, Jobs};
use crate::Time;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

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

/// Not in the list of active users.
const NONE: u32 = u32::MAX;

/// A priority key ordered like the usage: `(0, log order)` below [`TINY`], `(1, value bits)` at
/// or above it.
type Key = (u8, u64);

/// An order-preserving map of a finite or infinite f64 to u64.
fn ordered_bits(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

/// Users' usage and queues.
pub struct Fairshare {
    lambda: f64,
    job_user: Vec<u32>,
    usage: Vec<Usage>,
    /// Per user: waiting jobs in arrival order.
    queues: Vec<VecDeque<usize>>,
    /// Users with waiting jobs (any order), and each user's place in it (`NONE`: absent).
    active: Vec<u32>,
    place: Vec<u32>,
    /// Merge heap of the current pass: (usage key, job, user, position in its queue).
    heap: BinaryHeap<Reverse<(Key, usize, u32, usize)>>,
}

impl Fairshare {
    pub fn new(halflife: f64) -> Self {
        Self {
            lambda: std::f64::consts::LN_2 / halflife,
            job_user: Vec::new(),
            usage: Vec::new(),
            queues: Vec::new(),
            active: Vec::new(),
            place: Vec::new(),
            heap: BinaryHeap::new(),
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

    /// The priority key of user `u` at `now` (smaller first).
    fn key(&self, u: usize, now: Time) -> Key {
        let v = self.usage_at(u, now);
        if v >= TINY {
            (1, v.to_bits())
        } else {
            (0, ordered_bits(self.log_usage_at(u, now)))
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

    fn enqueue(&mut self, j: usize) {
        let u = self.job_user[j];
        let q = &mut self.queues[u as usize];
        if let Err(pos) = q.binary_search(&j) {
            q.insert(pos, j);
        }
        if self.place[u as usize] == NONE {
            self.place[u as usize] = self.active.len() as u32;
            self.active.push(u);
        }
    }

    /// User `u` has no waiting job left.
    fn deactivate(&mut self, u: usize) {
        let at = self.place[u] as usize;
        self.active.swap_remove(at);
        if let Some(&moved) = self.active.get(at) {
            self.place[moved as usize] = at as u32;
        }
        self.place[u] = NONE;
    }

    /// Takes in what happened since the previous pass (arrivals, ends, preemptions).
    fn observe(&mut self, c: &Ctx<'_>) {
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
        self.queues = vec![VecDeque::new(); slot.len()];
        self.active.clear();
        self.place = vec![NONE; slot.len()];
    }

    /// Every user with waiting jobs keyed by its usage now; the users' queues are merged as
    /// the rule reads ([`QueueOrder::extend`]): a pass that reads the first few jobs costs
    /// O(users with waiting jobs x log).
    fn begin(&mut self, c: &mut Ctx<'_>) {
        self.observe(c);
        let now = c.now();
        self.heap.clear();
        // Keys are unique (a job each): the heap's order does not depend on the users' order.
        for i in 0..self.active.len() {
            let u = self.active[i];
            if let Some(&first) = self.queues[u as usize].front() {
                let key = self.key(u as usize, now);
                self.heap.push(Reverse((key, first, u, 0)));
            }
        }
    }

    fn extend(&mut self, _c: &Ctx<'_>, out: &mut Vec<usize>, upto: usize) {
        while out.len() < upto {
            let Some(Reverse((key, job, u, pos))) = self.heap.pop() else {
                return;
            };
            if let Some(&after) = self.queues[u as usize].get(pos + 1) {
                self.heap.push(Reverse((key, after, u, pos + 1)));
            }
            out.push(job);
        }
    }

    /// Jobs of the order no longer waiting were started: their users' usage starts accruing.
    fn settle(&mut self, c: &Ctx<'_>, order: &[usize]) {
        let now = c.now();
        for &j in order {
            if c.waiting().binary_search(&j).is_ok() {
                continue;
            }
            let u = self.job_user[j] as usize;
            self.account(u, now, f64::from(c.job(j).procs));
            let q = &mut self.queues[u];
            if let Ok(pos) = q.binary_search(&j) {
                q.remove(pos);
                if q.is_empty() {
                    self.deactivate(u);
                }
            }
        }
    }
}
