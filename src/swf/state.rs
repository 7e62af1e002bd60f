//! What the reader does with each line, in file order: the state of one read (the workload
//! so far, the line count, the issues kept), the header's comments, job lines into records for
//! the sink, and the rules for lines that are not text. `reader.rs` feeds it lines as it reads
//! them; `pieces.rs` replays lines that another thread parsed.

use std::io;

use super::budget::Budget;
use super::issue::{LineIssue, Severity, SwfError};
use super::lines::LineKind;
use super::reader::RecordSink;
use super::record::{parse_job_line, JobError, SwfRecord};
use super::workload::{ReadOptions, Workload};

/// Give up early when this many lines that are not text come before anything that is SWF.
const BINARY_LINES_BEFORE_ABORT: u32 = 8;
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
const BINARY: &str = "binary data (NUL bytes)";

/// What a line is, for the reader: blank (ignored), a job line, or another one (a comment,
/// or a line longer than the limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LineClass {
    Blank,
    Job,
    Other,
}

/// The class of a line (a too-long line is reported even if it starts blank).
pub(super) fn classify(kind: LineKind, bytes: &[u8]) -> LineClass {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace()).copied();
    if kind == LineKind::TooLong || first == Some(b';') {
        LineClass::Other
    } else if first.is_none() {
        LineClass::Blank
    } else {
        LineClass::Job
    }
}

pub(super) struct State<'a, S> {
    opts: &'a ReadOptions,
    sink: &'a mut S,
    w: Workload,
    pub(super) line_no: u64,
    /// Non-blank, non-comment lines seen.
    pub(super) job_lines: u64,
    /// Lines that were not text (NUL bytes, not UTF-8) before any comment or record.
    binary_lines: u32,
    /// The first few skipped-line issues, kept even when `max_issues` is small.
    first_skips: Vec<LineIssue>,
    /// The input read so far, which bounds the records kept.
    budget: Budget,
}

impl<'a, S: RecordSink> State<'a, S> {
    pub(super) fn new(
        source: &str,
        gzip: bool,
        opts: &'a ReadOptions,
        sink: &'a mut S,
        budget: Budget,
    ) -> Self {
        State {
            opts,
            sink,
            w: Workload {
                gzip,
                ..Workload::empty(source)
            },
            line_no: 0,
            job_lines: 0,
            binary_lines: 0,
            first_skips: Vec::new(),
            budget,
        }
    }

    /// The input is gzip-compressed.
    pub(super) fn gzip(&self) -> bool {
        self.w.gzip
    }

    fn issue(
        &mut self,
        line: u64,
        field: Option<String>,
        reason: String,
        severity: Severity,
    ) -> Result<(), SwfError> {
        let issue = LineIssue {
            line,
            field,
            reason,
            severity,
        };
        if self.opts.strict {
            return Err(SwfError::Strict {
                file: self.w.source.clone(),
                issue,
            });
        }
        self.w.issue_count += 1;
        if severity == Severity::Skipped {
            self.w.skipped_lines += 1;
            if self.first_skips.len() < 3 {
                self.first_skips.push(issue.clone());
            }
        }
        if line == 0 && self.opts.max_issues > 0 {
            // Whole-file issues go first, so that a summary shows them.
            self.w.issues.insert(0, issue);
            self.w.issues.truncate(self.opts.max_issues);
        } else if self.w.issues.len() < self.opts.max_issues {
            self.w.issues.push(issue);
        }
        Ok(())
    }

    fn skip(&mut self, field: Option<String>, reason: String) -> Result<(), SwfError> {
        self.issue(self.line_no, field, reason, Severity::Skipped)
    }

    fn warn(&mut self, field: Option<String>, reason: String) -> Result<(), SwfError> {
        self.issue(self.line_no, field, reason, Severity::Warning)
    }

