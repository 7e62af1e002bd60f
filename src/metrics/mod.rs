//! Schedule metrics. Each family in its own file; all computed from a job set and a schedule.
//! `options.rs` holds every metrics option, `job.rs` the per-job figures the families share,
//! `catalogue.rs` the list of figures the tables and sweeps show.

pub mod catalogue;
pub mod classic;
pub mod cluster;
pub mod eet;
mod eet_expected;
pub mod eet_heatmap;
pub mod eet_profile;
pub mod fairness;
pub mod fidelity;
pub mod guarantee;
pub mod job;
pub mod options;
pub mod penalty;
pub mod stats;
mod strict_delay;

pub use catalogue::{Better, Family, Figures, Metric, METRICS};
pub use classic::{classic, Classic, Counts};
pub use eet::{EetOptions, UserAware};
pub use fairness::{fairness, Fairness};
pub use job::{per_job, JobMetrics};
pub use options::{MetricOptions, Window};
pub use stats::{Quartiles, Summary};
