//! The engine's boundary as a policy written outside the crate sees it: the public API (the
//! `Policy` trait, `Ctx`'s narrow view and validated decisions, the policy parts) is enough to
//! write and compose a policy, and the view tells only what a real scheduler knows.

use crate::common;
use common::{job_set, run, starts};
use schedlab::policy::order::{Criterion, Zotkin};
use schedlab::policy::queue::Queue;
use schedlab::policy::rule::easy::{BackfillOrder, Easy};
use schedlab::policy::rule::StartRule;
use schedlab::policy::Composed;
use schedlab::sim::check::check;
use schedlab::sim::{simulate, Ctx, Policy, SimError};

/// A policy that starts waiting jobs in arrival order while they fit, and records what it saw
/// of each one: (job, estimate, recorded start, requested time).
struct Spy {
    predictor: Option<&'static str>,
    seen: Vec<(usize, i64, Option<i64>, Option<i64>)>,
}

impl Policy for Spy {
    fn spec(&self) -> String {
        "spy".into()
    }

    fn predictor(&self) -> Option<&str> {
        self.predictor
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        while let Some(j) = c.waiting().first() {
            let v = c.job(j);
            self.seen
                .push((j, c.estimate(j), c.recorded_start(j), v.requested));
            if !c.fits(j) {
                break;
            }
            let end = c.now() + c.estimate(j);
            c.start_with(j, None, Some(end))?;
            assert_eq!(c.planned_end(j), end);
        }
        Ok(())
    }
}

/// Machine 4. A (4 processors, runs 30 s, requests 100 s) at 0; B (2, runs 10 s, requests 50 s)
/// at 5. FCFS: A [0, 30), B [30, 40).
fn two_jobs() -> schedlab::input::JobSet {
    job_set(4, &[(0, 30, 4, 100), (5, 10, 2, 50)])
}

fn spy(predictor: Option<&'static str>) -> Vec<(usize, i64, Option<i64>, Option<i64>)> {
    let set = two_jobs();
    let mut p = Spy {
        predictor,
        seen: Vec::new(),
    };
    let s = simulate(&set.jobs, set.procs, &mut p, 1, None).unwrap();
    check(&set.jobs, &s).unwrap();
    assert_eq!(
        s.jobs.iter().map(|r| r.start).collect::<Vec<_>>(),
        vec![0, 30]
    );
    p.seen
}

#[test]
fn the_true_runtime_reaches_a_policy_only_through_the_exact_predictor() {
    // Without a predictor (and with `user`) the estimate is the requested time: 100 and 50.
    // B is seen at 5 (blocked) and at 30 (started).
    let plain = vec![
        (0, 100, None, Some(100)),
        (1, 50, None, Some(50)),
        (1, 50, None, Some(50)),
    ];
    assert_eq!(spy(None), plain);
    assert_eq!(spy(Some("user")), plain);
    // `exact`: the runtimes 30 and 10. No policy but a replaying one sees recorded starts.
    assert_eq!(
        spy(Some("exact")),
        vec![
            (0, 30, None, Some(100)),
            (1, 10, None, Some(50)),
            (1, 10, None, Some(50)),
        ]
    );
}

#[test]
fn a_bad_predictor_is_an_error_not_a_panic() {
    let set = two_jobs();
    let mut p = Spy {
        predictor: Some("oracle"),
        seen: Vec::new(),
    };
    let Err(e) = simulate(&set.jobs, set.procs, &mut p, 1, None) else {
        panic!("an unknown predictor was accepted");
    };
    let e = e.to_string();
    assert!(e.contains("unknown predictor \"oracle\""), "{e}");
}

/// Largest job first, no backfilling: a start rule written outside the crate, composed with
/// the arrival order it ignores.
struct WidestFirst;

impl StartRule for WidestFirst {
    fn pass(&mut self, c: &mut Ctx<'_>, queue: &mut Queue<'_>) -> Result<(), SimError> {
        let mut order = queue.all(c).to_vec();
        order.sort_by_key(|&j| (std::cmp::Reverse(c.job(j).procs), j));
        for j in order {
            if !c.fits(j) {
                break;
            }
            c.start(j)?;
        }
        Ok(())
    }
}

#[test]
fn policies_compose_from_parts_outside_the_crate() {
    // Machine 4. X (4 processors, 10 s) at 0 holds the machine; Y (1) at 1, Z (3) at 2, W (4)
    // at 3 wait, 10 s each. At 10, widest first: W [10, 20); Z does not fit, nothing else
    // starts. At 20: Z and Y [20, 30). FCFS: Y and Z at 10, W at 20.
    let set = job_set(
        4,
        &[
            (0, 10, 4, 10),
            (1, 10, 1, 10),
            (2, 10, 3, 10),
            (3, 10, 4, 10),
        ],
    );
    let mut p = Composed::new("widest".into(), None, None, Box::new(WidestFirst));
    let s = simulate(&set.jobs, set.procs, &mut p, 1, None).unwrap();
    check(&set.jobs, &s).unwrap();
    assert_eq!(starts(&s), vec![0, 20, 20, 10]);
    assert_eq!(starts(&run(&set, "fcfs")), vec![0, 10, 10, 20]);

    // The catalogue's parts compose the same way: Zotkin's sjf order + the EASY rule is
    // easy[queue=sjf].
    let mut p = Composed::new(
        "mine".into(),
        Some("user".into()),
        Some(Box::new(Zotkin::new(Criterion::Sjf, 0.0))),
        Box::new(Easy::new(BackfillOrder::Fcfs)),
    );
    let s = simulate(&set.jobs, set.procs, &mut p, 1, None).unwrap();
    assert_eq!(starts(&s), starts(&run(&set, "easy[queue=sjf]")));
}
