//! The user-aware EET metrics on the paper's own examples (Tóth & Klusáček, Table 1, Fig. 1,
//! Fig. 3) and on small cases worked out by hand (memory, capacities, CSV and JSON outputs).

use crate::common;
use common::{job_set_users, metrics, run, starts, ujob, UJob};
use schedlab::metrics::eet::{self, Capacity, EetOptions};

fn procs(v: f64) -> EetOptions {
    EetOptions {
        capacity: Capacity::Procs(v),
        ..EetOptions::default()
    }
}

/// Table 1: one user with capacity 3; job 1 (arrival 0, 2 processors, 4 s), job 2 (arrival 1,
/// 2 processors, 1 s). Job 2 gets the one unit left at times 1 and 2: EETs 4 and 3.
#[test]
fn table_1() {
    let set = job_set_users(6, &[ujob(0, 4, 2, 1), ujob(1, 1, 2, 1)]);
    let e = eet::expected_end_times(&set, &procs(3.0)).unwrap();
    assert_eq!(e.eet, vec![4, 3]);
    assert_eq!(e.capacities, vec![(1, 3.0)]);
    assert!(!e.memory_used());
}

/// Fig. 3: two users with the jobs of Table 1 on a machine of 6 (equal share: 3 each). FCFS
/// starts both 4 s jobs at 0 and user 1's short job at 1; user 2's short job waits until 2 and
/// ends at 3: it waited, yet no EET is violated.
#[test]
fn fig_3_no_violated_eet() {
    let jobs = [
        ujob(0, 4, 2, 1),
        ujob(0, 4, 2, 2),
        ujob(1, 1, 2, 1),
        ujob(1, 1, 2, 2),
    ];
    let set = job_set_users(6, &jobs);
    let e = eet::expected_end_times(&set, &EetOptions::default()).unwrap();
    assert_eq!(e.capacities, vec![(1, 3.0), (2, 3.0)]);
    assert_eq!(e.eet, vec![4, 4, 3, 3]);
    let s = run(&set, "fcfs");
    assert_eq!(starts(&s), vec![0, 0, 1, 2]);
    let ua = eet::user_aware(&set, &s, &e);
    assert_eq!(ua.violated, 0);
    assert!(ua.users.iter().all(|u| u.veet == 0.0 && u.wt == 0.0));
    assert_eq!(eet::job_eet(&e, &s, 3).tardiness, Some(0));
    assert_eq!(metrics(&set, &s).wait.max, 1.0);
}

/// Fig. 1: blue (user 1) has four 1 s jobs, orange (user 2) two 2 s jobs, all 1 processor,
/// all at 0, on 2 processors; equal shares of 1 give EETs 1, 2, 3, 4 (blue) and 2, 4 (orange).
/// (a) blue first: waits 0, 0, 1, 1 and 2, 2 (mean 1): orange's first job ends at 4 > 2.
/// (b) one processor each: waits 0, 1, 2, 3 and 0, 2 (mean 4/3): no EET violated.
#[test]
fn fig_1_average_wait_versus_veet() {
    let with_waits = |waits: [i64; 6]| -> Vec<UJob> {
        let runs = [(1, 1), (1, 1), (1, 1), (1, 1), (2, 2), (2, 2)];
        runs.iter()
            .zip(waits)
            .map(|(&(run, user), wait)| UJob {
                wait,
                ..ujob(0, run, 1, user)
            })
            .collect()
    };
    let a = job_set_users(2, &with_waits([0, 0, 1, 1, 2, 2]));
    let b = job_set_users(2, &with_waits([0, 1, 2, 3, 0, 2]));
    let e = eet::expected_end_times(&a, &EetOptions::default()).unwrap();
    assert_eq!(e.eet, vec![1, 2, 3, 4, 2, 4]);

    let sa = run(&a, "historic");
    let sb = run(&b, "historic");
    assert_eq!(starts(&sa), vec![0, 0, 1, 1, 2, 2]);
    assert_eq!(starts(&sb), vec![0, 1, 2, 3, 0, 2]);
    assert_eq!(metrics(&a, &sa).wait.mean, 1.0);
    assert!((metrics(&b, &sb).wait.mean - 4.0 / 3.0).abs() < 1e-12);

    let ua = eet::user_aware(&a, &sa, &e);
    let veet: Vec<(i64, f64)> = ua.users.iter().map(|u| (u.user, u.veet)).collect();
    assert_eq!(veet, vec![(1, 0.0), (2, 50.0)]);
    assert_eq!(eet::job_eet(&e, &sa, 4).tardiness, Some(2));
    assert_eq!(ua.users[1].wt, 2.0);
    assert_eq!((ua.jobs, ua.violated), (6, 1));
    // Quartiles over the two users' VEET (0 and 50) interpolate: 12.5, 25, 37.5.
    assert_eq!((ua.veet.min, ua.veet.q1, ua.veet.median), (0.0, 12.5, 25.0));
    assert_eq!((ua.veet.q3, ua.veet.max), (37.5, 50.0));

    let ub = eet::user_aware(&b, &sb, &e);
    assert_eq!(ub.violated, 0);
    assert!(ub.users.iter().all(|u| u.veet == 0.0));
}

