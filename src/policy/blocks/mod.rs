//! Building blocks: the mechanisms several policy parts share (the head loop, EASY's shadow
//! time and backfilling step, availability profiles of the running jobs, resource selection on
//! the node model, jobs sorted lazily by a key). Parts import blocks, never one another.

pub mod floor;
pub mod freed;
pub mod heads;
pub mod later;
pub mod less_consume;
pub mod no_fit;
pub mod node_groups;
pub mod profile;
pub mod reach;
pub mod select;
pub mod shadow;
pub mod worst;
