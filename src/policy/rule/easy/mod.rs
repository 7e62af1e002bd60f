//! EASY backfilling (GUIDE section 3) over a queue order: jobs start in queue order while they
//! fit; the first that does not fit gets a reservation at its shadow time; the others are
//! tried for backfilling in the backfill order (`order=fcfs|sjf|spf`) and start if they end by
//! the shadow time (by their estimate) or fit in the extra processors.
#![warn(missing_docs)]

mod index;

use super::StartRule;
use crate::policy::blocks::heads::start_heads;
use crate::policy::blocks::shadow::{backfill, backfill_queue, reserve_head_cached, ShadowCache};
use crate::policy::queue::Queue;
use crate::policy::{KeyInfo, Params, SpecError, Values};
use crate::sim::{Ctx, SimError};
use index::BackfillIndex;

/// The order in which EASY tries the jobs behind the blocked head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackfillOrder {
    /// The queue order (arrival order by default).
    Fcfs,
    /// Shortest estimate first (the input's planning estimate; ties by arrival).
    Sjf,
    /// Shortest prediction first (ties by arrival).
    Spf,
}

/// The `order` key.
pub const ORDER: KeyInfo = KeyInfo {
    name: "order",
    default: "fcfs",
    values: Values::Text("fcfs|sjf|spf"),
    help: "order in which the jobs behind the blocked head are tried for backfilling: the queue order, shortest requested time first, or shortest prediction first",
    presets: &[],
    examples: &[],
};

/// EASY's start rule: the head loop, a reservation for the blocked head, backfilling.
pub struct Easy {
    order: BackfillOrder,
    candidates: Vec<usize>,
    shadow: ShadowCache,
    /// The waiting jobs indexed for backfilling in arrival order, when estimates stay fixed
    /// once a job waits.
    index: Option<BackfillIndex>,
}

impl Easy {
    /// The rule backfilling in `order`.
    pub fn new(order: BackfillOrder) -> Self {
        Self {
            order,
            candidates: Vec::new(),
            shadow: ShadowCache::default(),
            index: None,
        }
    }

    /// The rule planning with `predictor` (its canonical spec): with a predictor whose values
    /// stay fixed once a job waits, backfilling in arrival order goes through an index of the
    /// waiting jobs (the same starts, without reading the whole queue).
    pub fn planning_with(mut self, predictor: &str) -> Self {
        let fixed = crate::predict::Predictor::parse(predictor).is_ok_and(|p| p.fixed());
        self.index = (fixed && self.order == BackfillOrder::Fcfs).then(BackfillIndex::default);
        self
    }

    /// Reads the `order` key.
    pub fn parse(p: &Params) -> Result<Self, SpecError> {
        let order = match p.choice("order")? {
            "sjf" => BackfillOrder::Sjf,
            "spf" => BackfillOrder::Spf,
            _ => BackfillOrder::Fcfs,
        };
        Ok(Self::new(order))
    }
}

impl StartRule for Easy {
    /// The queue is read up to the blocked head, then (in queue order) only while a processor
    /// is free; the sorted backfill orders read it whole.
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        if let Some(index) = self.index.as_mut() {
            if !BackfillIndex::holds(c, queue) {
                self.index = None;
            } else if BackfillIndex::long(c) {
                return indexed_pass(index, &mut self.shadow, c, queue);
            }
        }
        let first = start_heads(c, queue)?;
        let Some(head) = queue.get(c, first) else {
            return Ok(());
        };
        let Some(shadow) = reserve_head_cached(c, head, &mut self.shadow) else {
            return Ok(());
        };
        if self.order == BackfillOrder::Fcfs {
            return backfill_queue(c, shadow, queue, first + 1);
        }
        self.candidates.clear();
        self.candidates
            .extend_from_slice(&queue.all(c)[first + 1..]);
        match self.order {
            BackfillOrder::Sjf => self.candidates.sort_by_key(|&j| (c.job(j).estimate, j)),
            _ => self.candidates.sort_by_key(|&j| (c.estimate(j), j)),
        }
        backfill(c, shadow, self.candidates.iter().copied())
    }
}

/// A pass of a long queue in arrival order: the heads, then backfilling through the index.
#[inline(never)]
fn indexed_pass(
    index: &mut BackfillIndex,
    cache: &mut ShadowCache,
    c: &mut Ctx<'_>,
    queue: &mut Queue<'_>,
) -> Result<(), SimError> {
    index.update(c);
    let first = start_heads(c, queue)?;
    for &j in &queue.from(c, 0)[..first] {
        index.remove(c, j);
    }
    let Some(head) = queue.get(c, first) else {
        return Ok(());
    };
    match reserve_head_cached(c, head, cache) {
        Some(shadow) => index.backfill(c, head, shadow),
        None => Ok(()),
    }
}
