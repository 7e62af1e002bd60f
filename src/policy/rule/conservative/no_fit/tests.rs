use super::*;
use crate::policy::plan::{Hint, Profile};

/// A profile of 4 processors at time 0: 1 free over [0, 10), 4 over [10, 20), none over
/// [20, 30), 4 from 30 on.
fn example() -> Profile {
    let mut p = Profile::new(0, 4);
    p.add(0, 10, -3);
    p.add(20, 30, -4);
    p
}

/// Worked by hand on [`example`].
#[test]
fn a_job_that_cannot_move_bounds_the_wider_and_longer() {
    let p = example();
    // A job needing 2 for 15 reserved at 30: [t, min(t + 15, 30)) meets [0, 10) (1 free) or
    // [20, 30) (none) for every t < 30. It cannot move.
    assert_eq!(p.earliest_capped(0, 2, 15, 30, 30), None);
    let mut f = NoFit::default();
    f.record(2, 15, 30, 30);
    // Needing 3 for 20: nowhere before 30 (at 30 it fits, [30, 50) has 4 free).
    assert_eq!(f.bound(3, 20), 30);
    assert_eq!(
        p.earliest_capped(0, 3, 20, 60, 60).map(|x| x.start),
        Some(30)
    );
    // Narrower or shorter jobs are told nothing: 1 for 5 fits at 0, 2 for 10 at 10.
    assert_eq!(f.bound(1, 20), Time::MIN);
    assert_eq!(f.bound(2, 10), Time::MIN);
    assert_eq!(p.earliest_capped(0, 1, 5, 60, 60).map(|x| x.start), Some(0));
    assert_eq!(
        p.earliest_capped(0, 2, 10, 60, 60).map(|x| x.start),
        Some(10)
    );
    // A later job reserved at 25 needing 2 for 20: before 30 only in the run reaching 25,
    // which has none free: it cannot move, as a search finds.
    assert_eq!(
        p.run_before(0, 2, 25, &mut Hint::default())
            .map(|f| f.start),
        None
    );
    assert_eq!(p.earliest_capped(0, 2, 20, 25, 25), None);
    // Processors gained from 30 on leave the fact (its windows end by 30); from 25 on, no.
    f.gained(30);
    assert_eq!(f.bound(3, 20), 30);
    f.gained(25);
    assert_eq!(f.bound(3, 20), Time::MIN);
}

/// A job that moved: its earliest start bounds the later jobs until the profile gains
/// before the end of its latest window.
#[test]
fn a_job_that_moved_bounds_up_to_its_new_start() {
    let p = example();
    // Needing 4 for 5, reserved at 50: its earliest start is 10 ([10, 15) has 4 free).
    assert_eq!(
        p.earliest_capped(0, 4, 5, 50, 50).map(|x| x.start),
        Some(10)
    );
    let mut f = NoFit::default();
    f.record(4, 5, 10, 50);
    // Its latest window before 10 is [9, 14): the fact lasts while nothing is gained
    // before 14.
    assert_eq!(f.all[0].until, 14);
    assert_eq!(f.bound(4, 8), 10);
    f.gained(14);
    assert_eq!(f.bound(4, 8), 10);
    f.gained(13);
    assert_eq!(f.bound(4, 8), Time::MIN);
}

/// Facts covered by another are not kept; when too many, the earliest bound goes.
#[test]
fn covered_facts_are_dropped() {
    let mut f = NoFit::default();
    f.record(2, 15, 30, 30);
    f.record(3, 20, 30, 30); // said already
    f.record(1, 5, 30, 30); // says more: the first one goes
    assert_eq!(f.n, 1);
    assert_eq!(f.bound(2, 15), 30);
    // Up to MOST facts side by side (each longer, with a later bound, than the one before).
    for i in 0..MOST as i64 + 3 {
        f.record(1, 5 + i, 40 + i, 40 + i);
    }
    assert_eq!(f.n, MOST);
    assert!(f.all[..f.n].iter().all(|x| x.below >= 40 + 3));
}

/// Random profiles and jobs: no job fits before the bound given by the jobs recorded
/// (each at its true earliest start, or its reservation) but in the run reaching its
/// reservation, also after the profile gained processors (the facts it voids dropped).
#[test]
fn bounds_hold_on_random_profiles() {
    let mut rnd = crate::sim::test_numbers(0x5eed_0ff1);
    let mut bounded = 0;
    for round in 0..300 {
        let procs = 2 + rnd(30) as i64;
        let mut p = Profile::new(0, procs);
        for _ in 0..rnd(40) {
            let a = rnd(500) as Time;
            let len = 1 + rnd(100) as Time;
            p.add(a, a + len, -(rnd(procs as u64 + 1) as i64));
        }
        // Levels may go below zero here: only the comparisons with `w` matter.
        let job = |rnd: &mut dyn FnMut(u64) -> u64| {
            let w = 1 + rnd(procs as u64) as u32;
            let d = 1 + rnd(150) as Time;
            let s = 1 + rnd(700) as Time;
            (w, d, s)
        };
        let mut f = NoFit::default();
        for step in 0..40 {
            if step % 10 == 9 {
                // Processors gained over [a, a + len).
                let a = rnd(600) as Time;
                p.add(a, a + 1 + rnd(80) as Time, 1 + rnd(3) as i64);
                f.gained(a);
            }
            let (w, d, s) = job(&mut rnd);
            let b = f.bound(i64::from(w), d);
            if let Some(fit) = p.earliest_capped(0, w, d, s, b.min(s)) {
                // Before the bound only in the run reaching the reservation.
                let run = p.run_before(0, w, s, &mut Hint::default()).map(|f| f.start);
                assert!(
                    run.is_some_and(|r| r <= fit.start),
                    "round {round} step {step}: {w} for {d} at {s} fits at {} before {b}",
                    fit.start
                );
            }
            bounded += usize::from(b > 0);
            let below = p.earliest_capped(0, w, d, s, s).map_or(s, |x| x.start);
            f.record(i64::from(w), d, below, s);
        }
    }
    assert!(bounded > 1000, "{bounded}");
}
