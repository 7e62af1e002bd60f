//! The bad-input catalogue, text side: each case checked for its message (line number, field
//! name, reason) and for not panicking. Streams (gzip, binary, huge lines, I/O) are in
//! `swf_bad_stream.rs`.

use schedlab::swf::{self, ReadOptions, Severity, SwfError};

const GOOD: &str = "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1";

use crate::common;
use common::swfkit::*;

#[test]
fn empty_file() {
    assert_eq!(err(b""), "t.swf: no jobs: empty file");
    assert_eq!(
        err(b"\n  \r\n\t\n"),
        "t.swf: no jobs: empty file (only blank lines)"
    );
    assert!(err(&gzip(b"")).contains("empty file"));
}

#[test]
fn header_only() {
    let e = err(b"; Version: 2.2\n; MaxProcs: 8\n");
    assert_eq!(
        e,
        "t.swf: no jobs: header only, no job lines (2 comment lines)"
    );
}

#[test]
fn non_numeric_field() {
    let w = ok(&format!(
        "{GOOD}\n1 0 10 abc 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n{GOOD}\n"
    ));
    assert_eq!(w.records.len(), 2);
    assert_eq!((w.records[0].line, w.records[1].line), (1, 3));
    let i = only_issue(&w);
    assert_eq!(
        i.to_string(),
        "line 2, field 4 (run_time): not a number: \"abc\""
    );
    assert_eq!((i.line, i.severity), (2, Severity::Skipped));
    assert_eq!(i.field.as_deref(), Some("field 4 (run_time)"));
    assert_eq!((w.issue_count, w.skipped_lines), (1, 1));
    assert!(w
        .summary(3)
        .starts_with("t.swf: 2 jobs, 1 line skipped; first: line 2, field 4"));
    // A float field, and a long token cut short in the message.
    let long = "x".repeat(500);
    let w = ok(&format!(
        "{GOOD}\n1 0 10 1 4 -1 {long} 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n"
    ));
    let i = only_issue(&w);
    assert_eq!(i.field.as_deref(), Some("field 7 (used_memory)"));
    assert!(
        i.reason.starts_with("not a number: \"xxxx") && i.reason.len() < 80,
        "{}",
        i.reason
    );
}

#[test]
fn too_few_fields() {
    let w = ok(&format!("{GOOD}\n1 2 3 4 5 6 7 8 9 10 11 12\n"));
    assert_eq!(
        only_issue(&w).to_string(),
        "line 2, field 13 (group_id): missing (line has 12 fields, SWF needs 18)"
    );
    let w = ok(&format!(
        "{GOOD}\n1,0,10,100,4,-1,-1,4,200,-1,1,1,1,-1,-1,-1,-1,-1\n"
    ));
    let i = only_issue(&w);
    // The one token is what is wrong: field 1, not a number (before: "field 2 ... missing").
    assert_eq!(i.field.as_deref(), Some("field 1 (job_number)"));
    assert!(
        i.reason.starts_with("not a number: \"1,0,10,100,")
            && i.reason.contains("(line has 1 field, SWF needs 18)"),
        "{}",
        i.reason
    );
    assert!(i.reason.contains("not commas"), "{}", i.reason);
    // A header line of words among the jobs: its first word is named.
    let w = ok(&format!(
        "{GOOD}
job submit wait run procs
"
    ));
    assert_eq!(
        only_issue(&w).to_string(),
        "line 2, field 1 (job_number): not a number: \"job\" (line has 5 fields, SWF needs 18)"
    );
}

#[test]
fn numbers_out_of_range_and_decimals() {
    let w = ok(&format!(
        "{GOOD}\n1 99999999999999999999 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n\
         1 0 0 1 1 1e400 -1 1 1 -1 1 1 1 1 1 1 1 1\n\
         7 1e3 0 552.5 1 0.5 -1 1 1 -1 1 1 1 1 1 1 1 9223372036854775807\n"
    ));
    assert_eq!(w.issues.len(), 2);
    assert_eq!(
        w.issues[0].to_string(),
        "line 2, field 2 (submit_time): number out of range: \"99999999999999999999\""
    );
    assert_eq!(
        w.issues[1].to_string(),
        "line 3, field 6 (average_cpu_time): number out of range: \"1e400\""
    );
    let r = &w.records[1];
    assert_eq!(
        (r.submit_time, r.run_time, r.think_time),
        (1000, 553, i64::MAX)
    );
}

