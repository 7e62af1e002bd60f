//! The log of freed stretches on hand-made profiles: which windows a check searches, by segment,
//! stride, class of width and run.

use super::*;

/// A log that sums every 3 stretches and keeps 3 summaries side by side, so that small
/// cases reach every way.
fn small(procs: u32) -> Freed {
    Freed::new(procs, 3, 3)
}

/// The windows of a check.
fn w(f: &Freed, seen: u64, now: Time, need: i64, d: Time, s: Time) -> Vec<(Time, Time)> {
    wr(f, seen, now, need, d, s).0
}

/// The windows of a check and whether the run reaching the reservation may hold a fit.
fn wr(f: &Freed, seen: u64, now: Time, need: i64, d: Time, s: Time) -> (Vec<(Time, Time)>, bool) {
    let mut out = Vec::new();
    let reaches = f.windows(seen, now, need, d, s, &mut out);
    (out, reaches)
}
use crate::policy::plan::FOREVER;

#[test]
fn windows_follow_the_stretches_logged_since() {
    // 4 processors free throughout: every run goes on forever.
    let p = Profile::new(0, 4);
    let mut f = small(16);
    f.reset();
    let placed = f.now();
    // Nothing gained: nothing to search.
    assert_eq!(w(&f, placed, 0, 2, 10, 100), vec![]);
    f.begin();
    f.push(&p, 0, 30); // a job planned to end at 30 ended at 0
                       // A job of hold 10 reserved at 100 can only start before 30 now.
    assert_eq!(w(&f, placed, 0, 2, 10, 100), vec![(0, 30)]);
    let checked = f.now();
    f.push(&p, 50, 60); // a job moved away from [50, 60)
                        // Seen after the first stretch: only the second one counts (starts in (40, 60)).
    assert_eq!(w(&f, checked, 0, 2, 10, 100), vec![(41, 60)]);
    // Reserved at 45: the stretch at 50 is past its reservation.
    assert_eq!(w(&f, checked, 0, 2, 10, 45), vec![]);
    // Read one by one (checked inside the current segment), a stretch tells 4 from 5: it
    // had 4 free at most.
    assert_eq!(w(&f, checked, 0, 4, 10, 100), vec![(41, 60)]);
    assert_eq!(w(&f, checked, 0, 5, 10, 100), vec![]);
    // The next compression: the job checked before [50, 60) was logged still sees it, and
    // the new stretch. It reads the previous stretches from the latest multiple of the
    // stride (3 in `small`) at or before its check: [0, 30) counts again, joined with
    // [5, 8) (see `previous_stretches_are_read_from_the_stride_before`).
    let last = f.now();
    f.begin();
    f.push(&p, 5, 8);
    assert_eq!(w(&f, checked, 5, 2, 10, 100), vec![(5, 30), (41, 60)]);
    // A job checked after the last stretch of the previous compression sees only the new
    // one (this compression's sums).
    assert_eq!(w(&f, last, 5, 2, 10, 100), vec![(5, 8)]);
    // A job needing 5 or more processors: no stretch had that many free (class 2 holds
    // stretches with 4 or more, so 4 and 5 share it: 8 does not).
    assert_eq!(w(&f, checked, 5, 8, 10, 100), vec![]);
    // 5 shares class 2 (4 to 7 free) with the stretches that have 4 free: the sums count
    // them (only the stretches read one by one, above, tell 4 from 5).
    assert_eq!(w(&f, checked, 5, 5, 10, 100), vec![(5, 30), (41, 60)]);
    // Voided certificates: everything is searched; a new one holds.
    let mut g = small(16);
    g.reset();
    let old = g.now();
    g.invalidate();
    assert_eq!(w(&g, old, 3, 2, 10, 100), vec![(3, 100)]);
    assert_eq!(w(&g, g.now(), 3, 2, 10, 100), vec![]);
    // A certificate from before the previous compression: everything is searched.
    f.begin();
    assert_eq!(w(&f, placed, 7, 9, 10, 100), vec![(7, 100)]);
}

