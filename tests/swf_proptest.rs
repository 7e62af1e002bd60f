//! Property tests: no input panics the reader, and whatever it reads writes back the same.

use crate::common;
use common::swfkit::without_lines;
use proptest::prelude::*;
use schedlab::swf::{self, ReadOptions, Workload};

fn small_lines() -> ReadOptions {
    ReadOptions {
        max_line_bytes: 64,
        max_issues: 5,
        ..ReadOptions::default()
    }
}

/// Bytes drawn mostly from what SWF text is made of, so that parsing gets deep.
fn swf_like() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: Vec<u8> =
        b"0123456789 -1 -1 .e+;:\n\r\t\n\nMaxProcs Note\xef\xbb\xbf\xff\x00\x1f\x8b".to_vec();
    prop::collection::vec(prop::sample::select(alphabet), 0..2048)
}

/// Lines of 15 to 21 numeric-ish tokens, with the odd comment.
fn swf_lines() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        4 => (-5i64..100_000).prop_map(|v| v.to_string()),
        1 => (-1e6f64..1e6).prop_map(|v| v.to_string()),
        1 => "[-+0-9.eE]{1,6}",
        1 => "[a-z{},_]{1,5}",
    ];
    let job = prop::collection::vec(token, 15..22).prop_map(|t| t.join(" "));
    let comment = "; ?[A-Za-z]{1,8}: [ -~]{0,12}";
    let line = prop_oneof![6 => job, 1 => comment, 1 => Just(String::new())];
    prop::collection::vec(line, 0..40).prop_map(|l| l.join("\n"))
}

fn check_invariants(w: &Workload) {
    assert!(w.issues.len() as u64 <= w.issue_count);
    assert!(w.skipped_lines <= w.issue_count);
    assert!(!w.records.is_empty());
    assert!(w.records.windows(2).all(|p| p[0].line < p[1].line));
}

/// Reads `bytes` every way there is; both must agree.
fn read_all_ways(bytes: &[u8], opts: &ReadOptions) -> Option<Workload> {
    let a = swf::read_bytes("p.swf", bytes, opts);
    let b = swf::read("p.swf", bytes, opts);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b);
            check_invariants(&a);
            Some(a)
        }
        (Err(a), Err(b)) => {
            let (a, b) = (a.to_string(), b.to_string());
            assert_eq!(a, b);
            assert!(a.starts_with("p.swf: "), "{a}");
            None
        }
        (a, b) => panic!("read_bytes and read disagree: {a:?} vs {b:?}"),
    }
}

/// Writing and re-reading gives the same header and records.
fn round_trips(w: &Workload) {
    let mut out = Vec::new();
    swf::write(&mut out, w).unwrap();
    let again = swf::read_bytes("p.swf", &out, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&out)));
    assert_eq!(again.header, w.header);
    assert_eq!(without_lines(&again), without_lines(w));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        read_all_ways(&bytes, &ReadOptions::default());
        read_all_ways(&bytes, &small_lines());
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        read_all_ways(&bytes, &strict);
    }

    #[test]
    fn arbitrary_bytes_behind_a_gzip_magic_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let mut input = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];
        input.extend(bytes);
        read_all_ways(&input, &ReadOptions::default());
    }

    #[test]
    fn swf_like_bytes_never_panic(bytes in swf_like()) {
        if let Some(w) = read_all_ways(&bytes, &small_lines()) {
            round_trips(&w);
        }
    }

    #[test]
    fn swf_like_lines_round_trip(text in swf_lines()) {
        if let Some(w) = read_all_ways(text.as_bytes(), &ReadOptions::default()) {
            round_trips(&w);
        }
    }
}
