//! The API for writing a policy of your own: everything a policy author needs, in one module.
//!
//! A policy implements [`Policy`]: at each scheduling pass the engine hands it a [`Ctx`], a
//! narrow view of what a real scheduler knows (the waiting and running jobs, their requests,
//! estimates and planned ends; never a true runtime unless the policy plans with the `exact`
//! predictor) and the decisions it may take ([`Ctx::start_as`], [`Ctx::reserve`],
//! [`Ctx::preempt`]), each one checked by the engine.
//!
//! Most policies are a queue order plus a start rule: write a [`QueueOrder`] (a key per job)
//! and compose it with a [`StartRule`] in a [`Composed`] policy; the building blocks below are
//! the steps of the classic rules (the head loop, EASY's shadow time and backfilling, the
//! availability profile: [`profile_now`], [`Profile`]), and the classic rules themselves
//! ([`Fcfs`], [`Easy`]) to put behind an order of your own. A [`Registry`] makes a policy available by name, with its keys, next
//! to the built-in ones; [`Trace`] runs it on a trace.
//!
//! ```
//! use schedlab::api::*;
//!
//! /// First come, first served, without backfilling: start jobs in arrival order while the
//! /// first one fits.
//! struct Fifo;
//!
//! impl Policy for Fifo {
//!     fn spec(&self) -> String {
//!         "fifo".into()
//!     }
//!     fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
//!         let queue = c.waiting().to_vec();
//!         start_heads(c, &mut Queue::fixed(&queue), StartReason::Head)?;
//!         Ok(())
//!     }
//! }
//!
//! let mut registry = Registry::builtin();
//! registry
//!     .add(PolicyInfo::new("fifo", "no backfilling", &[], |_| Ok(Box::new(Fifo))))
//!     .unwrap();
//! let fifo = registry.build("fifo").unwrap();
//! assert_eq!(fifo.spec(), "fifo");
//! ```
#![warn(missing_docs)]

pub use crate::policy::blocks::profile::profile_now;
pub use crate::policy::blocks::shadow::{
    backfill, backfill_queue, reserve_head, shadow, shadow_of, Shadow,
};
pub use crate::policy::order::QueueOrder;
pub use crate::policy::plan::{Fit, Profile};
pub use crate::policy::queue::Queue;
pub use crate::policy::rule::easy::{BackfillOrder, Easy};
pub use crate::policy::rule::fcfs::Fcfs;
pub use crate::policy::rule::StartRule;
pub use crate::policy::{Composed, KeyInfo, Params, PolicyInfo, Registry, SpecError, Values};
pub use crate::run::{RunResult, Trace};
pub use crate::sim::{Ctx, Happening, JobView, Jobs, Policy, SimError, StartReason, Waiting};
pub use crate::Time;

/// Starts the jobs of `queue` in order while the first one fits, each planned to end after its
/// estimate and started for `reason` (a built-in one, or your own word from
/// [`Ctx::reason_word`]); returns the position of the first job left waiting.
pub fn start_heads(
    c: &mut Ctx<'_>,
    queue: &mut Queue<'_>,
    reason: StartReason,
) -> Result<usize, SimError> {
    crate::policy::blocks::heads::start_heads_as(c, queue, reason)
}
