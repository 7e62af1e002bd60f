//! Metrics per resource of a run on a cluster (issue 33): utilization of cores, memory and GPUs,
//! GPU-hours waited, and GPU fragmentation (GPUs free while a job asking for GPUs waits).
//! Present only on a cluster. Definitions in docs/cli.md, "Metrics per resource".
//!
//! - **Capacity**: the cores, memory and GPUs of the usable nodes (a down, drained or failing
//!   node is left out: nothing can be allocated there).
//! - **Allocated resource-seconds**: for every attempt (the final attempt of every job that ran,
//!   and every preempted or requeued attempt), each share of its allocation times its run (end -
//!   start). A share held whole (an exclusive job) counts the node's cores, memory and GPUs, all
//!   of them: no other job can use them while it runs.
//! - **Utilization** of a resource: allocated resource-seconds / (capacity x window), the
//!   window of classic utilization: last end - first submit of the jobs that ran.
//! - **GPU-hours waited**: over the jobs that ran and ask for GPUs, wait x GPUs asked, in hours.
//! - **Fragmentation**: over the instants when at least one job that ran and asks for GPUs is
//!   waiting (submitted, not running: before its first attempt, between attempts), the GPUs free
//!   on usable nodes (those no attempt holds), integrated over time (GPU-hours), and as a share
//!   of the GPU capacity over those instants.

use crate::cluster::{PackedAlloc, Placement, Share};
use crate::input::JobSet;
use crate::job::Job;
use crate::sim::Schedule;
use crate::Time;
use serde::Serialize;

/// Utilization of each resource, 0 to 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct PerResource {
    pub cores: f64,
    /// 0 when memory is not counted (`memory_counted`).
    pub memory: f64,
    /// 0 on a cluster without GPUs.
    pub gpus: f64,
}

/// GPUs free while a job asking for GPUs waits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Fragmentation {
    /// How long at least one job asking for GPUs waited, hours.
    pub waiting_hours: f64,
    /// Free GPUs integrated over that time, GPU-hours.
    pub gpu_hours: f64,
    /// `gpu_hours` / (GPU capacity x `waiting_hours`), percent (0 when either is 0).
    pub pct: f64,
}

/// The metrics per resource of one run on a cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClusterMetrics {
    /// Cores of the usable nodes.
    pub cores: u64,
    /// Memory of the usable nodes, MB.
    pub mem_mb: u64,
    /// GPUs of the usable nodes.
    pub gpus: u64,
    /// Memory counts on this cluster (some node states more than Slurm's default of 1 MB):
    /// otherwise no job asks for any, and memory utilization is 0.
    pub memory_counted: bool,
    pub utilization: PerResource,
    /// Jobs that ran asking for GPUs.
    pub gpu_jobs: u64,
    /// Sum over those jobs of wait x GPUs asked, hours.
    pub gpu_hours_waited: f64,
    pub fragmentation: Fragmentation,
}

/// The cluster metrics of `s`, or `None` when the run was not on a cluster.
pub fn of_set(set: &JobSet, s: &Schedule) -> Option<ClusterMetrics> {
    let place = set.placement.as_deref()?;
    Some(cluster(place, &set.jobs, s))
}

/// What each share of `a` holds: (cores, memory MB, GPUs); a share held whole, all its node.
fn held<'a>(
    place: &'a Placement,
    a: impl Iterator<Item = Share> + 'a,
) -> impl Iterator<Item = (u64, u64, u64)> + 'a {
    a.filter_map(|x| {
        let node = place.layout.nodes.get(x.node as usize)?;
        Some(if x.whole {
            (u64::from(node.cpus), node.mem_mb, u64::from(node.gpus))
        } else {
            (u64::from(x.cpus), x.mem_mb, u64::from(x.gpus))
        })
    })
}

