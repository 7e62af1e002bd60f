//! When the engine calls a scheduling pass (ARCHITECTURE.md, "When a pass happens"): at
//! submissions, terminations, expiries of planned ends that still stand and the wake-up the
//! latest pass asked for; never at an instant whose only events are superseded.

use crate::common;
use common::{job_set, node_job_set};
use schedlab::input::JobSet;
use schedlab::policy;
use schedlab::sim::{check::check, simulate_on, Ctx, Jobs, Machine, Policy, ProcSet, SimError};
use schedlab::Time;

/// Runs `inner` and records the instant of every pass.
struct Recorder {
    inner: Box<dyn Policy>,
    passes: Vec<Time>,
}

impl Policy for Recorder {
    fn spec(&self) -> String {
        self.inner.spec()
    }
    fn predictor(&self) -> Option<&str> {
        self.inner.predictor()
    }
    fn prepare(&mut self, jobs: Jobs<'_>, procs: u32) -> Vec<(usize, String)> {
        self.inner.prepare(jobs, procs)
    }
    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        self.passes.push(c.now());
        self.inner.schedule(c)
    }
}

/// Runs `policy` on `set` (with its node model, if any), checks the invariants and returns the
/// schedule's starts, ends and processors with the instants of the passes.
fn run_recorded(set: &JobSet, policy: Box<dyn Policy>) -> (Vec<(Time, Time, ProcSet)>, Vec<Time>) {
    let mut rec = Recorder {
        inner: policy,
        passes: Vec::new(),
    };
    let machine = set.options.nodes.as_ref().map(|nodes| Machine {
        nodes,
        kill: set.options.kill,
    });
    let s = simulate_on(&set.jobs, set.procs, machine, &mut rec, 1, None).expect("runs");
    if let Err(e) = check(&set.jobs, &s) {
        panic!("invariants violated:\n{}", e.join("\n"));
    }
    let jobs = s
        .jobs
        .iter()
        .map(|r| (r.start, r.end, r.procs.clone()))
        .collect();
    (jobs, rec.passes)
}

#[test]
fn rua_has_no_pass_at_a_finish_time_the_node_model_moved() {
    // Two nodes of 4 cores (0-3, 4-7) sharing 6000 MB/s each; RUA with thresholds 1.15, 1.2,
    // 1.25, 1.5 and slowdown (start - submit + estimate x factor) / estimate.
    //   J1 t=0   3 procs x 3000 MB/s, runtime 200, requested 300
    //   J2 t=1   6 procs x 3000, runtime 200, requested 300
    //   J3 t=51  3 procs x 2000, runtime 10, requested 30
    //   J4 t=53  1 proc  x 3000, runtime 200, requested 240
    //   J5 t=57  2 procs x 500,  runtime 300, requested 450
    // t=0: J1 on {0,1,4} (LessConsume moves one process off node 0: 6000 + 3000, factor 1);
    //   its end is 200.
    // t=1: J2 does not fit (5 free); at J1's planned end 300 its best is 3 + 3 processes,
    //   factor 1.5 (its floor): reservation 300, 2 processors left over then.
    // t=51: J3 ends by 300; now it gets {2,5,6} with factor 4/3 (node 0 at 8000), which only
    //   threshold 1.5 accepts; the others wait for 300: slowdown 9.3 > 4/3, so it starts.
    //   J1 (node 0 at 8000, node 1 at 7000) now runs at 3/4: its end moves from 200 to
    //   51 + 149 x 4/3 -> 250. The finish event at 200 is superseded.
    // t=53, 57: J4 and J5 arrive; their best starts are later (J4: factor 5/3 now, 1 at 81;
    //   J5: 1.42 now, 1.08 at 81), so neither starts.
    // t=65: J3 ends (14 s at 4/3): J1 back to factor 1, ends at 65 + 138.5 -> 204 (the event at
    //   250 is superseded too). The pass keeps J2's reservation at 300 with 2 left over; J4
    //   ({5}, factor 1, not ending by 300: uses 1 of them) and J5 ({5,6}, factor 1, needs 2)
    //   both could start; by factor then estimate J4 goes first, and then J5 needs 2 > 1 left.
    // t=200 (J1's superseded end): no pass. Before, a pass ran here and, seeing J4 running,
    //   moved J2's reservation to 305 with 2 left over, so J5 started at 200 on {2,6} with
    //   factor 13/12.
    // t=204: J1 ends (a current event): J5 starts on the free node 0, {0,1}, factor 1.
    let set = node_job_set(
        8,
        4,
        &[
            (0, 200, 3, 300, 3000.0),
            (1, 200, 6, 300, 3000.0),
            (51, 10, 3, 30, 2000.0),
            (53, 200, 1, 240, 3000.0),
            (57, 300, 2, 450, 500.0),
        ],
    );
    let (jobs, passes) = run_recorded(&set, policy::build("rua").unwrap());
    assert_eq!(
        (jobs[0].0, jobs[0].1, jobs[0].2.clone()),
        (0, 204, ProcSet::from_intervals(vec![(0, 2), (4, 5)]))
    );
    assert_eq!((jobs[2].0, jobs[2].1), (51, 65));
    assert_eq!(jobs[2].2, ProcSet::from_intervals(vec![(2, 3), (5, 7)]));
    assert_eq!((jobs[3].0, jobs[3].2.clone()), (65, ProcSet::range(5, 6)));
    assert_eq!((jobs[4].0, jobs[4].2.clone()), (204, ProcSet::range(0, 2)));
    assert!(
        !passes.contains(&200) && !passes.contains(&250),
        "{passes:?}"
    );
    for t in [0, 1, 51, 53, 57, 65, 204] {
        assert!(passes.contains(&t), "no pass at {t}: {passes:?}");
    }
}

