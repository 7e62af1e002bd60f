//! Writing a workload back out as SWF text.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::record::SwfRecord;
use super::workload::Workload;

/// Writes `workload` as SWF: the header's comment lines verbatim, then one line per record
/// (single spaces; integers as integers, floats in their shortest form so `-1.0` is `-1`;
/// extra columns appended). Reading the output back gives the same header and records (line
/// numbers aside, where the input had blank lines or comments between jobs).
///
/// A header line that is not a comment is written with `; ` before it, and a non-finite float
/// (which the reader never produces) as `-1`, so that the output is always readable SWF.
pub fn write<W: Write>(out: &mut W, workload: &Workload) -> io::Result<()> {
    let mut text = String::with_capacity(256);
    for line in &workload.header.lines {
        for part in line.split(['\n', '\r']) {
            text.clear();
            if !part.trim_start().starts_with(';') {
                text.push_str("; ");
            }
            text.push_str(part);
            text.push('\n');
            out.write_all(text.as_bytes())?;
        }
    }
    for record in &workload.records {
        text.clear();
        format_record(&mut text, record);
        text.push('\n');
        out.write_all(text.as_bytes())?;
    }
    out.flush()
}

fn format_record(s: &mut String, r: &SwfRecord) {
    let int = |s: &mut String, v: i64| {
        let _ = write!(s, "{v} ");
    };
    let float = |s: &mut String, v: f64| {
        if v.is_finite() {
            let _ = write!(s, "{v} ");
        } else {
            s.push_str("-1 ");
        }
    };
    int(s, r.job_number);
    int(s, r.submit_time);
    int(s, r.wait_time);
    int(s, r.run_time);
    int(s, r.allocated_processors);
    float(s, r.average_cpu_time);
    float(s, r.used_memory);
    int(s, r.requested_processors);
    int(s, r.requested_time);
    float(s, r.requested_memory);
    int(s, r.status);
    int(s, r.user_id);
    int(s, r.group_id);
    int(s, r.executable);
    int(s, r.queue);
    int(s, r.partition);
    int(s, r.preceding_job);
    int(s, r.think_time);
    for e in &r.extra {
        s.push_str(e);
        s.push(' ');
    }
    s.pop(); // the last separator
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swf::{read_bytes, ReadOptions};

    #[test]
    fn floats_shortest_and_extras() {
        let text =
            "; Note: x\n1 0 -1 10 2 552.21 -1.0 2 20 6.8719476736e10 1 1 1 -1 -1 -1 -1 -1 {a} q\n";
        let w = read_bytes("t", text.as_bytes(), &ReadOptions::default()).unwrap();
        let mut out = Vec::new();
        write(&mut out, &w).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "; Note: x\n1 0 -1 10 2 552.21 -1 2 20 68719476736 1 1 1 -1 -1 -1 -1 -1 {a} q\n"
        );
    }

    #[test]
    fn odd_header_lines_stay_comments() {
        let mut w = read_bytes(
            "t",
            b"1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n",
            &ReadOptions::default(),
        )
        .unwrap();
        w.header.lines.push("not a comment\n; two".into());
        w.records[0].used_memory = f64::NAN;
        let mut out = Vec::new();
        write(&mut out, &w).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("; not a comment\n; two\n1 0 0 1 1 -1 -1 1"),
            "{text}"
        );
    }
}