/// The cluster metrics of schedule `s` of `jobs` placed by `place`.
pub fn cluster(place: &Placement, jobs: &[Job], s: &Schedule) -> ClusterMetrics {
    let usable = place.layout.nodes.iter().filter(|n| n.usable);
    let (cores, mem_mb, gpus) = usable.fold((0u64, 0u64, 0u64), |(c, m, g), n| {
        (c + u64::from(n.cpus), m + n.mem_mb, g + u64::from(n.gpus))
    });
    let memory_counted = place.layout.nodes.iter().any(|n| n.mem_mb > 1);
    let (mut first_submit, mut last_end) = (Time::MAX, Time::MIN);
    let mut area = [0.0f64; 3];
    let (mut gpu_jobs, mut gpu_waited) = (0u64, 0.0f64);
    // (instant, change of GPUs in use, change of GPU jobs waiting).
    let mut events: Vec<(Time, i64, i64)> = Vec::new();
    let asks_gpus = |j: usize| place.needs.get(j).map_or(0, |n| n.gpus) > 0;
    // One attempt held allocation `a` from `start` to `end`.
    let mut attempt = |a: Option<&PackedAlloc>, start: Time, end: Time, events: &mut Vec<_>| {
        let run = (end - start) as f64;
        let mut used_gpus = 0;
        for (c, m, g) in held(place, a.into_iter().flat_map(|a| a.iter())) {
            area[0] += c as f64 * run;
            area[1] += m as f64 * run;
            area[2] += g as f64 * run;
            used_gpus += g as i64;
        }
        if used_gpus > 0 && end > start {
            events.push((start, used_gpus, 0));
            events.push((end, -used_gpus, 0));
        }
    };
    // Preempted and requeued attempts: their work counts; a GPU job does not wait while one
    // runs.
    for (k, r) in s.preempted_runs.iter().enumerate() {
        attempt(s.preempted_allocs.get(k), r.start, r.end, &mut events);
        if asks_gpus(r.job) && s.jobs[r.job].ran() && r.end > r.start {
            events.push((r.start, 0, -1));
            events.push((r.end, 0, 1));
        }
    }
    for (j, (job, rec)) in jobs.iter().zip(&s.jobs).enumerate() {
        if !rec.ran() {
            continue;
        }
        first_submit = first_submit.min(job.submit);
        last_end = last_end.max(rec.end);
        attempt(s.allocs.get(j), rec.start, rec.end, &mut events);
        let asked = place.needs.get(j).map_or(0, |n| n.gpus);
        if asked > 0 {
            gpu_jobs += 1;
            let wait = rec.start - job.submit;
            gpu_waited += wait as f64 * f64::from(asked) / 3600.0;
            if rec.start > job.submit || rec.preemptions > 0 {
                events.push((job.submit, 0, 1));
                events.push((rec.start, 0, -1));
            }
        }
    }
    let window = if last_end > first_submit {
        (last_end - first_submit) as f64
    } else {
        0.0
    };
    let ratio = |num: f64, cap: u64| {
        if cap > 0 && window > 0.0 {
            num / (cap as f64 * window)
        } else {
            0.0
        }
    };
    ClusterMetrics {
        cores,
        mem_mb,
        gpus,
        memory_counted,
        utilization: PerResource {
            cores: ratio(area[0], cores),
            memory: if memory_counted {
                ratio(area[1], mem_mb)
            } else {
                0.0
            },
            gpus: ratio(area[2], gpus),
        },
        gpu_jobs,
        gpu_hours_waited: gpu_waited,
        fragmentation: fragmentation(events, gpus),
    }
}

/// The fragmentation figures from the GPU events (instant, GPUs taken or given back, GPU jobs
/// starting or ending their wait) on a cluster of `capacity` GPUs.
fn fragmentation(mut events: Vec<(Time, i64, i64)>, capacity: u64) -> Fragmentation {
    events.sort_unstable();
    let (mut used, mut waiting) = (0i64, 0i64);
    let (mut seconds, mut gpu_seconds) = (0.0f64, 0.0f64);
    for (k, &(t, d_used, d_waiting)) in events.iter().enumerate() {
        used += d_used;
        waiting += d_waiting;
        let next = events.get(k + 1).map_or(t, |e| e.0);
        if waiting > 0 && next > t {
            let dt = (next - t) as f64;
            seconds += dt;
            gpu_seconds += (capacity as f64 - used as f64).max(0.0) * dt;
        }
    }
    let pct = if capacity > 0 && seconds > 0.0 {
        100.0 * gpu_seconds / (capacity as f64 * seconds)
    } else {
        0.0
    };
    Fragmentation {
        waiting_hours: seconds / 3600.0,
        gpu_hours: gpu_seconds / 3600.0,
        pct,
    }
}
