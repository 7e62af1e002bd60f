//! EET heatmap data: a violated job covers [EET_j - runtime_j, + T_j); cells are the
//! time-average count over each bin, so a row sums to the user's total tardiness in bins.

use crate::common;
use common::{job_set_users, run, ujob, UJob};
use proptest::prelude::*;
use schedlab::metrics::eet::{self, EetOptions};
use schedlab::metrics::eet_heatmap::{heatmap, violations, window, Violation};
use std::collections::HashMap;

/// Machine 4, two users (equal shares of 2). User 1's job holds all 4 processors for 180 s;
/// user 2's job (2 processors, 120 s) arrives at 60: EET 180, but FCFS starts it at 180 and it
/// ends at 300: T = 120 s from x = 180 - 120 = 60.
fn one_violation() -> (schedlab::input::JobSet, Vec<Violation>) {
    let set = job_set_users(4, &[ujob(0, 180, 4, 1), ujob(60, 120, 2, 2)]);
    let s = run(&set, "fcfs");
    let e = eet::expected_end_times(&set, &EetOptions::default()).unwrap();
    let per_job: Vec<_> = eet::per_job(&e, &s).collect();
    assert_eq!(per_job[1].eet, 180);
    assert_eq!(per_job[1].tardiness, Some(120));
    assert_eq!(per_job[0].tardiness, Some(0));
    let v = violations(&set, &s, &e);
    assert_eq!(
        v,
        vec![Violation {
            user: 2,
            start: 60,
            end: 180
        }]
    );
    (set, v)
}

#[test]
fn a_violation_of_two_bins_lights_two_cells_from_eet_minus_runtime() {
    let (set, v) = one_violation();
    let h = heatmap(&set.users(), &v, 0.0, 60.0, 10);
    assert_eq!(h.rows.len(), 2);
    assert_eq!((h.rows[0].user, h.rows[0].cells.len()), (1, 0));
    assert_eq!(h.rows[1].user, 2);
    assert_eq!(h.rows[1].cells, vec![(1, 1.0), (2, 1.0)]);
    assert_eq!(h.rows[1].violated, 1);
    assert_eq!(h.max(), 1.0);
    // Bins not aligned with the violation: half, whole, half.
    let h = heatmap(&set.users(), &v, 30.0, 60.0, 10);
    assert_eq!(h.rows[1].cells, vec![(0, 0.5), (1, 1.0), (2, 0.5)]);
    // One wide bin holds the average: 120 s of 600.
    let h = heatmap(&set.users(), &v, 0.0, 600.0, 1);
    assert_eq!(h.rows[1].cells, vec![(0, 0.2)]);
    // A window that ends inside the violation clips it.
    let h = heatmap(&set.users(), &v, 0.0, 60.0, 2);
    assert_eq!(h.rows[1].cells, vec![(1, 1.0)]);
    // Unusable widths give empty rows, not a panic.
    for w in [0.0, -1.0, f64::NAN] {
        assert!(heatmap(&set.users(), &v, 0.0, w, 10).rows[1]
            .cells
            .is_empty());
    }
}

#[test]
fn overlapping_violations_add_up() {
    let v = [
        Violation {
            user: 7,
            start: 0,
            end: 100,
        },
        Violation {
            user: 7,
            start: 50,
            end: 150,
        },
        Violation {
            user: 7,
            start: 50,
            end: 60,
        },
    ];
    let h = heatmap(&[7], &v, 0.0, 50.0, 4);
    // [0,50): 1; [50,100): 2 + 10/50; [100,150): 1; [150,200): 0.
    assert_eq!(h.rows[0].cells, vec![(0, 1.0), (1, 2.2), (2, 1.0)]);
    assert_eq!(h.rows[0].violated, 3);
}

/// Random jobs of 4 users on 8 processors (gap, runtime, processors, user).
fn workload() -> impl Strategy<Value = Vec<UJob>> {
    prop::collection::vec((0i64..30, 1i64..200, 1i64..=8, 1i64..=4), 1..40).prop_map(|v| {
        let mut t = 0;
        v.into_iter()
            .map(|(gap, r, p, u)| {
                t += gap;
                ujob(t, r, p, u)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rows_sum_to_the_tardiness_in_bins(jobs in workload(), policy in prop::sample::select(vec!["fcfs", "easy", "fairshare-fcfs"])) {
        let set = job_set_users(8, &jobs);
        let s = run(&set, policy);
        let expected = eet::expected_end_times(&set, &EetOptions::default()).unwrap();
        let v = violations(&set, &s, &expected);
        let mut tardiness: HashMap<i64, f64> = HashMap::new();
        for (job, e) in set.jobs.iter().zip(eet::per_job(&expected, &s)) {
            *tardiness.entry(job.user).or_default() += e.tardiness.unwrap() as f64;
        }
        let (t0, t1) = window(&set, &s);
        for width in [1.0, 7.0, 60.0, 3600.0, (t1 - t0) / 97.0] {
            let bins = ((t1 - t0) / width).ceil() as u32;
            let h = heatmap(&set.users(), &v, t0, width, bins);
            for row in &h.rows {
                let sum: f64 = row.cells.iter().map(|c| c.1).sum();
                let want = tardiness[&row.user] / width;
                prop_assert!((sum - want).abs() <= 1e-9 * want.max(1.0), "user {} width {}: {} vs {}", row.user, width, sum, want);
                prop_assert!((row.total - sum).abs() <= 1e-9 * sum.max(1.0));
                prop_assert!(row.cells.windows(2).all(|w| w[0].0 < w[1].0));
                prop_assert!(row.cells.iter().all(|c| c.1 > 0.0 && c.0 < bins));
            }
        }
    }
}

/// A year of violations of 500 users (200 each, up to `longest` seconds) bins at one bin per
/// pixel column, and at one bin per minute, and the rows still sum right.
#[test]
fn a_year_of_hundreds_of_users_bins_quickly() {
    let year = 365 * 86400;
    let mut state = 12345u64;
    let mut rnd = |n: i64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % n as u64) as i64
    };
    let users: Vec<i64> = (0..500).collect();
    for (longest, width, bins) in [
        (86400, year as f64 / 1000.0, 1000),
        (7200, 60.0, (year / 60) as u32),
    ] {
        let mut v = Vec::new();
        for &u in &users {
            for _ in 0..200 {
                let start = rnd(year);
                v.push(Violation {
                    user: u,
                    start,
                    end: start + 1 + rnd(longest),
                });
            }
        }
        let began = std::time::Instant::now();
        let h = heatmap(&users, &v, 0.0, width, bins);
        let took = began.elapsed();
        let clipped: f64 = v.iter().map(|x| (x.end.min(year) - x.start) as f64).sum();
        let sum: f64 = h.rows.iter().map(|r| r.total).sum::<f64>() * width;
        assert!(
            (sum - clipped).abs() <= 1e-6 * clipped,
            "{sum} vs {clipped}"
        );
        eprintln!("{} violations into {bins} bins: {took:?}", v.len());
        assert!(took.as_secs_f64() < 5.0, "{bins} bins took {took:?}");
    }
}
