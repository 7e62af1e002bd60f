//! The fast EET (capacity profiles) against a direct per-time-unit implementation of
//! Algorithm 1 (Tóth & Klusáček), on random workloads with several users, capacities (equal
//! shares, whole and fractional numbers, per-user overrides) and memory.

use crate::common;
use common::{job_set_users, UJob};
use proptest::prelude::*;
use schedlab::input::JobSet;
use schedlab::metrics::eet::{self, memory_kb, Capacity, EetOptions};

/// Algorithm 1 as written: one array cell per time unit, `capacity` units each (all values
/// scaled to integers by the caller), jobs `(arrival, request, runtime)` in arrival order.
fn algorithm_1(capacity: u128, jobs: &[(i64, u128, u128)]) -> Vec<i64> {
    let mut cap: Vec<u128> = Vec::new();
    let mut out = Vec::new();
    for &(arrival, req, runtime) in jobs {
        let mut job_capacity = (req * runtime) as i128;
        let mut time = arrival as usize;
        while job_capacity > 0 {
            if cap.len() <= time {
                cap.resize(time + 1, capacity);
            }
            let consumed = cap[time].min(req);
            cap[time] -= consumed;
            job_capacity -= consumed as i128;
            time += 1;
        }
        out.push(time as i64);
    }
    out
}

/// A user's capacity as a fraction (numerator, denominator), worked out by the test.
fn capacity_of(set: &JobSet, opts: &EetOptions, user: i64) -> (u128, u128) {
    let as_fraction = |v: f64| -> (u128, u128) {
        // The generated capacities are halves: exact as k / 2.
        let twice = (v * 2.0).round() as u128;
        (twice, 2)
    };
    if let Some(&(_, v)) = opts.user_capacity.iter().find(|(u, _)| *u == user) {
        return as_fraction(v);
    }
    match opts.capacity {
        Capacity::Equal => (u128::from(set.procs), set.users().len() as u128),
        Capacity::Procs(v) => as_fraction(v),
    }
}

/// Every job's EET by the per-time-unit reference: per user and resource, then the maximum.
fn reference(set: &JobSet, opts: &EetOptions) -> Vec<i64> {
    let m = u128::from(set.procs);
    let mem_total = opts
        .machine_memory
        .filter(|_| set.jobs.iter().any(|j| memory_kb(j) > 0))
        .map(u128::from);
    let mut eet = vec![0i64; set.jobs.len()];
    for user in set.users() {
        let idx: Vec<usize> = (0..set.jobs.len())
            .filter(|&j| set.jobs[j].user == user)
            .collect();
        let (n, d) = capacity_of(set, opts, user);
        let cpu: Vec<_> = idx
            .iter()
            .map(|&j| {
                let job = &set.jobs[j];
                (job.submit, u128::from(job.procs) * d, job.runtime as u128)
            })
            .collect();
        for (k, t) in algorithm_1(n, &cpu).into_iter().enumerate() {
            eet[idx[k]] = t;
        }
        if let Some(total) = mem_total {
            // Memory capacity n / d of m processors' worth of `total`: scaled by d * m.
            let mem: Vec<_> = idx
                .iter()
                .map(|&j| {
                    let job = &set.jobs[j];
                    (job.submit, memory_kb(job) * d * m, job.runtime as u128)
                })
                .collect();
            for (k, t) in algorithm_1(n * total, &mem).into_iter().enumerate() {
                eet[idx[k]] = eet[idx[k]].max(t);
            }
        }
    }
    eet
}

/// Up to 30 jobs of up to 4 users on 8 processors; memory per processor 1..40 KB on some
/// jobs (field 10 or field 7), none on others.
fn workload() -> impl Strategy<Value = Vec<UJob>> {
    prop::collection::vec(
        (0i64..12, 0i64..25, 1i64..=8, 1i64..=4, 0i64..40, 0u8..3),
        1..30,
    )
    .prop_map(|v| {
        let mut t = 0;
        v.into_iter()
            .map(|(gap, run, procs, user, mem, which)| {
                t += gap;
                let (mem, used_mem) = match which {
                    0 => (-1, -1),
                    1 => (mem + 1, -1),
                    _ => (-1, mem + 1),
                };
                UJob {
                    submit: t,
                    run,
                    procs,
                    user,
                    wait: -1,
                    mem,
                    used_mem,
                }
            })
            .collect()
    })
}

/// Equal shares or a number of processors in halves (0.5 to 6), overrides for some users,
/// with or without a machine memory.
fn options() -> impl Strategy<Value = EetOptions> {
    (
        prop::option::of(1u32..=12),
        prop::collection::vec((1i64..=4, 1u32..=12), 0..3),
        prop::option::of(prop::sample::select(vec![40u64, 100, 333, 1000])),
    )
        .prop_map(|(cap, overrides, memory)| {
            let mut user_capacity: Vec<(i64, f64)> = Vec::new();
            for (u, halves) in overrides {
                if !user_capacity.iter().any(|(x, _)| *x == u) {
                    user_capacity.push((u, f64::from(halves) / 2.0));
                }
            }
            EetOptions {
                capacity: cap.map_or(Capacity::Equal, |h| Capacity::Procs(f64::from(h) / 2.0)),
                user_capacity,
                machine_memory: memory,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn fast_eet_matches_algorithm_1(jobs in workload(), opts in options()) {
        let set = job_set_users(8, &jobs);
        let fast = eet::expected_end_times(&set, &opts).unwrap();
        let slow = reference(&set, &opts);
        prop_assert_eq!(&fast.eet, &slow, "options {:?}", opts);
        // The EET never comes before the job could end on its own.
        for (job, &t) in set.jobs.iter().zip(&fast.eet) {
            prop_assert!(t >= job.submit + job.runtime);
        }
    }
}
