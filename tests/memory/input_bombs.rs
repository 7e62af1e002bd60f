//! Issue 37 item 4: memory bounded by work, not by input shape. A small gzip that expands into
//! nested JSON the reader does not use builds none of it; one that expands into millions of
//! repeated jobs, or into a text kept whole, is refused once it would keep more than its size
//! allows (`swf::budget`), with a message saying so, in bounded memory. (In the memory test binary,
//! `tests/memory/main.rs`: a counting global allocator.)

use std::io::Write as _;

use flate2::write::GzEncoder;
use flate2::Compression;
use schedlab::input::InputOptions;
use schedlab::run;
use schedlab::swf::{self, budget, ReadOptions};

use crate::counting::peak_during;
use crate::SERIAL;

/// `head`, then `unit` repeated to about `bytes`, then `tail`, gzip-compressed.
fn gzip_of(head: &str, unit: &str, bytes: usize, tail: &str) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(head.as_bytes()).unwrap();
    let block = unit.repeat((1 << 20) / unit.len());
    for _ in 0..bytes / block.len() {
        enc.write_all(block.as_bytes()).unwrap();
    }
    enc.write_all(tail.as_bytes()).unwrap();
    enc.finish().unwrap()
}

fn load(gz: &[u8]) -> (Result<usize, String>, usize) {
    let (r, peak) = peak_during(|| {
        run::read_bytes(
            "bomb.gz",
            gz,
            &ReadOptions::default(),
            &InputOptions::default(),
        )
    });
    (
        r.map(|(_, jobs)| jobs.jobs.len())
            .map_err(|e| e.to_string()),
        peak,
    )
}

/// Loads `gz`, which must be refused as too large saying `says`, peaking below `times` its
/// limit; the message.
fn assert_refused(gz: &[u8], says: &str, times: usize) -> String {
    let limit = budget::retained_limit(gz.len() as u64) as usize;
    let (r, peak) = load(gz);
    let e = r.unwrap_err();
    println!(
        "{} bytes of gzip: peak {peak} bytes (limit {limit}): {e}",
        gz.len()
    );
    assert!(e.starts_with("bomb.gz: too large for its size: "), "{e}");
    assert!(e.contains(says), "{e}");
    assert!(peak < times * limit + (1 << 20), "peak {peak} bytes");
    e
}

const ONE_JOB: &str = r#"],"jobs":[{"id":1,"subtime":0,"res":1,"profile":"d"}],
    "profiles":{"d":{"type":"delay","delay":5}}}"#;

/// 16 MB of nested objects no reader uses (a JSON value of each was built: 98 times the text).
#[test]
fn batsim_nested_objects_it_does_not_use_are_never_built() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    for unit in [r#"{"a":{"b":[{},{"c":1}]}},"#, "[[[[[[[[1]]]]]]]],"] {
        let gz = gzip_of(
            r#"{"nb_res":4,"x":["#,
            unit,
            16 << 20,
            &format!("0{ONE_JOB}"),
        );
        let (jobs, peak) = load(&gz);
        assert_eq!(jobs, Ok(1), "{unit}");
        println!("{unit}: {} bytes of gzip peak at {peak} bytes", gz.len());
        assert!(peak < 4 << 20, "{unit}: peak {peak} bytes");
    }
    // Unused values inside the jobs and profiles are skipped too.
    let text = format!(
        r#"{{"nb_res":4,"jobs":[{{"id":1,"subtime":0,"res":1,"profile":"d","x":[{}]}}],
        "profiles":{{"d":{{"type":"delay","delay":5,"cpu":[{}]}}}}}}"#,
        r#"{"a":1},"#.repeat(1 << 20) + "0",
        "[1,2,3],".repeat(1 << 20) + "0"
    );
    let (r, peak) = peak_during(|| {
        run::read_bytes(
            "t.json",
            text.as_bytes(),
            &ReadOptions::default(),
            &InputOptions::default(),
        )
    });
    assert_eq!(r.unwrap().1.jobs.len(), 1);
    assert!(peak < 4 << 20, "peak {peak} bytes");
}

/// A gzip of one SWF line repeated (3 MB of it took 5.7 GB in `schedlab trace` and "capacity
/// overflow" in the page): refused once its jobs would keep more than its size allows.
#[test]
fn swf_gzip_of_repeated_lines_is_refused_in_bounded_memory() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let line = "1 0 5 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1\n";
    let gz = gzip_of("; MaxProcs: 4\n", line, 160 << 20, "");
    let limit = budget::retained_limit(gz.len() as u64) as usize;
    assert_refused(&gz, "64 MiB plus 128 bytes per byte of input", 1);
    // The same through a stream (a file, a pipe: its bytes counted as they are read) and
    // through a reader of unknown size (the page's).
    let (r, peak) = peak_during(|| {
        swf::read_stream(
            "s.gz",
            std::io::Cursor::new(gz.clone()),
            &ReadOptions::default(),
        )
    });
    assert!(r
        .unwrap_err()
        .to_string()
        .contains("too large for its size"));
    assert!(peak < 2 * limit, "stream: peak {peak} bytes");
    let (r, _) = peak_during(|| swf::read("r.gz", &gz[..], &ReadOptions::default()));
    assert!(r
        .unwrap_err()
        .to_string()
        .contains("too large for its size"));
}

/// Batsim jobs repeated in a small gzip: refused the same way.
#[test]
fn batsim_gzip_of_repeated_jobs_is_refused_in_bounded_memory() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let job = format!(
        r#"{{"id":"w!x","subtime":0,"res":1,"profile":"d","user":"{}"}},"#,
        "u".repeat(200)
    );
    let gz = gzip_of(
        r#"{"nb_res":4,"jobs":["#,
        &job,
        400 << 20,
        ONE_JOB.trim_start_matches(']'),
    );
    assert_refused(&gz, "jobs read from it would keep more than", 2);
}

/// A sacct text is kept whole: no more of it than the input's size allows.
#[test]
fn sacct_gzip_that_expands_too_far_is_refused_in_bounded_memory() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let head = "JobID|Submit|Start|Elapsed|NCPUS|State\n";
    let row = "1|2024-01-01T00:00:00|2024-01-01T00:00:10|00:01:00|2|COMPLETED\n";
    let gz = gzip_of(head, row, 400 << 20, "");
    assert_refused(&gz, "its Slurm sacct text, read whole, would keep", 2);
}
