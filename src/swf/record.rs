//! One SWF job line: the 18 standard fields plus any extra columns, and its parser.

use serde::{Deserialize, Serialize};

pub use crate::job::Request;

use super::number::{float_at, int_at, Bad};
use super::scan::{token_bounds, Bounds};
use crate::quote::quote;

/// The 18 SWF fields in file order (field number = index + 1), as named in messages.
pub const FIELD_NAMES: [&str; 18] = [
    "job_number",
    "submit_time",
    "wait_time",
    "run_time",
    "allocated_processors",
    "average_cpu_time",
    "used_memory",
    "requested_processors",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable",
    "queue",
    "partition",
    "preceding_job",
    "think_time",
];

/// One job line of an SWF trace. `-1` means unknown, as in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SwfRecord {
    /// 1-based line number in the (decompressed) text.
    pub line: u64,
    pub job_number: i64,
    pub submit_time: i64,
    pub wait_time: i64,
    pub run_time: i64,
    pub allocated_processors: i64,
    pub average_cpu_time: f64,
    /// KB per processor.
    pub used_memory: f64,
    pub requested_processors: i64,
    pub requested_time: i64,
    pub requested_memory: f64,
    pub status: i64,
    pub user_id: i64,
    pub group_id: i64,
    pub executable: i64,
    pub queue: i64,
    pub partition: i64,
    pub preceding_job: i64,
    pub think_time: i64,
    /// Tokens after the 18th field, verbatim (some archives add columns).
    pub extra: Vec<String>,
    /// What the job asks of a cluster's nodes beyond its processors, from formats that say
    /// (sacct, Batsim, the generator, the GPU column of schedlab's SWF); zero when unknown.
    /// Its `partition` is not used: a record's partition is field 16, numbered in the
    /// workload's [`Workload::partition_names`](super::Workload::partition_names).
    #[serde(default, skip_serializing_if = "Request::is_empty")]
    pub req: Request,
}

/// `field 4 (run_time)` for the 0-based field index `idx`.
pub(crate) fn field_label(idx: usize) -> String {
    let name = FIELD_NAMES.get(idx).copied().unwrap_or("extra");
    format!("field {} ({})", idx + 1, name)
}

/// Why a job line was not turned into a record.
#[derive(Debug)]
pub(crate) enum JobError {
    /// The line holds NUL bytes.
    Binary,
    NotUtf8,
    Field {
        /// `field 4 (run_time)`.
        field: String,
        reason: String,
    },
}

#[cold]
fn bad(idx: usize, line: &[u8], start: usize, end: usize, why: Bad) -> JobError {
    JobError::Field {
        field: field_label(idx),
        reason: bad_reason(line, start, end, why),
    }
}

/// `not a number: "x"`: why the token at `start..end` of `line` is not the field's number.
fn bad_reason(line: &[u8], start: usize, end: usize, why: Bad) -> String {
    let token = line.get(start..end).unwrap_or(&[]);
    format!(
        "{}: {}",
        why.as_str(),
        quote(&String::from_utf8_lossy(token))
    )
}

/// A line of `b.count` < 18 fields: its first field that is not a number when one is not (a
/// header line of words, `1 0 10 abc 4`: the word is what is wrong, not the field after the
/// last), else the first field missing; either way the count of fields is said.
fn too_few(b: &Bounds, line: &[u8]) -> JobError {
    let count = b.count;
    let plural = if count == 1 { "" } else { "s" };
    let hint = if count < 3 && line.contains(&b',') {
        "; fields must be separated by spaces or tabs, not commas"
    } else {
        ""
    };
    let few = format!("line has {count} field{plural}, SWF needs 18");
    for i in 0..count {
        let (s, e) = (b.starts[i], b.ends[i]);
        let parsed = match i {
            5 | 6 | 9 => float_at(line, s, e).map(|_| ()),
            _ => int_at(line, s, e).map(|_| ()),
        };
        if let Err(why) = parsed {
            return JobError::Field {
                field: field_label(i),
                reason: format!("{} ({few}){hint}", bad_reason(line, s, e, why)),
            };
        }
    }
    JobError::Field {
        field: field_label(count),
        reason: format!("missing ({few}){hint}"),
    }
}

/// Parses one job line (non-blank, not a comment). NUL bytes and invalid UTF-8 are looked
/// for only when something fails: a valid line is numbers and whitespace, and any other byte
/// lands in a token that then fails to parse, or in an extra token, which is checked.
pub(crate) fn parse_job_line(line: u64, bytes: &[u8]) -> Result<SwfRecord, JobError> {
    parse_fields(line, bytes).map_err(|e| {
        if bytes.contains(&0) {
            JobError::Binary
        } else if std::str::from_utf8(bytes).is_err() {
            JobError::NotUtf8
        } else {
            e
        }
    })
}

