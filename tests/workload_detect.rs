//! What a file is decides which reader reads it (`workload::detect`), and a file that is no
//! text trace must reach the reader that says what it is. A bzip2, zstd or zip file, or a
//! gzip file compressed twice, was taken for an sacct log when its bytes happened to hold a
//! `|` (the sacct delimiter), and the error quoted the compressed bytes as column names.

use crate::common::swfkit::gzip;
use crate::common::{schedlab, tmpdir};
use schedlab::swf::ReadOptions;

/// An SWF line with a `|` in it, as compressed data often has by chance.
const PIPE: &[u8] = b"|\n";

#[test]
fn compressed_files_are_named_as_such_whatever_their_bytes() {
    let cases: &[(Vec<u8>, &str)] = &[
        (
            [b"BZh91AY&SY\x01\x02".as_slice(), PIPE].concat(),
            "bzip2-compressed data;",
        ),
        (
            [b"\x28\xB5\x2F\xFD\x04\x00".as_slice(), PIPE].concat(),
            "zstd-compressed data;",
        ),
        (
            [b"PK\x03\x04\x14\x00".as_slice(), PIPE].concat(),
            "a zip archive;",
        ),
        (
            gzip(&gzip(b"JobID|Submit|Start\n1|2|3\n")),
            "gzip-compressed data inside gzip (compressed twice)",
        ),
        (
            gzip(&[b"BZh91AY&SY\x01\x02".as_slice(), PIPE].concat()),
            "bzip2-compressed data inside gzip;",
        ),
    ];
    let dir = tmpdir("detect", "compressed");
    for (k, (bytes, want)) in cases.iter().enumerate() {
        let e = schedlab::workload::read_bytes("t.bin", bytes, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("t.bin: unsupported input: "), "{k}: {e}");
        assert!(e.contains(want), "{k}: {e}");
        // The CLI reads a file by its path (streamed): the same message.
        let path = dir.join(format!("t{k}.bin"));
        std::fs::write(&path, bytes).unwrap();
        let (ok, _, err) = schedlab(&["run", path.to_str().unwrap(), "-p", "fcfs"]);
        assert!(!ok);
        assert!(err.contains(want), "{k}: {err}");
        assert!(!err.contains("JobID"), "{k}: {err}");
    }
}

/// Binary bytes with a `|` in their first line are no sacct header either: the SWF reader
/// says they look binary instead of listing them as column names.
#[test]
fn binary_with_a_pipe_is_no_sacct_log() {
    let bytes = b"\xff\xfe|\x80\x01|\x90\n\x00\x01|\n";
    let e = schedlab::workload::read_bytes("t.png", bytes, &ReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(!e.contains("JobID"), "{e}");
    assert!(e.contains("binary") || e.contains("not valid UTF-8"), "{e}");
}
