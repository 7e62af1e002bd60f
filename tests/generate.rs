//! The Lublin–Feitelson generator against the model's reference output
//! (`tests/data/lublin_256.swf`, from the authors' program), for several seeds and sizes, with
//! the tolerances of docs/workloads.md (also printed by scripts/validate-lublin.py).

use crate::common;
use schedlab::swf::{read_path, ReadOptions, Workload};
use schedlab::workload::generate::{generate, name, GenerateSpec};
use std::time::Instant;

struct Stats {
    n: usize,
    serial: f64,
    pow2: f64,
    ln_run: [f64; 5],
    gaps: [i64; 5],
    hours: [f64; 24],
}

const Q: [f64; 5] = [0.10, 0.25, 0.50, 0.75, 0.90];

fn quantiles<T: Copy + PartialOrd>(mut v: Vec<T>) -> [T; 5] {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    Q.map(|q| v[(q * (v.len() - 1) as f64) as usize])
}

fn stats(w: &Workload) -> Stats {
    let r = &w.records;
    let n = r.len();
    let mut hours = [0.0; 24];
    for j in r {
        hours[((j.submit_time % 86_400) / 3600) as usize] += 1.0 / n as f64;
    }
    Stats {
        n,
        serial: r.iter().filter(|j| j.allocated_processors == 1).count() as f64 / n as f64,
        pow2: r
            .iter()
            .filter(|j| {
                j.allocated_processors > 1 && (j.allocated_processors as u64).is_power_of_two()
            })
            .count() as f64
            / n as f64,
        ln_run: quantiles(r.iter().map(|j| (j.run_time.max(1) as f64).ln()).collect()),
        gaps: quantiles(
            r.windows(2)
                .map(|p| p[1].submit_time - p[0].submit_time)
                .collect(),
        ),
        hours,
    }
}

/// Which statistics are outside the tolerances (empty = all within).
#[allow(clippy::needless_range_loop)] // three arrays indexed together
fn outside(s: &Stats, r: &Stats) -> Vec<String> {
    let n = s.n as f64;
    let share = |p: f64| 0.02 + 3.0 * (p * (1.0 - p) / n).sqrt();
    let mut bad = Vec::new();
    if (s.serial - r.serial).abs() > share(r.serial) {
        bad.push(format!("serial {:.3} vs {:.3}", s.serial, r.serial));
    }
    if (s.pow2 - r.pow2).abs() > share(r.pow2) {
        bad.push(format!("pow2 {:.3} vs {:.3}", s.pow2, r.pow2));
    }
    for k in 0..5 {
        if (s.ln_run[k] - r.ln_run[k]).abs() > 0.35 {
            bad.push(format!(
                "ln runtime q{} {:.2} vs {:.2}",
                Q[k], s.ln_run[k], r.ln_run[k]
            ));
        }
    }
    for k in 2..5 {
        if ((s.gaps[k] - r.gaps[k]) as f64).abs() > 0.30 * r.gaps[k] as f64 {
            bad.push(format!(
                "inter-arrival q{} {} vs {}",
                Q[k], s.gaps[k], r.gaps[k]
            ));
        }
    }
    let tvd: f64 = s
        .hours
        .iter()
        .zip(&r.hours)
        .map(|(a, b)| (a - b).abs())
        .sum::<f64>()
        / 2.0;
    if tvd > 0.08 + 4.0 / n.sqrt() {
        bad.push(format!("daily cycle: total variation {tvd:.3}"));
    }
    bad
}

fn spec(jobs: usize, seed: u64) -> GenerateSpec {
    GenerateSpec::new("lublin", 256, jobs, seed)
}

fn reference() -> Stats {
    stats(&read_path(&common::trace("lublin_256.swf"), &ReadOptions::default()).unwrap())
}

#[test]
fn statistics_match_the_reference_for_several_seeds_and_sizes() {
    let r = reference();
    for (jobs, seed) in [
        (1_000, 1),
        (1_000, 2),
        (10_000, 1),
        (10_000, 2),
        (10_000, 3),
        (100_000, 4),
    ] {
        let w = generate(&spec(jobs, seed)).unwrap();
        assert_eq!(w.records.len(), jobs);
        let bad = outside(&stats(&w), &r);
        assert!(
            bad.is_empty(),
            "{}: {}",
            name(&spec(jobs, seed)),
            bad.join("; ")
        );
    }
}

#[test]
fn a_million_jobs() {
    let began = Instant::now();
    let w = generate(&spec(1_000_000, 7)).unwrap();
    eprintln!(
        "1,000,000 jobs generated in {:.2} s (test profile)",
        began.elapsed().as_secs_f64()
    );
    let bad = outside(&stats(&w), &reference());
    assert!(bad.is_empty(), "{}", bad.join("; "));
}

#[test]
fn the_statistics_check_can_fail() {
    // A workload of another model (every job serial, hourly arrivals) is far outside.
    let mut w = generate(&spec(10_000, 1)).unwrap();
    for (i, j) in w.records.iter_mut().enumerate() {
        j.allocated_processors = 1;
        j.submit_time = i as i64 * 3600;
    }
    let bad = outside(&stats(&w), &reference());
    assert!(bad.iter().any(|b| b.starts_with("serial")), "{bad:?}");
    assert!(
        bad.iter().any(|b| b.starts_with("inter-arrival")),
        "{bad:?}"
    );
    assert!(bad.iter().any(|b| b.starts_with("daily cycle")), "{bad:?}");
}

