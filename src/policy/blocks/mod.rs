//! Building blocks: the mechanisms several policy parts share. Public, for policy authors: the
//! head loop (`heads`), EASY's shadow time and backfilling step (`shadow`), an availability
//! profile of the running jobs (`profile`). Inside the crate: bounds on earliest fits
//! (`floor`), resource selection on the node model (`select`, over LessConsume's run in
//! `less_consume` and the later machine states in `later`), a plan over a cluster's nodes
//! (`node_plan`) and sjbf's pass on one (`select_on_nodes`), jobs sorted lazily by a key
//! (`sorted`). Parts import blocks, never one another; a mechanism with one user lives next to
//! it.

pub(crate) mod floor;
pub mod heads;
pub(crate) mod later;
pub(crate) mod less_consume;
pub(crate) mod node_plan;
pub mod profile;
pub(crate) mod select;
pub(crate) mod select_on_nodes;
pub mod shadow;