/// Asks for the wake-ups of `plan` (pass instant -> wake-up asked) and starts nothing.
struct Waker {
    plan: Vec<(Time, Time)>,
}

impl Policy for Waker {
    fn spec(&self) -> String {
        "waker".into()
    }
    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        let now = c.now();
        for &(at, wake) in &self.plan {
            if at == now {
                c.wake_at(wake);
            }
        }
        // Start everything at the last wake-up so the run ends.
        if now >= 300 {
            while let Some(j) = c.waiting().first() {
                c.start(j)?;
            }
        }
        Ok(())
    }
}

#[test]
fn a_pass_wake_up_replaces_the_earlier_ones() {
    // Submissions at 0 and 10. The pass at 0 asks for 100 and 200; the pass at 10 asks for 50
    // only, so 100 and 200 are no longer wanted. The pass at 50 asks for 300 (where the jobs
    // start); they end at 310 and 320.
    let set = job_set(4, &[(0, 10, 1, 100), (10, 20, 1, 100)]);
    let waker = Waker {
        plan: vec![(0, 100), (0, 200), (10, 50), (50, 300)],
    };
    let (jobs, passes) = run_recorded(&set, Box::new(waker));
    assert_eq!(passes, [0, 10, 50, 300, 310, 320]);
    assert_eq!((jobs[0].0, jobs[1].0), (300, 300));
}

#[test]
fn an_expiry_that_still_stands_gets_a_pass() {
    // One processor, EASY with the Last Model. Jobs of users 1, 2, 3: no user has a finished
    // job before its own start, so every prediction is the requested time and no plan
    // expires: passes at the submissions (0, 1, 2) and the ends (100, 200, 400) only.
    let set = job_set(1, &[(0, 100, 1, 500), (1, 100, 1, 500), (2, 200, 1, 500)]);
    let (_, passes) = run_recorded(&set, policy::build("easy[predictor=last]").unwrap());
    assert_eq!(passes, [0, 1, 2, 100, 200, 400]);

    // The same jobs of one user: A is predicted 500 (no finished job yet) and ends at 100; B
    // and C are predicted from A's accuracy, 100 / 500 x 500 = 100 s. B runs 100-200 as
    // predicted (its plan does not expire); C starts at 200, planned to end at 300, runs 200 s:
    // at 300 its plan still stands and expires (a pass; the plan moves to its kill time 700);
    // it ends at 400.
    let text = "; MaxProcs: 1\n\
        1 0 -1 100 1 -1 -1 1 500 -1 1 1 1 -1 -1 -1 -1 -1\n\
        2 1 -1 100 1 -1 -1 1 500 -1 1 1 1 -1 -1 -1 -1 -1\n\
        3 2 -1 200 1 -1 -1 1 500 -1 1 1 1 -1 -1 -1 -1 -1\n";
    let w = schedlab::swf::read_bytes("one.swf", text.as_bytes(), &Default::default()).unwrap();
    let set = schedlab::input::prepare(&w, &Default::default()).unwrap();
    let (jobs, passes) = run_recorded(&set, policy::build("easy[predictor=last]").unwrap());
    assert_eq!(
        jobs.iter().map(|j| (j.0, j.1)).collect::<Vec<_>>(),
        [(0, 100), (100, 200), (200, 400)]
    );
    assert_eq!(passes, [0, 1, 2, 100, 200, 300, 400]);
}

