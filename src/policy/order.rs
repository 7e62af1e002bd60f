//! Queue orders of Zotkin, Keleher & Perkovic ("Attacking the bottlenecks of backfilling
//! schedulers"): arrival, shortest first, random, random / length, and length x width, each
//! optionally with their weighted-delay term against starvation (section 8):
//! `criterion = preferred criterion + weight x delay`, largest criterion first.
//!
//! Shared by `fcfs`, `easy` and `conservative` (`queue=` and `weight=` keys). A job's length is
//! what the policy plans with (its predictor's value; the requested time by default).
//!
//! A priority expression (`queue=expr(EXPR)`, or a stored one: `queue=wfp3`, see
//! [`crate::expr::PRESETS`]) orders the other way: smallest value first, NaN last, ties by
//! arrival.

use super::{Params, SpecError};
use crate::expr::{self, Expr, Vars};
use crate::predict::Predictor;
use crate::sim::{Ctx, Happening};
use crate::Time;
use rand::Rng;

/// The `queue` key's named values: the built-in orders, then the stored expressions
/// ([`crate::expr::PRESETS`], checked by a test).
pub(super) const QUEUE_VALUES: &str =
    "fcfs|sjf|random|random-length|width|wfp3|unicep|saf|f1|f2|f3|f4";

#[derive(Debug, Clone, PartialEq)]
enum QueueOrder {
    /// Arrival order.
    Fcfs,
    /// Shortest length first: criterion 1 / length.
    Sjf,
    /// A random number per job, drawn at submission: criterion U[0, 1).
    Random,
    /// Criterion U[0, 1) / length.
    RandomLength,
    /// Criterion 1 / (width x length): the job's weight in the width-normalized slowdown.
    Width,
    /// A priority expression: smallest value first.
    Expr(Box<Expr>),
}

/// A configured queue order with its per-job random numbers.
pub struct Orderer {
    order: QueueOrder,
    weight: f64,
    random: Vec<f64>,
    keyed: Vec<(f64, usize)>,
    /// Evaluation stack of an expression order.
    stack: Vec<f64>,
}

