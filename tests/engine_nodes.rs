//! The node model (Guim, Rodero & Corbalan, equations 1-3) on hand-made cases worked out by
//! hand: nodes of 4 cores sharing 6000 MB/s; a job progresses at 1 / (1 + the largest penalty
//! of its nodes), so its end moves when co-located jobs start and end.

use crate::common;
use common::{node_job_set, run_nodes};
use schedlab::machine::NodeModel;
use schedlab::sim::penalty::{job_factor, node_penalty, penalized_time, resource_penalty};
use schedlab::sim::{Outcome, ProcSet};

pub(crate) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn penalty_function_by_the_formula() {
    // Below or at capacity: no penalty.
    assert_eq!(resource_penalty(5999.0, 6000.0), 0.0);
    assert_eq!(resource_penalty(6000.0, 6000.0), 0.0);
    // 8000 / 6000 - 1 = 1/3; 12000 / 6000 - 1 = 1.
    assert!(close(resource_penalty(8000.0, 6000.0), 1.0 / 3.0));
    assert!(close(resource_penalty(12000.0, 6000.0), 1.0));
    // Equation 2 sums over resources: 1/3 + 0 + 0.5.
    let p = node_penalty(&[(8000.0, 6000.0), (100.0, 256.0), (24.0, 16.0)]);
    assert!(close(p, 1.0 / 3.0 + 0.5));
    // Equation 3: a 300 s window with penalty 1/3 adds 100 s.
    assert!(close(penalized_time(300.0, 1.0 / 3.0), 100.0));
    // A job on several nodes takes the largest.
    assert!(close(job_factor([1.0 / 6.0, 2.0 / 3.0, 0.0]), 5.0 / 3.0));
    assert!(close(job_factor([]), 1.0));
}

#[test]
fn below_capacity_no_penalty() {
    // One node: 2 x 1000 + 2 x 1000 = 4000 <= 6000.
    let set = node_job_set(4, 4, &[(0, 100, 2, 500, 1000.0), (0, 200, 2, 500, 1000.0)]);
    let s = run_nodes(&set, "fcfs", 1);
    assert_eq!((s.jobs[0].start, s.jobs[0].end), (0, 100));
    assert_eq!((s.jobs[1].start, s.jobs[1].end), (0, 200));
    let n = s.nodes.as_ref().unwrap();
    assert_eq!(n.penalized(0, 0, 100), 0.0);
}

#[test]
fn a_saturated_node_penalizes_all_its_jobs() {
    // One node: 2 x 2000 + 2 x 2000 = 8000 > 6000: penalty 1/3 for both, for their whole run:
    // 300 s of work take 300 x 4/3 = 400 s; penalized time 100 s = 300 x 1/3.
    let set = node_job_set(
        4,
        4,
        &[(0, 300, 2, 1000, 2000.0), (0, 300, 2, 1000, 2000.0)],
    );
    let s = run_nodes(&set, "fcfs", 1);
    for j in 0..2 {
        assert_eq!((s.jobs[j].start, s.jobs[j].end), (0, 400), "job {}", j + 1);
        assert_eq!(s.jobs[j].outcome, Outcome::Completed);
        assert!(close(s.nodes.as_ref().unwrap().penalized(j, 0, 400), 100.0));
    }
}

#[test]
fn a_job_on_two_nodes_takes_the_larger_penalty_and_ends_move_as_neighbours_end() {
    // Two nodes (0-3, 4-7). First fit: A on 0-2 (3 x 2000 = 6000 on node 0), B on 3-4
    // (1000 each: node 0 -> 7000, penalty 1/6; node 1 -> 1000), C on 5-7 (3 x 3000: node 1 ->
    // 10000, penalty 2/3). Factors: A 7/6, B max(1/6, 2/3) -> 5/3, C 5/3.
    // C: 300 x 5/3 = 500. At 500, B has done 500 x 3/5 = 300 of 500; now only node 0 is
    // saturated: B's factor drops to 7/6, it ends at 500 + 200 x 7/6 = 733.3 -> 734.
    // A: by 734 it did 734 x 6/7 = 629.14; then alone on node 0 (6000, no penalty):
    // ends at 734 + 70.86 = 804.86 -> 805 (it was planned at 500 + 271.43 x 7/6 -> 817).
    let set = node_job_set(
        8,
        4,
        &[
            (0, 700, 3, 10000, 2000.0),
            (0, 500, 2, 10000, 1000.0),
            (0, 300, 3, 10000, 3000.0),
        ],
    );
    let s = run_nodes(&set, "fcfs", 1);
    assert_eq!(s.jobs[0].procs, ProcSet::range(0, 3));
    assert_eq!(s.jobs[1].procs, ProcSet::range(3, 5));
    assert_eq!(s.jobs[2].procs, ProcSet::range(5, 8));
    let ends: Vec<i64> = s.jobs.iter().map(|r| r.end).collect();
    assert_eq!(ends, [805, 734, 500]);
}

