//! Queue orders: the priority order of the waiting jobs a start rule works through. Arrival
//! order; Zotkin, Keleher & Perkovic's sorted and randomized orders with their weighted-delay
//! term (`zotkin.rs`); fairshare, the users' decayed usage (`fairshare.rs`). Keys `queue`,
//! `weight`, `halflife` of `fcfs`, `easy` and `conservative`.
//!
//! Priority expressions (`expr.rs`): `queue=expr(EXPR)` and the stored ones (`queue=wfp3`...),
//! smallest value first.
//!
//! To add a queue order: a file here with a type implementing [`QueueOrder`], a value of the
//! `queue` key in [`QUEUE`] and [`parse`].

mod arrival;
mod expr;
mod fairshare;
mod zotkin;

pub use arrival::Arrival;
pub use expr::ExprOrder;
pub use fairshare::{Fairshare, DEFAULT_HALFLIFE};
pub use zotkin::Zotkin;

use super::{KeyInfo, KeyValues, Params, SpecError};
use crate::expr::{self as pexpr, Expr};
use crate::sim::{Ctx, Jobs};

/// A priority order of the waiting queue.
pub trait QueueOrder {
    /// Called once before the simulation.
    fn prepare(&mut self, _jobs: Jobs<'_>) {}
    /// Begins a pass: takes in what happened since the previous one (draws what it draws at
    /// submission) and fixes the order of the jobs waiting now.
    fn begin(&mut self, _c: &mut Ctx<'_>) {}
    /// Appends the next jobs of this pass's order to `out` (which holds the ones given so far)
    /// until it holds `upto` jobs or the order has none left; it may append more. Called only
    /// as far as the start rule reads the queue ([`crate::policy::queue::Queue`]), so an order
    /// that produces its jobs one by one costs only what is read. Jobs the rule started in the
    /// meantime were given already: the rest of the order is as it stood at [`Self::begin`].
    fn extend(&mut self, c: &Ctx<'_>, out: &mut Vec<usize>, upto: usize);
    /// Ends a pass: the jobs of `order` (those given) no longer waiting were started in it.
    fn settle(&mut self, _c: &Ctx<'_>, _order: &[usize]) {}
}

/// The `queue` key.
pub const QUEUE: KeyInfo = KeyInfo {
    name: "queue",
    default: "fcfs",
    values: "fcfs|sjf|random|random-length|width|fairshare|wfp3|unicep|saf|f1|f2|f3|f4",
    help: "priority order of the waiting queue: fcfs = arrival; sjf = shortest length first; random = a random number per job (seeded, drawn at submission); random-length = that number divided by the length; width = 1 / (width x length), the job's weight in the width-normalized slowdown (these four: Zotkin et al.; the length is the planning runtime, the predictor's value); fairshare = the least decayed user usage first (halflife=), ties by arrival. expr(EXPR): a priority expression, smallest value first, ties by arrival; variables wait (seconds waited), estimate (the planning length), requested (the requested time), procs, submit (seconds from the time origin), user (id), now; numbers, + - * / ^, parentheses, log2 log10 ln sqrt exp abs min(a,b) max(a,b) pow(a,b); at most 400 characters; IEEE doubles: x/0 is an infinity, ordered like any value, and a NaN (0/0, sqrt(-1)) orders after every number. wfp3, unicep, saf, f1 .. f4 are stored expressions (listed with the key)",
    presets: pexpr::PRESETS,
};

/// The `weight` key.
pub const WEIGHT: KeyInfo = KeyInfo {
    name: "weight",
    default: "0",
    values: "number >= 0",
    help: "weighted-delay term against starvation: criterion + weight x seconds waited, largest first; a job of length r is overtaken by no newer job after (r - r_min) / (weight x r_min x r) seconds in sjf order (Zotkin et al., section 8). 0 = off",
    presets: &[],
};

/// The `halflife` key.
pub const HALFLIFE: KeyInfo = KeyInfo {
    name: "halflife",
    default: DEFAULT_HALFLIFE,
    values: "seconds > 0",
    help: "half-life of the exponential decay of a user's usage, seconds (queue=fairshare)",
    presets: &[],
};

/// The canonical values of the `queue`, `weight` and `halflife` keys.
pub type OrderKeys = KeyValues<3>;

/// Parses the `queue`, `weight` and `halflife` keys; returns the order and their canonical
/// values.
pub fn parse(p: &Params) -> Result<(Box<dyn QueueOrder>, OrderKeys), SpecError> {
    let raw_queue = p.raw("queue");
    let stored = pexpr::preset(raw_queue).map(|pre| pre.expr);
    if let Some(text) = expression(raw_queue).or(stored) {
        let e =
            Expr::parse(text).map_err(|e| p.error(format!("queue={raw_queue}: {}", e.message)))?;
        if p.raw("weight").parse::<f64>() != Ok(0.0) {
            return Err(p.error(
                "weight does not apply to an expression order (smallest value first): write the delay term into the expression, e.g. expr(estimate - 0.01*wait)"
                    .into(),
            ));
        }
        let (_, htext) = halflife(p)?;
        if htext != DEFAULT_HALFLIFE {
            return Err(p.error(
                "halflife is the decay of queue=fairshare: it needs queue=fairshare".into(),
            ));
        }
        let canon = if stored.is_some() {
            raw_queue.to_string()
        } else {
            format!("expr({})", e.text())
        };
        return Ok((
            Box::new(ExprOrder::new(e)),
            [
                ("queue", canon),
                ("weight", "0".into()),
                ("halflife", htext),
            ],
        ));
    }
    let queue = p.choice("queue").map_err(|e| {
        p.error(format!(
            "{}, or expr(EXPR): a priority expression",
            e.reason
        ))
    })?;
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
        "fcfs" => Box::new(Arrival::default()),
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

/// The expression of a `queue` value written `expr(EXPR)`.
fn expression(v: &str) -> Option<&str> {
    v.strip_prefix("expr(")?.strip_suffix(')')
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_queue_values() {
        let values: Vec<&str> = QUEUE.values.split('|').collect();
        for p in pexpr::PRESETS {
            assert!(
                values.contains(&p.name),
                "{} not in the queue values",
                p.name
            );
        }
        assert_eq!(QUEUE.presets.len(), pexpr::PRESETS.len());
    }
}
