//! Problems found while reading a trace: per-line issues and fatal errors.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How bad a [`LineIssue`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Severity {
    /// The line produced no record.
    Skipped,
    /// Something was odd but nothing was lost from the jobs (a header value that does not
    /// parse, a comment line that is not UTF-8, a gzip stream cut after some jobs).
    Warning,
}

/// One problem with one line (or, with `line == 0`, with the whole file).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineIssue {
    /// 1-based line number in the decompressed text; 0 = concerns the whole file.
    pub line: u64,
    /// e.g. `field 4 (run_time)` or `header MaxProcs`.
    pub field: Option<String>,
    pub reason: String,
    pub severity: Severity,
}

impl fmt::Display for LineIssue {
    /// `line 12, field 4 (run_time): not a number: "abc"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, &self.field) {
            (0, None) => write!(f, "{}", self.reason),
            (0, Some(field)) => write!(f, "{field}: {}", self.reason),
            (line, None) => write!(f, "line {line}: {}", self.reason),
            (line, Some(field)) => write!(f, "line {line}, {field}: {}", self.reason),
        }
    }
}

/// Why a trace could not be read. Every message starts with the file name.
#[derive(thiserror::Error, Debug)]
pub enum SwfError {
    /// The input could not be opened or read.
    #[error("{file}: I/O error: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    /// Strict mode: the first issue found.
    #[error("{file}: {issue} (strict mode)")]
    Strict { file: String, issue: LineIssue },
    /// No job could be read: empty file, header only, nothing parsable, or not SWF text at
    /// all. `detail` says which and cites the first issues.
    #[error("{file}: no jobs: {detail}")]
    NoJobs { file: String, detail: String },
    /// The gzip stream failed before any job was read (after a partial one, the jobs read are
    /// kept and the failure is a [`Severity::Warning`] issue instead).
    #[error("{file}: gzip stream truncated or corrupt after line {line}, no job could be read: {source}")]
    Gzip {
        file: String,
        /// Last complete line decoded (0 = none).
        line: u64,
        source: std::io::Error,
    },
    /// A format this reader does not handle (bzip2, xz, zstd, zip).
    #[error("{file}: unsupported input: {detail}")]
    Unsupported { file: String, detail: String },
    /// The input would keep more memory than its size allows ([`super::budget`]).
    #[error("{file}: too large for its size: {detail}")]
    TooLarge { file: String, detail: String },
}

impl SwfError {
    /// The file name the error is about.
    pub fn file(&self) -> &str {
        match self {
            SwfError::Io { file, .. }
            | SwfError::Strict { file, .. }
            | SwfError::NoJobs { file, .. }
            | SwfError::Gzip { file, .. }
            | SwfError::Unsupported { file, .. }
            | SwfError::TooLarge { file, .. } => file,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_forms() {
        let mut i = LineIssue {
            line: 12,
            field: Some("field 4 (run_time)".into()),
            reason: "not a number: \"abc\"".into(),
            severity: Severity::Skipped,
        };
        assert_eq!(
            i.to_string(),
            "line 12, field 4 (run_time): not a number: \"abc\""
        );
        i.field = None;
        assert_eq!(i.to_string(), "line 12: not a number: \"abc\"");
        i.line = 0;
        assert_eq!(i.to_string(), "not a number: \"abc\"");
        let e = SwfError::NoJobs {
            file: "a.swf".into(),
            detail: "empty file".into(),
        };
        assert_eq!(e.to_string(), "a.swf: no jobs: empty file");
        assert_eq!(e.file(), "a.swf");
    }
}