#[test]
fn a_start_pushes_a_running_job_past_its_requested_time_and_it_is_killed_there() {
    // One node. A: 2 x 2000, runtime 100, requested 110, alone from 0 to 50 (4000: no
    // penalty), 50 s done. B starts at 50: 8000 -> penalty 1/3: A's remaining 50 s take 66.7 s,
    // past its kill time 110: killed at 110 (45 s more done). B: 60 s at 4/3 -> 45 s done,
    // then alone: 55 s more -> ends at 165.
    let set = node_job_set(
        4,
        4,
        &[(0, 100, 2, 110, 2000.0), (50, 100, 2, 1000, 2000.0)],
    );
    let s = run_nodes(&set, "fcfs", 1);
    assert_eq!((s.jobs[0].end, s.jobs[0].outcome), (110, Outcome::Killed));
    assert!(
        !set.jobs[0].killed,
        "not cut by the trace: killed by its penalty"
    );
    assert_eq!((s.jobs[1].start, s.jobs[1].end), (50, 165));
    assert_eq!(s.jobs[1].outcome, Outcome::Completed);
    let n = s.nodes.as_ref().unwrap();
    assert!(close(n.work[0], 95.0), "{}", n.work[0]);

    // With requested time 120 A makes it: 50 + 66.7 -> 117, completed; B: 67 s at 4/3 -> 50.25
    // done, 49.75 alone -> 166.75 -> 167.
    let set = node_job_set(
        4,
        4,
        &[(0, 100, 2, 120, 2000.0), (50, 100, 2, 1000, 2000.0)],
    );
    let s = run_nodes(&set, "fcfs", 1);
    assert_eq!(
        (s.jobs[0].end, s.jobs[0].outcome),
        (117, Outcome::Completed)
    );
    assert_eq!(s.jobs[1].end, 167);
}

#[test]
fn sjbf_lc_places_a_job_where_it_is_not_penalized() {
    // Two nodes. A (2 x 2000) on node 0 (0-1); B (2 x 2000) arrives: first fit puts it on 2-3
    // (node 0 -> 8000, both slowed by 4/3); LessConsume moves one process to node 1 (4):
    // node 0 at 6000 and node 1 at 2000, no penalty (factor 1: it stops there).
    let jobs = [(0, 300, 2, 1000, 2000.0), (10, 300, 2, 1000, 2000.0)];
    let set = node_job_set(8, 4, &jobs);
    let ff = run_nodes(&set, "sjbf", 1);
    assert_eq!(ff.jobs[1].procs, ProcSet::range(2, 4));
    // A: 10 s alone, then 290 x 4/3 = 386.7 -> 397; B: from 10, 387 s at 4/3 -> 290.25 done,
    // 9.75 alone -> 406.75 -> 407.
    assert_eq!((ff.jobs[0].end, ff.jobs[1].end), (397, 407));
    let lc = run_nodes(&set, "sjbf[rsp=lc]", 1);
    assert_eq!(
        lc.jobs[1].procs,
        ProcSet::from_intervals(vec![(2, 3), (4, 5)])
    );
    assert_eq!((lc.jobs[0].end, lc.jobs[1].end), (300, 310));
}

#[test]
fn kth_with_the_node_model_passes_the_checker_and_unlimited_bandwidth_changes_nothing() {
    let Some(dir) = common::trace_dir() else {
        unreachable!("trace_dir fails when the traces are missing");
    };
    use schedlab::input::{prepare, InputOptions};
    use schedlab::swf::{read_path, ReadOptions};
    let w = read_path(
        &dir.join("KTH-SP2-1996-2.1-cln.swf.gz"),
        &ReadOptions::default(),
    )
    .unwrap();
    let opts = |nodes: Option<NodeModel>| InputOptions {
        max_jobs: Some(3000),
        nodes,
        ..InputOptions::default()
    };
    let plain = prepare(&w, &opts(None)).unwrap();
    let high = prepare(&w, &opts(Some(NodeModel::default()))).unwrap();
    let unlimited = prepare(
        &w,
        &opts(Some(NodeModel {
            bandwidth: 1e12,
            ..NodeModel::default()
        })),
    )
    .unwrap();
    assert_eq!(high.jobs.len(), 3000);
    for spec in ["sjbf", "sjbf[rsp=lc]", "sjbf[rsp=lct]", "rua"] {
        let s = run_nodes(&high, spec, 1); // checks the invariants
        let pen = schedlab::metrics::penalty::penalty(&high, &s, &Default::default()).unwrap();
        assert_eq!(pen.jobs, 3000, "{spec}");
        // 80% of the jobs demand 2000 MB/s per process: 4 of them on a node make 8000.
        assert!(pen.penalized_pct.mean > 0.0, "{spec}: no penalty at all");
        // Without saturation the node model changes no schedule.
        let u = run_nodes(&unlimited, spec, 1);
        let p = common::run(&plain, spec);
        assert_eq!(u.jobs, p.jobs, "{spec}");
    }
}

