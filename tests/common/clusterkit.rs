//! Helpers of the tests on clusters: hand-made jobs with requests, a cluster from slurm.conf
//! text, and runs held to both checkers.

use schedlab::cluster::{conf, Layout, Placement};
use schedlab::job::{Job, Request};
use schedlab::policy;
use schedlab::sim::check::check;
use schedlab::sim::check_cluster::check_cluster;
use schedlab::sim::{simulate_placed, Schedule};

/// A job: (submit, runtime = requested time, cores, memory per core in MB, request).
pub type CJ = (i64, i64, u32, u64, Request);

pub fn jobs(spec: &[CJ]) -> Vec<Job> {
    spec.iter()
        .enumerate()
        .map(|(i, &(submit, runtime, procs, mem_per_cpu, req))| {
            let mut j = Job::default();
            j.id = i as i64 + 1;
            j.line = i as u64 + 1;
            j.submit = submit;
            j.runtime = runtime;
            j.trace_runtime = runtime;
            j.procs = procs;
            j.estimate = runtime;
            j.user = 1;
            j.status = 1;
            j.used_memory = -1.0;
            j.requested_memory = if mem_per_cpu > 0 {
                mem_per_cpu as f64 * 1024.0
            } else {
                -1.0
            };
            j.req = req;
            j.set_requested(Some(runtime));
            j
        })
        .collect()
}

pub fn place(conf_text: &str, jobs: &[Job], partitions: &[&str]) -> Placement {
    let c = conf::parse_str(conf_text, "test.conf").unwrap().cluster;
    let names: Vec<String> = partitions.iter().map(|s| s.to_string()).collect();
    Placement::new(Layout::new(&c).unwrap(), jobs, &names)
}

/// Runs `spec` and checks both checkers.
pub fn run(place: &Placement, jobs: &[Job], spec: &str) -> Schedule {
    let mut p = policy::build(spec).unwrap();
    let s = simulate_placed(
        jobs,
        place.layout.procs,
        None,
        Some(place),
        p.as_mut(),
        1,
        None,
    )
    .unwrap();
    check(jobs, &s).unwrap();
    check_cluster(place, &s).unwrap();
    s
}

pub fn nodes(p: &Placement, s: &Schedule, j: usize) -> Vec<String> {
    s.allocs[j]
        .iter()
        .map(|x| p.layout.nodes[x.node as usize].name.clone())
        .collect()
}

pub fn req(nodes: u32, gpus: u32) -> Request {
    Request {
        nodes,
        gpus,
        ..Request::default()
    }
}

/// Two nodes: g1 with 4 cores and the only GPU, c1 with 4 cores.
pub const GPU_NODE_AND_CPU_NODE: &str = "NodeName=g1 CPUs=4 Gres=gpu:1\nNodeName=c1 CPUs=4\n";

/// g1 has the only GPU (and 4 cores), c1 4 cores. J1 (1 core, 1 GPU) holds it from 0 to 100;
/// J2 (1 core, 1 GPU) arrives at 1 and waits for it while cores are free; J3 (2 cores, 10 s)
/// arrives at 2.
pub fn a_gpu_job_waiting_while_cores_are_free() -> (Vec<Job>, Placement) {
    let js = jobs(&[
        (0, 100, 1, 0, req(0, 1)),
        (1, 10, 1, 0, req(0, 1)),
        (2, 10, 2, 0, req(0, 0)),
    ]);
    let p = place(GPU_NODE_AND_CPU_NODE, &js, &[]);
    (js, p)
}

/// g1: 4 cores, 2 GPUs. Job 7 (index 0; 2 cores, 1 GPU) is requeued (sacct --duplicates): its
/// first run 10-110 was preempted, its last runs 200-350. Job 8 (index 1; 1 core, 1 GPU) runs
/// 0-50. The replay (`historic`) runs both runs of job 7, the first one preempted at its
/// recorded end.
pub fn a_requeued_gpu_job() -> schedlab::run::Trace {
    let sacct = "JobID|Submit|Start|End|Elapsed|NCPUS|State|ReqTRES\n\
        7|2024-01-01T00:00:00|2024-01-01T00:00:10|2024-01-01T00:01:50|00:01:40|2|PREEMPTED|cpu=2,gres/gpu=1\n\
        8|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:50|00:00:50|1|COMPLETED|cpu=1,gres/gpu=1\n\
        7|2024-01-01T00:01:51|2024-01-01T00:03:20|2024-01-01T00:05:50|00:02:30|2|COMPLETED|cpu=2,gres/gpu=1\n";
    schedlab::run::Trace::load_bytes(
        "requeued.sacct",
        sacct.as_bytes(),
        &schedlab::swf::ReadOptions::default(),
        &schedlab::input::InputOptions {
            cluster: Some("1/g1:c4:m0:g2".into()),
            ..Default::default()
        },
        schedlab::metrics::MetricOptions::default(),
    )
    .unwrap()
}
