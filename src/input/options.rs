//! The input options: each rule of the input step an option of [`InputOptions`] (its default
//! GUIDE section 2), with the values of its choices and the node model's limits.

use crate::machine::NodeModel;
use crate::workload::transform::Transform;
use serde::{Deserialize, Serialize};

/// What to do with a job wider than the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Wide {
    /// Skip it and report it (the default).
    #[default]
    Skip,
    /// Shrink it to the machine size.
    Clamp,
}

/// Which runtime the policies plan with by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum EstimateSource {
    /// The requested time (field 9) when > 0, else the runtime (flagged unknown).
    #[default]
    Requested,
    /// The actual runtime (perfect estimates).
    Runtime,
    /// Field 9 ignored, as in a trace without requested times: no kill time, estimates are the
    /// runtime, predictions are not capped (mutate them with the `rfactor` predictor).
    Ignore,
}

/// Where time 0 is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// The first submit time of the kept jobs (the default).
    #[default]
    First,
    /// The trace's own time axis, unchanged.
    Trace,
}

/// Most nodes the node model simulates.
pub const MAX_NODES: u32 = 1 << 20;

/// Most processors the node model simulates (it keeps state per processor: 2^31 processors took
/// 8 GB; the largest machines have about 10 million cores).
pub const MAX_NODE_PROCS: u32 = 1 << 24;

/// The input semantics, each one an option. `Default` is GUIDE section 2.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InputOptions {
    /// Machine size override; otherwise MaxProcs, MaxNodes, then the widest job.
    pub procs: Option<u32>,
    pub wide: Wide,
    /// Skip jobs whose status (field 11) is in this list (e.g. 5 = cancelled).
    pub skip_status: Vec<i64>,
    /// Skip jobs with a runtime of 0.
    pub skip_zero_runtime: bool,
    pub estimate: EstimateSource,
    /// Jobs run for min(runtime, requested time) and count as killed when cut, or when they ran
    /// exactly their requested time and failed (status 0: an sacct TIMEOUT at its limit).
    pub kill: bool,
    pub origin: Origin,
    /// Offline mode (Zotkin et al., section 4): every job is submitted at time 0, in arrival
    /// order.
    pub offline: bool,
    /// Keep only the first N jobs in arrival order (after skipping).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_jobs: Option<usize>,
    /// The node model (nodes sharing memory bandwidth; penalized runtimes), off when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<NodeModel>,
    /// Load scaling, time window, users: applied to the records before every rule above.
    #[serde(skip_serializing_if = "Transform::is_identity")]
    pub transform: Transform,
    /// The cluster the jobs run on, in its compact form (docs/cluster-model.md); `None`: one
    /// pool of identical processors, the machine size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<String>,
}

impl Default for InputOptions {
    fn default() -> Self {
        Self {
            procs: None,
            wide: Wide::Skip,
            skip_status: Vec::new(),
            skip_zero_runtime: false,
            estimate: EstimateSource::Requested,
            kill: true,
            origin: Origin::First,
            offline: false,
            max_jobs: None,
            nodes: None,
            transform: Transform::default(),
            cluster: None,
        }
    }
}
