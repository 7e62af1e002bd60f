//! A policy as a composition of parts: a queue order, a runtime estimate (the predictor the
//! engine runs for it), and a start rule (which may hold an allocator). The catalogue builds
//! every policy this way.
#![warn(missing_docs)]

use super::order::QueueOrder;
use super::queue::QueueState;
use super::rule::StartRule;
use crate::sim::{Ctx, Jobs, Policy, SimError, Starts};

/// A composed policy.
pub struct Composed {
    spec: String,
    predictor: Option<String>,
    queue: QueueState,
    rule: Box<dyn StartRule>,
}

impl Composed {
    /// `spec`: the canonical spec string it reports; `predictor`: the canonical predictor spec
    /// (`None`: the input's planning estimate); `order`: the queue order (`None`: arrival
    /// order).
    pub fn new(
        spec: String,
        predictor: Option<String>,
        order: Option<Box<dyn QueueOrder>>,
        rule: Box<dyn StartRule>,
    ) -> Self {
        Self {
            spec,
            predictor,
            queue: QueueState::new(order),
            rule,
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

    fn recorded_earlier_runs(&mut self, runs: &[(usize, crate::Time, crate::Time)]) {
        self.rule.recorded_earlier_runs(runs);
    }

    fn recorded_nodes(&mut self, allocs: &[Option<crate::cluster::Alloc>]) {
        self.rule.recorded_nodes(allocs);
    }

    fn runs_on_clusters(&self) -> bool {
        self.rule.runs_on_clusters()
    }

    fn limit_checks(&self, partitions: &[String]) -> Option<crate::sim::LimitChecks> {
        self.rule.limit_checks(partitions)
    }

    fn prepare(&mut self, jobs: Jobs<'_>, procs: u32) -> Vec<(usize, String)> {
        if let Some(order) = self.queue.order_mut() {
            order.prepare(jobs);
        }
        self.rule.prepare(jobs, procs)
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        let mut queue = self.queue.begin(c);
        self.rule.pass(c, &mut queue)?;
        self.queue.end(c);
        Ok(())
    }

    /// The order sees the pass as its own (its `begin`, then `started` for the jobs `start`
    /// started); the start rule does not run.
    fn follow(&mut self, c: &mut Ctx<'_>, start: Starts<'_>) -> Result<(), SimError> {
        let mut queue = self.queue.begin(c);
        queue.all(c);
        start(c)?;
        self.rule.followed(c);
        self.queue.end(c);
        Ok(())
    }

    fn recorded_backfill(&mut self, at: crate::Time) {
        self.rule.recorded_backfill(at);
    }

    fn logged_cycle(&mut self, ran: bool) {
        self.rule.logged_cycle(ran);
    }

    fn logged_end_sides(&mut self, decay: crate::Time, sides: &[Option<bool>]) {
        self.rule.logged_end_sides(decay, sides);
    }
}