#[test]
fn seeded_and_well_formed() {
    let a = generate(&spec(5_000, 11)).unwrap();
    let b = generate(&spec(5_000, 11)).unwrap();
    let c = generate(&spec(5_000, 12)).unwrap();
    assert_eq!(a.records, b.records);
    assert_ne!(a.records, c.records);
    assert_eq!(a.header.max_procs, Some(256));
    for (i, j) in a.records.iter().enumerate() {
        assert_eq!(j.job_number, i as i64 + 1);
        assert!(j.allocated_processors >= 1 && j.allocated_processors <= 256);
        assert!(
            j.requested_time >= j.run_time,
            "estimate below runtime: {j:?}"
        );
        if i > 0 {
            assert!(j.submit_time >= a.records[i - 1].submit_time);
        }
    }
    // A machine that is not a power of two: sizes stay within it.
    let odd = generate(&GenerateSpec {
        procs: 100,
        ..spec(5_000, 1)
    })
    .unwrap();
    assert!(odd.records.iter().all(|j| j.allocated_processors <= 100));
    assert!(odd.records.iter().any(|j| j.allocated_processors > 64));
    // Bad specs are errors naming the value.
    let e = generate(&GenerateSpec {
        model: "feitelson96".into(),
        ..spec(10, 1)
    })
    .unwrap_err();
    assert!(e.to_string().contains("unknown model \"feitelson96\""));
    assert!(generate(&spec(0, 1))
        .unwrap_err()
        .to_string()
        .contains("jobs 0"));
    assert!(generate(&GenerateSpec {
        procs: 0,
        ..spec(10, 1)
    })
    .is_err());
}

#[test]
fn gpu_share_adds_a_gpu_column_and_leaves_the_jobs_alone() {
    let plain = generate(&spec(4_000, 3)).unwrap();
    let gpu = generate(&GenerateSpec {
        gpu_share: 0.3,
        gpu_counts: vec![(1, 3.0), (4, 1.0)],
        ..spec(4_000, 3)
    })
    .unwrap();
    // The same jobs (their own random stream is untouched), GPUs besides.
    for (a, b) in plain.records.iter().zip(&gpu.records) {
        assert_eq!((a.submit_time, a.run_time), (b.submit_time, b.run_time));
        assert_eq!(
            (a.allocated_processors, a.requested_time),
            (b.allocated_processors, b.requested_time)
        );
        assert_eq!(b.extra, [b.req.gpus.to_string()]);
        assert!([0, 1, 4].contains(&b.req.gpus));
    }
    let with = gpu.records.iter().filter(|r| r.req.gpus > 0).count() as f64;
    assert!((with / 4_000.0 - 0.3).abs() < 0.03, "{with} GPU jobs");
    // Written as SWF, read back: the header's GpuField gives the GPUs to the jobs.
    let mut text = Vec::new();
    schedlab::swf::write(&mut text, &gpu).unwrap();
    assert!(String::from_utf8_lossy(&text).contains("\n; GpuField: 19\n"));
    let back = schedlab::swf::read_bytes("g.swf", &text, &ReadOptions::default()).unwrap();
    let gpus =
        |w: &schedlab::swf::Workload| w.records.iter().map(|r| r.req.gpus).collect::<Vec<_>>();
    assert_eq!(gpus(&back), gpus(&gpu));
    let set = schedlab::input::prepare(&back, &Default::default()).unwrap();
    let total: u64 = set.jobs.iter().map(|j| u64::from(j.req.gpus)).sum();
    assert_eq!(total, gpus(&gpu).iter().map(|&g| u64::from(g)).sum::<u64>());
    // A bad share or count is an error naming it.
    let bad = |share, counts| {
        generate(&GenerateSpec {
            gpu_share: share,
            gpu_counts: counts,
            ..spec(10, 1)
        })
    };
    assert!(bad(1.5, vec![])
        .unwrap_err()
        .to_string()
        .contains("GPU share 1.5"));
    assert!(bad(0.5, vec![(0, 1.0)])
        .unwrap_err()
        .to_string()
        .contains("GPU count 0"));
}

#[test]
fn a_bad_gpu_column_names_the_line_and_field() {
    let text = "; GpuField: 19\n1 0 -1 10 1 -1 -1 1 20 -1 1 1 -1 -1 -1 -1 -1 -1 2\n\
                2 0 -1 10 1 -1 -1 1 20 -1 1 1 -1 -1 -1 -1 -1 -1 x\n\
                3 0 -1 10 1 -1 -1 1 20 -1 1 1 -1 -1 -1 -1 -1 -1\n";
    let w = schedlab::swf::read_bytes("g.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(
        w.records.iter().map(|r| r.req.gpus).collect::<Vec<_>>(),
        [2, 0]
    );
    assert_eq!(
        w.issues[0].to_string(),
        "line 3, field 19 (GPUs, the header's GpuField): not a GPU count (a whole number from 0 to 2147483647, or -1): \"x\""
    );
}
