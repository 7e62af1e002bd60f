//! What a trace's jobs ask of a cluster beyond processors: GPU jobs, memory, nodes,
//! exclusivity and partitions (part of [`crate::trace_stats`], shown only when a job asks).

use crate::input::JobSet;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The requests of a trace's jobs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct RequestStats {
    /// Jobs asking for GPUs, and their GPUs in all.
    pub gpu_jobs: u64,
    pub gpus: u64,
    /// `(GPUs per job, jobs)`, fewest GPUs first.
    pub gpu_counts: Vec<(u32, u64)>,
    /// Jobs with a memory request (per node, or per processor: SWF field 10).
    pub memory_jobs: u64,
    /// The largest memory per node asked (MB), 0 when none asks per node.
    pub max_mem_per_node_mb: u32,
    /// Jobs asking for more than one node.
    pub multi_node_jobs: u64,
    /// Jobs asking for whole nodes.
    pub exclusive_jobs: u64,
    /// `(partition name, jobs)` in the trace's order of partitions; jobs naming none are not
    /// listed.
    pub partitions: Vec<(String, u64)>,
}

impl RequestStats {
    /// The requests of `set`'s jobs; `None` when no job asks anything beyond processors.
    pub fn of(set: &JobSet) -> Option<RequestStats> {
        let mut s = RequestStats::default();
        let mut counts: BTreeMap<u32, u64> = BTreeMap::new();
        let mut per_partition = vec![0u64; set.partitions.len()];
        for j in &set.jobs {
            let q = &j.req;
            if q.gpus > 0 {
                s.gpu_jobs += 1;
                s.gpus += u64::from(q.gpus);
                *counts.entry(q.gpus).or_default() += 1;
            }
            if q.mem_per_node_mb > 0 || j.requested_memory > 0.0 {
                s.memory_jobs += 1;
            }
            s.max_mem_per_node_mb = s.max_mem_per_node_mb.max(q.mem_per_node_mb);
            s.multi_node_jobs += u64::from(q.nodes > 1);
            s.exclusive_jobs += u64::from(q.exclusive);
            if let Some(n) = usize::from(q.partition)
                .checked_sub(1)
                .and_then(|k| per_partition.get_mut(k))
            {
                *n += 1;
            }
        }
        s.gpu_counts = counts.into_iter().collect();
        s.partitions = set.partitions.iter().cloned().zip(per_partition).collect();
        let any = s.gpu_jobs + s.memory_jobs + s.multi_node_jobs + s.exclusive_jobs > 0
            || !s.partitions.is_empty();
        any.then_some(s)
    }

    /// Lines of `schedlab trace`'s summary: `requests: ...` and `partitions: ...`.
    pub fn summary(&self, jobs: u64) -> String {
        let gpus = if self.gpu_jobs > 0 {
            let counts: Vec<String> = self
                .gpu_counts
                .iter()
                .map(|(g, n)| format!("{g}: {n}"))
                .collect();
            format!(
                "{} ({}; jobs by GPUs {})",
                crate::plural::count(self.gpu_jobs, "GPU job"),
                crate::plural::count(self.gpus, "GPU"),
                counts.join(", ")
            )
        } else {
            "no GPU jobs".to_owned()
        };
        let per_node = if self.max_mem_per_node_mb > 0 {
            format!(" (up to {} MB per node)", self.max_mem_per_node_mb)
        } else {
            String::new()
        };
        let mut s = format!(
            "requests of {}: {gpus}; {} with memory{per_node}; {} on several nodes; {} exclusive\n",
            crate::plural::count(jobs, "job"),
            self.memory_jobs,
            self.multi_node_jobs,
            self.exclusive_jobs
        );
        if !self.partitions.is_empty() {
            let list: Vec<String> = self
                .partitions
                .iter()
                .map(|(p, n)| format!("{p} ({n})"))
                .collect();
            s += &format!("jobs per partition: {}\n", list.join(", "));
        }
        s
    }
}
