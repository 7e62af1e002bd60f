//! The planning rules on a cluster's nodes, worked by hand: guarantee-free backfilling,
//! the trace's replay, sjbf's selections, PV-EASY and RUA, each on a GPU job waiting while
//! cores are free, a `-N 2` job and a memory-bound node, and where each differs from the others.

use crate::common;

use common::clusterkit::*;
use common::starts;
use schedlab::job::Job;
use schedlab::policy;
use schedlab::sim::{simulate_placed, Schedule};

fn reasons(s: &Schedule) -> Vec<&str> {
    (0..s.jobs.len()).map(|j| s.reason_word(j)).collect()
}

/// The same jobs on one pool of `procs` processors (no cluster).
fn run_pool(jobs: &[Job], procs: u32, spec: &str) -> Schedule {
    let mut p = policy::build(spec).unwrap();
    simulate_placed(jobs, procs, None, None, p.as_mut(), 1, None).unwrap()
}

/// J1 holds a node's 1 core from 0 to 100; J2 (-N 2, 8 cores) takes n2 and n3 from 1 to 31;
/// J3 (-N 2, 2 cores) at 2 needs one core on each of two nodes: only n1 has room before 31;
/// J4 (1 core, 10 s) at 3 fits n1 now and ends long before 31.
fn two_node_jobs() -> (Vec<Job>, schedlab::cluster::Placement) {
    let js = jobs(&[
        (0, 100, 1, 0, req(0, 0)),
        (1, 30, 8, 0, req(2, 0)),
        (2, 10, 2, 0, req(2, 0)),
        (3, 10, 1, 0, req(0, 0)),
    ]);
    let p = place("NodeName=n[1-3] CPUs=4\n", &js, &[]);
    (js, p)
}

/// n1: 4 cores, 1000 MB. J1 (2 cores x 400 MB) from 0 to 50; J2 (1 core x 400 MB) at 1 finds
/// 2 cores but 200 MB free: it waits until 50; J3 (1 core, no memory, 10 s) at 2 fits now.
fn memory_bound_jobs() -> (Vec<Job>, schedlab::cluster::Placement) {
    let js = jobs(&[
        (0, 50, 2, 400, req(0, 0)),
        (1, 10, 1, 400, req(0, 0)),
        (2, 10, 1, 0, req(0, 0)),
    ]);
    let p = place("NodeName=n1 CPUs=4 RealMemory=1000\n", &js, &[]);
    (js, p)
}

#[test]
fn guarantee_free_plans_on_nodes() {
    for spec in [
        "conservative[guarantees=off]",
        "conservative[guarantees=off,shadow=2]",
    ] {
        // The GPU job waits for g1's GPU until 100; J3 (cores only) backfills at once.
        let (js, p) = a_gpu_job_waiting_while_cores_are_free();
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), [0, 100, 2], "{spec}");
        assert_eq!(reasons(&s), ["head", "head", "backfilled"], "{spec}");
        assert_eq!(nodes(&p, &s, 1), ["g1"]);
        let (js, p) = two_node_jobs();
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), [0, 1, 31, 3], "{spec}");
        assert_eq!(nodes(&p, &s, 2), ["n1", "n2"]);
        assert_eq!(nodes(&p, &s, 3), ["n1"]);
        let (js, p) = memory_bound_jobs();
        assert_eq!(starts(&run(&p, &js, spec)), [0, 50, 2], "{spec}");
    }
}

#[test]
fn guarantee_free_shadow_bounds_hold_on_nodes_as_in_the_pool() {
    // One node of 4 cores, shortest job first. J1 (4 cores) runs 0-10; J2 (4 cores, 100 s)
    // arrives at 1, J3 and J4 (4 cores, 5 s) at 2 and 3. Without a bound the short jobs pass
    // J2: J3 at 10, J4 at 15, J2 at 20. With shadow=1, J2's bound is 1 + (10 - 1) = 10: once
    // planned past it (at 3, behind J3) it is urgent and starts at 10, J3 at 110 (its bound:
    // 2 + 108 behind J2), J4 at 115 (3 + 112 behind J3 and J2 when it arrived).
    let js = jobs(&[
        (0, 10, 4, 0, req(0, 0)),
        (1, 100, 4, 0, req(0, 0)),
        (2, 5, 4, 0, req(0, 0)),
        (3, 5, 4, 0, req(0, 0)),
    ]);
    let p = place("NodeName=n1 CPUs=4\n", &js, &[]);
    for (spec, want) in [
        ("conservative[guarantees=off,queue=sjf]", [0, 20, 10, 15]),
        (
            "conservative[guarantees=off,queue=sjf,shadow=1]",
            [0, 10, 110, 115],
        ),
    ] {
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), want, "{spec}");
        assert_eq!(starts(&run_pool(&js, 4, spec)), want, "{spec} (pool)");
    }
}

