//! Why each job started when it did (`JobRecord::reason`, `first_reservation`, `waited_for`):
//! hand-made schedules worked out by hand for fcfs, easy (head, backfilled, extra),
//! conservative (head, backfilled, reserved), pv-easy (backfilled, venture, restarted), the
//! trace's own schedule (replay) and external policies (their own words, checked claims); the
//! jobs CSV columns and the JSON report's counts. Job tuples are (submit, runtime, processors,
//! requested time).

use crate::common;
use common::{job_set, job_set_users, run, starts, ujob};
use schedlab::policy::{External, PassView, Pick};
use schedlab::sim::{simulate, Schedule};

/// J1 holds 6 of 10 processors until 100; J2 (8) must wait: shadow 100, 2 extra processors.
const HOLE: [common::J; 2] = [(0, 100, 6, 100), (1, 50, 8, 50)];

fn reasons(s: &Schedule) -> Vec<&str> {
    (0..s.jobs.len()).map(|j| s.reason_word(j)).collect()
}

fn reservations(s: &Schedule) -> Vec<Option<i64>> {
    s.jobs.iter().map(|r| r.first_reservation()).collect()
}

fn waited_for(s: &Schedule) -> Vec<Option<usize>> {
    s.jobs.iter().map(|r| r.waited_for()).collect()
}

#[test]
fn fcfs_starts_every_job_at_the_head() {
    // J2 waits for J1 (100), J3 (4 procs) for J2 (150: only 2 free while J2 runs).
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50)]);
    let s = run(&set, "fcfs");
    assert_eq!(starts(&s), vec![0, 100, 150]);
    assert_eq!(reasons(&s), vec!["head"; 3]);
    // FCFS makes no reservation.
    assert_eq!(reservations(&s), vec![None; 3]);
    assert_eq!(waited_for(&s), vec![None; 3]);
}

#[test]
fn easy_head_backfilled_and_extra() {
    // J2 is blocked at 1: shadow 100 (J1's planned end), 2 extra processors. J3 (4 procs, ends
    // 52 <= 100) is backfilled at 2; at 52 J4 (2 procs, 200 s) ends past 100 but fits in the
    // 2 extra processors. J2 starts at the head at 100.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50), (3, 200, 2, 200)]);
    let s = run(&set, "easy");
    assert_eq!(starts(&s), vec![0, 100, 2, 52]);
    assert_eq!(reasons(&s), vec!["head", "head", "backfilled", "extra"]);
    assert_eq!(reservations(&s), vec![None, Some(100), None, None]);
    assert_eq!(waited_for(&s), vec![None, Some(0), None, None]);
}

#[test]
fn easy_reservation_names_the_job_whose_planned_end_it_is() {
    // J1 (4 procs until 100) and J2 (4 procs until 60) run; J3 (6) needs J2's processors too
    // only after J1's: 2 free + 4 at 60 = 6 -> shadow 60, the planned end of J2.
    let set = job_set(
        10,
        &[
            (0, 100, 4, 100),
            (0, 60, 4, 60),
            (5, 10, 6, 10),
            (6, 5, 2, 5),
        ],
    );
    let s = run(&set, "easy");
    assert_eq!(starts(&s), vec![0, 0, 60, 6]);
    assert_eq!(reasons(&s), vec!["head", "head", "head", "backfilled"]);
    assert_eq!(s.jobs[2].first_reservation(), Some(60));
    assert_eq!(s.jobs[2].waited_for(), Some(1));
}

#[test]
fn conservative_head_backfilled_and_reserved() {
    // J1 starts on arrival (head). J2 (8) is reserved at 100, behind J1's planned end. J3 fits
    // the 4 free processors until 52 while J2 waits: backfilled. J4 (4 procs, 100 s) finds no
    // room before 150 (from 52 only 4 free until J2 takes 8 at 100): reserved at 150, behind
    // J2's reservation (a waiting job, so no running job is named). J2 and J4 start at their
    // reservations with no job ahead of them waiting: reserved.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50), (3, 100, 4, 100)]);
    let s = run(&set, "conservative");
    assert_eq!(starts(&s), vec![0, 100, 2, 150]);
    assert_eq!(
        reasons(&s),
        vec!["head", "reserved", "backfilled", "reserved"]
    );
    assert_eq!(
        reservations(&s),
        vec![Some(0), Some(100), Some(2), Some(150)]
    );
    assert_eq!(waited_for(&s), vec![None, Some(0), None, None]);
}

#[test]
fn conservative_without_guarantees_heads_and_backfills() {
    // Rebuilt at every pass: the same starts; J3 jumps J2 (backfilled), J2 and J4 start first
    // in the plan at their instants (head).
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50), (3, 100, 4, 100)]);
    let s = run(&set, "conservative[guarantees=off]");
    assert_eq!(starts(&s), vec![0, 100, 2, 150]);
    assert_eq!(reasons(&s), vec!["head", "head", "backfilled", "head"]);
}

