//! The Gantt by node with a lane per GPU (`charts/gpu_lanes.rs`), worked by hand: each node's
//! rows (its cores, then its lanes), the lowest free lanes at each start, ends freeing lanes
//! before starts at one instant, a job over two nodes split at the node's edge, a whole node's
//! GPUs, and preempted attempts in their own lanes; then, on a generated GPU workload, lanes
//! never shared and each attempt in as many lanes as it holds GPUs.

use crate::common;

use common::clusterkit::{a_requeued_gpu_job, jobs, nodes, place, req, run};
use schedlab::charts::gantt::Rect;
use schedlab::charts::gpu_lanes;
use schedlab::job::Request;

/// (job, start, end, first row, row after the last) of the rectangles with `lane` as given,
/// sorted.
fn boxes(rects: &[Rect], lane: bool) -> Vec<(u32, f64, f64, u32, u32)> {
    let mut out: Vec<_> = rects
        .iter()
        .filter(|r| r.lane == lane)
        .map(|r| (r.job, r.start, r.end, r.lo, r.hi))
        .collect();
    out.sort_by(|a, b| a.partial_cmp(b).unwrap());
    out
}

#[test]
fn each_start_takes_the_lowest_free_lanes_and_ends_free_them_first() {
    // g1: 4 cores, 2 GPUs: cores in rows 0-3, a lane of 1 row per GPU (4 / (2 x 2) = 1) in
    // rows 4 and 5. J0 (1 GPU, 0-100) takes lane 0, J1 (1 GPU, 0-50) lane 1; J2 has no GPU.
    // J3 (1 GPU) starts at 60 in lane 1, lane 0 being J0's. J4 (1 GPU, submitted 70) waits for
    // a GPU until 100, when J0 and J3 end: it gets lane 0, the lowest.
    let js = jobs(&[
        (0, 100, 1, 0, req(0, 1)),
        (0, 50, 1, 0, req(0, 1)),
        (1, 49, 1, 0, req(0, 0)),
        (60, 40, 1, 0, req(0, 1)),
        (70, 10, 1, 0, req(0, 1)),
    ]);
    let p = place("NodeName=g1 CPUs=4 Gres=gpu:2\n", &js, &[]);
    let s = run(&p, &js, "fcfs");
    assert_eq!(common::starts(&s), [0, 0, 1, 60, 100]);
    let (rows, total, rects) = gpu_lanes::chart(&js, &s, &p);
    assert_eq!(
        (
            rows.first.clone(),
            rows.lane_first.clone(),
            rows.lane_rows.clone()
        ),
        (vec![0], vec![4], vec![1])
    );
    assert_eq!(total, 6);
    assert_eq!(
        boxes(&rects, true),
        [
            (0, 0.0, 100.0, 4, 5),
            (1, 0.0, 50.0, 5, 6),
            (3, 60.0, 100.0, 5, 6),
            (4, 100.0, 110.0, 4, 5)
        ]
    );
    // The cores where the engine put them (one node: row = processor).
    assert_eq!(
        boxes(&rects, false),
        [
            (0, 0.0, 100.0, 0, 1),
            (1, 0.0, 50.0, 1, 2),
            (2, 1.0, 50.0, 2, 3),
            (3, 60.0, 100.0, 1, 2),
            (4, 100.0, 110.0, 0, 1)
        ]
    );
}

#[test]
fn a_job_over_two_nodes_is_split_at_the_node_edge_and_a_whole_node_holds_every_lane() {
    // g1, g2: 4 cores, 2 GPUs each: g1 in rows 0-5 (lanes 4, 5), g2 in rows 6-11 (lanes 10,
    // 11). J0 (8 cores on 2 nodes, 4 GPUs, 0-100) holds processors 0-7: its cores are rows 0-3
    // and 6-9, its lanes 4-5 and 10-11. J1 (exclusive, 1 core, no GPU) then holds a node
    // whole: all its lanes, though it asks for no GPU.
    let whole = Request {
        exclusive: true,
        ..Request::default()
    };
    let js = jobs(&[(0, 100, 8, 0, req(2, 4)), (1, 10, 1, 0, whole)]);
    let p = place("NodeName=g[1-2] CPUs=4 Gres=gpu:2\n", &js, &[]);
    let s = run(&p, &js, "fcfs");
    assert_eq!(common::starts(&s), [0, 100]);
    let (rows, total, rects) = gpu_lanes::chart(&js, &s, &p);
    assert_eq!(
        (rows.first.clone(), rows.lane_first.clone(), total),
        (vec![0, 6], vec![4, 10], 12)
    );
    let lanes_of_j1 = if nodes(&p, &s, 1) == ["g1"] {
        (4, 6)
    } else {
        (10, 12)
    };
    assert_eq!(
        boxes(&rects, true),
        [
            (0, 0.0, 100.0, 4, 6),
            (0, 0.0, 100.0, 10, 12),
            (1, 100.0, 110.0, lanes_of_j1.0, lanes_of_j1.1)
        ]
    );
    assert_eq!(
        boxes(&rects, false)[..2],
        [(0, 0.0, 100.0, 0, 4), (0, 0.0, 100.0, 6, 10)]
    );
    // J1 asks for no GPU: drawn in its user's colour, not the GPU jobs' shade.
    assert!(rows.uses_gpus(0) && !rows.uses_gpus(1));
}

