//! The generator's `lublin-users` model (src/workload/generate/users.rs): the 1999 model's jobs
//! with users of Zipf-like job counts, at 3/4 of the arrival rate; and the `lublin` model
//! unchanged, so that old links (`gen:lublin:...`) reproduce what they did.

use schedlab::workload::generate::{generate, users, GenerateSpec};

fn spec(model: &str, procs: u32, jobs: usize, seed: u64) -> GenerateSpec {
    GenerateSpec {
        model: model.into(),
        procs,
        jobs,
        seed,
        gpu_share: 0.0,
        gpu_counts: Vec::new(),
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[test]
fn the_lublin_model_writes_what_it_wrote_before_users_existed() {
    // `schedlab generate --model lublin --procs 128 --jobs 3000 --seed 5` of the version before
    // the users model: 182,979 bytes, FNV-1a 0x2769ce583e6ac906.
    let w = generate(&spec("lublin", 128, 3000, 5)).unwrap();
    let mut out = Vec::new();
    schedlab::swf::write(&mut out, &w).unwrap();
    assert_eq!(out.len(), 182_979);
    assert_eq!(fnv1a(&out), 0x2769_ce58_3e6a_c906);
    assert!(w.records.iter().all(|r| r.user_id == -1));
}

#[test]
fn the_users_model_has_the_same_jobs_spaced_out_and_owned_by_users() {
    let old = generate(&spec("lublin", 256, 10_000, 3)).unwrap();
    let new = generate(&spec("lublin-users", 256, 10_000, 3)).unwrap();
    // The same draws for sizes, runtimes and estimates: only arrivals and users differ.
    for (a, b) in old.records.iter().zip(&new.records) {
        assert_eq!(
            (a.allocated_processors, a.run_time, a.requested_time),
            (b.allocated_processors, b.run_time, b.requested_time)
        );
    }
    let span = |w: &schedlab::swf::Workload| {
        (w.records.last().unwrap().submit_time - w.records[0].submit_time) as f64
    };
    let ratio = span(&new) / span(&old);
    assert!((ratio - 4.0 / 3.0).abs() < 0.02, "span ratio {ratio}");
    // 100 users (the ceiling of the square root of 10,000), numbered by rank.
    let mut jobs = [0usize; 101];
    for r in &new.records {
        assert!((1..=100).contains(&r.user_id), "{r:?}");
        jobs[r.user_id as usize] += 1;
    }
    assert_eq!(users::count(10_000), 100);
    // User 1 expects 10,000 / H_100 = 1,928 jobs, user 2 half of that (binomial spread ~2 %).
    let h: f64 = (1..=100).map(|k| 1.0 / k as f64).sum();
    assert!(
        (jobs[1] as f64 - 10_000.0 / h).abs() < 150.0,
        "user 1: {}",
        jobs[1]
    );
    assert!(
        (jobs[2] as f64 - 5_000.0 / h).abs() < 110.0,
        "user 2: {}",
        jobs[2]
    );
    assert!(jobs[1] > jobs[10] && jobs[10] > jobs[100]);
    assert!(new.header.notes.iter().any(|c| c.contains("100 users")));
}

#[test]
fn the_users_model_is_seeded() {
    let a = generate(&spec("lublin-users", 64, 2000, 9)).unwrap();
    let b = generate(&spec("lublin-users", 64, 2000, 9)).unwrap();
    let c = generate(&spec("lublin-users", 64, 2000, 10)).unwrap();
    assert_eq!(a.records, b.records);
    assert_ne!(
        a.records.iter().map(|r| r.user_id).collect::<Vec<_>>(),
        c.records.iter().map(|r| r.user_id).collect::<Vec<_>>()
    );
}

#[test]
fn an_unknown_model_is_an_error_naming_both() {
    let err = generate(&spec("zipf", 64, 10, 1)).unwrap_err().to_string();
    assert!(err.contains("lublin, lublin-users"), "{err}");
}
