//! Searches from a hint against searches from scratch.

use super::super::tests::{reserve_random, SMALL_SPLICE_FROM};
use super::*;
use crate::policy::plan::FOREVER;

/// A hint found before time went on still points at its step: the steps dropped since are
/// taken off. Worked by hand on steps at 0, 10, 20, 30, 40.
#[test]
fn a_hint_follows_its_step_as_time_goes_on() {
    let mut p = Profile::new(0, 8);
    for (i, t) in [10, 20, 30, 40].into_iter().enumerate() {
        p.add(t, FOREVER, -(i as i64) - 1);
    }
    assert_eq!(p.steps().len(), 5);
    let mut hint = Hint::NONE;
    assert_eq!(p.index_near(25, &mut hint), 2);
    assert_eq!(hint, Hint(2));
    // The step at 0 goes: 25 is now in step 1, and the hint says so without a search.
    p.advance(15);
    assert_eq!(p.steps()[0], (15, 7));
    assert_eq!(hint.0 - p.dropped, 1);
    assert_eq!(p.index_near(25, &mut hint), 1);
    // Far from the hint, either way, and past the last step.
    assert_eq!(p.index_near(15, &mut hint), 0);
    assert_eq!(p.index_near(1_000, &mut hint), 3);
    assert_eq!(p.index_near(35, &mut Hint(1_000_000)), 2);
    // Before the profile's start, from its first step or any other: the first step, as from
    // scratch.
    assert_eq!(p.index_of(5), 0);
    assert_eq!(p.index_near(5, &mut Hint(p.dropped)), 0);
    assert_eq!(p.index_near(5, &mut Hint(p.dropped + 3)), 0);
}

/// From any hint, stale or not, the step found is the one a search from scratch finds, and
/// the hint then holds it; so do spans after a fit and the run before a reservation.
#[test]
fn searches_from_any_hint_agree_with_searches_from_scratch() {
    let mut rnd = crate::sim::test_numbers(77);
    let mut near_hits = 0;
    for round in 0..30 {
        let mut p = Profile::new(0, 16);
        reserve_random(
            &mut p,
            &mut rnd,
            40 + round * 10,
            (2000, 300),
            1 + round as Time % 3,
        );
        let mut hints = [Hint::NONE; 8];
        for step in 0..300 {
            let last = p.steps().last().map_or(0, |s| s.0);
            let t = p.start() + rnd((last - p.start() + 50) as u64) as Time;
            let h = &mut hints[step % 8];
            let before = *h;
            let i = p.index_near(t, h);
            assert_eq!(i, p.index_of(t), "round {round} t {t} hint {before:?}");
            assert_eq!(*h, Hint(i as u64 + p.dropped));
            if before != Hint::NONE && before.0.abs_diff(h.0) <= 2 {
                near_hits += 1;
            }
            // A fit's span and the run before a reservation, from hints and from scratch.
            let procs = 1 + rnd(6) as u32;
            if let Some(fit) =
                p.earliest_capped(p.start(), procs, 1 + rnd(200) as Time, FOREVER, FOREVER)
            {
                let a = fit.start + rnd(400) as Time;
                assert_eq!(p.span_after(fit, a, a + 50), p.span(a, a + 50));
            }
            let s = t.max(p.start() + 1);
            assert_eq!(
                p.run_before(p.start(), procs, s, &mut Hint(rnd(2000))),
                p.run_before(p.start(), procs, s, &mut Hint::default())
            );
            if step % 50 == 49 {
                let now = p.start() + rnd(100) as Time;
                p.advance(now);
            }
        }
    }
    // Hints near their step were exercised, not only searches from far away.
    assert!(near_hits > 100, "{near_hits}");
}

/// A move to a fit a search found gives the steps of a move found from scratch.
#[test]
fn moves_to_a_fit_match_moves_from_scratch() {
    let mut rnd = crate::sim::test_numbers(4242);
    let mut moved = 0;
    for round in 0..30 {
        let mut p = Profile::new(0, 16).with_splice_from(SMALL_SPLICE_FROM);
        // Long profiles too (their moves leave level steps).
        let count = if round % 2 == 0 { 40 } else { 400 };
        let held = reserve_random(&mut p, &mut rnd, count, (3000, 300), 1);
        for _ in 0..100 {
            let (s, d, procs) = held[rnd(held.len() as u64) as usize];
            let e = s + d;
            let found = p
                .earliest_capped(p.start(), procs, d, s, s)
                .or_else(|| p.run_before(p.start(), procs, s, &mut Hint::default()));
            let Some(fit) = found.filter(|f| f.start < s) else {
                continue;
            };
            let mut q = p.clone();
            p.move_to_fit(fit, (s, e), d, procs);
            q.move_reservation(s, e, fit.start, d, procs);
            assert_eq!(p.canonical(), q.canonical(), "round {round}");
            moved += 1;
            // Put back, so that the reservations stay where `held` says.
            p.move_reservation(fit.start, fit.start + d, s, d, procs);
        }
    }
    assert!(moved > 500, "{moved}");
}
