//! Metrics: every family on hand-worked schedules and real traces, the catalogue, EETs.
//! (One test binary per layer: tests/metrics, tests/pipeline, tests/cli; the page's tests are
//! in tests/browser.)

#[path = "../common/mod.rs"]
mod common;

mod catalogue;
mod cluster;
mod eet;
mod eet_heatmap;
mod eet_proptest;