fn parse_fields(line: u64, bytes: &[u8]) -> Result<SwfRecord, JobError> {
    let b = token_bounds(bytes);
    if b.count < 18 {
        return Err(too_few(&b, bytes));
    }
    // Every field as an integer, the three float fields (5, 6 and 9, 0-based) aside; in
    // file order, so that the first bad field is the one reported.
    let mut v = [0i64; 18];
    let mut f = [0f64; 3];
    for (i, slot) in v.iter_mut().enumerate() {
        let (s, e) = (b.starts[i], b.ends[i]);
        let k = match i {
            5 => 0,
            6 => 1,
            9 => 2,
            _ => {
                *slot = int_at(bytes, s, e).map_err(|why| bad(i, bytes, s, e, why))?;
                continue;
            }
        };
        f[k] = float_at(bytes, s, e).map_err(|why| bad(i, bytes, s, e, why))?;
    }
    Ok(SwfRecord {
        line,
        job_number: v[0],
        submit_time: v[1],
        wait_time: v[2],
        run_time: v[3],
        allocated_processors: v[4],
        average_cpu_time: f[0],
        used_memory: f[1],
        requested_processors: v[7],
        requested_time: v[8],
        requested_memory: f[2],
        status: v[10],
        user_id: v[11],
        group_id: v[12],
        executable: v[13],
        queue: v[14],
        partition: v[15],
        preceding_job: v[16],
        think_time: v[17],
        extra: if b.count > 18 {
            extras(bytes.get(b.starts[18]..).unwrap_or(&[]))?
        } else {
            Vec::new()
        },
        req: Request::default(),
    })
}

fn extras(rest: &[u8]) -> Result<Vec<String>, JobError> {
    rest.split(|c| c.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| match std::str::from_utf8(t) {
            Ok(s) if !t.contains(&0) => Ok(s.to_owned()),
            _ => Err(JobError::NotUtf8), // reclassified by `parse_job_line`
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_error(line: &str) -> (String, String) {
        match parse_job_line(1, line.as_bytes()) {
            Err(JobError::Field { field, reason }) => (field, reason),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parses_all_fields_in_order() {
        let text = "1 2 3 4 5 6.5 7 8 9 10 11 12 13 14 15 16 17 18 x {y}";
        let r = parse_job_line(3, text.as_bytes()).unwrap();
        assert_eq!(r.line, 3);
        assert_eq!((r.job_number, r.submit_time, r.wait_time), (1, 2, 3));
        assert_eq!((r.run_time, r.allocated_processors), (4, 5));
        assert_eq!((r.average_cpu_time, r.used_memory), (6.5, 7.0));
        assert_eq!((r.requested_processors, r.requested_time), (8, 9));
        assert_eq!((r.requested_memory, r.status, r.user_id), (10.0, 11, 12));
        assert_eq!(
            (r.group_id, r.executable, r.queue, r.partition),
            (13, 14, 15, 16)
        );
        assert_eq!((r.preceding_job, r.think_time), (17, 18));
        assert_eq!(r.extra, ["x", "{y}"]);
        let plain = "1 0 5 60 2 1.5 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1 \t";
        assert!(parse_job_line(1, plain.as_bytes())
            .unwrap()
            .extra
            .is_empty());
    }

    #[test]
    fn first_bad_field_is_named() {
        let (f, r) = field_error("1 2 3 4 5 6 7 8 9 10 11 12");
        assert_eq!(f, "field 13 (group_id)");
        assert_eq!(r, "missing (line has 12 fields, SWF needs 18)");
        let (f, r) = field_error("1 2 3 x 5 y 7 8 9 10 11 12 13 14 15 16 17 18");
        assert_eq!(
            (f.as_str(), r.as_str()),
            ("field 4 (run_time)", "not a number: \"x\"")
        );
        assert!(field_error("1,2,3").1.contains("not commas"));
        // Too few fields, one of them not a number: that one is named, with the count.
        let (f, r) = field_error("1 0 10 abc 4");
        assert_eq!(
            (f.as_str(), r.as_str()),
            (
                "field 4 (run_time)",
                "not a number: \"abc\" (line has 5 fields, SWF needs 18)"
            )
        );
        let (f, r) = field_error("1 2 3 4 5 x");
        assert_eq!(f, "field 6 (average_cpu_time)");
        assert_eq!(r, "not a number: \"x\" (line has 6 fields, SWF needs 18)");
        let (f, r) = field_error("1,0,10");
        assert_eq!(f, "field 1 (job_number)");
        assert_eq!(
            r,
            "not a number: \"1,0,10\" (line has 1 field, SWF needs 18); \
             fields must be separated by spaces or tabs, not commas"
        );
        let (f, r) = field_error("1 2 3 4 5 1e999 7 8 9 10 11 12 13 14 15 16 17 18");
        assert_eq!(
            (f.as_str(), r.as_str()),
            (
                "field 6 (average_cpu_time)",
                "number out of range: \"1e999\""
            )
        );
    }

    #[test]
    fn binary_and_non_utf8_lines() {
        let ok = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18";
        for (text, binary) in [
            (format!("{ok} a\0b"), true),
            (format!("1\0 {ok}"), true),
            (format!("{ok} caf\u{e9}"), false),
        ] {
            let mut bytes = text.into_bytes();
            let r = parse_job_line(1, &bytes);
            assert_eq!(matches!(r, Err(JobError::Binary)), binary, "{r:?}");
            if let Some(p) = bytes.iter().position(|&c| c == 0xc3) {
                assert_eq!(parse_job_line(1, &bytes).unwrap().extra, ["caf\u{e9}"]);
                bytes[p] = 0xff;
                assert!(matches!(parse_job_line(1, &bytes), Err(JobError::NotUtf8)));
                bytes.truncate(3);
                assert!(matches!(
                    parse_job_line(1, &bytes),
                    Err(JobError::Field { .. })
                ));
            }
        }
    }
}