/// Sets each job's recorded wait (the trace's field 3).
fn waits(mut js: Vec<Job>, w: &[i64]) -> Vec<Job> {
    for (j, &w) in js.iter_mut().zip(w) {
        j.set_trace_wait(Some(w));
    }
    js
}

#[test]
fn historic_starts_a_job_late_where_its_recorded_start_does_not_fit() {
    // The GPU job J2 was recorded to start at 1 + 9 = 10 (the trace's machine had a GPU free);
    // here g1's only GPU is J1's until 100: it starts then, late. J3 starts at its recorded 5.
    let (js, p) = a_gpu_job_waiting_while_cores_are_free();
    let js = waits(js, &[0, 9, 3]);
    let s = run(&p, &js, "historic");
    assert_eq!(starts(&s), [0, 100, 5]);
    assert_eq!(reasons(&s), ["replay", "replay-late", "replay"]);
    assert_eq!(nodes(&p, &s, 1), ["g1"]);
    // On one pool of 8 processors the same jobs start as recorded, all `replay`.
    let s = run_pool(&js, 8, "historic");
    assert_eq!(starts(&s), [0, 10, 5]);
    assert_eq!(reasons(&s), ["replay", "replay", "replay"]);
    // J3 (-N 2) recorded at 2 finds one node with room: it starts at 31, late; J4, due after
    // it, fits n1 and starts as recorded.
    let (js, p) = two_node_jobs();
    let js = waits(js, &[0, 0, 0, 0]);
    let s = run(&p, &js, "historic");
    assert_eq!(starts(&s), [0, 1, 31, 3]);
    assert_eq!(reasons(&s), ["replay", "replay", "replay-late", "replay"]);
    assert_eq!(nodes(&p, &s, 2), ["n1", "n2"]);
    let (js, p) = memory_bound_jobs();
    let js = waits(js, &[0, 0, 0]);
    let s = run(&p, &js, "historic");
    assert_eq!(starts(&s), [0, 50, 2]);
    assert_eq!(reasons(&s), ["replay", "replay-late", "replay"]);
}

#[test]
fn sjbf_selections_choose_nodes() {
    // g1 (4 cores, the GPU) comes first in Slurm's order, c1 (4 cores) second. J1 (4 cores,
    // 0-100): first fit puts it on g1, and the GPU job J2 (1 core, 1 GPU) at 1 waits until
    // 100 with 4 cores free; best fit (lc, lct) keeps the GPU node for GPU jobs: J1 on c1, J2
    // on g1 at once.
    let js = jobs(&[(0, 100, 4, 0, req(0, 0)), (1, 10, 1, 0, req(0, 1))]);
    let p = place(GPU_NODE_AND_CPU_NODE, &js, &[]);
    let ff = run(&p, &js, "sjbf");
    assert_eq!(starts(&ff), [0, 100]);
    assert_eq!(nodes(&p, &ff, 0), ["g1"]);
    for spec in ["sjbf[rsp=lc]", "sjbf[rsp=lct]", "rua"] {
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), [0, 1], "{spec}");
        assert_eq!(nodes(&p, &s, 0), ["c1"], "{spec}");
        assert_eq!(nodes(&p, &s, 1), ["g1"], "{spec}");
    }
    // RUA on a cluster (no penalty: every factor 1) is sjbf[rsp=lct]'s pass.
    for spec in ["sjbf", "sjbf[rsp=lc]", "sjbf[rsp=lct]", "rua"] {
        let (js, p) = a_gpu_job_waiting_while_cores_are_free();
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), [0, 100, 2], "{spec}");
        assert_eq!(reasons(&s), ["head", "head", "backfilled"], "{spec}");
        let (js, p) = two_node_jobs();
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), [0, 1, 31, 3], "{spec}");
        assert_eq!(nodes(&p, &s, 1), ["n2", "n3"], "{spec}");
        assert_eq!(nodes(&p, &s, 2), ["n1", "n2"], "{spec}");
        let (js, p) = memory_bound_jobs();
        assert_eq!(starts(&run(&p, &js, spec)), [0, 50, 2], "{spec}");
    }
}

