//! Memory stays bounded on a 100 MB line without a newline, plain and gzip-compressed, and no
//! input of 1 MB makes loading it (any format) allocate more than a fixed multiple of its size.
//! (In the memory test binary, `tests/memory/main.rs`: a counting global allocator.)

use std::io::{self, Read, Write as _};

use flate2::write::GzEncoder;
use flate2::Compression;
use schedlab::input::{self, InputOptions};
use schedlab::swf::{self, ReadOptions};
use schedlab::workload;

use crate::counting::peak_during;
use crate::SERIAL;

const JOB: &str = "\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n";

#[test]
fn hundred_megabyte_line_in_bounded_memory() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let input = io::repeat(b'5').take(100 << 20).chain(JOB.as_bytes());
    let (w, peak) = peak_during(|| swf::read("big.swf", input, &ReadOptions::default()));
    let w = w.unwrap();
    assert_eq!(w.records.len(), 1);
    assert_eq!(w.issues[0].reason, "line longer than 1048576 bytes");
    assert!(peak < 8 << 20, "peak {peak} bytes");
}

#[test]
fn gzip_bomb_line_in_bounded_memory() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    // 100 MB of one line compresses to about 100 KB.
    let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..100 {
        enc.write_all(&chunk).unwrap();
    }
    enc.write_all(b"x").unwrap();
    enc.write_all(JOB.as_bytes()).unwrap();
    let gz = enc.finish().unwrap();
    let (w, peak) = peak_during(|| swf::read_bytes("bomb.swf.gz", &gz, &ReadOptions::default()));
    let w = w.unwrap();
    assert_eq!(w.records.len(), 1);
    assert_eq!(
        w.issues[0].to_string(),
        "line 1: line longer than 1048576 bytes"
    );
    assert!(peak < 8 << 20, "peak {peak} bytes");
}

/// A file is parsed on two threads (pieces of it parsed aside, held until the reading thread
/// takes them): 100 MB of bad job lines, short or as long as a record's, still read in bounded
/// memory (the issues are counted, the first thousand kept).
#[test]
fn bad_lines_parsed_on_two_threads_in_bounded_memory() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let long = "x 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"; // 37 bytes, field 1 bad
    for unit in ["x\n", "1 2\n", long] {
        let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
        let block = unit.repeat((1 << 20) / unit.len());
        for _ in 0..100 {
            enc.write_all(block.as_bytes()).unwrap();
        }
        enc.write_all(JOB.as_bytes()).unwrap();
        let gz = enc.finish().unwrap();
        let input = io::Cursor::new(gz);
        let (w, peak) =
            peak_during(|| swf::read_stream("bad.swf.gz", input, &ReadOptions::default()));
        let w = w.unwrap();
        assert_eq!(w.records.len(), 1);
        assert_eq!(w.skipped_lines, 100 * ((1 << 20) / unit.len()) as u64);
        assert!(peak < 16 << 20, "{unit:?}: peak {peak} bytes");
    }
}

#[path = "../fuzz/targets.rs"]
#[allow(unused)]
mod targets;

/// One megabyte of `unit` repeated (the last copy cut).
fn megabyte(head: &str, unit: &str) -> Vec<u8> {
    let mut out = head.as_bytes().to_vec();
    while out.len() + unit.len() <= 1 << 20 {
        out.extend_from_slice(unit.as_bytes());
    }
    out
}

/// The shapes of one megabyte that make readers hold the most per input byte: the shortest
/// valid records, bad lines, header lines, extra columns, sacct rows, Batsim jobs and arrays.
fn megabyte_inputs() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let sacct_head = "JobID|User|Submit|Start|End|Elapsed|NCPUS|Timelimit|State\n";
    let mut batsim = megabyte(
        "{\"nb_res\":8,\"profiles\":{\"p\":{\"type\":\"delay\",\"delay\":1}},\"jobs\":[",
        "{\"id\":1,\"subtime\":0,\"res\":1,\"profile\":\"p\"},",
    );
    batsim.truncate(batsim.len() - 1);
    batsim.extend_from_slice(b"]}");
    let mut array = megabyte("{\"nb_res\":8,\"jobs\":[],\"x\":[", "0,");
    array.extend_from_slice(b"0]}");
    vec![
        ("swf", "shortest records", megabyte("", "1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n")),
        ("swf", "bad lines", megabyte("", "x\n")),
        ("swf", "empty lines", megabyte("1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n", "\n")),
        ("swf", "header lines", megabyte("", ";\n")),
        ("swf", "extra columns", megabyte("1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1", " 1")),
        ("swf", "short lines", megabyte("", "1 0\n")),
        ("sacct", "rows", megabyte(sacct_head, "1|a|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:00:01|00:00:01|1|1|COMPLETED\n")),
        ("sacct", "short rows", megabyte(sacct_head, "1\n")),
        ("batsim", "jobs", batsim),
        ("batsim", "a long array", array),
    ]
}

