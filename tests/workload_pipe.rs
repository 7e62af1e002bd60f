//! A trace path that is a pipe (a FIFO, `/dev/stdin`, `<(zcat trace.gz)`) reads as the same
//! bytes in a file do: the path is opened once and read front to back. A strict read that
//! stops at a bad line returns even while the pipe's writer keeps it open (once the first
//! 64 KiB, which the format is sniffed from, have arrived).
#![cfg(unix)]

use schedlab::swf::ReadOptions;
use schedlab::workload;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// A fresh directory for this test's FIFOs.
fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("schedlab-pipe-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fifo(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    let ok = std::process::Command::new("mkfifo")
        .arg(&p)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", p.display());
    p
}

/// Writes `bytes` into the FIFO `p` from another thread, then keeps it open for `hold`.
fn writer(p: PathBuf, bytes: Vec<u8>, hold: Duration) {
    std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(p).unwrap();
        let _ = f.write_all(&bytes);
        std::thread::sleep(hold);
    });
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Reads `path` on another thread; the answer within 30 s.
fn read_within(path: PathBuf, opts: ReadOptions) -> Result<schedlab::swf::Workload, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(workload::read_path(&path, &opts).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the read returns")
}

#[test]
fn a_pipe_reads_as_the_same_bytes_in_a_file() {
    let dir = scratch("same-bytes");
    let text =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hpc2n.swf")).unwrap();
    let file = dir.as_path().join("trace.swf");
    std::fs::write(&file, &text).unwrap();
    let want = workload::read_path(&file, &ReadOptions::default()).unwrap();
    assert!(want.records.len() > 1000);
    for (name, bytes) in [("plain", text.clone()), ("gzip", gzip(&text))] {
        let p = fifo(dir.as_path(), name);
        writer(p.clone(), bytes, Duration::ZERO);
        let got = read_within(p, ReadOptions::default()).unwrap();
        assert_eq!(got.records.len(), want.records.len(), "{name}");
        assert_eq!(got.records.last(), want.records.last(), "{name}");
        assert_eq!(got.header, want.header, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_strict_read_of_a_pipe_left_open_stops_at_the_bad_line() {
    let dir = scratch("left-open");
    // A bad first line, then more than the 64 KiB the format is sniffed from (also once
    // compressed: comments of pseudo-random digits), so that only the parse can stop early.
    let mut text = b"1 0 0 10 x 1 1 1 10 1 1 1 1 1 1 1 1 1\n".to_vec();
    let mut x: u64 = 88172645463325252;
    while text.len() < 400_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text.extend_from_slice(format!("; {x:020}\n").as_bytes());
    }
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    for (name, bytes) in [("plain", text.clone()), ("gzip", gzip(&text))] {
        assert!(bytes.len() > 128 << 10);
        let p = fifo(dir.as_path(), name);
        // The writer keeps the pipe open far longer than the read may take.
        writer(p.clone(), bytes, Duration::from_secs(120));
        let err = read_within(p, strict).unwrap_err();
        assert!(err.contains("line 1"), "{name}: {err}");
    }
}
