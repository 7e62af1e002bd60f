//! Queue orders: the priority order of the waiting jobs a start rule works through. A queue
//! order gives each waiting job a key from what a scheduler knows (smaller first); the
//! composition sorts the jobs by key, ties by arrival, as far as the start rule reads them
//! (`policy/queue.rs`). Arrival order needs no key: it is the engine's waiting list.
//!
//! Every value of the `queue` key is a row of [`QUEUE_VALUES`]: Zotkin, Keleher & Perkovic's
//! sorted and randomized orders (`zotkin.rs`), fairshare (`fairshare.rs`), priority
//! expressions (`expr.rs`: `queue=expr(EXPR)` and the stored ones, `queue=wfp3`...).
//!
//! To add a queue order: a file here with a type implementing [`QueueOrder`], and a row of
//! [`QUEUE_VALUES`] (its name, one line of help, the keys it takes, its constructor).
#![warn(missing_docs)]

mod expr;
mod fairshare;
mod slurm;
mod zotkin;

pub use expr::ExprOrder;
pub use fairshare::{Fairshare, DEFAULT_HALFLIFE};
pub use slurm::SlurmPriority;
pub(crate) use slurm::{priority_in_part, priority_key, tier_key};
pub use zotkin::{Criterion, Zotkin};

use super::keys::{KeyInfo, Params, Values};
use super::SpecError;
use crate::expr::{self as pexpr, Expr};
use crate::sim::{Ctx, Jobs};