/// Two users on 4 processors and 400 KB: equal shares of 2 processors and 200 KB. User 1's
/// job (1 processor, 10 s, 300 KB) gets 1 processor a second (EET 10 by CPU) but only 200 KB a
/// second of its 3,000 KB-seconds (EET 15 by memory): its EET is 15.
#[test]
fn memory_can_be_the_scarce_resource() {
    let mem = |m: i64, used: i64| UJob {
        mem: m,
        used_mem: used,
        ..ujob(0, 10, 1, 1)
    };
    let jobs = [
        mem(300, -1),
        ujob(0, 10, 1, 2),
        mem(-1, 300),
        ujob(20, 10, 1, 1),
    ];
    let set = job_set_users(4, &jobs);
    let with_mem = EetOptions {
        machine_memory: Some(400),
        ..EetOptions::default()
    };
    let e = eet::expected_end_times(&set, &with_mem).unwrap();
    assert!(e.memory_used());
    assert_eq!(e.cpu, vec![10, 10, 10, 30]);
    // Job 3 (field 7 only) shares user 1's memory with job 1: 200 KB/s from 15 on, 15 s more.
    assert_eq!(e.memory.as_deref(), Some(&[15, 0, 30, 20][..]));
    assert_eq!(e.eet, vec![15, 10, 30, 30]);
    // Without a machine memory, CPU alone.
    let e = eet::expected_end_times(&set, &EetOptions::default()).unwrap();
    assert_eq!(e.eet, vec![10, 10, 10, 30]);
}

/// Fractional and per-user capacities: 3 users on 4 processors share 4/3 each; a 2-processor
/// job of 3 s (area 6) gets 4/3 a second: 4.5 s, so its EET is 5. Overrides replace the share.
#[test]
fn fractional_and_per_user_capacities() {
    let jobs = [ujob(0, 3, 2, 1), ujob(0, 3, 2, 2), ujob(0, 3, 2, 3)];
    let set = job_set_users(4, &jobs);
    let e = eet::expected_end_times(&set, &EetOptions::default()).unwrap();
    assert_eq!(e.eet, vec![5, 5, 5]);
    let opts = EetOptions {
        capacity: Capacity::Procs(0.5),
        user_capacity: vec![(2, 2.0), (3, 1.5)],
        ..EetOptions::default()
    };
    let e = eet::expected_end_times(&set, &opts).unwrap();
    // 6 / 0.5 = 12 s; 6 / 2 = 3 s; 6 / 1.5 = 4 s.
    assert_eq!(e.eet, vec![12, 3, 4]);
    assert_eq!(e.capacities, vec![(1, 0.5), (2, 2.0), (3, 1.5)]);
    let bad = EetOptions {
        user_capacity: vec![(1, 0.0)],
        ..EetOptions::default()
    };
    assert!(eet::expected_end_times(&set, &bad).is_err());
}

/// The jobs CSV carries eet and tardiness, the JSON report the per-user figures.
#[test]
fn csv_and_json_carry_the_figures() {
    // Fig. 1 (a) again: orange's first job (job 5) has EET 2 and tardiness 2.
    let waits = [0, 0, 1, 1, 2, 2];
    let jobs: Vec<UJob> = [(1, 1), (1, 1), (1, 1), (1, 1), (2, 2), (2, 2)]
        .iter()
        .zip(waits)
        .map(|(&(run, user), wait)| UJob {
            wait,
            ..ujob(0, run, 1, user)
        })
        .collect();
    let set = job_set_users(2, &jobs);
    let opts = schedlab::metrics::MetricOptions::default();
    let expected = schedlab::metrics::eet::expected_end_times(&set, &opts.eet).unwrap();
    let schedule = schedlab::run::simulate(&set, "historic", 1, None).unwrap();
    let r = schedlab::run::measure(&set, &opts, &expected, schedule);
    let mut out = Vec::new();
    schedlab::output::jobs_csv(&mut out, &set, &r.schedule).unwrap();
    let text = String::from_utf8(out).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let row5: Vec<&str> = text.lines().nth(5).unwrap().split(',').collect();
    assert_eq!(row5[0], "5");
    assert_eq!((row5[col("eet")], row5[col("tardiness")]), ("2", "2"));
    let row1: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    assert_eq!((row1[col("eet")], row1[col("tardiness")]), ("1", "0"));

    let json = serde_json::to_value(r.report(&set)).unwrap();
    let users = json["eet"]["users"].as_array().unwrap();
    assert_eq!(users.len(), 2);
    assert_eq!(users[1]["user"], 2);
    assert_eq!(users[1]["veet"], 50.0);
    assert_eq!(users[1]["wt"], 2.0);
    assert_eq!(json["eet"]["veet"]["max"], 50.0);
    assert_eq!(json["eet"]["violated"], 1);
}
