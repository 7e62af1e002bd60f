//! The waiting queue of one scheduling pass in the policy's queue order, produced only as far
//! as the start rule reads it: a rule that stops at the first job that does not fit (fcfs), or
//! when no processor is left (EASY's backfilling), never pays for ordering the rest.

use super::order::QueueOrder;
use crate::sim::Ctx;

/// The queue order of one pass: job `i` is the `i`-th waiting job by priority as it stood when
/// the pass began.
pub struct Queue<'q> {
    src: Src<'q>,
}

enum Src<'q> {
    /// A queue given whole.
    Fixed(&'q [usize]),
    /// A queue order asked for more jobs as they are read; `done` once it has no more.
    Lazy {
        order: &'q mut dyn QueueOrder,
        jobs: &'q mut Vec<usize>,
        done: bool,
    },
}

impl<'q> Queue<'q> {
    /// A queue given whole (in priority order).
    pub fn fixed(jobs: &'q [usize]) -> Self {
        Self {
            src: Src::Fixed(jobs),
        }
    }

    /// The queue of `order` for this pass (its [`QueueOrder::begin`] already called), produced
    /// into `jobs` (cleared here) as it is read.
    pub fn lazy(order: &'q mut dyn QueueOrder, jobs: &'q mut Vec<usize>) -> Self {
        jobs.clear();
        Self {
            src: Src::Lazy {
                order,
                jobs,
                done: false,
            },
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
            Src::Lazy { order, jobs, done } => {
                if i >= jobs.len() && !*done {
                    order.extend(c, jobs, i + 1);
                    *done = jobs.len() <= i;
                }
                jobs.get(i..).unwrap_or(&[])
            }
        }
    }

    /// The whole queue.
    pub fn all<'s>(&'s mut self, c: &Ctx<'_>) -> &'s [usize] {
        match &mut self.src {
            Src::Fixed(jobs) => jobs,
            Src::Lazy { order, jobs, done } => {
                if !*done {
                    order.extend(c, jobs, usize::MAX);
                    *done = true;
                }
                jobs
            }
        }
    }
}