/// A periodic scheduler: at every pass it starts, in arrival order, each waiting job of at most
/// `widest` processors that fits now and that `from` allows (submit time or later), then asks
/// for a pass `period` seconds on while any job waits (a `sched_interval`); with `names`, it
/// also names `from` (`wake_at(from)`) while it is ahead.
struct Ticker {
    widest: u32,
    from: Time,
    period: Time,
    names: bool,
}

/// A [`Ticker`] that polls every second.
fn ticker(widest: u32, from: Time, names: bool) -> Ticker {
    Ticker {
        widest,
        from,
        period: 1,
        names,
    }
}

impl Policy for Ticker {
    fn spec(&self) -> String {
        "ticker".into()
    }
    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        let waiting: Vec<usize> = c.waiting().iter().collect();
        for j in waiting {
            let p = c.job(j).procs;
            if p <= self.widest && p <= c.free() && c.now() >= self.from {
                c.start(j)?;
            }
        }
        if !c.waiting().is_empty() {
            c.wake_at(c.now() + self.period);
            if self.names {
                c.wake_at(self.from);
            }
        }
        Ok(())
    }
}

/// Runs `p` on `set` and checks that the engine ends it with `Stuck` at `time`, its message
/// naming where the idle instants began (`from`: `from t=10`).
fn assert_stuck(set: &JobSet, p: &mut Ticker, time: Time, from: &str) {
    let e = simulate_on(&set.jobs, set.procs, None, p, 1, None).unwrap_err();
    let SimError::Stuck { time: at, .. } = &e else {
        panic!("{e}");
    };
    assert_eq!(*at, time);
    assert!(e.to_string().contains(from), "{e}");
}

/// A job no pass ever starts, on an idle machine, with the policy waking every second: the
/// engine ends the run with `Stuck` naming it, rather than passing for ever (its heap never
/// empties). 4 processors; job 1 (2 procs, 0-10) runs; job 2 (3 procs, submitted at 5) is
/// over `widest` = 2. From t=10 nothing runs and no submission is left: the 10 000th idle
/// instant is t = 10 + 9 999.
#[test]
fn a_policy_that_only_wakes_on_an_idle_machine_is_stuck() {
    let set = job_set(4, &[(0, 10, 2, 10), (5, 10, 3, 10)]);
    let mut p = ticker(2, 0, false);
    // Without the guard the run would never end: cancelled (a failure) after a million instants.
    let mut calls = 0;
    let mut bound = |_: usize, _: usize| {
        calls += 1;
        calls < 1_000
    };
    let e = simulate_on(&set.jobs, set.procs, None, &mut p, 1, Some(&mut bound)).unwrap_err();
    let SimError::Stuck { time, waiting, .. } = &e else {
        panic!("{e}");
    };
    assert_eq!((*time, *waiting), (10 + 9_999, 1));
    let text = e.to_string();
    assert!(
        text.contains("(jobs 2)") && text.contains("from t=10"),
        "{text}"
    );
}

/// The guard changes no schedule that ends: a policy that starts nothing before t = 5000 runs
/// job 1 then (and job 2 at its end, 5010), after 4 996 idle passes (one a second from the last submission at 5, below
/// the engine's 10 000).
#[test]
fn a_long_idle_wait_that_ends_in_a_start_is_not_stuck() {
    let set = job_set(4, &[(0, 10, 2, 10), (5, 10, 3, 10)]);
    let mut p = ticker(4, 5000, false);
    let s = simulate_on(&set.jobs, set.procs, None, &mut p, 1, None).expect("runs");
    // Job 2 (3 processors) waits for job 1's 2 of 4 to end.
    assert_eq!((s.jobs[0].start, s.jobs[1].start), (5000, 5010));
}