/// In the previous compression's log a check reads the sum from the latest multiple of
/// the stride (3 in `small`) at or before its check: the stretches since, and the few
/// before it in that stride (walking those one by one cost more than searching their
/// windows again).
#[test]
fn previous_stretches_are_read_from_the_stride_before() {
    // 4 processors free throughout: every run goes on forever.
    let p = Profile::new(0, 4);
    let mut f = small(16);
    f.reset();
    f.begin();
    let mut seen = Vec::new();
    for a in [0, 100, 200, 300] {
        seen.push(f.now());
        f.push(&p, a, a + 10);
    }
    let end = f.now();
    f.begin();
    // A job holding 10, reserved at 1000: a window (a - 9, a + 10) per stretch [a, a + 10).
    // Checked before the fourth stretch (at a multiple of 3): that one alone.
    assert_eq!(w(&f, seen[3], 0, 2, 10, 1000), vec![(291, 310)]);
    // Checked before the first, second or third: all four, in 3 sums at most (`small`'s
    // `most`; the first two joined, all gaps being equal).
    let all = vec![(0, 110), (191, 210), (291, 310)];
    for &q in &seen[..3] {
        assert_eq!(w(&f, q, 0, 2, 10, 1000), all, "checked at {q}");
    }
    // Checked after the last one: nothing new.
    assert_eq!(w(&f, end, 0, 2, 10, 1000), vec![]);
}

/// A log on 16 processors where a job was placed, then a compression logged `[a, b)` of
/// a profile with nothing free but `free` (`(from, to, processors)`): the log and the
/// placement's sequence number.
fn logged(free: &[(Time, Time, i64)], a: Time, b: Time) -> (Freed, u64) {
    let mut p = Profile::new(0, 0);
    for &(from, to, n) in free {
        p.add(from, to, n);
    }
    let mut f = small(16);
    f.reset();
    let placed = f.now();
    f.begin();
    f.push(&p, a, b);
    (f, placed)
}

/// A stretch whose run of free processors is short: only jobs that fit in it, or whose
/// reservation the run reaches, search it.
#[test]
fn short_runs_are_passed_over() {
    // Nothing free but 4 processors over [10, 20), 2 over [20, 25).
    let (mut f, placed) = logged(&[(10, 20, 4), (20, 25, 2)], 10, 20);
    // 4 or more free: [10, 20); 2 or more: [10, 25).
    assert_eq!(
        f.runs[..3],
        [(10, 25, 15), (10, 25, 15), (10, 20, 10)],
        "classes 0, 1, 2"
    );
    let fit = vec![(10, 20)];
    // `(processors, hold, reservation)`, the window for a fit in a run at least as long
    // as the hold, and whether a run reaching the reservation may hold one; the same from
    // the current segment (stretch by stretch) and from the previous one (the summed
    // suffixes).
    let cases = [
        // 3 processors for 16: too long for [10, 25); for 15 it fits (at 10 only).
        ((3, 16, 100), (vec![], false)),
        ((3, 15, 100), (fit.clone(), false)),
        // 4 processors for 11: too long for [10, 20), unless reserved at 20 or before:
        // then only in the run reaching the reservation, found apart.
        ((4, 11, 100), (vec![], false)),
        ((4, 11, 20), (vec![], true)),
        ((4, 11, 21), (vec![], false)),
        // For 10 both ways.
        ((4, 10, 20), (fit, true)),
    ];
    for segment in ["current", "previous"] {
        for (case, answer) in &cases {
            let (procs, d, s) = *case;
            assert_eq!(
                wr(&f, placed, 0, procs, d, s),
                *answer,
                "{segment} {procs} {d} {s}"
            );
        }
        f.begin();
    }
    // A run longer than the walk goes on forever.
    let mut q = Profile::new(0, 8);
    for t in 0..200 {
        q.add(t * 10, t * 10 + 5, 1);
    }
    let mut runs = [NO_RUNS; 4];
    q.runs_around(q.span(1000, 1001), 3, &mut runs);
    assert_eq!(runs[3], (Time::MIN, FOREVER, Time::MAX));
    q.runs_around(q.span(1000, 1001), 1000, &mut runs);
    assert_eq!(runs[3], (0, FOREVER, Time::MAX));
}

/// A stretch over two short runs with a blocked gap between: their reach is long, but
/// only a job that fits in one of them, or whose reservation the last one reaches,
/// searches it.
#[test]
fn runs_apart_count_apart() {
    // 4 processors free over [10, 20) and [30, 40), none between.
    let (f, placed) = logged(&[(10, 20, 4), (30, 40, 4)], 10, 40);
    // Class 2 (4 or more free): runs within [10, 40), the longest 10.
    assert_eq!(f.runs[2], (10, 40, 10));
    // 4 processors for 15, reserved at 100: no run of 15 or more (the reach is 30).
    assert_eq!(wr(&f, placed, 0, 4, 15, 100), (vec![], false));
    // For 10: the windows meeting the stretch in the reach of its runs.
    assert_eq!(wr(&f, placed, 0, 4, 10, 100), (vec![(10, 40)], false));
    // Reserved at 40, the last run reaches it: found apart however long the hold.
    assert_eq!(wr(&f, placed, 0, 4, 15, 40), (vec![], true));
}
