//! The metrics per resource of runs on a cluster (`metrics/cluster.rs`), worked by hand:
//! utilization of cores, memory and GPUs, GPU-hours waited, GPU fragmentation; exclusive jobs
//! holding their nodes whole; down nodes outside the capacity; and the family absent without a
//! cluster.

use crate::common::clusterkit::{
    a_gpu_job_waiting_while_cores_are_free, a_requeued_gpu_job, jobs, place, req, run,
};
use crate::common::{self, trace_dir};
use schedlab::cluster::Cluster;
use schedlab::job::Request;
use schedlab::metrics::cluster::cluster;
use schedlab::metrics::{catalogue, MetricOptions};
use schedlab::run::Trace;
use schedlab::swf::ReadOptions;

fn close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-12, "got {got}, want {want}");
}

#[test]
fn free_gpus_without_cores_count_as_fragmentation() {
    // g1, g2: 4 cores and 2 GPUs each. J1 (4 cores, 1 GPU, 0-100) fills g1's cores; J2 (4
    // cores, 1 GPU, 0-50) fills g2's. J3 (1 core, 1 GPU) arrives at 10: two GPUs are free,
    // one on each node, but no core; it starts at 50 on g2 and ends at 60.
    let js = jobs(&[
        (0, 100, 4, 0, req(0, 1)),
        (0, 50, 4, 0, req(0, 1)),
        (10, 10, 1, 0, req(0, 1)),
    ]);
    let p = place("NodeName=g[1-2] CPUs=4 Gres=gpu:2\n", &js, &[]);
    let s = run(&p, &js, "fcfs");
    assert_eq!(common::starts(&s), [0, 0, 50]);
    let m = cluster(&p, &js, &s);
    assert_eq!((m.cores, m.gpus, m.gpu_jobs), (8, 4, 3));
    // Window 0-100. Cores: 4 x 100 + 4 x 50 + 1 x 10 = 610 of 8 x 100; GPUs: 100 + 50 + 10
    // GPU-seconds of 4 x 100.
    close(m.utilization.cores, 610.0 / 800.0);
    close(m.utilization.gpus, 160.0 / 400.0);
    // No node states memory (Slurm's default of 1 MB): not counted.
    assert!(!m.memory_counted);
    assert_eq!(m.utilization.memory, 0.0);
    // J3 waited 40 s for 1 GPU.
    close(m.gpu_hours_waited, 40.0 / 3600.0);
    // 10-50: a GPU job waits, 2 of 4 GPUs free: 80 GPU-seconds, half the capacity.
    close(m.fragmentation.waiting_hours, 40.0 / 3600.0);
    close(m.fragmentation.gpu_hours, 80.0 / 3600.0);
    close(m.fragmentation.pct, 50.0);
}

#[test]
fn a_gpu_job_waiting_for_a_busy_gpu_is_no_fragmentation() {
    // g1 has the only GPU, held by J1 until 100; J2 (1 GPU) waits from 1 to 100 while cores are
    // free; J3 (2 cores) under fcfs waits behind it.
    let (js, p) = a_gpu_job_waiting_while_cores_are_free();
    let s = run(&p, &js, "fcfs");
    assert_eq!(common::starts(&s), [0, 100, 100]);
    let m = cluster(&p, &js, &s);
    // Window 0-110: cores 100 + 10 + 2 x 10 = 130 of 8 x 110; the GPU busy 110 s of 110.
    close(m.utilization.cores, 130.0 / 880.0);
    close(m.utilization.gpus, 1.0);
    assert_eq!(m.gpu_jobs, 2);
    close(m.gpu_hours_waited, 99.0 / 3600.0);
    close(m.fragmentation.waiting_hours, 99.0 / 3600.0);
    assert_eq!(m.fragmentation.gpu_hours, 0.0);
    assert_eq!(m.fragmentation.pct, 0.0);
}

