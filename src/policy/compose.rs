//! A policy as a composition of parts: a queue order, a runtime estimate (the predictor the
//! engine runs for it), and a start rule (which may hold an allocator). The catalogue builds
//! every policy this way.

use super::order::QueueOrder;
use super::queue::Queue;
use super::rule::StartRule;
use crate::sim::{Ctx, Jobs, Policy, SimError};

/// A composed policy.
pub struct Composed {
    spec: String,
    predictor: Option<String>,
    order: Option<Box<dyn QueueOrder>>,
    rule: Box<dyn StartRule>,
    /// The waiting jobs in queue order, this pass, as far as the rule read them.
    queue: Vec<usize>,
}

impl Composed {
    /// `spec`: the canonical spec string it reports; `predictor`: the canonical predictor spec
    /// (`None`: the input's planning estimate); `order`: `None` for arrival order (the
    /// rule is handed the waiting jobs as they stand when the pass begins).
    pub fn new(
        spec: String,
        predictor: Option<String>,
        order: Option<Box<dyn QueueOrder>>,
        rule: Box<dyn StartRule>,
    ) -> Self {
        Self {
            spec,
            predictor,
            order,
            rule,
            queue: Vec::new(),
        }
    }
}

impl Policy for Composed {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn predictor(&self) -> Option<&str> {
        self.predictor.as_deref()
    }

    fn replays_trace(&self) -> bool {
        self.rule.replays_trace()
    }

    fn prepare(&mut self, jobs: Jobs<'_>, procs: u32) -> Vec<(usize, String)> {
        if let Some(order) = self.order.as_mut() {
            order.prepare(jobs);
        }
        self.rule.prepare(jobs, procs)
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        match self.order.as_mut() {
            Some(order) => {
                order.begin(c);
                if c.waiting().is_empty() {
                    // Nothing to order (the common pass on a quiet machine).
                    return self.rule.pass(c, &mut Queue::fixed(&[]));
                }
                self.rule
                    .pass(c, &mut Queue::lazy(order.as_mut(), &mut self.queue))?;
                order.settle(c, &self.queue);
                Ok(())
            }
            None => {
                // Arrival order: the waiting jobs as they stand when the pass begins.
                self.queue.clear();
                self.queue.extend_from_slice(c.waiting());
                self.rule.pass(c, &mut Queue::fixed(&self.queue))
            }
        }
    }
}
