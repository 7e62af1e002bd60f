//! Planning for policies: the availability profile ([`Profile`]), the number of free processors
//! over future time as a step function, with its searches for room ([`Fit`], [`Span`]) and the
//! hints that start a search near an earlier one ([`Hint`]). Planning rules build one per pass
//! (`guarantee_free`, through `blocks::profile`) or keep one across passes (conservative
//! backfilling's reservations); the engine never sees it.
#![warn(missing_docs)]

mod profile;

pub use profile::{Fit, Hint, Profile, Span, FOREVER};
