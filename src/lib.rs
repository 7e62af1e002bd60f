//! schedlab: a parallel-job-scheduling lab.
//!
//! The pipeline: [`swf`] reads a trace, [`input`] applies the input semantics and yields the jobs
//! to simulate, [`sim`] runs one [`policy`] over them and produces a [`sim::Schedule`], [`metrics`]
//! measures it and [`output`] writes CSV / JSON. [`run`] ties the steps together for the CLI and
//! the web page. No module here knows a web type.

pub mod charts;
pub mod input;
pub mod metrics;
pub mod output;
pub mod policy;
pub mod predict;
pub mod run;
pub mod sim;
pub mod sweep;
pub mod swf;
pub mod trace_stats;
#[cfg(target_arch = "wasm32")]
pub mod web;

/// Simulation time in seconds.
pub type Time = i64;
