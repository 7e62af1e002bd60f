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
}

enum Src<'q> {
    /// A queue given whole.
    Fixed(&'q [usize]),
    /// A queue produced into `jobs` as it is read; `done` once the source has no more.
    Lazy {
        from: Lazy<'q>,
        jobs: &'q mut Vec<usize>,
        done: bool,
    },
}

/// Where a lazy queue's jobs come from.
enum Lazy<'q> {
    Arrival(&'q mut Arrival),
    Keyed(&'q mut Sorted),
}

impl Lazy<'_> {
    /// Appends the next jobs to `jobs` until it holds `upto` (or all). Inlined into the
    /// rules' loops: a pass reads its queue in one or two requests, each a short copy.
    #[inline]
    fn extend(&mut self, c: &Ctx<'_>, jobs: &mut Vec<usize>, upto: usize) {
        match self {
            Lazy::Arrival(a) => a.extend(c, jobs, upto),
            Lazy::Keyed(s) => s.extend(jobs, upto),
        }
    }
}

impl<'q> Queue<'q> {
    /// A queue given whole (in priority order).
    pub fn fixed(jobs: &'q [usize]) -> Self {
        Self {
            src: Src::Fixed(jobs),
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
        match &mut self.src {
            Src::Fixed(jobs) => jobs.get(i..).unwrap_or(&[]),
            Src::Lazy { from, jobs, done } => {
                if i >= jobs.len() && !*done {
                    from.extend(c, jobs, i + 1);
                    *done = jobs.len() <= i;
                }
                jobs.get(i..).unwrap_or(&[])
            }
        }
    }

    /// True when the queue is the waiting jobs in arrival order (the engine's waiting list
    /// as the pass began).
    pub fn in_arrival_order(&self) -> bool {
        matches!(
            self.src,
            Src::Lazy {
                from: Lazy::Arrival(_),
                ..
            }
        )
    }

    /// The whole queue.
    pub fn all<'s>(&'s mut self, c: &Ctx<'_>) -> &'s [usize] {
        match &mut self.src {
            Src::Fixed(jobs) => jobs,
            Src::Lazy { from, jobs, done } => {
                if !*done {
                    from.extend(c, jobs, usize::MAX);
                    *done = true;
                }
                jobs
            }
        }
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
    /// The machine state ([`Ctx::state_id`]) as the pass began: a start changes it, so a pass
    /// that ends on the same state started no job.
    state_at_begin: u64,
}

impl QueueState {
    /// The order of `order` (`None`: arrival order).
    pub fn new(order: Option<Box<dyn QueueOrder>>) -> Self {
        Self {
            order,
            arrival: Arrival,
            keyed: Sorted::default(),
            read: Vec::new(),
            started: Vec::new(),
            state_at_begin: 0,
        }
    }

    /// The queue order, if it is not arrival order.
    pub fn order_mut(&mut self) -> Option<&mut (dyn QueueOrder + 'static)> {
        self.order.as_deref_mut()
    }

    /// Begins a pass: the order takes in what happened and keys every waiting job; returns
    /// the pass's queue.
    #[inline]
    pub fn begin(&mut self, c: &mut Ctx<'_>) -> Queue<'_> {
        self.read.clear();
        self.state_at_begin = c.state_id();
        let from = match self.order.as_mut() {
            None => Lazy::Arrival(&mut self.arrival),
            Some(order) => {
                key_all(order.as_mut(), &mut self.keyed, c);
                Lazy::Keyed(&mut self.keyed)
            }
        };
        Queue {
            src: Src::Lazy {
                from,
                jobs: &mut self.read,
                done: false,
            },
        }
    }

    /// Ends a pass: tells the order which of the jobs read were started (arrival order keeps
    /// nothing, and a pass that ends on the state it began with started nothing: each is then
    /// one inlined branch).
    #[inline]
    pub fn end(&mut self, c: &Ctx<'_>) {
        if self.order.is_some() && c.state_id() != self.state_at_begin {
            self.tell_started(c);
        }
    }

    /// [`QueueState::end`] for a queue order.
    fn tell_started(&mut self, c: &Ctx<'_>) {
        let Some(order) = self.order.as_mut() else {
            return;
        };
        self.started.clear();
        let waiting = c.waiting();
        self.started
            .extend(self.read.iter().filter(|&&j| !waiting.contains(j)));
        if !self.started.is_empty() {
            order.started(c, &self.started);
        }
    }
}

/// The keyed part of [`QueueState::begin`]: the order takes in what happened and keys every
/// waiting job. Out of line, so that a pass in arrival order begins with a few inlined
/// instructions.
#[inline(never)]
fn key_all(order: &mut dyn QueueOrder, keyed: &mut Sorted, c: &mut Ctx<'_>) {
    order.begin(c);
    keyed.clear();
    for j in c.waiting() {
        let key = order.key(c, j);
        keyed.push(key, j);
    }
}