#[test]
fn pv_easy_backfills_ventures_and_restarts() {
    // J2 (8) blocked behind J1, reservation 100 (J1's predicted end: predictor=user). J3 (4
    // procs, 200 s) cannot end by 100: started at 2 by step 4 (venture). At 100 J1 ends: J2
    // starts after J3 is preempted; J3, now the blocked head, is reserved at 150 behind J2's
    // planned end and restarts then.
    let set = job_set(10, &[(0, 100, 6, 100), (1, 50, 8, 50), (2, 200, 4, 200)]);
    let s = run(&set, "pv-easy[predictor=user]");
    assert_eq!(starts(&s), vec![0, 100, 150]);
    assert_eq!(reasons(&s), vec!["head", "head", "restarted"]);
    assert_eq!(reservations(&s), vec![None, Some(100), Some(150)]);
    assert_eq!(waited_for(&s), vec![None, Some(0), Some(1)]);
    assert_eq!(s.preempted_runs.len(), 1);
    // Step 3: a job that ends by the reservation is backfilled.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50)]);
    let s = run(&set, "pv-easy[predictor=user]");
    assert_eq!(starts(&s), vec![0, 100, 2]);
    assert_eq!(reasons(&s), vec!["head", "head", "backfilled"]);
    // Step 4 without preemption (slp=off): J3 (4 procs, 60 s, ends 62 > 50) starts at 2 while
    // J2 waits for J1 until 50 (venture); it keeps running, and J2 starts at 62.
    let set = job_set(10, &[(0, 50, 6, 50), (1, 10, 8, 10), (2, 60, 4, 60)]);
    let s = run(&set, "pv-easy[predictor=user,slp=off]");
    assert_eq!(starts(&s), vec![0, 62, 2]);
    assert_eq!(reasons(&s), vec!["head", "head", "venture"]);
}

#[test]
fn historic_replays() {
    let mut a = ujob(0, 100, 6, 1);
    a.wait = 0;
    let mut b = ujob(1, 50, 8, 2);
    b.wait = 99;
    let set = job_set_users(10, &[a, b]);
    let s = run(&set, "historic");
    assert_eq!(starts(&s), vec![0, 100]);
    assert_eq!(reasons(&s), vec!["replay"; 2]);
}

fn external(
    set: &schedlab::input::JobSet,
    f: impl FnMut(&PassView<'_>) -> Result<Vec<Pick>, String>,
) -> Result<Schedule, schedlab::sim::SimError> {
    let mut p = External::new("js:test", f);
    simulate(&set.jobs, set.procs, &mut p, 1, None)
}

#[test]
fn external_policies_give_their_own_words_or_the_default() {
    // Start every waiting job that fits, in arrival order: J3 overtakes J2.
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50)]);
    let greedy = |word: Option<&'static str>| {
        move |v: &PassView<'_>| {
            let mut free = v.free;
            let mut out = Vec::new();
            for j in v.waiting {
                let (id, procs) = ((j + 1) as f64, [6, 8, 4][j]);
                if procs <= free {
                    free -= procs;
                    out.push(Pick {
                        id,
                        reason: word.map(str::to_string),
                    });
                }
            }
            Ok(out)
        }
    };
    let s = external(&set, greedy(None)).unwrap();
    assert_eq!(starts(&s), vec![0, 100, 2]);
    // The default: head unless an earlier-arrived job is waiting (J2 at 2): ahead.
    assert_eq!(reasons(&s), vec!["head", "head", "ahead"]);
    let s = external(&set, greedy(Some("greedy-fit"))).unwrap();
    assert_eq!(reasons(&s), vec!["greedy-fit"; 3]);
    assert_eq!(s.reason_words, vec!["greedy-fit".to_string()]);
    // A claim the engine can check: J1 starts with no other job waiting, not backfilled.
    let e = external(&set, greedy(Some("backfilled"))).unwrap_err();
    assert!(
        e.to_string()
            .contains("job 1 started as 'backfilled', but no other job is waiting"),
        "{e}"
    );
    let e = external(&set, greedy(Some("Not A Word"))).unwrap_err();
    assert!(e.to_string().contains("lowercase letters"), "{e}");
    let e = external(&set, greedy(Some("restarted"))).unwrap_err();
    assert!(e.to_string().contains("never preempted"), "{e}");
}

#[test]
fn jobs_csv_and_report_carry_the_reasons() {
    let set = job_set(10, &[HOLE[0], HOLE[1], (2, 50, 4, 50), (3, 200, 2, 200)]);
    let s = run(&set, "easy");
    let mut out = Vec::new();
    schedlab::output::jobs_csv(&mut out, &set, &s).unwrap();
    let text = String::from_utf8(out).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let head = rows.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let (r, f, w) = (
        col("start_reason"),
        col("first_reservation"),
        col("waited_for"),
    );
    let got: Vec<(String, String, String)> = rows
        .records()
        .map(|x| {
            let x = x.unwrap();
            (x[r].to_string(), x[f].to_string(), x[w].to_string())
        })
        .collect();
    let want = [
        ("head", "", ""),
        ("head", "100", "1"),
        ("backfilled", "", ""),
        ("extra", "", ""),
    ];
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert_eq!((g.0.as_str(), g.1.as_str(), g.2.as_str()), w);
    }
    // The typed array of the page: reason codes and the reservation.
    let row = schedlab::output::layouts::job_row(&set, &s, 3, &Default::default());
    assert_eq!(
        row.len(),
        schedlab::output::layouts::JOB.fields.len(),
        "the JOB layout"
    );
    assert_eq!(row[8], 3.0, "extra is code 3");
    let row = schedlab::output::layouts::job_row(&set, &s, 1, &Default::default());
    assert_eq!((row[9], row[10]), (100.0, 0.0));
}
