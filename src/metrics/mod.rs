//! Schedule metrics. Each family in its own file; all computed from a job set and a schedule.

pub mod classic;
pub mod eet;
mod eet_expected;
pub mod eet_heatmap;
pub mod eet_profile;
pub mod fairness;
pub mod guarantee;
pub mod penalty;
pub mod stats;

pub use classic::{classic, per_job, Classic, ClassicOptions, Counts, JobMetrics};
pub use eet::{EetOptions, UserAware};
pub use fairness::{fairness, Fairness};
pub use stats::{Quartiles, Summary};
