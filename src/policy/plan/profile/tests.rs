//! The profile's searches and updates against plain step-by-step versions.

use super::*;

/// A splice threshold small enough that the random profiles of the tests of moves count as
/// long as well as short.
pub(super) const SMALL_SPLICE_FROM: usize = 16;

#[test]
fn build_reserve_and_find() {
    // 10 procs: 2 free now, job A (4 procs) ends at 10, job B (4 procs) ends at 20.
    let mut p = Profile::from_running(0, 2, [(20, 4), (10, 4)].into_iter());
    assert_eq!(p.steps(), &[(0, 2), (10, 6), (20, 10)]);
    assert_eq!(p.earliest(0, 2, 100), Some(0));
    assert_eq!(p.earliest(0, 5, 5), Some(10));
    assert_eq!(p.earliest(0, 8, 5), Some(20));
    assert_eq!(p.earliest(0, 11, 5), None);
    p.reserve(10, 25, 5);
    assert_eq!(p.steps(), &[(0, 2), (10, 1), (20, 5), (25, 10)]);
    // A 2-proc job of length 15 cannot fit before 25 anymore, one of length 10 fits at 0.
    assert_eq!(p.earliest(0, 2, 15), Some(20));
    assert_eq!(p.earliest(0, 2, 10), Some(0));
    assert_eq!(
        p.earliest_capped(0, 6, 1, FOREVER, 25).map(|f| f.start),
        None
    );
    assert_eq!(
        p.earliest_capped(0, 6, 1, FOREVER, 26).map(|f| f.start),
        Some(25)
    );
    // The 5-proc reservation at [10, 25) could move to 0 only if 5 were free over [0, 10).
    assert_eq!(p.earliest_capped(0, 5, 15, 10, 10).map(|f| f.start), None);
    // A 1-proc job reserved at 20 fits from 0 on: 1 processor stays free until 20.
    assert_eq!(
        p.earliest_capped(0, 1, 100, 20, 20).map(|f| f.start),
        Some(0)
    );
    // The run holding the instant before 25 ([20, 25), 5 free): from 20 for 5 processors
    // or fewer; from 0 for 1 (free throughout); none for 6; from `now` when it began before.
    // For 2: none before 20 (1 free over [10, 20)), from 20 before 21, from 0 before 10.
    assert_eq!(before(&p, 0, 5, 25), Some(20));
    assert_eq!(before(&p, 0, 1, 25), Some(0));
    assert_eq!(before(&p, 0, 6, 25), None);
    assert_eq!(before(&p, 22, 5, 25), Some(22));
    assert_eq!(before(&p, 0, 2, 20), None);
    assert_eq!(before(&p, 0, 2, 21), Some(20));
    assert_eq!(before(&p, 0, 2, 10), Some(0));
    p.release(10, 25, 5);
    assert_eq!(p.steps(), &[(0, 2), (10, 6), (20, 10)]);
    assert_eq!(p.max_free(0, 10), 2);
    assert_eq!(p.max_free(5, 20), 6);
    assert_eq!(p.max_free(5, 21), 10);
    // The steps over [5, 21): from the one holding 5 to the one holding 20.
    let span = p.span(5, 21);
    assert_eq!((span.first, span.last, span.most), (0, 2, 10));
    let span = p.span(10, 20);
    assert_eq!((span.first, span.last, span.most), (1, 1, 6));
    assert_eq!(p.max_free(20, FOREVER), 10);
    assert_eq!(p.max_free(7, 7), i64::MIN);
    p.advance(15);
    assert_eq!(p.steps(), &[(15, 6), (20, 10)]);
    assert_eq!(p.free_at(30), 10);
}
/// The run-by-run search against a plain one (every candidate start, every step), on a
/// profile of many short runs.
#[test]
fn search_agrees_with_a_plain_scan() {
    fn plain(p: &Profile, from: Time, need: i64, d: Time, cap: Time, below: Time) -> Option<Time> {
        let steps = p.steps().to_vec();
        let d = d.max(1);
        let mut t = from;
        loop {
            if t >= below {
                return None;
            }
            let end = t.saturating_add(d).min(cap);
            let ok = steps.iter().enumerate().all(|(i, &(s, f))| {
                let next = steps.get(i + 1).map_or(FOREVER, |x| x.0);
                next <= t || s >= end || f >= need
            });
            if ok {
                return Some(t);
            }
            // Next candidate: the next step start after t.
            t = steps.iter().map(|s| s.0).find(|&s| s > t)?;
        }
    }
    let mut p = Profile::new(0, 8);
    let mut rnd = crate::sim::test_numbers(12345);
    for _ in 0..150 {
        let from = rnd(3000) as Time;
        let len = 1 + rnd(60) as Time;
        let procs = 1 + rnd(4) as u32;
        if p.earliest(from, procs, len) == Some(from) {
            p.reserve(from, from + len, procs);
        }
    }
    assert!(p.steps().len() > 100);
    for _ in 0..2000 {
        let from = rnd(3500) as Time;
        let need = 1 + rnd(8) as u32;
        let d = rnd(200) as Time;
        let cap = if rnd(3) == 0 {
            FOREVER
        } else {
            from + rnd(4000) as Time
        };
        let below = if rnd(2) == 0 {
            cap
        } else {
            from + rnd(4000) as Time
        }
        .min(cap);
        assert_eq!(
            p.earliest_capped(from, need, d, cap, below)
                .map(|f| f.start),
            plain(&p, from, i64::from(need), d, cap, below),
            "from {from} need {need} d {d} cap {cap} below {below}"
        );
    }
}

