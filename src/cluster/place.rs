//! What each job of a trace asks of a cluster ([`Need`]: from its processors, its memory per
//! processor and its request), and the jobs that can never run there.
//!
//! Memory counts only on a cluster where some node states more than Slurm's default of 1 MB
//! (`RealMemory`); on one without, no job asks for any. A job whose partition the cluster does
//! not have (an SWF trace's field 16 numbers, a log's names on another cluster) runs in the
//! cluster's default partition, and [`Placement::notes`] says so (but of an SWF trace's
//! partition numbers on a cluster of one partition, which mean nothing to it).

use super::{never_fits, Alloc, Free, Layout, Need, Share};
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
    /// The trace's partitions the cluster does not have, with how many jobs named each: those
    /// jobs run in the default partition.
    pub absent: Vec<(String, u64)>,
    /// Every node free (the cluster before any job).
    pub idle: Free,
    /// The jobs submitted to several partitions, by job index ([`Placement::parts_of`]; set by
    /// [`Placement::with_lists`], empty for every other trace).
    pub lists: Vec<super::part_lists::PartList>,
}

impl Placement {
    /// The placement of `jobs` on `layout`; `partitions` are the trace's partition names (a
    /// job's [`crate::job::Request::partition`] is 1 + an index into them).
    pub fn new(layout: Layout, jobs: &[Job], partitions: &[String]) -> Placement {
        let memory = layout.nodes.iter().any(|n| n.mem_mb > 1);
        let mut never = Vec::new();
        let idle = Free::all(&layout);
        let mut needs = Vec::with_capacity(jobs.len());
        // The cluster's partition of each of the trace's (None: not in the cluster).
        let of_trace: Vec<Option<usize>> =
            partitions.iter().map(|n| layout.part_index(n)).collect();
        let mut absent_jobs = vec![0u64; partitions.len()];
        for (j, job) in jobs.iter().enumerate() {
            let r = &job.req;
            let part = match r.partition {
                0 => layout.default_part,
                p => {
                    let k = usize::from(p) - 1;
                    of_trace.get(k).copied().flatten().unwrap_or_else(|| {
                        if let Some(count) = absent_jobs.get_mut(k) {
                            *count += 1;
                        }
                        layout.default_part
                    })
                }
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
        let absent = partitions
            .iter()
            .zip(absent_jobs)
            .filter(|(_, jobs)| *jobs > 0)
            .map(|(name, jobs)| (name.clone(), jobs))
            .collect();
        Placement {
            layout,
            needs,
            never,
            absent,
            idle,
            lists: Vec::new(),
        }
    }

    /// What a reader should know of this placement: the partitions sent to the default one and
    /// the jobs that can never run (how many, the first few with their job numbers and reasons).
    pub fn notes(&self, jobs: &[Job]) -> Vec<String> {
        self.notes_named(|j| jobs[j].id.to_string())
    }

    /// [`Placement::notes`] with each job named by `name` (its index): an sacct log's jobs by
    /// their Slurm `JobID` (`crate::input::JobSet::log_id`), which the admin finds in the log,
    /// rather than their number in the trace, which shifts with every line skipped before them.
    pub fn notes_named(&self, name: impl Fn(usize) -> String) -> Vec<String> {
        let mut notes = Vec::new();
        // On a cluster of one partition, an SWF trace's partition numbers (field 16) mean
        // nothing to it: every job runs in that partition, as it would anyway, so nothing is
        // said (a partition a log names, on a cluster without it, is still said).
        let numbered = |name: &str| !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit());
        let unsaid =
            self.layout.parts.len() == 1 && self.absent.iter().all(|(name, _)| numbered(name));
        if !self.absent.is_empty() && !unsaid {
            let list: Vec<String> = self
                .absent
                .iter()
                .map(|(name, n)| format!("{name} ({})", crate::plural::count(*n, "job")))
                .collect();
            notes.push(format!(
                "partitions not in the cluster: {}; those jobs run in its default partition {}",
                list.join(", "),
                self.layout.parts[self.layout.default_part].name
            ));
        }
        if !self.never.is_empty() {
            let first: Vec<String> = self
                .never
                .iter()
                .take(3)
                .map(|&(j, ref why)| format!("job {}: {why}", name(j)))
                .collect();
            notes.push(format!(
                "{} can never run on the cluster and {} left out; first: {}",
                crate::plural::count(self.never.len(), "job"),
                if self.never.len() == 1 { "is" } else { "are" },
                first.join("; ")
            ));
        }
        notes
    }

    /// Job `j`'s allocation on the nodes `nodes` (indices) of its recorded run: its cores, GPUs
    /// and memory spread over them as the engine's selection spreads a job with a node count
    /// (evenly, the first nodes one core more). `None` for an exclusive job (the engine's
    /// selection places it) or no node.
    pub fn alloc_on_nodes(&self, j: usize, nodes: &[u32]) -> Option<Alloc> {
        let need = &self.needs[j];
        if need.exclusive || nodes.is_empty() {
            return None;
        }
        let k = nodes.len() as u32;
        let alloc = nodes
            .iter()
            .enumerate()
            .map(|(i, &node)| {
                let i = i as u32;
                let cpus = need.cpus / k + u32::from(i < need.cpus % k);
                Share {
                    node,
                    cpus,
                    mem_mb: need.mem_on(cpus),
                    gpus: need.gpus / k + u32::from(i < need.gpus % k),
                    whole: false,
                }
            })
            .collect();
        Some(alloc)
    }
}
