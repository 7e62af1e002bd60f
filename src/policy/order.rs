//! Queue orders of Zotkin, Keleher & Perkovic ("Attacking the bottlenecks of backfilling
//! schedulers"): arrival, shortest first, random, random / length, and length x width, each
//! optionally with their weighted-delay term against starvation (section 8):
//! `criterion = preferred criterion + weight x delay`, largest criterion first.
//!
//! Shared by `fcfs`, `easy` and `conservative` (`queue=` and `weight=` keys). A job's length is
//! what the policy plans with (its predictor's value; the requested time by default).

use super::{Params, SpecError};
use crate::predict::Predictor;
use crate::sim::{Ctx, Happening};
use crate::Time;
use rand::Rng;

/// The `queue` key.
pub(super) const QUEUE_VALUES: &str = "fcfs|sjf|random|random-length|width";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

/// A configured queue order with its per-job random numbers.
pub struct Orderer {
    order: QueueOrder,
    weight: f64,
    random: Vec<f64>,
    keyed: Vec<(f64, usize)>,
}

/// The canonical values of the `queue` and `weight` keys.
pub(super) type OrderKeys = [(&'static str, String); 2];

/// Parses the `queue` and `weight` keys; returns the orderer and their canonical values.
pub(super) fn parse(p: &Params) -> Result<(Orderer, OrderKeys), SpecError> {
    let order = match p.choice("queue")? {
        "sjf" => QueueOrder::Sjf,
        "random" => QueueOrder::Random,
        "random-length" => QueueOrder::RandomLength,
        "width" => QueueOrder::Width,
        _ => QueueOrder::Fcfs,
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
    let canon = [
        ("queue", p.raw("queue").to_string()),
        ("weight", format!("{weight}")),
    ];
    Ok((
        Orderer {
            order,
            weight,
            random: Vec::new(),
            keyed: Vec::new(),
        },
        canon,
    ))
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
        let base = match self.order {
            QueueOrder::Fcfs => 0.0,
            QueueOrder::Sjf => 1.0 / len,
            QueueOrder::Random => self.random[j],
            QueueOrder::RandomLength => self.random[j] / len,
            QueueOrder::Width => 1.0 / (f64::from(width) * len),
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

/// The `queue` key as listed in the catalogue.
pub(super) const QUEUE: super::KeyInfo = super::KeyInfo {
    name: "queue",
    default: "fcfs",
    values: QUEUE_VALUES,
    help: "priority order of the waiting queue (Zotkin et al.): fcfs = arrival; sjf = shortest length first; random = a random number per job (seeded, drawn at submission); random-length = that number divided by the length; width = 1 / (width x length), the job's weight in the width-normalized slowdown. The length is the planning runtime (the predictor's value; the requested time by default)",
};

/// The `weight` key as listed in the catalogue.
pub(super) const WEIGHT: super::KeyInfo = super::KeyInfo {
    name: "weight",
    default: "0",
    values: "number >= 0",
    help: "weighted-delay term against starvation: criterion + weight x seconds waited, largest first; a job of length r is overtaken by no newer job after (r - r_min) / (weight x r_min x r) seconds in sjf order (Zotkin et al., section 8). 0 = off",
};