/// A policy that holds every job until a time of day it names (t = 50 000, 13:53:20 of the
/// first day), polling every second meanwhile, finishes. Job 1 (2 procs, submitted 0) and job 2
/// (3 procs, submitted 5) wait on an idle machine; from t = 5 no submission is left, but no
/// idle instant counts while the named time lies beyond the next wake-up: the first that counts
/// is t = 49 999 (its wake-up, 50 000, reaches it). Job 1 starts at 50 000, job 2 at its end,
/// 50 010. Without naming 50 000 the same wait is stopped by the guard.
#[test]
fn a_policy_waiting_for_a_time_it_named_finishes() {
    let set = job_set(4, &[(0, 10, 2, 10), (5, 10, 3, 10)]);
    let mut p = ticker(4, 50_000, true);
    let s = simulate_on(&set.jobs, set.procs, None, &mut p, 1, None).expect("runs");
    assert_eq!((s.jobs[0].start, s.jobs[1].start), (50_000, 50_010));
    // The same policy polling without naming 50 000 is stopped after 10 000 idle instants:
    // from t = 5 (the last submission; nothing runs) to 5 + 9 999.
    p.names = false;
    let e = simulate_on(&set.jobs, set.procs, None, &mut p, 1, None).unwrap_err();
    let SimError::Stuck { time, .. } = &e else {
        panic!("{e}");
    };
    assert_eq!(*time, 5 + 9_999);
}

/// A policy that names a time and still cannot start a job after it is stopped 10 000 idle
/// instants later: nothing starts before the named t = 20 000 (the first pass whose wake-up
/// reaches it, 19 999, counts one idle instant, then job 1 starts at 20 000 and the count
/// starts again); job 1 (2 procs) runs 20 000-20 010; job 2 (3 procs) is over `widest` = 2.
/// From t = 20 010 nothing runs and every time named has passed: the 10 000th idle instant is
/// 20 010 + 9 999 = 30 009.
#[test]
fn a_policy_stuck_past_the_time_it_named_is_stopped() {
    let set = job_set(4, &[(0, 10, 2, 10), (5, 10, 3, 10)]);
    let mut p = ticker(2, 20_000, true);
    assert_stuck(&set, &mut p, 30_009, "from t=20010");
}

/// Idle instants with a submission still to come count nothing: job 1 (3 procs, submitted 0)
/// is over `widest` = 2 and the policy polls every second on an idle machine from t = 0 to
/// the submission of job 2 (2 procs) at 20 000, more than 10 000 instants, and is not
/// stopped. Job 2 runs 20 000-20 010; from 20 010 nothing runs, no submission is left and the
/// count starts: the 10 000th idle instant is 20 010 + 9 999 = 30 009.
#[test]
fn idle_instants_before_a_submission_count_nothing() {
    let set = job_set(4, &[(0, 10, 3, 10), (20_000, 10, 2, 10)]);
    let mut p = ticker(2, 0, false);
    assert_stuck(&set, &mut p, 30_009, "from t=20010");
}

/// A job that comes and goes within one idle instant begins the count again: job 1 (3 procs,
/// submitted 0) is over `widest` = 2; job 2 (2 procs, 0 s, submitted 5) is held until
/// t = 5 000. From t = 5 no submission is left and the count runs; at 5 000 job 2 starts and
/// ends at once (nothing runs after the instant, one more job finished): the count starts
/// again from 5 000, and the 10 000th idle instant is 5 000 + 9 999 = 14 999 (10 004 if the
/// count ran on from t = 5).
#[test]
fn a_job_that_ends_within_an_idle_instant_starts_the_count_again() {
    let set = job_set(4, &[(0, 10, 3, 10), (5, 0, 2, 10)]);
    let mut p = ticker(2, 5_000, false);
    assert_stuck(&set, &mut p, 14_999, "from t=5000");
}