#[test]
fn rua_backfills_the_least_penalized_job_first_where_sjbf_takes_the_shortest() {
    // Two nodes. At 0: A (4 x 1000) fills node 0, E (2 x 2000) half of node 1 (4000 MB/s).
    // At 1: B needs all 8 processors: reservation at E's planned end, 2000. At 2: C (2 x 2000,
    // estimate 500) and D (2 x 500, estimate 600) both fit in 6-7 and end before 2000.
    // C there: node 1 at 8000 -> factor 4/3 (only threshold 1.5 met now; a later start would
    // have a slowdown >= (1000 - 2 + 500) / 500, worse than 4/3): RUA's allocation for C starts
    // now with factor 4/3. D there: 5000 -> factor 1. RUA backfills by factor: D first, and then
    // nothing fits; SJBF backfills by estimate: C first.
    let set = node_job_set(
        8,
        4,
        &[
            (0, 1000, 4, 1000, 1000.0),
            (0, 2000, 2, 2000, 2000.0),
            (1, 100, 8, 100, 500.0),
            (2, 400, 2, 500, 2000.0),
            (2, 400, 2, 600, 500.0),
        ],
    );
    let rua = run_nodes(&set, "rua", 1);
    assert_eq!(rua.jobs[4].start, 2, "D backfilled at once");
    assert_eq!(rua.jobs[4].procs, ProcSet::range(6, 8));
    assert!(rua.jobs[3].start > 2, "C waits");
    let sjbf = run_nodes(&set, "sjbf", 1);
    assert_eq!(sjbf.jobs[3].start, 2, "C backfilled at once");
    assert!(sjbf.jobs[4].start > 2, "D waits");
    // Under SJBF, C shares node 1 with E at 8000 MB/s: both run at 3/4 speed while together.
    assert!(sjbf.jobs[3].end - sjbf.jobs[3].start > 400);
    assert_eq!(rua.jobs[4].end - rua.jobs[4].start, 400);
}

/// Found by fuzzing: a bandwidth of 1e-300 MB/s slowed jobs down without bound, and a job
/// without requested time "completed" at the end of time with none of its work done. The model
/// refuses slowdowns above `MAX_SLOWDOWN`; demands read from the trace are capped there.
#[test]
fn slowdowns_beyond_a_million_are_refused_or_capped() {
    let tiny = NodeModel {
        bandwidth: 1e-300,
        ..NodeModel::default()
    };
    let e = tiny.validate().unwrap_err();
    assert!(e.contains("would slow jobs down up to"), "{e}");
    // 4 cores x 2000 MB/s on 6000 MB/s is fine; 4 x 1.5e9 / 6000 = 1e6 is the limit itself.
    assert_eq!(NodeModel::default().validate(), Ok(()));
    let edge = NodeModel {
        high: 1.5e9,
        ..NodeModel::default()
    };
    assert_eq!(edge.validate(), Ok(()));
    let over = NodeModel {
        high: 1.6e9,
        ..NodeModel::default()
    };
    assert!(over.validate().is_err());
    // From the trace: 1e300 MB/s per process counts as 6000 x 1e6 / 4 = 1.5e9.
    let set = node_job_set(8, 4, &[(0, 100, 4, -1, 1e300), (0, 100, 4, -1, 10.0)]);
    assert_eq!(set.jobs[0].bandwidth, 1.5e9);
    assert!(
        set.warnings
            .iter()
            .any(|w| w
                == "1 job demands more than 1.500000e9 MB/s per process: counted as that much"),
        "{:?}",
        set.warnings
    );
    let s = run_nodes(&set, "easy", 1);
    // Alone on its node: 4 x 1.5e9 / 6000 - 1 = 999,999 -> factor 1e6.
    assert_eq!(s.jobs[0].end - s.jobs[0].start, 100_000_000);
}