#[test]
fn sjbf_backfills_shortest_first_into_the_extra_resources() {
    // n1, n2: 4 cores each. J1 (6 cores) runs 0-100 on n1 (4) and n2 (2). J2 (8 cores) at 1
    // waits for 100; n2's 2 free cores remain. J3 (2 cores, 200 s) at 2 and J4 (2 cores,
    // 50 s) at 3: J4 is tried first (shortest), ends by 100 and backfills on n2; J3 runs past
    // the shadow time and the head takes every core then: it waits for J2 (100-200).
    let js = jobs(&[
        (0, 100, 6, 0, req(0, 0)),
        (1, 100, 8, 0, req(0, 0)),
        (2, 200, 2, 0, req(0, 0)),
        (3, 50, 2, 0, req(0, 0)),
    ]);
    let p = place("NodeName=n[1-2] CPUs=4\n", &js, &[]);
    for spec in ["sjbf", "sjbf[rsp=lc]", "rua"] {
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), [0, 100, 200, 3], "{spec}");
        assert_eq!(reasons(&s)[3], "backfilled", "{spec}");
        assert_eq!(nodes(&p, &s, 3), ["n2"], "{spec}");
    }
}

fn preemptions(s: &Schedule) -> Vec<u32> {
    s.jobs.iter().map(|r| r.preemptions).collect()
}

#[test]
fn pv_easy_preempts_the_shadow_load_on_the_heads_nodes_only() {
    // n1 (4 cores, the GPU), n2, n3 (4 cores), taken in that order (weights 1, 2, 3). J1 (1
    // core, the GPU) runs 0-100 on n1. J2 (-N 1, 4 cores, 1 GPU) at 1 waits while n2 and n3 are
    // idle; its reservation is 100. J3 (1 core, 300 s) at 2 starts on n1 and J4 (-N 1, 4
    // cores, 300 s) at 3 on n2, on idle cores (step 4). At 100 J2 needs n1 whole: only J3, the
    // shadow-load job on n1, is preempted; J4, of lower priority but on n2, keeps running. J3
    // starts again at once on n3.
    let js = jobs(&[
        (0, 100, 1, 0, req(0, 1)),
        (1, 10, 4, 0, req(1, 1)),
        (2, 300, 1, 0, req(0, 0)),
        (3, 300, 4, 0, req(1, 0)),
    ]);
    let p = place(
        "NodeName=n1 CPUs=4 Gres=gpu:1 Weight=1\nNodeName=n2 CPUs=4 Weight=2\n\
         NodeName=n3 CPUs=4 Weight=3\n",
        &js,
        &[],
    );
    let s = run(&p, &js, "pv-easy[predictor=user]");
    assert_eq!(starts(&s), [0, 100, 100, 3]);
    assert_eq!(preemptions(&s), [0, 0, 1, 0]);
    assert_eq!(reasons(&s), ["head", "head", "restarted", "venture"]);
    assert_eq!(nodes(&p, &s, 1), ["n1"]);
    assert_eq!(nodes(&p, &s, 2), ["n3"]);
    assert_eq!(nodes(&p, &s, 3), ["n2"]);
}

#[test]
fn pv_easy_frees_the_nodes_a_two_node_head_needs() {
    // n1, n2: 4 cores each. J1 (4 cores) runs 0-100 on n1; J2 (-N 2, 2 cores) at 1 waits for a
    // core on two nodes, reservation 100; J3 (4 cores, 300 s) at 2 takes n2 (step 4). At 100
    // n1 is free but n2 is J3's: it is preempted, J2 starts on n1 and n2, and J3 again at once
    // on the 3 + 1 cores left. Without preemption J2 waits for J3 (302).
    let js = jobs(&[
        (0, 100, 4, 0, req(0, 0)),
        (1, 10, 2, 0, req(2, 0)),
        (2, 300, 4, 0, req(0, 0)),
    ]);
    let p = place("NodeName=n[1-2] CPUs=4\n", &js, &[]);
    let s = run(&p, &js, "pv-easy[predictor=user]");
    assert_eq!(starts(&s), [0, 100, 100]);
    assert_eq!(preemptions(&s), [0, 0, 1]);
    assert_eq!(nodes(&p, &s, 1), ["n1", "n2"]);
    assert_eq!(nodes(&p, &s, 2), ["n1", "n2"]);
    let s = run(&p, &js, "pv-easy[predictor=user,slp=off]");
    assert_eq!(starts(&s), [0, 302, 2]);
    assert_eq!(preemptions(&s), [0, 0, 0]);
    // The memory-bound node: J3 (predicted to end by J2's reservation at 50) backfills.
    let (js, p) = memory_bound_jobs();
    for spec in ["pv-easy[predictor=user]", "pv-easy[predictor=user,vb=off]"] {
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), [0, 50, 2], "{spec}");
        assert_eq!(reasons(&s)[2], "backfilled", "{spec}");
    }
}
