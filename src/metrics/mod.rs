//! Schedule metrics. Each family in its own file; all computed from a job set and a schedule.

pub mod classic;
pub mod stats;

pub use classic::{classic, per_job, Classic, ClassicOptions, Counts, JobMetrics};
pub use stats::Summary;
