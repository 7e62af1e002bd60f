//! What a policy may know of a job and of the node model: what a real scheduler knows. The true
//! runtime is not here (it reaches a policy only through the `exact` predictor, which the engine
//! runs: [`super::Ctx::estimate`]), nor the trace's own wait (only a replaying policy sees it,
//! [`super::Ctx::recorded_start`]), nor the node model's penalized ends.
#![warn(missing_docs)]

use super::nodes::Nodes;
use crate::job::Job;
use crate::machine::NodeModel;
use crate::Time;

/// One job as a policy sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobView {
    /// SWF job number.
    pub id: i64,
    /// Its user (SWF field 12; -1: unknown).
    pub user: i64,
    /// The processors it asks for.
    pub procs: u32,
    /// Its submit time, seconds from the trace's origin.
    pub submit: Time,
    /// The requested time (the kill time after start), when known.
    pub requested: Option<Time>,
    /// The planning estimate the input semantics give (the requested time; the runtime only
    /// when the user chose to plan with runtimes, or none is known).
    pub estimate: Time,
}

impl JobView {
    #[inline]
    pub(super) fn of(job: &Job) -> Self {
        Self {
            id: job.id,
            user: job.user,
            procs: job.procs,
            submit: job.submit,
            requested: job.requested(),
            estimate: job.estimate,
        }
    }
}

/// The jobs of a simulation as a policy sees them before it starts ([`super::Policy::prepare`]).
#[derive(Clone, Copy)]
pub struct Jobs<'a> {
    pub(super) jobs: &'a [Job],
    pub(super) replay: bool,
    /// The cluster and what each job asks of it, on a cluster.
    pub(super) place: Option<&'a crate::cluster::Placement>,
}

impl<'a> Jobs<'a> {
    /// The number of jobs.
    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    /// True when there is no job.
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// Job `j` (an index, in arrival order).
    #[inline]
    pub fn get(&self, j: usize) -> JobView {
        JobView::of(&self.jobs[j])
    }

    /// Every job, in arrival order.
    pub fn iter(&self) -> impl Iterator<Item = JobView> + 'a {
        self.jobs.iter().map(JobView::of)
    }

    /// What job `j` asks of the cluster's nodes (memory, nodes, GPUs), on a cluster (`None`:
    /// a pool of processors).
    pub fn need(&self, j: usize) -> Option<&'a crate::cluster::Need> {
        self.place.and_then(|p| p.needs.get(j))
    }

    /// The cluster the jobs run on (its layout, every node free, the jobs it never fits by
    /// the engine's selection), on a cluster.
    pub fn placement(&self) -> Option<&'a crate::cluster::Placement> {
        self.place
    }

    /// The trace's recorded start (submit + field 3) of job `j`, for a policy that replays the
    /// trace ([`super::Policy::replays_trace`]); `None` for any other policy.
    pub fn recorded_start(&self, j: usize) -> Option<Time> {
        recorded_start(self.replay, &self.jobs[j])
    }
}

pub(super) fn recorded_start(replay: bool, job: &Job) -> Option<Time> {
    if replay {
        job.trace_wait().map(|w| job.submit + w)
    } else {
        None
    }
}

/// The node model's state as a policy sees it: the model, each node's current demand and each
/// job's demand (not the penalized ends the engine computes from them).
#[derive(Clone, Copy)]
pub struct NodesView<'a>(pub(super) &'a Nodes);

impl<'a> NodesView<'a> {
    /// The node model: nodes, cores, bandwidth.
    pub fn model(&self) -> &'a NodeModel {
        self.0.model()
    }

    /// Memory bandwidth per process of job `j`, MB/s.
    pub fn demand(&self, j: usize) -> f64 {
        self.0.demand(j)
    }

    /// Current demand on node `n`, MB/s.
    pub fn node_demand(&self, n: u32) -> f64 {
        self.0.node_demand(n)
    }

    /// The number of nodes.
    pub fn node_count(&self) -> u32 {
        self.0.node_count()
    }

    /// `(node, processes)` of running job `j`, ascending by node.
    pub fn spread(&self, j: usize) -> &'a [(u32, u32)] {
        self.0.spread_of(j)
    }

    /// Free processors on every node now, by node id.
    pub fn node_free(&self) -> &'a [u32] {
        self.0.node_free()
    }

    /// Free processors on every node now as bit masks (bit `i`: processor `node x cores + i`),
    /// by node id; `None` when nodes have more than 64 cores.
    pub fn free_masks(&self) -> Option<&'a [u64]> {
        self.0.free_masks()
    }

    /// Current demand on every node, MB/s, by node id.
    pub fn node_demands(&self) -> &'a [f64] {
        self.0.node_demands()
    }
}