/// `runs_around` against the runs found one step at a time.
#[test]
fn runs_around_agrees_with_a_plain_walk() {
    let mut rnd = crate::sim::test_numbers(777);
    for _ in 0..20 {
        let mut p = Profile::new(0, 20);
        for _ in 0..80 {
            let from = rnd(2000) as Time;
            p.reserve(from, from + 1 + rnd(100) as Time, rnd(6) as u32);
        }
        let steps = p.steps().to_vec();
        let level = |t: Time| p.free_at(t);
        for _ in 0..200 {
            let a = rnd(2200) as Time;
            let b = a + 1 + rnd(300) as Time;
            let mut out = [(0, 0, 0); 5];
            p.runs_around(p.span(a, b), usize::MAX, &mut out);
            for (c, &(r0, r1, longest)) in out.iter().enumerate() {
                let th = 1i64 << c;
                // The run holding a (from its first step), or a.
                let r0_plain = if level(a) >= th {
                    let i = steps.partition_point(|s| s.0 <= a) - 1;
                    let k = (0..=i).rev().find(|&k| steps[k].1 < th);
                    k.map_or(steps[0].0, |k| steps[k + 1].0)
                } else {
                    a
                };
                let r1_plain = if level(b - 1) >= th {
                    let i = steps.partition_point(|s| s.0 < b) - 1;
                    (i..steps.len())
                        .find(|&k| steps[k].1 < th)
                        .map_or(FOREVER, |k| steps[k].0)
                } else {
                    b
                };
                // Every run of the class whole, from its first step to the next step with
                // fewer free: the longest of those meeting [a, b).
                let mut longest_plain = Time::MIN;
                let mut k = 0;
                while k < steps.len() {
                    if steps[k].1 < th {
                        k += 1;
                        continue;
                    }
                    let m = (k..steps.len())
                        .find(|&m| steps[m].1 < th)
                        .unwrap_or(steps.len());
                    let (start, end) = (steps[k].0, steps.get(m).map_or(FOREVER, |s| s.0));
                    if start < b && end > a {
                        longest_plain = longest_plain.max(end.saturating_sub(start));
                    }
                    k = m;
                }
                assert_eq!(
                    (r0, r1, longest),
                    (r0_plain, r1_plain, longest_plain),
                    "[{a}, {b}) class {c}"
                );
            }
        }
    }
}

/// More classes asked for than a level can open: those past the profile's levels meet no run.
#[test]
fn runs_around_takes_any_number_of_classes() {
    // 20 free from 0 on: classes 0 to 4 (1 to 16 processors) run forever, 5 (32) and up
    // never.
    let p = Profile::new(0, 20);
    let mut out = [(0, 0, 0); 70];
    p.runs_around(p.span(5, 10), usize::MAX, &mut out);
    assert_eq!(out[4], (0, FOREVER, Time::MAX));
    assert_eq!(out[5], (5, 10, Time::MIN));
    assert_eq!(out[69], (5, 10, Time::MIN));
}

