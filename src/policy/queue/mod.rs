//! The waiting queue of one scheduling pass in the policy's queue order, produced only as far
//! as the start rule reads it: a rule that stops at the first job that does not fit (fcfs), or
//! when no processor is left (EASY's backfilling), never pays for ordering the rest.
//!
//! Three sources: a queue given whole ([`Queue::fixed`]); arrival order, the engine's waiting
//! list read a head at a time (`arrival.rs`); and the jobs keyed by a queue order, sorted as
//! far as they are read (`sorted.rs`). [`QueueState`] is the per-policy state the composition
//! keeps from pass to pass.
#![warn(missing_docs)]

mod arrival;
mod sorted;

use crate::policy::order::QueueOrder;
use crate::sim::Ctx;
use arrival::Arrival;
use sorted::Sorted;

/// The queue order of one pass: job `i` is the `i`-th waiting job by priority as it stood when
/// the pass began.
pub struct Queue<'q> {
    src: Src<'q>,
    /// The jobs produced so far (not for [`Queue::fixed`]).
    jobs: Option<&'q mut Vec<usize>>,
    done: bool,
}

enum Src<'q> {
    Fixed(&'q [usize]),
    Arrival(&'q mut Arrival),
    Keyed(&'q mut Sorted),
}

impl<'q> Queue<'q> {
    /// A queue given whole (in priority order).
    pub fn fixed(jobs: &'q [usize]) -> Self {
        Self {
            src: Src::Fixed(jobs),
            jobs: None,
            done: true,
        }
    }

    /// The `i`-th job of the queue, if the queue has that many.
    #[inline]
    pub fn get(&mut self, c: &Ctx<'_>, i: usize) -> Option<usize> {
        self.from(c, i).first().copied()
    }

    /// The jobs from position `i` on produced so far: at least one when the queue has more
    /// than `i` jobs (empty: the queue has no more). Loops read it in chunks.
    #[inline]
    pub fn from<'s>(&'s mut self, c: &Ctx<'_>, i: usize) -> &'s [usize] {
        match (&mut self.src, &mut self.jobs) {
            (Src::Fixed(jobs), _) => jobs.get(i..).unwrap_or(&[]),
            (src, Some(jobs)) => {
                if i >= jobs.len() && !self.done {
                    extend(src, c, jobs, i + 1);
                    self.done = jobs.len() <= i;
                }
                jobs.get(i..).unwrap_or(&[])
            }
            (_, None) => &[],
        }
    }

    /// The whole queue.
    pub fn all<'s>(&'s mut self, c: &Ctx<'_>) -> &'s [usize] {
        match (&mut self.src, &mut self.jobs) {
            (Src::Fixed(jobs), _) => jobs,
            (src, Some(jobs)) => {
                if !self.done {
                    extend(src, c, jobs, usize::MAX);
                    self.done = true;
                }
                jobs
            }
            (_, None) => &[],
        }
    }
}

/// Appends the next jobs of a lazy source to `jobs` until it holds `upto` (or all).
fn extend(src: &mut Src<'_>, c: &Ctx<'_>, jobs: &mut Vec<usize>, upto: usize) {
    match src {
        Src::Fixed(_) => {}
        Src::Arrival(a) => a.extend(c, jobs, upto),
        Src::Keyed(s) => s.extend(jobs, upto),
    }
}

/// A policy's queue order and what it keeps from pass to pass: the jobs read in a pass, and
/// the keyed jobs of a queue order.
pub struct QueueState {
    /// `None`: arrival order.
    order: Option<Box<dyn QueueOrder>>,
    arrival: Arrival,
    keyed: Sorted,
    /// The waiting jobs in queue order, this pass, as far as the rule read them.
    read: Vec<usize>,
    started: Vec<usize>,
}

impl QueueState {
    /// The order of `order` (`None`: arrival order).
    pub fn new(order: Option<Box<dyn QueueOrder>>) -> Self {
        Self {
            order,
            arrival: Arrival::default(),
            keyed: Sorted::default(),
            read: Vec::new(),
            started: Vec::new(),
        }
    }

    /// The queue order, if it is not arrival order.
    pub fn order_mut(&mut self) -> Option<&mut (dyn QueueOrder + 'static)> {
        self.order.as_deref_mut()
    }

    /// Begins a pass: the order takes in what happened and keys every waiting job; returns
    /// the pass's queue.
    pub fn begin(&mut self, c: &mut Ctx<'_>) -> Queue<'_> {
        self.read.clear();
        let src = match self.order.as_mut() {
            None => Src::Arrival(&mut self.arrival),
            Some(order) => {
                order.begin(c);
                self.keyed.clear();
                for &j in c.waiting() {
                    let key = order.key(c, j);
                    self.keyed.push(key, j);
                }
                Src::Keyed(&mut self.keyed)
            }
        };
        Queue {
            src,
            jobs: Some(&mut self.read),
            done: false,
        }
    }

    /// Ends a pass: tells the order which of the jobs read were started.
    pub fn end(&mut self, c: &Ctx<'_>) {
        let Some(order) = self.order.as_mut() else {
            return;
        };
        self.started.clear();
        let waiting = c.waiting();
        self.started.extend(
            self.read
                .iter()
                .filter(|j| waiting.binary_search(j).is_err()),
        );
        if !self.started.is_empty() {
            order.started(c, &self.started);
        }
    }
}
