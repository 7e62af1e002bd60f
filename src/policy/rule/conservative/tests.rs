//! Conservative backfilling: hand-worked cases, and the narrowed checks against full ones.

use super::{Conservative, Tuning};
use crate::job::Job;
use crate::policy::order::{Criterion, QueueOrder, Zotkin};
use crate::policy::Composed;
use crate::sim::simulate;
use crate::Time;

fn job(i: usize, submit: Time, procs: u32, runtime: Time) -> Job {
    Job {
        id: i as i64 + 1,
        line: i as u64 + 1,
        submit,
        runtime,
        trace_runtime: runtime,
        procs,
        requested: std::num::NonZeroI64::new(runtime),
        estimate: runtime,
        estimate_unknown: false,
        killed: false,
        timed_out: false,
        user: 1,
        trace_wait: -1,
        status: 1,
        used_memory: -1.0,
        requested_memory: -1.0,
        bandwidth: 0.0,
        req: Default::default(),
    }
}

/// Arrivals of one instant are placed in queue order (found from the back of the queue):
/// on 4 processors busy until 10, a 3-wide 100 s job and a 2-wide 5 s job arrive at 1;
/// by arrival the wide one holds [10, 110) and the narrow one waits for 110, shortest
/// first the narrow one holds [10, 15) and the wide one [15, 115).
#[test]
fn arrivals_of_one_instant_are_placed_in_queue_order() {
    let jobs = [job(0, 0, 4, 10), job(1, 1, 3, 100), job(2, 1, 2, 5)];
    for (spec, starts) in [
        ("conservative", [0, 10, 110]),
        ("conservative[queue=sjf]", [0, 15, 10]),
    ] {
        let mut p = crate::policy::build(spec).unwrap();
        let s = simulate(&jobs, 4, p.as_mut(), 1, None).unwrap();
        let got: Vec<Time> = s.jobs.iter().map(|r| r.start).collect();
        assert_eq!(got, starts, "{spec}");
    }
}

/// Thresholds small enough that workloads of a few hundred jobs narrow their checks (queues
/// of 24 or more), sum the previous segment in several strides, join clusters and move
/// reservations in long profiles.
fn small(full_checks: bool) -> Tuning {
    Tuning {
        track_from: 24,
        stride: 3,
        most: 3,
        splice_from: Some(16),
        full_checks,
    }
}

/// The starts of conservative backfilling with `tuning`, in arrival order or shortest
/// estimate first (`sjf`).
fn starts(jobs: &[Job], procs: u32, sjf: bool, tuning: Tuning) -> Vec<Time> {
    let order: Option<Box<dyn QueueOrder>> = match sjf {
        true => Some(Box::new(Zotkin::new(Criterion::Sjf, 0.0))),
        false => None,
    };
    let rule = Box::new(Conservative::with_tuning(tuning));
    let mut p = Composed::new("conservative".into(), None, order, rule);
    let s = simulate(jobs, procs, &mut p, 1, None).unwrap();
    s.jobs.iter().map(|r| r.start).collect()
}

/// Random workloads with estimates far above the runtimes (every end frees processors
/// early, so every pass compresses): the narrowed checks give the same schedule as
/// checking every reserved job from now on, and as the production thresholds (which check
/// these short queues in full). Half the rounds count in whole minutes, so that jobs often
/// fit a freed stretch exactly.
#[test]
fn narrowed_checks_agree_with_full_checks() {
    let mut rnd = crate::sim::test_numbers(0x9e37_79b9_7f4a_7c15);
    let mut waited = 0;
    for round in 0..12 {
        let unit: Time = if round >= 6 { 60 } else { 1 };
        let procs = 8 + rnd(56) as u32;
        let n = 200 + rnd(200) as usize;
        let mut submit: Time = 0;
        let jobs: Vec<Job> = (0..n)
            .map(|i| {
                submit += rnd(if round % 3 == 0 { 2 } else { 400 }) as Time / unit * unit;
                let runtime = rnd(3000) as Time / unit * unit;
                let estimate = runtime + rnd(8000) as Time / unit * unit;
                let width = if rnd(4) == 0 {
                    1 << rnd(6)
                } else {
                    1 + rnd(u64::from(procs)) as u32
                };
                Job {
                    requested: std::num::NonZeroI64::new(estimate),
                    estimate,
                    user: rnd(5) as i64,
                    ..job(i, submit, width.min(procs), runtime)
                }
            })
            .collect();
        for sjf in [false, true] {
            let narrowed = starts(&jobs, procs, sjf, small(false));
            let full = starts(&jobs, procs, sjf, small(true));
            assert_eq!(narrowed, full, "round {round} sjf {sjf}");
            let production = starts(&jobs, procs, sjf, Tuning::default());
            assert_eq!(narrowed, production, "round {round} sjf {sjf}");
            // Busy enough that most jobs wait.
            waited += narrowed
                .iter()
                .zip(&jobs)
                .filter(|(&s, j)| s > j.submit)
                .count();
        }
    }
    assert!(waited > 1000, "{waited}");
}