/// `add` as it was first written, step by step: a step inserted at `from`, then one at `to`
/// (each with its own search and move), the levels between changed, then a step equal to the
/// one before it removed at `to`, then at `from`.
fn add_one_split_at_a_time(steps: &mut Vec<(Time, i64)>, from: Time, to: Time, delta: i64) {
    let from = from.max(steps[0].0);
    if from >= to || delta == 0 {
        return;
    }
    let mut split = |t: Time| {
        let i = steps.partition_point(|s| s.0 <= t) - 1;
        if steps[i].0 == t {
            i
        } else {
            steps.insert(i + 1, (t, steps[i].1));
            i + 1
        }
    };
    let a = split(from);
    let b = if to == FOREVER {
        steps.len()
    } else {
        split(to)
    };
    for s in &mut steps[a..b] {
        s.1 += delta;
    }
    if b < steps.len() && steps[b].1 == steps[b - 1].1 {
        steps.remove(b);
    }
    if a > 0 && steps[a].1 == steps[a - 1].1 {
        steps.remove(a);
    }
}

/// Reservations and releases (often at existing steps, sometimes forever or from before the
/// start, sometimes far from where they begin) give the very steps of the one-at-a-time
/// version; a reservation at a search's fit gives those of a plain reservation, also when the
/// profile changed before the fit since the search.
#[test]
fn adds_keep_the_steps_of_one_split_at_a_time() {
    let mut rnd = crate::sim::test_numbers(4242);
    let (mut inserted_both, mut far) = (0, 0);
    for round in 0..40 {
        let mut p = Profile::new(100, 16);
        let mut plain = p.steps().to_vec();
        let grid = if round % 2 == 0 { 10 } else { 1 };
        for _ in 0..300 {
            let from = 50 + rnd(3000) as Time / grid * grid;
            let to = match rnd(10) {
                0 => FOREVER,
                1 => from + 1 + rnd(2500) as Time,
                _ => from + (1 + rnd(200) as Time / grid) * grid,
            };
            let delta = rnd(9) as i64 - 4;
            let before = p.steps().len();
            let n_between = plain.iter().filter(|s| s.0 > from && s.0 < to).count();
            p.add(from, to, delta);
            add_one_split_at_a_time(&mut plain, from, to, delta);
            assert_eq!(
                p.steps(),
                &plain[..],
                "round {round} add({from}, {to}, {delta})"
            );
            inserted_both += usize::from(p.steps().len() == before + 2);
            far += usize::from(n_between > 8);
        }
        for _ in 0..100 {
            let (from, need, d) = (rnd(3200) as Time, rnd(20) as u32, 1 + rnd(300) as Time);
            let Some(fit) = p.earliest_fit(from, need, d) else {
                continue;
            };
            assert_eq!(Some(fit.start), p.earliest(from, need, d));
            let mut q = p.clone();
            // Half the time the profile changes before the fit first: the fit's step moves.
            if rnd(2) == 0 {
                let t = rnd(fit.start.max(1) as u64) as Time;
                for r in [&mut p, &mut q] {
                    r.add(t, t + 1, -1);
                }
            }
            p.reserve_fit(fit, d, need);
            q.reserve(fit.start, fit.start + d, need);
            assert_eq!(p.steps(), q.steps(), "round {round} fit {fit:?} for {d}");
        }
    }
    // Both ends inserted with one move, and ends found past the walk, were both exercised.
    assert!(inserted_both > 1000 && far > 100, "{inserted_both} {far}");
}

/// Reserves `count` jobs of 1 to 6 processors at their earliest fits from a time in
/// `[start, start + span)`, `grid` to `max_d` long (times on the grid): the reservations
/// made, `(start, length, procs)`.
pub(super) fn reserve_random(
    p: &mut Profile,
    rnd: &mut impl FnMut(u64) -> u64,
    count: u64,
    (span, max_d): (u64, u64),
    grid: Time,
) -> Vec<(Time, Time, u32)> {
    let mut held = Vec::new();
    for _ in 0..count {
        let from = p.start() + rnd(span) as Time / grid * grid;
        let d = (1 + rnd(max_d) as Time / grid) * grid;
        let procs = 1 + rnd(6) as u32;
        if let Some(t) = p.earliest(from, procs, d) {
            p.reserve(t, t + d, procs);
            held.push((t, d, procs));
        }
    }
    held
}

