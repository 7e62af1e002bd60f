//! EASY's backfilling through its index of the waiting jobs (a queue in arrival order of at
//! least 1024 jobs) decides as the plain scan of the queue: the same starts, processors and
//! reasons as the same rule over a queue order that ties every job (`queue=expr(0)`, arrival
//! order read through the sorted queue, never indexed).

use crate::common;
use common::{job_set, run};
use proptest::prelude::*;
use schedlab::sim::StartReason;

/// Bursts of many jobs at a few instants on 32 processors, so that the queue stays long:
/// widths up to the machine, runtimes with and without requested times, some of them far
/// longer than the others (the wide and long jobs the backfilling passes over).
fn bursts() -> impl Strategy<Value = Vec<common::J>> {
    (
        prop::collection::vec(0i64..5000, 1..4),
        prop::collection::vec((0i64..300, 1i64..=32, 0i64..80, 0u8..10), 1100..1600),
    )
        .prop_map(|(gaps, jobs)| {
            let mut t = 0;
            let burst = jobs.len() / gaps.len() + 1;
            jobs.into_iter()
                .enumerate()
                .map(|(i, (run, procs, slack, kind))| {
                    if i % burst == 0 {
                        t += gaps[i / burst];
                    }
                    let procs = if kind < 6 { procs % 5 + 1 } else { procs };
                    let run = if kind == 9 { run * 50 } else { run };
                    let req = if kind == 0 { -1 } else { run + slack };
                    (t, run, procs, req)
                })
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn indexed_backfilling_decides_as_the_plain_scan(jobs in bursts()) {
        let set = job_set(32, &jobs);
        for predictor in ["user", "exact", "virtual[err=0.5]", "last"] {
            let indexed = run(&set, &format!("easy[predictor={predictor}]"));
            let plain = run(&set, &format!("easy[queue=expr(0),predictor={predictor}]"));
            prop_assert_eq!(&indexed.jobs, &plain.jobs, "predictor {}", predictor);
        }
    }
}

/// A hand-worked long queue on 8 processors, all jobs at time 0: job 0 (6 processors, 100 s)
/// starts; job 1 (8 processors) is the blocked head, its shadow at 100 with no extra
/// processors. Behind it 1100 jobs of 4 processors (wider than the 2 free), one of 2
/// processors for 1000 s (fits, but ends after the shadow), then two of one processor ending
/// by the shadow (50 s and 100 s): those two are backfilled at 0, past the 1101 others.
#[test]
fn long_queue_by_hand() {
    let mut jobs: Vec<common::J> = vec![(0, 100, 6, 100), (0, 10, 8, 10)];
    jobs.extend((0..1100).map(|_| (0, 10, 4, 10)));
    jobs.extend([(0, 1000, 2, 1000), (0, 50, 1, 50), (0, 100, 1, 100)]);
    let set = job_set(8, &jobs);
    let indexed = run(&set, "easy");
    let plain = run(&set, "easy[queue=expr(0)]");
    assert_eq!(indexed.jobs, plain.jobs);
    let s = &indexed.jobs;
    assert_eq!((s[1103].start, s[1104].start), (0, 0));
    assert_eq!(s[1103].reason, StartReason::Backfilled);
    // Job 1 at 100, then the 4-processor jobs two at a time every 10 s from 110, then the
    // 2-processor job when the last pair ends.
    assert_eq!((s[1].start, s[2].start, s[3].start), (100, 110, 110));
    assert_eq!((s[1101].start, s[1102].start), (5600, 5610));
}

/// On a cluster (index from 64 waiting jobs): a GPU node g1 (4 cores, 1 GPU) and c1 (4
/// cores), all jobs at 0. Job 0 (6 cores, 1 GPU, 100 s) takes g1 and 2 cores of c1; job 1
/// (8 cores, 10 s) is the blocked head, its shadow at 100. Job 2 (1 core, 1 GPU, 10 s) would
/// end by the shadow but its GPU is taken: passed over, as the scan passes it. Job 3 (2
/// cores, 50 s) is backfilled at 0; job 4 (1 core, 10 s) finds no core free then and is
/// backfilled when job 3 ends, at 50. Job 1 starts at 100, job 2 when it ends, at 110. Behind
/// them 64 jobs of 8 cores (never backfilled) keep the queue long enough for the index.
#[test]
fn a_candidate_whose_nodes_are_taken_is_passed_over() {
    use common::clusterkit::{jobs, place, req, run, GPU_NODE_AND_CPU_NODE};
    let mut cj = vec![
        (0, 100, 6, 0, req(0, 1)),
        (0, 10, 8, 0, req(0, 0)),
        (0, 10, 1, 0, req(0, 1)),
        (0, 50, 2, 0, req(0, 0)),
        (0, 10, 1, 0, req(0, 0)),
    ];
    cj.extend((0..64).map(|_| (0, 10, 8, 0, req(0, 0))));
    let js = jobs(&cj);
    let p = place(GPU_NODE_AND_CPU_NODE, &js, &[]);
    let indexed = run(&p, &js, "easy");
    let plain = run(&p, &js, "easy[queue=expr(0)]");
    assert_eq!(indexed.jobs, plain.jobs);
    let starts: Vec<i64> = indexed.jobs.iter().take(5).map(|r| r.start).collect();
    assert_eq!(starts, [0, 100, 110, 0, 50]);
    assert_eq!(indexed.jobs[3].reason, StartReason::Backfilled);
    assert_eq!(indexed.jobs[4].reason, StartReason::Backfilled);
}

/// Random bursts of jobs with node counts, GPUs, memory, exclusive nodes and two partitions
/// on a small cluster: backfilling through the index starts the same jobs at the same times
/// on the same nodes as the plain scan.
fn cluster_bursts() -> impl Strategy<Value = Vec<common::clusterkit::CJ>> {
    (
        prop::collection::vec(0i64..400, 1..4),
        prop::collection::vec(
            (
                0i64..120,
                1u32..20,
                0u8..10,
                0u32..3,
                any::<bool>(),
                0u16..3,
            ),
            80..240,
        ),
    )
        .prop_map(|(gaps, jobs)| {
            let mut t = 0;
            let burst = jobs.len() / gaps.len() + 1;
            jobs.into_iter()
                .enumerate()
                .map(|(i, (run, procs, kind, gpus, exclusive, partition))| {
                    if i % burst == 0 {
                        t += gaps[i / burst];
                    }
                    let run = if kind == 9 { run * 20 } else { run };
                    let req = schedlab::job::Request {
                        nodes: if kind == 1 { 1 + procs % 3 } else { 0 },
                        gpus: if kind < 4 { gpus } else { 0 },
                        mem_per_node_mb: 0,
                        partition,
                        exclusive: exclusive && kind == 2,
                    };
                    let mem = if kind == 3 { 100 } else { 0 };
                    (t, run, procs, mem, req)
                })
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn indexed_backfilling_on_a_cluster_decides_as_the_plain_scan(cj in cluster_bursts()) {
        use common::clusterkit::{jobs, place, run};
        let mut js = jobs(&cj);
        for (i, j) in js.iter_mut().enumerate() {
            // Requested times above the runtimes, by varying amounts.
            j.set_requested(Some(j.runtime + (i as i64 * 37) % 90));
            j.estimate = j.runtime + (i as i64 * 37) % 90;
        }
        let p = place(
            "NodeName=g[1-3] CPUs=8 RealMemory=1000 Gres=gpu:2\n\
             NodeName=c[1-4] CPUs=6 RealMemory=500\n\
             PartitionName=a Nodes=ALL Default=YES\n\
             PartitionName=b Nodes=g3,c[1-2]\n",
            &js,
            &["a", "b"],
        );
        for predictor in ["user", "exact", "virtual[err=0.5]", "last"] {
            let indexed = run(&p, &js, &format!("easy[predictor={predictor}]"));
            let plain = run(&p, &js, &format!("easy[queue=expr(0),predictor={predictor}]"));
            prop_assert_eq!(&indexed.jobs, &plain.jobs, "predictor {}", predictor);
            prop_assert_eq!(&indexed.allocs, &plain.allocs, "predictor {}", predictor);
        }
    }
}