#[test]
fn crlf_tabs_cr_and_bom_are_accepted() {
    let lf = format!("; MaxProcs: 4\n{GOOD}\n2 5 1 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1 x\n");
    let want = ok(&lf);
    let variants = [
        lf.replace('\n', "\r\n"),
        lf.replace('\n', "\r"),
        lf.replace(' ', "\t"),
        lf.replace(' ', " \t  "),
        format!("\u{feff}{lf}"),
        format!("\u{feff}{}", lf.replace('\n', "\r\n").replace(' ', "\t")),
    ];
    for v in &variants {
        let w = ok(v);
        assert_eq!(w.issue_count, 0, "{v:?}: {}", w.summary(3));
        assert_eq!(w.records, want.records, "{v:?}");
        assert_eq!(w.header.max_procs, Some(4), "{v:?}");
    }
    assert_eq!(
        ok(&variants[0]).header.lines,
        ["; MaxProcs: 4"],
        "no \\r kept"
    );
}

#[test]
fn binary_and_non_utf8_lines() {
    let w = ok(&format!("{GOOD}\n1 2\u{0}3\n{GOOD}\n"));
    assert_eq!(
        only_issue(&w).to_string(),
        "line 2: binary data (NUL bytes)"
    );
    let mut bytes = format!("{GOOD}\n").into_bytes();
    bytes.extend(b"1 2 \xff\xfe 4\n; Note: caf\xe9\n");
    bytes.extend(GOOD.as_bytes());
    let w = swf::read_bytes("t.swf", &bytes, &opts()).unwrap();
    assert_eq!(w.records.len(), 2);
    assert_eq!(w.issues[0].to_string(), "line 2: not valid UTF-8");
    assert_eq!(w.issues[0].severity, Severity::Skipped);
    assert_eq!(w.issues[1].severity, Severity::Warning);
    assert_eq!(w.header.notes, ["caf\u{fffd}"]);
    assert_eq!((w.issue_count, w.skipped_lines), (2, 1));
}

#[test]
fn strict_mode_turns_the_first_issue_into_an_error() {
    let text =
        format!("{GOOD}\n{GOOD}\n1 0 10 abc 4\n1 0 10 abc 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n");
    let e = swf::read_bytes("s.swf", text.as_bytes(), &strict()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.swf: line 3, field 4 (run_time): not a number: \"abc\" (line has 5 fields, SWF needs 18) (strict mode)"
    );
    match e {
        SwfError::Strict { file, issue } => {
            assert_eq!(file, "s.swf");
            assert_eq!((issue.line, issue.severity), (3, Severity::Skipped));
        }
        other => panic!("{other}"),
    }
    // Also a header warning, and a clean file passes.
    let e = swf::read_bytes("s.swf", b"; MaxProcs: lots\n", &strict()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.swf: line 1, header MaxProcs: not a non-negative integer: \"lots\" (value ignored) (strict mode)"
    );
    assert_eq!(
        swf::read_bytes("s.swf", many(50).as_bytes(), &strict())
            .unwrap()
            .records
            .len(),
        50
    );
}

#[test]
fn tolerant_mode_keeps_the_good_lines_around_a_bad_one() {
    let mut lines: Vec<String> = many(2000).lines().map(str::to_owned).collect();
    lines[999] = "1000 0 0 -1 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1".into();
    let w = ok(&lines.join("\n"));
    assert_eq!(w.records.len(), 1999);
    assert_eq!(w.records[998].job_number, 999);
    assert_eq!(w.records[999].job_number, 1001);
    let i = only_issue(&w);
    assert_eq!(i.line, 1000);
    assert_eq!(i.field.as_deref(), Some("field 17 (preceding_job)"));
}

#[test]
fn issues_beyond_max_issues_are_counted_not_kept() {
    let text = format!("{}{GOOD}\n", "x\n".repeat(5000));
    let o = ReadOptions {
        max_issues: 10,
        ..ReadOptions::default()
    };
    let w = swf::read_bytes("t.swf", text.as_bytes(), &o).unwrap();
    assert_eq!(
        (w.issues.len(), w.issue_count, w.skipped_lines),
        (10, 5000, 5000)
    );
    assert!(
        w.summary(2).ends_with("; and 4998 more"),
        "{}",
        w.summary(2)
    );
    let e = err(b"a\nb\nc\nd\n");
    assert!(e.starts_with("t.swf: no jobs: none of the 4 job lines could be read; first: line 1, field 1 (job_number): not a number: \"a\" (line has 1 field, SWF needs 18)"), "{e}");
}

#[test]
fn bad_header_values_warn_and_stay_in_fields() {
    let w = ok(&format!("; MaxProcs: lots\n; MaxNodes: 12\n{GOOD}\n"));
    let i = only_issue(&w);
    assert_eq!(i.severity, Severity::Warning);
    assert_eq!(
        i.to_string(),
        "line 1, header MaxProcs: not a non-negative integer: \"lots\" (value ignored)"
    );
    assert_eq!((w.header.max_procs, w.header.max_nodes), (None, Some(12)));
    assert_eq!(w.header.get("maxprocs"), Some("lots"));
    assert_eq!(w.skipped_lines, 0);
}
