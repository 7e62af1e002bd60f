//! EASY's backfilling through its index of the waiting jobs (a queue in arrival order of at
//! least 1024 jobs) decides as the plain scan of the queue: the same starts, processors and
//! reasons as the same rule over a queue order that ties every job (`queue=expr(0)`, arrival
//! order read through the sorted queue, never indexed).

mod common;
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