/// The canonical values of the `queue` and `weight` keys.
pub(super) type OrderKeys = [(&'static str, String); 2];

/// Parses the `queue` and `weight` keys; returns the orderer and their canonical values.
pub(super) fn parse(p: &Params) -> Result<(Orderer, OrderKeys), SpecError> {
    let raw_queue = p.raw("queue");
    let order = if let Some(e) = expression(raw_queue) {
        let e = Expr::parse(e).map_err(|e| p.error(format!("queue={raw_queue}: {}", e.message)))?;
        QueueOrder::Expr(Box::new(e))
    } else if let Some(pre) = expr::preset(raw_queue) {
        QueueOrder::Expr(Box::new(
            Expr::parse(pre.expr).expect("stored expressions parse (tested)"),
        ))
    } else {
        match p.choice("queue").map_err(|e| {
            p.error(format!(
                "{}, or expr(EXPR): a priority expression",
                e.reason
            ))
        })? {
            "sjf" => QueueOrder::Sjf,
            "random" => QueueOrder::Random,
            "random-length" => QueueOrder::RandomLength,
            "width" => QueueOrder::Width,
            _ => QueueOrder::Fcfs,
        }
    };
    let raw = p.raw("weight");
    let weight = raw
        .parse::<f64>()
        .ok()
        .filter(|w| w.is_finite() && *w >= 0.0)
        .ok_or_else(|| p.error(format!("weight={raw} is not a number >= 0")))?;
    if weight > 0.0 && order == QueueOrder::Fcfs {
        return Err(p.error(
            "weight needs a queue order other than fcfs (arrival order already favours the longest delay)"
                .into(),
        ));
    }
    if weight > 0.0 && matches!(order, QueueOrder::Expr(_)) {
        return Err(p.error(
            "weight does not apply to an expression order (smallest value first): write the delay term into the expression, e.g. expr(estimate - 0.01*wait)"
                .into(),
        ));
    }
    let queue = match (&order, expression(raw_queue)) {
        (QueueOrder::Expr(e), Some(_)) => format!("expr({})", e.text()),
        _ => raw_queue.to_string(),
    };
    let canon = [("queue", queue), ("weight", format!("{weight}"))];
    Ok((
        Orderer {
            order,
            weight,
            random: Vec::new(),
            keyed: Vec::new(),
            stack: Vec::new(),
        },
        canon,
    ))
}

/// The expression of a `queue` value written `expr(EXPR)`.
fn expression(v: &str) -> Option<&str> {
    v.strip_prefix("expr(")?.strip_suffix(')')
}

impl Orderer {
    /// True for arrival order: the waiting list is already in order.
    fn is_arrival(&self) -> bool {
        self.order == QueueOrder::Fcfs
    }

    /// Begins a pass: the predictor and this order take in what happened, and `out` receives
    /// the waiting jobs in queue order, their lengths being the predictor's values.
    pub fn begin_pass(&mut self, c: &mut Ctx<'_>, predictor: &mut Predictor, out: &mut Vec<usize>) {
        predictor.observe(c);
        self.observe(c);
        let jobs = c.jobs();
        self.sort(c, |j| predictor.predict(j, &jobs[j]), out);
    }

    /// Draws the random numbers of the jobs submitted since the previous pass (random orders
    /// only), from the simulation's generator; call once at the start of every pass.
    fn observe(&mut self, c: &mut Ctx<'_>) {
        if !matches!(self.order, QueueOrder::Random | QueueOrder::RandomLength) {
            return;
        }
        if self.random.len() < c.jobs().len() {
            self.random.resize(c.jobs().len(), 0.0);
        }
        let n = c.happenings().len();
        for i in 0..n {
            if let Happening::Submitted(j) = c.happenings()[i] {
                self.random[j] = c.rng().random::<f64>();
            }
        }
    }

    /// The criterion of job `j` at time `now` (larger first), given its length and width.
    fn criterion(&self, j: usize, length: Time, width: u32, delay: Time) -> f64 {
        let len = length.max(1) as f64;
        let base = match &self.order {
            QueueOrder::Fcfs => 0.0,
            QueueOrder::Sjf => 1.0 / len,
            QueueOrder::Random => self.random[j],
            QueueOrder::RandomLength => self.random[j] / len,
            QueueOrder::Width => 1.0 / (f64::from(width) * len),
            // sorted by their values in `sort`, never through this criterion
            QueueOrder::Expr(_) => 0.0,
        };
        base + self.weight * delay.max(0) as f64
    }

    /// Fills `out` with the waiting jobs in queue order (ties by arrival), given each job's
    /// length.
    fn sort(&mut self, c: &Ctx<'_>, length: impl Fn(usize) -> Time, out: &mut Vec<usize>) {
        out.clear();
        if self.is_arrival() {
            out.extend_from_slice(c.waiting());
            return;
        }
        let now = c.now();
        self.keyed.clear();
        if let QueueOrder::Expr(e) = &self.order {
            for &j in c.waiting() {
                let v = e.eval_with(&variables(c.job(j), length(j), now), &mut self.stack);
                self.keyed.push((expr::order_key(v), j));
            }
            self.keyed
                .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            out.extend(self.keyed.iter().map(|&(_, j)| j));
            return;
        }
        for &j in c.waiting() {
            let job = c.job(j);
            let k = self.criterion(j, length(j), job.procs, now - job.submit);
            self.keyed.push((k, j));
        }
        self.keyed
            .sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        out.extend(self.keyed.iter().map(|&(_, j)| j));
    }
}

/// The variables of a priority expression for `job` at `now`, its planning length being
/// `estimate`.
fn variables(job: &crate::input::Job, estimate: Time, now: Time) -> Vars {
    Vars::new(
        (now - job.submit) as f64,
        estimate as f64,
        job.requested.unwrap_or(job.estimate) as f64,
        f64::from(job.procs),
        job.submit as f64,
        job.user as f64,
        now as f64,
    )
}

/// The `queue` key as listed in the catalogue.
pub(super) const QUEUE: super::KeyInfo = super::KeyInfo {
    name: "queue",
    default: "fcfs",
    values: QUEUE_VALUES,
    help: "priority order of the waiting queue (Zotkin et al.): fcfs = arrival; sjf = shortest length first; random = a random number per job (seeded, drawn at submission); random-length = that number divided by the length; width = 1 / (width x length), the job's weight in the width-normalized slowdown. The length is the planning runtime (the predictor's value; the requested time by default). expr(EXPR): a priority expression, smallest value first, ties by arrival; variables wait (seconds waited), estimate (the planning length), requested (the requested time), procs, submit (seconds from the time origin), user (id), now; numbers, + - * / ^, parentheses, log2 log10 ln sqrt exp abs min(a,b) max(a,b) pow(a,b); at most 400 characters; IEEE doubles: x/0 is an infinity, ordered like any value, and a NaN (0/0, sqrt(-1)) orders after every number. wfp3, unicep, saf, f1 .. f4 are stored expressions (listed with the key)",
    presets: expr::PRESETS,
};

/// The `weight` key as listed in the catalogue.
pub(super) const WEIGHT: super::KeyInfo = super::KeyInfo {
    name: "weight",
    default: "0",
    values: "number >= 0",
    help: "weighted-delay term against starvation: criterion + weight x seconds waited, largest first; a job of length r is overtaken by no newer job after (r - r_min) / (weight x r_min x r) seconds in sjf order (Zotkin et al., section 8). 0 = off",
    presets: &[],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_queue_values_and_documented() {
        let values: Vec<&str> = QUEUE_VALUES.split('|').collect();
        for p in expr::PRESETS {
            assert!(values.contains(&p.name), "{} not in QUEUE_VALUES", p.name);
        }
        assert_eq!(QUEUE.presets.len(), expr::PRESETS.len());
        assert_eq!(values.len(), 5 + expr::PRESETS.len());
    }
}