/// A priority order of the waiting queue, as a key per job: smaller first, ties by arrival.
///
/// ```
/// use schedlab::policy::order::QueueOrder;
/// use schedlab::sim::Ctx;
///
/// /// Widest job first.
/// struct Widest;
/// impl QueueOrder for Widest {
///     fn key(&mut self, c: &Ctx<'_>, job: usize) -> f64 {
///         -f64::from(c.job(job).procs)
///     }
/// }
/// ```
pub trait QueueOrder {
    /// Called once before the simulation, with every job (orders that keep state per user).
    fn prepare(&mut self, _jobs: Jobs<'_>) {}
    /// Called at the start of every pass, before any key: take in what happened since the
    /// previous pass (`Ctx::happenings`), draw what is drawn at submission (`Ctx::rng`).
    fn begin(&mut self, _c: &mut Ctx<'_>) {}
    /// The key of waiting job `job` for this pass (IEEE total order: a NaN after every
    /// number). Asked once per waiting job and pass, in arrival order.
    fn key(&mut self, c: &Ctx<'_>, job: usize) -> f64;
    /// Called at the end of a pass with the jobs started in it, in queue order.
    fn started(&mut self, _c: &Ctx<'_>, _jobs: &[usize]) {}
}

/// A value of the `queue` key.
pub struct QueueValue {
    /// Its name (`queue=sjf`).
    pub name: &'static str,
    /// One line on the order it gives.
    pub help: &'static str,
    /// The order's own keys besides `queue` (each must be in [`ORDER_KEYS`]).
    pub keys: &'static [&'static str],
    /// Builds the order from the spec's values (`None`: arrival order).
    pub build: BuildOrder,
}

/// Builds a queue order from a spec's values; `None`: arrival order.
pub type BuildOrder = fn(&Params) -> Result<Option<Box<dyn QueueOrder>>, SpecError>;

/// Every named value of the `queue` key; `expr(EXPR)` and the stored expressions
/// ([`crate::expr::PRESETS`]) come after them.
pub static QUEUE_VALUES: &[QueueValue] = &[
    QueueValue {
        name: "fcfs",
        help: "arrival order",
        keys: &[],
        build: |_| Ok(None),
    },
    QueueValue {
        name: "sjf",
        help: "shortest planning length first (Zotkin et al.)",
        keys: &["weight"],
        build: |p| zotkin::build(p, Criterion::Sjf),
    },
    QueueValue {
        name: "random",
        help: "a random number per job, drawn at submission (Zotkin et al.)",
        keys: &["weight"],
        build: |p| zotkin::build(p, Criterion::Random),
    },
    QueueValue {
        name: "random-length",
        help: "the random number divided by the length (Zotkin et al.)",
        keys: &["weight"],
        build: |p| zotkin::build(p, Criterion::RandomLength),
    },
    QueueValue {
        name: "width",
        help: "1 / (width x length) largest first (Zotkin et al.)",
        keys: &["weight"],
        build: |p| zotkin::build(p, Criterion::Width),
    },
    QueueValue {
        name: "fairshare",
        help: "the least decayed user usage first",
        keys: &["halflife"],
        build: fairshare::build,
    },
];

/// The names of the `queue` key's values: the table's, then the stored expressions.
pub fn value_names() -> Vec<&'static str> {
    QUEUE_VALUES
        .iter()
        .map(|v| v.name)
        .chain(pexpr::PRESETS.iter().map(|p| p.name))
        .collect()
}

/// The `queue` key.
pub const QUEUE: KeyInfo = KeyInfo {
    name: "queue",
    default: "fcfs",
    values: Values::Listed(|| value_names().join("|")),
    help: "priority order of the waiting queue (a value of the table, or expr(EXPR): a priority expression, smallest first)",
    presets: pexpr::PRESETS,
    examples: &["expr(procs*estimate)"],
};

/// The `weight` key.
pub const WEIGHT: KeyInfo = KeyInfo {
    name: "weight",
    default: "0",
    values: Values::Text("number >= 0"),
    help: "weighted-delay term against starvation: criterion + weight x seconds waited (Zotkin et al., section 8); 0 = off",
    presets: &[],
    examples: &["0.001"],
};

/// The `halflife` key.
pub const HALFLIFE: KeyInfo = KeyInfo {
    name: "halflife",
    default: DEFAULT_HALFLIFE,
    values: Values::Text("seconds > 0"),
    help: "half-life of the decay of a user's usage, seconds (queue=fairshare)",
    presets: &[],
    examples: &["3600"],
};

/// The keys of a policy that takes a queue order: `queue`, then every key a queue value takes.
pub const ORDER_KEYS: [KeyInfo; 3] = [QUEUE, WEIGHT, HALFLIFE];

/// Reads the `queue` key and the keys of its value; `None`: arrival order. A key of another
/// queue value is accepted only at its default.
pub fn parse(p: &Params) -> Result<Option<Box<dyn QueueOrder>>, SpecError> {
    let raw = p.raw("queue")?;
    let (takes, order) = match QUEUE_VALUES.iter().find(|v| v.name == raw) {
        Some(v) => {
            p.record("queue", v.name.to_string());
            (v.keys, (v.build)(p)?)
        }
        None => {
            let stored = pexpr::preset(raw).map(|pre| pre.expr);
            let Some(text) = raw
                .strip_prefix("expr(")
                .and_then(|e| e.strip_suffix(')'))
                .or(stored)
            else {
                return Err(p.error(format!(
                    "queue={raw} is not valid; valid values: {}, or expr(EXPR): a priority expression",
                    value_names().join(", ")
                )));
            };
            let e =
                Expr::parse(text).map_err(|e| p.error(format!("queue={raw}: {}", e.message)))?;
            let canon = match stored {
                Some(_) => raw.to_string(),
                None => format!("expr({})", e.text()),
            };
            p.record("queue", canon);
            let order: Box<dyn QueueOrder> = Box::new(ExprOrder::new(e));
            // An expression takes no key of its own.
            (&[][..], Some(order))
        }
    };
    for key in &ORDER_KEYS[1..] {
        if takes.contains(&key.name) {
            continue;
        }
        if p.raw(key.name)?.trim().parse::<f64>().ok() != key.default.parse::<f64>().ok() {
            let owners: Vec<&str> = QUEUE_VALUES
                .iter()
                .filter(|v| v.keys.contains(&key.name))
                .map(|v| v.name)
                .collect();
            return Err(p.error(format!(
                "{} does not apply to queue={raw}; it is a key of queue={}",
                key.name,
                owners.join(", queue=")
            )));
        }
        p.record(key.name, key.default.to_string());
    }
    Ok(order)
}

/// Reads `halflife` (seconds, > 0).
pub fn halflife(p: &Params) -> Result<f64, SpecError> {
    p.number("halflife", |v| v > 0.0, "a number of seconds > 0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_queue_values() {
        let values = value_names();
        for p in pexpr::PRESETS {
            assert!(
                values.contains(&p.name),
                "{} not in the queue values",
                p.name
            );
        }
        assert_eq!(QUEUE.presets.len(), pexpr::PRESETS.len());
    }

    #[test]
    fn the_order_keys_are_the_queue_values_keys() {
        for v in QUEUE_VALUES {
            for k in v.keys {
                assert!(ORDER_KEYS.iter().any(|o| o.name == *k), "{}: {k}", v.name);
            }
        }
        for k in &ORDER_KEYS[1..] {
            assert!(
                QUEUE_VALUES.iter().any(|v| v.keys.contains(&k.name)),
                "no queue value takes {}",
                k.name
            );
        }
    }
}