/// Found by fuzzing: a billion processors in one-core nodes (both allowed by the options) made
/// the engine allocate more than 23 GB of per-node state. At most 2^20 nodes.
#[test]
fn more_than_a_million_nodes_are_refused() {
    use schedlab::input::{prepare, InputOptions};
    use schedlab::swf::{read_bytes, ReadOptions};
    let w = read_bytes(
        "n.swf",
        b"1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n",
        &ReadOptions::default(),
    )
    .unwrap();
    let with = |procs: u32, cores: u32| InputOptions {
        procs: Some(procs),
        nodes: Some(NodeModel {
            cores,
            ..NodeModel::default()
        }),
        ..InputOptions::default()
    };
    let e = prepare(&w, &with(1_000_000_000, 1))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("node model: 1000000000 processors in nodes of 1 cores make 1000000000 nodes (at most 1048576)"),
        "{e}"
    );
    assert!(prepare(&w, &with(1 << 20, 1)).is_ok());
    // Issue 37: the engine keeps state per processor too (a billion processors in nodes of 1024
    // cores took 4 GB natively and overflowed capacity in the page).
    let e = prepare(&w, &with(1_000_000_000, 1024))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "node model: 1000000000 processors (override), at most 16777216 with the node model"
        ),
        "{e}"
    );
    assert!(prepare(&w, &with(1 << 24, 1024)).is_ok());
}

#[test]
fn processor_intervals_split_at_node_boundaries() {
    // Nodes of 4: [1, 6) is 1-3 on node 0 and 4-5 on node 1; [8, 9) is on node 2.
    let model = NodeModel::default();
    let mut pieces = Vec::new();
    model.split(&[(1, 6), (8, 9)], |n, a, b| pieces.push((n, a, b)));
    assert_eq!(pieces, [(0, 1, 4), (1, 4, 6), (2, 8, 9)]);
    let mut per_node = Vec::new();
    model.per_node_into(&[(1, 6), (7, 9), (12, 13)], &mut per_node);
    assert_eq!(per_node, [(0, 3), (1, 3), (2, 1), (3, 1)]);
}

/// Runs a policy and checks, before each of its passes, what the node view keeps at each start
/// and stop against the free processors: free processors per node; and that every pass sees a
/// new state id.
struct Watch {
    inner: Box<dyn schedlab::sim::Policy>,
    ids: std::collections::HashSet<u64>,
    passes: usize,
}

impl schedlab::sim::Policy for Watch {
    fn spec(&self) -> String {
        self.inner.spec()
    }

    fn schedule(&mut self, c: &mut schedlab::sim::Ctx<'_>) -> Result<(), schedlab::sim::SimError> {
        let view = c.nodes().expect("the node model is on");
        let mut free = vec![0u32; view.node_count() as usize];
        for p in c.free_set().ids() {
            free[view.model().node_of(p) as usize] += 1;
        }
        assert_eq!(view.node_free(), free.as_slice(), "t={}", c.now());
        assert!(
            self.ids.insert(c.state_id()),
            "t={}: a state id seen before",
            c.now()
        );
        self.passes += 1;
        self.inner.schedule(c)
    }
}

#[test]
fn free_processors_per_node_follow_starts_and_ends_and_each_pass_sees_a_new_state() {
    // 8 nodes of 4 cores; jobs of 1-12 processors with mixed demands, arriving in bursts.
    let jobs: Vec<common::NJ> = (0..60)
        .map(|i: i64| {
            let procs = [1, 3, 4, 6, 9, 12][(i % 6) as usize];
            let demand = [500.0, 2000.0, 3000.0][(i % 3) as usize];
            ((i / 4) * 50, 100 + (i * 37) % 400, procs, 2000, demand)
        })
        .collect();
    let set = node_job_set(32, 4, &jobs);
    for spec in ["sjbf", "sjbf[rsp=lc]", "sjbf[rsp=lct]", "rua"] {
        let machine = common::machine(&set);
        let mut w = Watch {
            inner: schedlab::policy::build(spec).unwrap(),
            ids: Default::default(),
            passes: 0,
        };
        let s = schedlab::sim::simulate_on(&set.jobs, set.procs, machine, &mut w, 1, None)
            .expect("simulation runs");
        assert!(w.passes > 20, "{spec}: {} passes", w.passes);
        // The same schedule as without the watch (the watch changes nothing).
        assert_eq!(s.jobs, run_nodes(&set, spec, 1).jobs, "{spec}");
    }
}
