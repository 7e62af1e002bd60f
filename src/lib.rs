//! schedlab: a parallel-job-scheduling lab.
//!
//! The pipeline: [`workload`] reads a trace (SWF via [`swf`], Slurm sacct, Batsim JSON, or
//! generates one), [`input`] applies the input semantics and yields the jobs
//! to simulate, [`sim`] runs one [`policy`] over them and produces a [`sim::Schedule`], [`metrics`]
//! measures it and [`output`] writes CSV / JSON. [`cluster`] describes a cluster (nodes, GPUs,
//! partitions) from slurm.conf lines or a compact share-link form. [`run`] is the pipeline the CLI and the web page
//! share (`run::Trace`: a trace with its options and expected end times, `run(spec)`);
//! [`options`] is the options schema and [`metrics::catalogue`] the metrics catalogue that every
//! surface reads. No module here knows a web type.

pub mod api;
pub mod charts;
pub mod cluster;
pub mod expr;
pub mod input;
pub mod job;
pub mod machine;
pub mod metrics;
pub mod options;
pub mod output;
pub mod plural;
pub mod policy;
pub mod predict;
pub mod quote;
pub mod replay;
pub mod request_stats;
pub mod run;
pub mod sim;
pub mod slurm;
pub mod spec;
pub mod sweep;
pub mod swf;
pub mod trace_stats;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod workload;

/// Simulation time in seconds.
pub type Time = i64;
