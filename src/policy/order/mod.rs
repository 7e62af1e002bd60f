//! Queue orders: the priority order of the waiting jobs a start rule works through. Arrival
//! order; Zotkin, Keleher & Perkovic's sorted and randomized orders with their weighted-delay
//! term (`zotkin.rs`); fairshare, the users' decayed usage (`fairshare.rs`). Keys `queue`,
//! `weight`, `halflife` of `fcfs`, `easy` and `conservative`.
//!
//! To add a queue order: a file here with a type implementing [`QueueOrder`], a value of the
//! `queue` key in [`QUEUE`] and [`parse`].

mod arrival;
mod fairshare;
mod zotkin;

pub use arrival::Arrival;
pub use fairshare::{Fairshare, DEFAULT_HALFLIFE};
pub use zotkin::Zotkin;

use super::{KeyInfo, KeyValues, Params, SpecError};
use crate::sim::{Ctx, Jobs};

/// A priority order of the waiting queue.
pub trait QueueOrder {
    /// Called once before the simulation.
    fn prepare(&mut self, _jobs: Jobs<'_>) {}
    /// Begins a pass: takes in what happened since the previous one and fills `out` with the
    /// waiting jobs, highest priority first; it may stop after the first `limit` jobs (the
    /// most the start rule looks at in this pass).
    fn order(&mut self, c: &mut Ctx<'_>, out: &mut Vec<usize>, limit: usize);
    /// Ends a pass: the jobs of `order` no longer waiting were started in it.
    fn settle(&mut self, _c: &Ctx<'_>, _order: &[usize]) {}
}

/// The `queue` key.
pub const QUEUE: KeyInfo = KeyInfo {
    name: "queue",
    default: "fcfs",
    values: "fcfs|sjf|random|random-length|width|fairshare",
    help: "priority order of the waiting queue: fcfs = arrival; sjf = shortest length first; random = a random number per job (seeded, drawn at submission); random-length = that number divided by the length; width = 1 / (width x length), the job's weight in the width-normalized slowdown (these four: Zotkin et al.; the length is the planning runtime, the predictor's value); fairshare = the least decayed user usage first (halflife=), ties by arrival",
};

/// The `weight` key.
pub const WEIGHT: KeyInfo = KeyInfo {
    name: "weight",
    default: "0",
    values: "number >= 0",
    help: "weighted-delay term against starvation: criterion + weight x seconds waited, largest first; a job of length r is overtaken by no newer job after (r - r_min) / (weight x r_min x r) seconds in sjf order (Zotkin et al., section 8). 0 = off",
};

/// The `halflife` key.
pub const HALFLIFE: KeyInfo = KeyInfo {
    name: "halflife",
    default: DEFAULT_HALFLIFE,
    values: "seconds > 0",
    help: "half-life of the exponential decay of a user's usage, seconds (queue=fairshare)",
};

/// The canonical values of the `queue`, `weight` and `halflife` keys.
pub type OrderKeys = KeyValues<3>;

/// Parses the `queue`, `weight` and `halflife` keys; returns the order and their canonical
/// values.
pub fn parse(p: &Params) -> Result<(Box<dyn QueueOrder>, OrderKeys), SpecError> {
    let queue = p.choice("queue")?;
    let raw = p.raw("weight");
    let weight = raw
        .parse::<f64>()
        .ok()
        .filter(|w| w.is_finite() && *w >= 0.0)
        .ok_or_else(|| p.error(format!("weight={raw} is not a number >= 0")))?;
    let (halflife, htext) = halflife(p)?;
    if weight > 0.0 && matches!(queue, "fcfs" | "fairshare") {
        return Err(p.error(format!(
            "weight needs a queue order of Zotkin et al. (sjf, random, random-length, width); queue={queue} has no weighted-delay term"
        )));
    }
    if htext != DEFAULT_HALFLIFE && queue != "fairshare" {
        return Err(
            p.error("halflife is the decay of queue=fairshare: it needs queue=fairshare".into())
        );
    }
    let order: Box<dyn QueueOrder> = match queue {
        "fcfs" => Box::new(Arrival),
        "fairshare" => Box::new(Fairshare::new(halflife)),
        other => Box::new(Zotkin::new(other, weight)),
    };
    Ok((
        order,
        [
            ("queue", queue.to_string()),
            ("weight", format!("{weight}")),
            ("halflife", htext),
        ],
    ))
}

/// Reads `halflife` (seconds, > 0) and returns it with its canonical text.
pub fn halflife(p: &Params) -> Result<(f64, String), SpecError> {
    let raw = p.raw("halflife");
    match raw.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok((v, format!("{v}"))),
        _ => Err(p.error(format!(
            "halflife={raw} is not valid; valid values: a number of seconds > 0"
        ))),
    }
}
