//! Exports: jobs CSV (Batsim / evalys columns plus schedlab's own), runs CSV (one row per
//! execution attempt). The metrics JSON is [`crate::run::Report`] serialised with serde_json.

mod csv_out;

pub use csv_out::{jobs_csv, runs_csv, workload_name};