#[test]
fn one_megabyte_inputs_stay_within_a_multiple_of_their_size() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let (mut worst_load, mut worst_target) = (0.0f64, 0.0f64);
    for (target, shape, data) in megabyte_inputs() {
        let t = targets::target(target).unwrap();
        let size = targets::text_size(t, &data);
        // What loading a trace does: read (any format) and apply the input rules.
        let (_, load) = peak_during(|| {
            let w = workload::read_bytes("m", &data, &ReadOptions::default());
            w.map(|w| input::prepare(&w, &InputOptions::default()))
        });
        let bound = targets::LOAD_BYTES_PER_BYTE * size + targets::READER_SLACK;
        assert!(
            load <= bound,
            "{target} {shape}: loading peaks at {load} bytes for {size} (bound {bound})"
        );
        // The whole fuzz target (reads twice, writes and reads again), as the fuzzer checks it.
        let ((), whole) = peak_during(|| (t.run)(&data));
        let bound = targets::TARGET_BYTES_PER_BYTE * size + targets::READER_SLACK;
        assert!(
            whole <= bound,
            "{target} {shape}: the target peaks at {whole} bytes for {size} (bound {bound})"
        );
        let per = |p: usize| p as f64 / size as f64;
        println!(
            "{target} {shape}: {size} bytes; loading {:.1}, target {:.1} bytes per byte",
            per(load),
            per(whole)
        );
        worst_load = worst_load.max(per(load));
        worst_target = worst_target.max(per(whole));
    }
    println!("worst: loading {worst_load:.1}, target {worst_target:.1} bytes per input byte");
}

/// Every committed input of a reader target (seed corpora, bug inputs) within the bound the fuzz
/// binary holds each input to (`tests/fuzz/libfuzzer.rs`): on stable, what a libFuzzer run checks
/// first on the seeds.
#[test]
fn committed_fuzz_inputs_stay_within_the_fuzz_bound() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let fuzz = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    for t in targets::TARGETS.iter().filter(|t| t.reader) {
        let mut checked = 0;
        for dir in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(t.name)) else {
                continue;
            };
            for path in entries.map(|e| e.unwrap().path()).filter(|p| p.is_file()) {
                let data = std::fs::read(&path).unwrap();
                let size = targets::text_size(t, &data);
                let ((), peak) = peak_during(|| (t.run)(&data));
                let bound = targets::TARGET_BYTES_PER_BYTE * size + targets::READER_SLACK;
                assert!(
                    peak <= bound,
                    "{}: {peak} bytes at peak for {size} bytes of text (bound {bound})",
                    path.display()
                );
                checked += 1;
            }
        }
        assert!(checked > 0, "no committed inputs for {}", t.name);
    }
}

/// `n` jobs of a plausible trace (about 60 bytes a line), plain and gzip-compressed.
fn synthetic(n: usize) -> (Vec<u8>, Vec<u8>) {
    let mut text = String::from("; MaxProcs: 1024\n");
    for i in 0..n {
        text.push_str(&format!(
            "{} {} {} {} {} -1 -1 {} {} -1 1 {} 1 -1 -1 -1 -1 -1\n",
            i + 1,
            i * 7,
            i % 100,
            100 + i % 5000,
            1 + i % 64,
            1 + i % 64,
            200 + i % 9000,
            i % 97
        ));
    }
    let mut enc = GzEncoder::new(Vec::new(), Compression::fast());
    enc.write_all(text.as_bytes()).unwrap();
    let gz = enc.finish().unwrap();
    (text.into_bytes(), gz)
}

/// Reading a trace straight into jobs holds each job once (128 bytes) plus, when the count is
/// not known beforehand (gzip), the blocks being moved into the final vector: twice, and the
/// unused room of the last block (at most 65,536 jobs). Reading records first and preparing them held a record (176 bytes, in a vector
/// that doubles as it grows) and a job each.
#[test]
fn reading_into_jobs_peaks_near_one_job_per_job() {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let n = 200_000;
    let (plain, gz) = synthetic(n);
    let read = ReadOptions::default();
    let opts = InputOptions::default();
    let last_block = (1 << 16) * 128 / n;
    for (what, bytes, most) in [
        ("plain", &plain, 136),
        ("gzip", &gz, 2 * 128 + last_block + 8),
    ] {
        let (loaded, peak) = peak_during(|| schedlab::run::read_bytes("m", bytes, &read, &opts));
        let (_, jobs) = loaded.unwrap();
        assert_eq!(jobs.jobs.len(), n);
        let per_job = peak / n;
        println!("{what}: reading into jobs peaks at {per_job} bytes per job");
        assert!(per_job <= most, "{what}: {per_job} bytes per job");
        assert!(per_job >= 128, "{what}: {per_job} bytes per job");
        // Records first, then the jobs: more than both together.
        let (_, old) = peak_during(|| {
            let w = workload::read_bytes("m", bytes, &read).unwrap();
            input::prepare(&w, &opts).unwrap()
        });
        println!(
            "{what}: records then jobs peak at {} bytes per job",
            old / n
        );
        assert!(old / n > 288, "{what}: {} bytes per job", old / n);
    }
}
