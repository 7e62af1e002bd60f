//! Exports: jobs CSV (Batsim / evalys columns plus schedlab's own), runs CSV (one row per
//! execution attempt), EET heatmap CSV; the typed-array layouts of the facade (`layouts`). The metrics JSON is [`crate::run::Report`] serialised
//! with serde_json.

mod csv_out;
mod heatmap_csv;
pub mod layouts;

pub use csv_out::{alloc_csv, jobs_csv, jobs_csv_eet, runs_csv, workload_name};
pub use heatmap_csv::heatmap_csv;