/// Moving a reservation earlier gives the steps of a release then a reservation, whether its
/// new place overlaps the old one or not, and at the profile's start or end.
#[test]
fn a_move_gives_the_steps_of_release_then_reserve() {
    let mut rnd = crate::sim::test_numbers(2024);
    let (mut joined, mut kept_steps) = (0, 0);
    for round in 0..40 {
        let grid = if round % 2 == 0 { 10 } else { 1 };
        let mut p = Profile::new(100, 16).with_splice_from(SMALL_SPLICE_FROM);
        let held = reserve_random(&mut p, &mut rnd, 60, (3000, 300), grid);
        for _ in 0..200 {
            let n = held.len();
            let (s, d, procs) = held[rnd(n as u64) as usize % n];
            if s <= p.start() {
                continue;
            }
            let t = p.start() + rnd((s - p.start()) as u64) as Time / grid * grid;
            let mut q = p.clone();
            let before = p.changes().count();
            p.move_reservation(s, s + d, t, d, procs);
            q.release(s, s + d, procs);
            q.reserve(t, t + d, procs);
            assert_eq!(
                p.canonical(),
                q.canonical(),
                "round {round} [{s}, +{d}) to {t}"
            );
            assert!(p.steps().windows(2).all(|w| w[0].0 < w[1].0), "times rise");
            joined += usize::from(p.changes().count() < before);
            kept_steps += usize::from(p.changes().count() < p.steps().len());
            // Back again, so that the reservations stay where `held` says.
            p.release(t, t + d, procs);
            p.reserve(s, s + d, procs);
        }
    }
    // Moves that left steps at the level before them (and the later moves and searches on
    // such profiles) were exercised.
    assert!(joined > 100 && kept_steps > 100, "{joined} {kept_steps}");
}

/// Worked by hand: fewer new steps leave steps at the last new level one second apart; more
/// take such steps nearby, moving only the steps before them; `advance` drops them. (Each
/// profile ends with enough steps to count as long.)
#[test]
fn level_steps_stand_in_for_moves_of_the_later_steps() {
    let long = |head: &[(Time, i64)]| -> Vec<(Time, i64)> {
        let tail = (0..super::SPLICE_FROM as Time).map(|x| (100 + x, 6 + x % 2));
        head.iter().copied().chain(tail).collect()
    };
    // [(0, 5), (10, 3), (30, 5)]: [0, 10) and [10, 30) become one step at 4.
    let mut steps = long(&[(0, 5), (10, 3), (30, 5)]);
    assert!(super::replace_steps(
        &mut steps,
        0..2,
        &[(0, 4)],
        super::SPLICE_FROM
    ));
    assert_eq!(steps, long(&[(0, 4), (1, 4), (30, 5)]));
    // No room between the last new step and the next one: the later steps move. ([1, 2)
    // joins the step before it.)
    let mut tight = long(&[(0, 5), (1, 3), (2, 4), (3, 5)]);
    assert!(!super::replace_steps(
        &mut tight,
        1..3,
        &[(2, 4)],
        super::SPLICE_FROM
    ));
    assert_eq!(tight, long(&[(0, 5), (2, 4), (3, 5)]));
    // Two new steps for one: the step at 20, at the level before it, makes room; the step at
    // 10 moves up over it, the one at 30 stays.
    let mut more = long(&[(0, 5), (10, 3), (20, 3), (30, 5)]);
    assert!(!super::replace_steps(
        &mut more,
        0..1,
        &[(0, 5), (5, 4)],
        super::SPLICE_FROM
    ));
    assert_eq!(more, long(&[(0, 5), (5, 4), (10, 3), (30, 5)]));
    // None near: the later steps move.
    let mut none = long(&[(0, 5), (10, 3), (30, 5)]);
    super::replace_steps(&mut none, 0..1, &[(0, 5), (5, 4)], super::SPLICE_FROM);
    assert_eq!(none, long(&[(0, 5), (5, 4), (10, 3), (30, 5)]));
    // A short profile: the later steps move.
    let mut short = vec![(0, 5), (10, 3), (30, 5)];
    assert!(!super::replace_steps(
        &mut short,
        0..2,
        &[(0, 4)],
        super::SPLICE_FROM
    ));
    assert_eq!(short, [(0, 4), (30, 5)]);
    // A profile with such a step equals its plain form, answers alike, and `advance` drops it.
    let mut p = Profile::new(0, 5);
    p.steps = vec![(0, 4), (1, 4), (30, 5)];
    p.loose = true;
    let plain = Profile::from_running(0, 4, [(30, 1)].into_iter());
    assert_eq!(p, plain);
    assert_eq!(p.earliest(0, 5, 10), Some(30));
    assert_eq!(before(&p, 0, 4, 20), Some(0));
    p.advance(0);
    assert_eq!(p.steps(), plain.steps());
}

/// [`Profile::run_before`]'s start, searched from scratch and from a far hint (the same).
fn before(p: &Profile, now: Time, procs: u32, s: Time) -> Option<Time> {
    let plain = p.run_before(now, procs, s, &mut Hint::default());
    assert_eq!(p.run_before(now, procs, s, &mut Hint(1 << 20)), plain);
    plain.map(|f| f.start)
}
