//! Helpers shared by the SWF reader tests.

use flate2::write::GzEncoder;
use flate2::Compression;
use schedlab::swf::{self, LineIssue, ReadOptions, SwfRecord, Workload};
use std::io::Write as _;

pub fn opts() -> ReadOptions {
    ReadOptions::default()
}

pub fn strict() -> ReadOptions {
    ReadOptions {
        strict: true,
        ..ReadOptions::default()
    }
}

pub fn ok(text: &str) -> Workload {
    swf::read_bytes("t.swf", text.as_bytes(), &opts()).unwrap_or_else(|e| panic!("{e}"))
}

pub fn err(bytes: &[u8]) -> String {
    // The streaming and the in-memory reader must agree.
    let a = swf::read_bytes("t.swf", bytes, &opts())
        .unwrap_err()
        .to_string();
    let b = swf::read("t.swf", bytes, &opts()).unwrap_err().to_string();
    assert_eq!(a, b);
    assert!(a.starts_with("t.swf: "), "{a}");
    a
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

pub fn only_issue(w: &Workload) -> &LineIssue {
    assert_eq!(w.issues.len(), 1, "{}", w.summary(5));
    &w.issues[0]
}

/// A trace of `n` good jobs, job number = line number.
pub fn many(n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!(
                "{i} {i} 0 {} 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n",
                i % 97
            )
        })
        .collect()
}

/// The records with their line numbers zeroed (for comparing reads of differently laid out text).
pub fn without_lines(w: &Workload) -> Vec<SwfRecord> {
    w.records
        .iter()
        .map(|r| SwfRecord {
            line: 0,
            ..r.clone()
        })
        .collect()
}