    pub(super) fn line(&mut self, kind: LineKind, mut bytes: &[u8]) -> Result<(), SwfError> {
        if self.line_no == 1 {
            bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes);
        }
        match classify(kind, bytes) {
            LineClass::Blank => Ok(()),
            LineClass::Job => {
                self.job_lines += 1;
                self.job(bytes)
            }
            LineClass::Other => self.other(kind, bytes),
        }
    }

    /// A comment line, or a line longer than the limit.
    pub(super) fn other(&mut self, kind: LineKind, bytes: &[u8]) -> Result<(), SwfError> {
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace()).copied();
        let comment = first == Some(b';');
        if !comment {
            self.job_lines += 1;
        }
        if kind == LineKind::TooLong {
            let reason = format!("line longer than {} bytes", self.opts.max_line_bytes);
            return if comment {
                self.warn(None, format!("{reason} (comment line dropped)"))
            } else {
                self.skip(None, reason)
            };
        }
        if !comment {
            return self.job(bytes);
        }
        if bytes.contains(&0) {
            self.warn(None, format!("{BINARY} (comment line dropped)"))?;
            return self.binary_line();
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => self.comment(text),
            Err(_) => {
                let reason = "not valid UTF-8 (comment kept with replacement characters)";
                self.warn(None, reason.to_owned())?;
                self.comment(&String::from_utf8_lossy(bytes))
            }
        }
    }

    fn job(&mut self, bytes: &[u8]) -> Result<(), SwfError> {
        self.job_parsed(parse_job_line(self.line_no, bytes))
    }

    /// A job line parsed (on this thread or another one): its record, or why it has none.
    pub(super) fn job_parsed(
        &mut self,
        parsed: Result<SwfRecord, JobError>,
    ) -> Result<(), SwfError> {
        match parsed {
            Ok(mut record) => {
                if let Some(f) = self.w.header.gpu_field {
                    match gpus_in(&record, f) {
                        Ok(g) => record.req.gpus = g,
                        Err((field, reason)) => return self.skip(Some(field), reason),
                    }
                }
                if let Some(f) = self.w.header.timeout_field {
                    match timed_out_in(&record, f) {
                        Ok(true) => self.w.timed_out.push(record.line),
                        Ok(false) => {}
                        Err((field, reason)) => return self.skip(Some(field), reason),
                    }
                }
                if super::alea::read(&mut record) {
                    self.w.alea_lines += 1;
                }
                self.sink.push(record);
                self.w.streamed += 1;
                // What the records take (a job kept from one takes less), against the input.
                let kept = self.w.streamed * std::mem::size_of::<SwfRecord>() as u64;
                if kept > super::budget::FREE_BYTES {
                    let what = format!("{} jobs read from it", self.w.streamed);
                    self.budget.check(&self.w.source, kept, &what)?;
                }
                Ok(())
            }
            Err(JobError::Field { field, reason }) => self.skip(Some(field), reason),
            Err(JobError::Binary) => {
                self.skip(None, BINARY.to_owned())?;
                self.binary_line()
            }
            Err(JobError::NotUtf8) => {
                self.skip(None, "not valid UTF-8".to_owned())?;
                self.binary_line()
            }
        }
    }

    fn comment(&mut self, text: &str) -> Result<(), SwfError> {
        match self.w.header.add_comment(text) {
            Some((field, reason)) => self.warn(Some(field), reason),
            None => Ok(()),
        }
    }

    /// Counts a line that is not text; too many before anything SWF-like means this is not an
    /// SWF file at all, and reading on would only pile up issues.
    fn binary_line(&mut self) -> Result<(), SwfError> {
        if self.w.streamed > 0 || !self.w.header.lines.is_empty() {
            return Ok(());
        }
        self.binary_lines += 1;
        if self.binary_lines < BINARY_LINES_BEFORE_ABORT {
            return Ok(());
        }
        let gz = if self.w.gzip { "decompressed " } else { "" };
        Err(SwfError::NoJobs {
            file: self.w.source.clone(),
            detail: format!(
                "not an SWF text file: the {gz}data looks binary (first {} lines are not text; {})",
                self.binary_lines,
                cite(&self.first_skips)
            ),
        })
    }

    /// The gzip decoder failed: keep what was read, unless that is nothing.
    pub(super) fn gzip_failed(&mut self, e: io::Error) -> Result<(), SwfError> {
        if self.w.streamed == 0 {
            return Err(SwfError::Gzip {
                file: self.w.source.clone(),
                line: self.line_no,
                source: e,
            });
        }
        let n = self.w.streamed;
        let tail = if e.kind() == io::ErrorKind::UnexpectedEof {
            format!("the {n} jobs read before it are kept")
        } else {
            format!("the {n} jobs read before it are kept, but the last ones may be garbage")
        };
        let reason = format!(
            "gzip stream truncated/corrupt after line {}: {e}; {tail}",
            self.line_no
        );
        self.issue(0, None, reason, Severity::Warning)
    }

    pub(super) fn finish(self) -> Result<Workload, SwfError> {
        if self.w.streamed > 0 {
            return Ok(self.w);
        }
        let comments = self.w.header.lines.len();
        let detail = if self.job_lines > 0 {
            let n = self.job_lines;
            let what = if n == 1 {
                "the only job line could not be read".to_owned()
            } else {
                format!("none of the {n} job lines could be read")
            };
            format!("{what}; first: {}", cite(&self.first_skips))
        } else if comments > 0 {
            format!("header only, no job lines ({comments} comment lines)")
        } else if self.line_no > 0 {
            "empty file (only blank lines)".to_owned()
        } else if self.w.gzip {
            "empty file (the gzip stream decompresses to nothing)".to_owned()
        } else {
            "empty file".to_owned()
        };
        Err(SwfError::NoJobs {
            file: self.w.source,
            detail,
        })
    }
}

fn cite(issues: &[LineIssue]) -> String {
    let parts: Vec<String> = issues.iter().map(|i| i.to_string()).collect();
    parts.join("; ")
}

/// The GPUs of a record in field `f` (the header's `GpuField`, 19 or more): a whole number, or
/// `-1` / no column for none; anything else names the field.
fn gpus_in(r: &SwfRecord, f: u64) -> Result<u32, (String, String)> {
    let Some(text) = usize::try_from(f - 19).ok().and_then(|i| r.extra.get(i)) else {
        return Ok(0);
    };
    match text.parse::<i64>() {
        Ok(-1) => Ok(0),
        Ok(g) if (0..=i64::from(u32::MAX / 2)).contains(&g) => Ok(g as u32),
        _ => Err((
            format!("field {f} (GPUs, the header's GpuField)"),
            format!(
                "not a GPU count (a whole number from 0 to {}, or -1): {}",
                u32::MAX / 2,
                crate::quote::quote(text)
            ),
        )),
    }
}

/// Whether field `f` (the header's `TimeoutField`, 19 or more) says the controller ended the
/// job at its time limit: `1` yes; `0`, `-1` or no column no; anything else names the field.
fn timed_out_in(r: &SwfRecord, f: u64) -> Result<bool, (String, String)> {
    let Some(text) = usize::try_from(f - 19).ok().and_then(|i| r.extra.get(i)) else {
        return Ok(false);
    };
    match text.as_str() {
        "1" => Ok(true),
        "0" | "-1" => Ok(false),
        _ => Err((
            format!("field {f} (timed out, the header's TimeoutField)"),
            format!(
                "not 1 (ended at its time limit), 0 or -1: {}",
                crate::quote::quote(text)
            ),
        )),
    }
}
