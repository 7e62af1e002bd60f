//! The bad-input catalogue, stream side: truncated and corrupt gzip, binary garbage, a 100 MB
//! line, I/O errors. Each case is checked for its message and for not panicking.

use std::io::{self, Read};
use std::time::{Duration, Instant};

use schedlab::swf::{self, Severity, SwfError};

use crate::common;
use common::swfkit::*;

/// Deterministic pseudo-random bytes.
fn noise(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect()
}

#[test]
fn truncated_gzip_keeps_the_jobs_before_the_cut() {
    let text = many(20_000);
    let full = ok(&text);
    let gz = gzip(text.as_bytes());
    let half = &gz[..gz.len() / 2];
    for w in [
        swf::read_bytes("t.swf", half, &opts()).unwrap(),
        swf::read("t.swf", half, &opts()).unwrap(),
    ] {
        let n = w.records.len();
        assert!(n > 1000 && n < 20_000, "{n}");
        assert_eq!(w.records[..], full.records[..n], "no half-decoded job");
        let i = only_issue(&w);
        assert_eq!((i.line, i.severity), (0, Severity::Warning));
        let want = format!("gzip stream truncated/corrupt after line {n}: ");
        assert!(i.reason.starts_with(&want), "{}", i.reason);
        let kept = format!("; the {n} jobs read before it are kept");
        assert!(i.reason.ends_with(&kept), "{}", i.reason);
        assert_eq!(w.skipped_lines, 0);
    }
    let e = swf::read_bytes("t.swf", half, &strict()).unwrap_err();
    assert!(matches!(e, SwfError::Strict { .. }), "{e}");
    assert!(
        e.to_string().contains("gzip stream truncated/corrupt"),
        "{e}"
    );
    // Cut inside the gzip header: nothing decoded at all.
    for cut in [2, 10, 30] {
        let e = err(&gz[..cut]);
        assert!(
            e.contains("gzip stream truncated or corrupt after line 0"),
            "{e}"
        );
    }
}

#[test]
fn corrupt_gzip_is_reported() {
    let text = many(20_000);
    let full = ok(&text);
    let mut gz = gzip(text.as_bytes());
    let mid = gz.len() / 2;
    for b in &mut gz[mid..mid + 64] {
        *b ^= 0x5a;
    }
    match swf::read("t.swf", &gz[..], &opts()) {
        Ok(w) => {
            // The whole-file issue comes first, ahead of the garbage lines' issues.
            let i = &w.issues[0];
            assert_eq!((i.line, i.severity), (0, Severity::Warning));
            assert!(
                i.reason
                    .starts_with("gzip stream truncated/corrupt after line "),
                "{i}"
            );
            assert!(
                i.reason.ends_with("but the last ones may be garbage"),
                "{i}"
            );
            assert!(
                w.summary(1).contains("; first: gzip stream"),
                "{}",
                w.summary(1)
            );
            assert!(w.records.len() < full.records.len());
            assert_eq!(w.records[..5000], full.records[..5000]);
        }
        Err(e) => assert!(e.to_string().contains("gzip"), "{e}"),
    }
    // Corrupt from the first deflate block on: nothing decodes.
    let mut gz = gzip(text.as_bytes());
    for b in &mut gz[10..60] {
        *b ^= 0xff;
    }
    let e = err(&gz);
    assert!(e.contains("gzip stream truncated or corrupt"), "{e}");
}

#[test]
fn binary_garbage_fails_fast_with_a_clear_message() {
    let start = Instant::now();
    let random = noise(8 << 20, 42);
    let e = err(&random);
    assert!(e.contains("not an SWF text file"), "{e}");
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend(noise(4096, 7));
    assert!(err(&png).contains("no jobs"));
    let e = err(&gzip(&random));
    assert!(e.contains("decompressed data looks binary"), "{e}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let e = err(b"BZh91AY&SY\x01\x02");
    assert_eq!(
        e,
        "t.swf: unsupported input: bzip2-compressed data; only plain text and gzip are read, decompress it first"
    );
    assert!(err(b"\xFD7zXZ\x00\x00").contains("xz-compressed"));
    assert!(err(b"PK\x03\x04rest").contains("unsupported input: a zip archive;"));
    // Found by fuzzing: the same archive gzip-compressed was read as text.
    let zipped = b"PK\x03\x04\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n";
    assert!(err(zipped).contains("a zip archive;"));
    assert_eq!(
        err(&gzip(zipped)),
        "t.swf: unsupported input: a zip archive inside gzip; only plain text and gzip are read, decompress it first"
    );
    let streamed = gzip(b"BZh91AY&SY\x01\x02");
    let e = swf::read("t.swf", &streamed[..], &opts())
        .unwrap_err()
        .to_string();
    assert!(e.contains("bzip2-compressed data inside gzip"), "{e}");
    // Compressed twice: read as text, the first line was garbage and the rest were jobs.
    let twice = gzip(&gzip(b"1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"));
    assert_eq!(
        err(&twice),
        "t.swf: unsupported input: gzip-compressed data inside gzip (compressed twice); decompress it first"
    );
}

/// A reader of a 100 MB line with no newline, made without a 100 MB buffer.
fn huge_line(then: &'static str) -> impl Read {
    io::repeat(b'7').take(100 << 20).chain(then.as_bytes())
}

#[test]
fn hundred_megabyte_line_is_skipped_quickly() {
    let start = Instant::now();
    let input = huge_line("\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n");
    let w = swf::read("t.swf", input, &opts()).unwrap();
    assert_eq!(w.records.len(), 1);
    assert_eq!(w.records[0].line, 2);
    assert_eq!(
        only_issue(&w).to_string(),
        "line 1: line longer than 1048576 bytes"
    );
    let e = swf::read("t.swf", huge_line(""), &opts())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "t.swf: no jobs: the only job line could not be read; first: line 1: line longer than 1048576 bytes"
    );
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

/// Fails after handing out `ok` bytes.
struct Failing {
    data: Vec<u8>,
    pos: usize,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.data.len() {
            return Err(io::Error::other("disk on fire"));
        }
        let n = buf.len().min(self.data.len() - self.pos).min(100);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[test]
fn io_errors_are_io_errors_even_under_gzip() {
    for data in [many(100).into_bytes(), gzip(many(100).as_bytes())] {
        let e = swf::read("t.swf", Failing { data, pos: 0 }, &opts()).unwrap_err();
        assert!(matches!(e, SwfError::Io { .. }), "{e}");
        assert_eq!(e.to_string(), "t.swf: I/O error: disk on fire");
    }
    let e = swf::read_path(std::path::Path::new("/no/such/trace.swf"), &opts()).unwrap_err();
    assert!(
        e.to_string().starts_with("/no/such/trace.swf: I/O error: "),
        "{e}"
    );
}
