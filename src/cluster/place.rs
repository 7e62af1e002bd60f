//! What each job of a trace asks of a cluster ([`Need`]: from its processors, its memory per
//! processor and its request), and the jobs that can never run there.
//!
//! Memory counts only on a cluster where some node states more than Slurm's default of 1 MB
//! (`RealMemory`); on one without, no job asks for any.

use super::{never_fits, Free, Layout, Need};
use crate::job::Job;

/// A cluster for a simulation: its layout and what each job asks of it.
#[derive(Debug, Clone)]
pub struct Placement {
    /// The cluster laid out.
    pub layout: Layout,
    /// Each job's need, by job index.
    pub needs: Vec<Need>,
    /// The jobs that can never run there, each with its reason.
    pub never: Vec<(usize, String)>,
    /// Every node free (the cluster before any job).
    pub idle: Free,
}

impl Placement {
    /// The placement of `jobs` on `layout`; `partitions` are the trace's partition names (a
    /// job's [`crate::job::Request::partition`] is 1 + an index into them).
    pub fn new(layout: Layout, jobs: &[Job], partitions: &[String]) -> Placement {
        let memory = layout.nodes.iter().any(|n| n.mem_mb > 1);
        let mut never = Vec::new();
        let idle = Free::all(&layout);
        let mut needs = Vec::with_capacity(jobs.len());
        for (j, job) in jobs.iter().enumerate() {
            let r = &job.req;
            let part = match r.partition {
                0 => Some(layout.default_part),
                p => partitions
                    .get(usize::from(p) - 1)
                    .and_then(|name| layout.part_index(name)),
            };
            let Some(part) = part else {
                let name = partitions
                    .get(usize::from(r.partition) - 1)
                    .map_or("?", String::as_str);
                never.push((j, format!("partition {name} is not in the cluster")));
                needs.push(Need::default());
                continue;
            };
            let need = Need {
                part: part as u32,
                cpus: job.procs,
                nodes: r.nodes,
                gpus: r.gpus,
                mem_per_cpu_mb: if memory && job.requested_memory > 0.0 {
                    (job.requested_memory / 1024.0).ceil() as u64
                } else {
                    0
                },
                mem_per_node_mb: if memory {
                    u64::from(r.mem_per_node_mb)
                } else {
                    0
                },
                exclusive: r.exclusive || layout.parts[part].exclusive,
            };
            if let Some(why) = never_fits(&layout, &idle, &need, job.requested()) {
                never.push((j, why));
            }
            needs.push(need);
        }
        Placement {
            layout,
            needs,
            never,
            idle,
        }
    }
}
