//! Metrics: every family on hand-worked schedules and real traces, the catalogue, EETs.

mod catalogue;
mod cluster;
mod eet;
mod eet_heatmap;
mod eet_proptest;
