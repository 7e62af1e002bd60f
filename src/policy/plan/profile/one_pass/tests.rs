//! A move in one pass against release then reserve: worked cases, then random short profiles.

use super::REGION;
use crate::policy::plan::profile::tests::{reserve_random, SMALL_SPLICE_FROM};
use crate::policy::plan::{Profile, FOREVER};
use crate::Time;

/// Moves `procs` from `[s, s + d)` to `[t, t + d)` in one pass, and checks that it gives the
/// steps of release then reserve (the profile is left as it was when it declines).
fn moved(p: &Profile, s: Time, t: Time, d: Time, procs: u32) -> (bool, Profile) {
    let mut q = p.clone();
    let lo = t.max(p.start());
    let done = q.move_in_one_pass(lo, p.index_of(lo), (s, s + d), t + d, procs);
    let mut r = p.clone();
    if done {
        r.release(s, s + d, procs);
        r.reserve(t, t + d, procs);
    }
    assert_eq!(
        q.canonical(),
        r.canonical(),
        "[{s}, +{d}) to {t}, {procs} procs"
    );
    (done, q)
}

#[test]
fn worked_moves() {
    // 10 procs: 2 free now, 4 more at 10, all at 20.
    let p = Profile::from_running(0, 2, [(10, 4), (20, 4)].into_iter());
    // 3 procs over [20, 30) to [10, 20): the new place ends where the old began.
    let mut a = p.clone();
    a.reserve(20, 30, 3);
    assert_eq!(a.steps(), &[(0, 2), (10, 6), (20, 7), (30, 10)]);
    let (done, a) = moved(&a, 20, 10, 10, 3);
    assert!(done);
    assert_eq!(a.canonical(), [(0, 2), (10, 3), (20, 10)]);
    // 3 procs over [20, 40) to [10, 30): the places overlap.
    let mut b = p.clone();
    b.reserve(20, 40, 3);
    let (done, b) = moved(&b, 20, 10, 20, 3);
    assert!(done);
    assert_eq!(b.canonical(), [(0, 2), (10, 3), (20, 7), (30, 10)]);
    // 2 procs over [30, 35) to [0, 5): apart, the old place past the last step.
    let mut c = p.clone();
    c.reserve(30, 35, 2);
    let (done, c) = moved(&c, 30, 0, 5, 2);
    assert!(done);
    assert_eq!(c.canonical(), [(0, 0), (5, 2), (10, 6), (20, 10)]);

    // All 8 procs over [50, 60) to [-5, 5): the new place begins before the start.
    let mut d = Profile::new(0, 8);
    d.reserve(50, 60, 8);
    let (done, d) = moved(&d, 50, -5, 10, 8);
    assert!(done);
    assert_eq!(d.canonical(), [(0, 0), (5, 8)]);
    // ... and ends there: nothing to reserve, declined.
    let mut e = Profile::new(0, 8);
    e.reserve(50, 60, 8);
    assert!(!moved(&e, 50, -20, 10, 8).0);

    // 4 procs over [10, 20) where 4 more come free at 10: no step at 10 (joined), and at 5
    // the new place leaves 0.
    let mut f = Profile::from_running(0, 4, [(10, 4)].into_iter());
    f.reserve(10, 20, 4);
    assert_eq!(f.steps(), &[(0, 4), (20, 8)]);
    let (done, f) = moved(&f, 10, 5, 10, 4);
    assert!(done);
    assert_eq!(f.canonical(), [(0, 4), (5, 0), (10, 4), (15, 8)]);

    // A place over more steps than the array holds: declined, unchanged.
    let mut g = Profile::new(0, 100);
    for k in 0..REGION as Time {
        g.reserve(10 + k, FOREVER, 1);
    }
    g.reserve(200, 300, 1);
    g.reserve(300, 400, 1);
    assert!(!moved(&g, 200, 0, 100, 1).0);
    assert!(moved(&g, 300, 250, 100, 1).0);
}

/// Random moves on short profiles (times on a coarse grid half the time, so that ends
/// meet steps), some new places before the start.
#[test]
fn random_moves_give_release_then_reserve() {
    let mut rnd = crate::sim::test_numbers(777);
    let (mut done, mut declined) = (0, 0);
    for round in 0..300 {
        let grid = if round % 2 == 0 { 10 } else { 1 };
        let start = 100;
        let mut p = Profile::new(start, 12).with_splice_from(SMALL_SPLICE_FROM);
        let count = 1 + rnd(8);
        let held = reserve_random(&mut p, &mut rnd, count, (300, 100), grid);
        for _ in 0..20 {
            let (s, d, procs) = held[rnd(held.len() as u64) as usize];
            if s <= start {
                continue;
            }
            let t = start - 30 + rnd((s - start + 30) as u64) as Time / grid * grid;
            let (ok, _) = moved(&p, s, t, d, procs);
            if ok {
                done += 1;
            } else {
                declined += 1;
            }
        }
    }
    assert!(done > 2000 && declined > 50, "{done} {declined}");
}
