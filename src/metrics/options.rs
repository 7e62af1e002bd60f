//! The metrics options, in one place: the bounded-slowdown bound, the window of jobs the
//! resource-sharing family measures, and the EET model's capacities. The CLI flags, the page's
//! form and the share link set them (see [`crate::options`], the options schema).

pub use super::eet_expected::{Capacity, EetOptions};
use serde::{Deserialize, Serialize};

/// The default bound of bounded slowdown, seconds (10 s in the PV-EASY paper and most others).
pub const BSLD_BOUND: f64 = 10.0;

/// How every metric family is computed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MetricOptions {
    /// The bound of bounded slowdown, in seconds.
    pub bsld_bound: f64,
    /// The jobs the resource-sharing family measures (warm-up left out).
    pub window: Window,
    /// The capacities users expect, for the expected end times (EET).
    pub eet: EetOptions,
}

impl Default for MetricOptions {
    fn default() -> Self {
        Self {
            bsld_bound: BSLD_BOUND,
            window: Window::default(),
            eet: EetOptions::default(),
        }
    }
}

impl MetricOptions {
    /// Refuses a bound that is not a number of seconds >= 0 (the EET options are checked when
    /// the EETs are computed).
    pub fn check(&self) -> Result<(), String> {
        if self.bsld_bound.is_finite() && self.bsld_bound >= 0.0 {
            Ok(())
        } else {
            Err(format!(
                "bsld_bound: {} is not a number of seconds >= 0",
                self.bsld_bound
            ))
        }
    }
}

/// Which jobs the resource-sharing family measures: arrival ranks `[warmup, warmup + measured)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Window {
    /// Jobs (in arrival order) left out of the figures at the start.
    pub warmup: usize,
    /// Jobs measured after the warm-up; `None`: all the rest.
    pub measured: Option<usize>,
}

impl Window {
    pub fn contains(&self, j: usize) -> bool {
        j >= self.warmup && self.measured.is_none_or(|m| j - self.warmup < m)
    }
}
