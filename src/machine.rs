//! The machine description beyond its size: the node model of Guim, Rodero & Corbalan (nodes of
//! `cores` processors sharing a memory bandwidth) and where job demands come from. A leaf module:
//! the input options carry it, the engine runs it (`sim::nodes`).

use serde::{Deserialize, Serialize};

/// Memory-pressure mix: the shares of high / medium / low demand jobs (the paper's section 6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mix {
    /// 80% high, 10% medium, 10% low.
    #[default]
    High,
    /// 50% high, 10% medium, 40% low.
    Med,
    /// 10% high, 10% medium, 80% low.
    Low,
}

impl Mix {
    /// (high share, medium share); the rest is low.
    pub fn shares(self) -> (f64, f64) {
        match self {
            Mix::High => (0.8, 0.1),
            Mix::Med => (0.5, 0.1),
            Mix::Low => (0.1, 0.1),
        }
    }
}

/// The machine model: nodes sharing a memory bandwidth, and where job demands come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NodeModel {
    /// Processors (cores) per node.
    pub cores: u32,
    /// Memory bandwidth capacity per node, MB/s.
    pub bandwidth: f64,
    /// Demands drawn (seeded by the run seed) from this mix, unless `field` is set.
    pub mix: Mix,
    /// SWF field number (1-based; 19 and up are extra columns) holding each job's memory
    /// bandwidth per process in MB/s; a missing or negative value counts as 0.
    pub field: Option<u32>,
    /// Demand per process of a low / medium / high job, MB/s (500 and 1000 from the paper; it
    /// gives no high value: 2000 is our default).
    pub low: f64,
    pub medium: f64,
    pub high: f64,
}

impl Default for NodeModel {
    fn default() -> Self {
        Self {
            cores: 4,
            bandwidth: 6000.0,
            mix: Mix::High,
            field: None,
            low: 500.0,
            medium: 1000.0,
            high: 2000.0,
        }
    }
}

/// The largest slowdown the node model may cause: cores x the highest demand / bandwidth.
pub const MAX_SLOWDOWN: f64 = 1e6;

impl NodeModel {
    /// Checks the values a user gave; the message names the bad one.
    pub fn validate(&self) -> Result<(), String> {
        if self.cores == 0 || self.cores > 1 << 20 {
            return Err(format!(
                "cores per node {} is not in 1..=1048576",
                self.cores
            ));
        }
        for (name, v) in [
            ("bandwidth", self.bandwidth),
            ("low demand", self.low),
            ("medium demand", self.medium),
            ("high demand", self.high),
        ] {
            if !v.is_finite() || v < 0.0 || (name == "bandwidth" && v == 0.0) {
                return Err(format!("{name} {v} is not a usable MB/s value"));
            }
        }
        // The largest slowdown a node can cause (every core at the highest demand); bounded so
        // that penalized ends stay finite times (found by fuzzing: a bandwidth of 1e-300 MB/s
        // made a job "complete" at the end of time with none of its work done).
        let worst =
            f64::from(self.cores) * self.low.max(self.medium).max(self.high) / self.bandwidth;
        if worst > MAX_SLOWDOWN {
            return Err(format!(
                "{} cores x {} MB/s of demand on {} MB/s of bandwidth would slow jobs down up to \
                 {worst:.3e} times (at most {MAX_SLOWDOWN:e})",
                self.cores,
                self.low.max(self.medium).max(self.high),
                self.bandwidth
            ));
        }
        if self.field.is_some_and(|f| f == 0 || f > 1000) {
            return Err("bandwidth field must be a field number in 1..=1000".to_string());
        }
        Ok(())
    }

    pub fn node_of(&self, p: u32) -> u32 {
        p / self.cores
    }

    pub fn node_count(&self, procs: u32) -> u32 {
        procs.div_ceil(self.cores)
    }

    /// Splits processor intervals `[a, b)` (ascending, disjoint) at node boundaries: calls
    /// `f(node, a, b)` for each piece, in processor order.
    pub fn split(&self, intervals: &[(u32, u32)], mut f: impl FnMut(u32, u32, u32)) {
        for &(a, b) in intervals {
            let mut p = a;
            while p < b {
                let n = self.node_of(p);
                let upto = n.saturating_add(1).saturating_mul(self.cores).min(b);
                f(n, p, upto);
                p = upto;
            }
        }
    }

    /// `(node, processors)` of processor intervals (as [`NodeModel::split`] takes them),
    /// ascending by node, into `out` (cleared first).
    pub fn per_node_into(&self, intervals: &[(u32, u32)], out: &mut Vec<(u32, u32)>) {
        out.clear();
        self.split(intervals, |n, a, b| match out.last_mut() {
            Some(last) if last.0 == n => last.1 += b - a,
            _ => out.push((n, b - a)),
        });
    }
}
