//! A trace read with its pieces parsed on either thread, cut anywhere, gives what one thread
//! reading it in place gives: the same records, skips, warnings (same order, same lines), the
//! same header and the same first error.

use std::io::{Cursor, Write};

use super::super::inflate::{Aside, Split};
use super::super::reader::{read_bytes, read_split, with_records};
use super::super::{ReadOptions, Severity, SwfError, Workload};

const JOB: &str = "1 0 5 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1";

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A job line numbered `id`, submitted at `id * 10`.
fn job(id: u32) -> String {
    format!(
        "{id} {} 0 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1",
        id * 10
    )
}

/// The hand-made trace: a header, then `reps` times the same 13 lines (numbered from 2 +
/// 13 * rep): a comment ending in `\r\n`, a job, a blank line, a bad field, a job ending in a
/// lone `\r`, a header value that does not parse (a warning), a short line, a line longer than
/// the limit (200 bytes), a job with extra columns, a job, a comment that is not UTF-8 (a
/// warning), a job line with a NUL byte, a job. The last line has no line ending.
fn trace(reps: u32) -> Vec<u8> {
    let mut t = b"\xEF\xBB\xBF; MaxProcs: 64\n".to_vec();
    for r in 0..reps {
        let id = |k: u32| job(10 * r + k);
        let long = "9".repeat(300);
        let body = format!(
            "; Note: part {r}\r\n{}\n\n2 10 x 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1\n{}\r\
             ; MaxNodes: abc\n4 30 0 10 1\n{long}\n{} 77 extra\n{}\n",
            id(1),
            id(3),
            id(5),
            id(6),
        );
        t.extend_from_slice(body.as_bytes());
        t.extend_from_slice(b"; \xFF\xFE not UTF-8\n7 60 \x00 1\n");
        t.extend_from_slice(id(8).as_bytes());
        if r + 1 < reps {
            t.push(b'\n');
        }
    }
    t
}

fn opts(strict: bool, max_issues: usize) -> ReadOptions {
    ReadOptions {
        strict,
        max_issues,
        max_line_bytes: 200,
    }
}

/// Read in place, on one thread.
fn in_place(text: &[u8], gzip: bool, o: &ReadOptions) -> Result<Workload, String> {
    let bytes = if gzip { gz(text) } else { text.to_vec() };
    read_bytes("t.swf", &bytes, o).map_err(|e| e.to_string())
}

/// Read from a stream cut in reads of `chunk` bytes, pieces parsed aside as `aside` says.
fn split(
    input: &[u8],
    gzip: bool,
    o: &ReadOptions,
    chunk: usize,
    aside: Aside,
) -> Result<Workload, SwfError> {
    let split = Split {
        chunk_bytes: chunk,
        aside,
        max_line_bytes: o.max_line_bytes,
    };
    let input = Cursor::new(input.to_vec());
    with_records(|sink| read_split("t.swf", input, gzip, o, sink, split, Default::default()))
}

const ASIDE: [Aside; 4] = [Aside::Never, Aside::Alternate, Aside::All, Aside::Balance];

fn chunk_sizes() -> impl Iterator<Item = usize> {
    (1..=80).chain([97, 128, 200, 333, 1000, 1 << 16])
}

/// Every way of cutting and sharing `text` gives what the read in place gives.
fn same_everywhere(text: &[u8], o: &ReadOptions) {
    for gzip in [false, true] {
        let want = in_place(text, gzip, o);
        let input = if gzip { gz(text) } else { text.to_vec() };
        for chunk in chunk_sizes() {
            for aside in ASIDE {
                let got = split(&input, gzip, o, chunk, aside).map_err(|e| e.to_string());
                assert_eq!(got, want, "gzip {gzip}, reads of {chunk}, {aside:?}, {o:?}");
            }
        }
    }
}

#[test]
fn the_hand_made_trace_worked_out_by_hand() {
    let w = in_place(&trace(2), false, &opts(false, 1000)).unwrap();
    // Per repetition (13 lines from line 2 + 13 * rep): jobs on lines 3, 6, 10, 11 and 14.
    let lines: Vec<u64> = w.records.iter().map(|r| r.line).collect();
    assert_eq!(lines, [3, 6, 10, 11, 14, 16, 19, 23, 24, 27]);
    let ids: Vec<i64> = w.records.iter().map(|r| r.job_number).collect();
    assert_eq!(ids, [1, 3, 5, 6, 8, 11, 13, 15, 16, 18]);
    assert_eq!(w.records[2].extra, ["77", "extra"]);
    assert_eq!(w.header.max_procs, Some(64));
    let issues: Vec<(u64, Severity)> = w.issues.iter().map(|i| (i.line, i.severity)).collect();
    let (s, v) = (Severity::Skipped, Severity::Warning);
    let rep = |o: u64| {
        [
            (5 + o, s),
            (7 + o, v),
            (8 + o, s),
            (9 + o, s),
            (12 + o, v),
            (13 + o, s),
        ]
    };
    let want: Vec<(u64, Severity)> = rep(0).into_iter().chain(rep(13)).collect();
    assert_eq!(issues, want);
    assert_eq!((w.issue_count, w.skipped_lines), (12, 8));
}

#[test]
fn pieces_parsed_on_either_thread_give_the_same_workload() {
    let text = trace(4);
    same_everywhere(&text, &opts(false, 1000));
    // Few issues kept: the same ones.
    same_everywhere(&text, &opts(false, 3));
}

#[test]
fn strict_reads_fail_on_the_same_first_line() {
    let text = trace(4);
    same_everywhere(&text, &opts(true, 1000));
    // Only job lines, two of them bad and far apart: whichever thread parsed which piece and
    // whichever failed first, the error is the first bad line's.
    let mut lines: Vec<String> = (1..=60).map(job).collect();
    lines[9] = JOB.replace(" 60 ", " sixty ");
    lines[49] = JOB.replace(" 0 ", " zero ");
    let text = lines.join("\n") + "\n";
    same_everywhere(text.as_bytes(), &opts(true, 1000));
    for chunk in chunk_sizes() {
        for aside in ASIDE {
            match split(text.as_bytes(), false, &opts(true, 10), chunk, aside) {
                Err(SwfError::Strict { issue, .. }) => {
                    assert_eq!(issue.line, 10, "reads of {chunk}, {aside:?}");
                    assert_eq!(issue.field.as_deref(), Some("field 4 (run_time)"));
                }
                other => panic!("reads of {chunk}, {aside:?}: {other:?}"),
            }
        }
    }
}

#[test]
fn binary_input_and_a_broken_gzip_stream_end_as_in_place() {
    // Lines that are not text before any job: the read ends at the eighth.
    let binary: Vec<u8> = (0..40)
        .flat_map(|i| format!("\0{i}\0 x\n").into_bytes())
        .collect();
    same_everywhere(&binary, &opts(false, 1000));
    // A gzip stream cut short: the jobs before the break, and its warning on line 0.
    let packed = gz(&trace(6));
    let cut = packed.get(..packed.len() * 2 / 3).unwrap();
    let o = opts(false, 1000);
    let want = read_bytes("t.swf", cut, &o).map_err(|e| e.to_string());
    let w = want.as_ref().unwrap();
    assert!(w.issues[0].line == 0 && !w.records.is_empty());
    for chunk in chunk_sizes() {
        for aside in ASIDE {
            let got = split(cut, true, &o, chunk, aside).map_err(|e| e.to_string());
            assert_eq!(got, want, "reads of {chunk}, {aside:?}");
        }
    }
}