#[test]
fn an_exclusive_job_holds_its_whole_node_and_down_nodes_are_no_capacity() {
    // n1, n2: 4 cores, 1000 MB, 1 GPU; n3 is down. J1 (exclusive, 1 core, 0-100) holds n1
    // whole; J2 (2 cores x 100 MB, 0-50) runs on n2.
    let ex = Request {
        exclusive: true,
        ..Request::default()
    };
    let js = jobs(&[(0, 100, 1, 0, ex), (0, 50, 2, 100, req(0, 0))]);
    let p = place(
        "NodeName=n[1-2] CPUs=4 RealMemory=1000 Gres=gpu:1\nNodeName=n3 CPUs=4 State=DOWN\n",
        &js,
        &[],
    );
    let s = run(&p, &js, "fcfs");
    assert_eq!(common::starts(&s), [0, 0]);
    assert!(s.allocs[0].to_vec()[0].whole);
    let m = cluster(&p, &js, &s);
    assert_eq!((m.cores, m.mem_mb, m.gpus), (8, 2000, 2));
    assert!(m.memory_counted);
    // Window 0-100. Cores: n1's 4 x 100 (held whole, though J1 uses 1) + 2 x 50 = 500 of 800;
    // memory: 1000 x 100 + 200 x 50 of 2000 x 100; GPUs: n1's, 100 of 2 x 100.
    close(m.utilization.cores, 500.0 / 800.0);
    close(m.utilization.memory, 110_000.0 / 200_000.0);
    close(m.utilization.gpus, 0.5);
    assert_eq!(m.gpu_jobs, 0);
    assert_eq!(m.gpu_hours_waited, 0.0);
    assert_eq!(m.fragmentation.waiting_hours, 0.0);
}

#[test]
fn on_a_real_trace_core_utilization_is_classic_utilization_and_the_family_needs_a_cluster() {
    let Some(dir) = trace_dir() else {
        eprintln!("skipped: no ../shared/data/swf");
        return;
    };
    let read = |cluster: Option<String>| {
        Trace::load_path(
            &dir.join("KTH-SP2-1996-2.1-cln.swf.gz"),
            &ReadOptions::default(),
            &schedlab::input::InputOptions {
                max_jobs: Some(3000),
                cluster,
                ..Default::default()
            },
            MetricOptions::default(),
        )
        .unwrap()
    };
    let find = |name| catalogue::find(name).unwrap();
    // Every node usable, no exclusive job, no preemption: the cores allocated are the
    // processors busy, over the same window.
    let on = read(Some(Cluster::gpu_preset().to_compact()));
    for spec in ["easy", "conservative"] {
        let r = on.run(spec, 1, None).unwrap();
        let c = r.cluster.as_ref().expect("a run on a cluster");
        close(c.utilization.cores, r.classic.utilization);
        assert_eq!(
            r.metric(find("cores-utilization")),
            Some(c.utilization.cores)
        );
        // KTH's jobs ask for no GPU.
        assert_eq!((c.gpu_jobs, c.utilization.gpus), (0, 0.0));
        let json = serde_json::to_value(on.report(&r)).unwrap();
        assert_eq!(json["cluster"]["utilization"]["cores"], c.utilization.cores);
    }
    let off = read(None);
    let r = off.run("easy", 1, None).unwrap();
    assert!(r.cluster.is_none());
    assert_eq!(r.metric(find("gpu-utilization")), None);
    let json = serde_json::to_value(off.report(&r)).unwrap();
    assert!(json.get("cluster").is_none());
}

#[test]
fn preempted_and_requeued_attempts_count_in_utilization_and_fragmentation() {
    // g1: 4 cores, 2 GPUs; job 7 requeued (run 10-110 preempted, last run 200-350), job 8 runs
    // 0-50 (clusterkit::a_requeued_gpu_job).
    let trace = a_requeued_gpu_job();
    let r = trace.run("historic", 1, None).unwrap();
    let s = &r.schedule;
    assert_eq!(
        common::starts(s),
        [200, 0],
        "job 7 (index 0), job 8 (index 1)"
    );
    assert_eq!(s.preempted_runs.len(), 1);
    assert_eq!(
        (s.preempted_runs[0].start, s.preempted_runs[0].end),
        (10, 110)
    );
    assert_eq!(s.preempted_allocs[0].totals(), (2, 1));
    let m = r.cluster.as_ref().unwrap();
    // Window 0-350. Cores: 1 x 50 + 2 x 100 (preempted) + 2 x 150 = 550 of 4 x 350; GPUs:
    // 50 + 100 + 150 = 300 of 2 x 350. (Counting the last attempts alone gave 350 and 200.)
    close(m.utilization.cores, 550.0 / 1400.0);
    close(m.utilization.gpus, 300.0 / 700.0);
    // Classic utilization counts the preempted attempt's processors too.
    close(m.utilization.cores, r.classic.utilization);
    // Job 7 waited 200 s (submit to its last start) for 1 GPU.
    close(m.gpu_hours_waited, 200.0 / 3600.0);
    // Job 7 waits 0-10 (job 8 holds a GPU: 1 free) and 110-200 (2 free), not while its first
    // run holds a GPU: 100 s, 10 + 180 = 190 GPU-seconds of 2 x 100.
    close(m.fragmentation.waiting_hours, 100.0 / 3600.0);
    close(m.fragmentation.gpu_hours, 190.0 / 3600.0);
    close(m.fragmentation.pct, 95.0);
}
