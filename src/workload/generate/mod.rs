//! Synthetic workloads.