#[test]
fn preempted_attempts_hold_lanes_while_they_ran() {
    // The requeued job of clusterkit::a_requeued_gpu_job: on g1 (4 cores, 2 GPUs; lanes in rows 4
    // and 5) job 8 (index 1, 1 GPU) runs 0-50 in lane 0; job 7's (index 0) first run (10-110,
    // preempted) gets lane 1, its last run (200-350) lane 0.
    let trace = a_requeued_gpu_job();
    let r = trace.run("historic", 1, None).unwrap();
    let p = trace.jobs.placement.as_deref().unwrap();
    let (_, _, rects) = gpu_lanes::chart(&trace.jobs.jobs, &r.schedule, p);
    let lanes: Vec<_> = rects
        .iter()
        .filter(|r| r.lane)
        .map(|r| (r.job, r.start, r.end, r.lo, r.preempted))
        .collect();
    assert_eq!(
        lanes,
        [
            (0, 10.0, 110.0, 5, true),
            (0, 200.0, 350.0, 4, false),
            (1, 0.0, 50.0, 4, false)
        ]
    );
}

#[test]
fn on_a_generated_gpu_workload_no_lane_is_shared_and_each_attempt_fills_its_gpus() {
    use schedlab::workload::generate::{generate, GenerateSpec};
    let w = generate(&GenerateSpec {
        gpu_share: 0.3,
        ..GenerateSpec::new("lublin", 64, 400, 3)
    })
    .unwrap();
    let opts = schedlab::input::InputOptions {
        cluster: Some("1/g[1-4]:c16:m0:g4/p=all:ALL:default".into()),
        ..Default::default()
    };
    let set = schedlab::input::prepare(&w, &opts).unwrap();
    let p = set.placement.as_deref().unwrap();
    for spec in ["easy", "conservative", "fcfs"] {
        let s = schedlab::run::simulate(&set, spec, 1, None).unwrap();
        let (rows, total, rects) = gpu_lanes::chart(&set.jobs, &s, p);
        // 16 cores and 4 lanes of 2 rows per node.
        assert_eq!(rows.lane_rows, [2, 2, 2, 2]);
        assert_eq!(total, 4 * (16 + 8));
        let lanes: Vec<&Rect> = rects.iter().filter(|r| r.lane).collect();
        assert!(lanes.len() > 50, "{spec}: {} lane rectangles", lanes.len());
        for (i, a) in lanes.iter().enumerate() {
            let k = rows.lane_first.iter().rposition(|&f| f <= a.lo).unwrap();
            let band = rows.lane_first[k]..rows.lane_first[k] + 8;
            assert!(
                band.contains(&a.lo) && a.hi <= band.end,
                "{spec}: {a:?} outside lanes"
            );
            for b in &lanes[i + 1..] {
                let overlap = a.start < b.end && b.start < a.end && a.lo < b.hi && b.lo < a.hi;
                assert!(!overlap, "{spec}: {a:?} and {b:?} share a lane");
            }
        }
        // Each job's lane rows are 2 per GPU it holds, its core rows its processors.
        for (j, rec) in s.jobs.iter().enumerate().filter(|(_, r)| r.ran()) {
            let of_job = |lane: bool| -> u64 {
                rects
                    .iter()
                    .filter(|r| r.job == j as u32 && r.lane == lane && !r.preempted)
                    .map(|r| u64::from(r.hi - r.lo))
                    .sum()
            };
            assert_eq!(
                of_job(true),
                2 * s.allocs[j].totals().1,
                "{spec}: job {j}'s lanes"
            );
            assert_eq!(
                of_job(false),
                u64::from(rec.procs.len()),
                "{spec}: job {j}'s cores"
            );
        }
    }
}
