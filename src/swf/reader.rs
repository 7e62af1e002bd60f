//! The streaming SWF reader.

use std::io::{self, BufRead, BufReader, Read};

use flate2::read::MultiGzDecoder;

use super::header::SwfHeader;
use super::issue::{LineIssue, Severity, SwfError};
use super::lines::{LineKind, LineReader};
use super::record::{parse_job_line, JobError, SwfRecord};
use super::workload::{ReadOptions, Workload};

/// Where the reader hands each record it reads: a `Vec` keeps them
/// ([`Workload::records`]); the input step turns them into jobs as they come
/// ([`crate::input::RawJobs`]), so that a trace's records are never all held at once.
pub trait RecordSink {
    fn push(&mut self, record: SwfRecord);
    /// The input holds at most `count()` records (told before the first one when it can be
    /// counted; a sink that has no use for it does not call `count`).
    fn records_hint(&mut self, _count: &dyn Fn() -> usize) {}
}

impl RecordSink for Vec<SwfRecord> {
    fn push(&mut self, record: SwfRecord) {
        Vec::push(self, record);
    }
}

const BUF_BYTES: usize = 64 << 10;
/// Give up early when this many lines that are not text come before anything that is SWF.
const BINARY_LINES_BEFORE_ABORT: u32 = 8;
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
const BINARY: &str = "binary data (NUL bytes)";

/// Reads a trace from `reader` (plain text or gzip, detected by its magic bytes). `source`
/// names it in every message.
pub fn read<R: Read>(source: &str, reader: R, opts: &ReadOptions) -> Result<Workload, SwfError> {
    with_records(|sink| read_into(source, reader, opts, sink))
}

/// [`read`], each record handed to `sink` as it is read instead of kept in
/// [`Workload::records`] (left empty; [`Workload::streamed`] counts them).
pub fn read_into<R: Read, S: RecordSink>(
    source: &str,
    mut reader: R,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Workload, SwfError> {
    let mut prefix = [0u8; 8];
    let n = read_prefix(&mut reader, &mut prefix).map_err(|e| io_error(source, e))?;
    let head = prefix.get(..n).unwrap_or(&[]);
    check_magic(source, head, "")?;
    let input = head.chain(reader);
    if is_gzip(head) {
        let decoder = MultiGzDecoder::new(Tracked {
            inner: input,
            failed: false,
        });
        let buffered = BufReader::with_capacity(BUF_BYTES, decoder);
        parse(source, buffered, true, opts, sink, |b| {
            b.get_ref().get_ref().failed
        })
    } else {
        let buffered = BufReader::with_capacity(BUF_BYTES, input);
        parse(source, buffered, false, opts, sink, |_| true)
    }
}

/// Runs a read into a sink that keeps the records, and puts them in the workload.
/// Runs `read` with a vector sink and gives back the workload holding the records (the
/// `read*` functions are their `read*_into` with this).
pub(crate) fn with_records(
    read: impl FnOnce(&mut Vec<SwfRecord>) -> Result<Workload, SwfError>,
) -> Result<Workload, SwfError> {
    let mut records = Vec::new();
    let mut w = read(&mut records)?;
    w.records = records;
    w.streamed = 0;
    Ok(w)
}

/// Reads a trace held in memory (plain text or gzip, detected by its magic bytes).
pub fn read_bytes(source: &str, bytes: &[u8], opts: &ReadOptions) -> Result<Workload, SwfError> {
    with_records(|sink| read_bytes_into(source, bytes, opts, sink))
}

/// [`read_bytes`], each record handed to `sink` as it is read (see [`read_into`]). The sink is
/// told beforehand at most how many records there are: for plain text, and for gzip from
/// [`COUNT_GZIP_FROM`] bytes (inflated twice: once to count).
pub fn read_bytes_into<S: RecordSink>(
    source: &str,
    bytes: &[u8],
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Workload, SwfError> {
    check_magic(source, bytes, "")?;
    if !is_gzip(bytes) || bytes.len() >= COUNT_GZIP_FROM {
        sink.records_hint(&|| most_records(bytes));
    }
    if is_gzip(bytes) {
        let decoder = flate2::bufread::MultiGzDecoder::new(bytes);
        let buffered = BufReader::with_capacity(BUF_BYTES, decoder);
        // A slice never fails to read: any error is the gzip stream's.
        parse(source, buffered, true, opts, sink, |_| false)
    } else {
        parse(source, bytes, false, opts, sink, |_| true)
    }
}

/// At most how many records a text holds: its lines of at least 35 bytes (18 fields and 17
/// separators), whatever ends them (`\n`, `\r\n` or a lone `\r`). Counted chunk by chunk.
#[derive(Default)]
struct RecordBound {
    line: usize,
    count: usize,
}

impl RecordBound {
    const SHORTEST: usize = 35;

    fn add(&mut self, text: &[u8]) {
        for &b in text {
            if b == b'\n' || b == b'\r' {
                self.count += usize::from(self.line >= Self::SHORTEST);
                self.line = 0;
            } else {
                self.line += 1;
            }
        }
    }

    fn finish(self) -> usize {
        self.count + usize::from(self.line >= Self::SHORTEST)
    }
}

/// At most how many records a plain text holds, counted a chunk at a time: its lines (`\n`
/// counted, a count the compiler vectorizes; a lone `\r` ends a line too, in old Mac files:
/// counted when no `\n` came), and no more than one per 36 bytes.
#[derive(Default)]
pub struct PlainBound {
    newlines: usize,
    returns: usize,
    len: usize,
}

impl PlainBound {
    pub fn add(&mut self, text: &[u8]) {
        self.len += text.len();
        self.newlines += text.iter().filter(|&&b| b == b'\n').count();
        if self.newlines == 0 {
            self.returns += text.iter().filter(|&&b| b == b'\r').count();
        }
    }

    pub fn finish(&self) -> usize {
        let ends = if self.newlines == 0 {
            self.returns
        } else {
            self.newlines
        };
        (ends + 1).min(self.len / 36 + 1)
    }
}

/// Compressed size from which [`read_bytes_into`] inflates a gzip trace once more beforehand to
/// bound its records (a trace of about a million jobs and more, where a vector of exactly
/// their size instead of growing blocks matters; smaller ones are not slowed down).
const COUNT_GZIP_FROM: usize = 16 << 20;

/// A bound of the records of a text held in memory: for plain text its lines (a count the
/// compiler vectorizes), and no more than one per 36 bytes; for gzip, [`RecordBound`] of what
/// decodes (not the lines: a stream of blank lines must not reserve room).
fn most_records(bytes: &[u8]) -> usize {
    if !is_gzip(bytes) {
        let mut bound = PlainBound::default();
        bound.add(bytes);
        return bound.finish();
    }
    let mut bound = RecordBound::default();
    let mut decoder = flate2::bufread::MultiGzDecoder::new(bytes);
    let mut buf = vec![0u8; BUF_BYTES];
    while let Ok(n @ 1..) = decoder.read(&mut buf) {
        bound.add(buf.get(..n).unwrap_or(&[]));
    }
    bound.finish()
}

/// Reads a trace file (plain text or gzip, detected by its magic bytes, not its name). The
/// path as given names the file in every message.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_path(path: &std::path::Path, opts: &ReadOptions) -> Result<Workload, SwfError> {
    let source = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| io_error(&source, e))?;
    read_stream(&source, file, opts)
}

/// Reads a trace from a stream read once, front to back (a file, a pipe): plain text or gzip,
/// detected by its magic bytes; a gzip stream is inflated on a second thread while this one
/// parses. `source` names it in every message.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_stream<R: Read + Send + 'static>(
    source: &str,
    input: R,
    opts: &ReadOptions,
) -> Result<Workload, SwfError> {
    with_records(|sink| read_stream_into(source, input, opts, sink))
}

/// [`read_stream`], each record handed to `sink` as it is read (see [`read_into`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn read_stream_into<R: Read + Send + 'static, S: RecordSink>(
    source: &str,
    mut input: R,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Workload, SwfError> {
    let mut prefix = [0u8; 8];
    let n = read_prefix(&mut input, &mut prefix).map_err(|e| io_error(source, e))?;
    let head = prefix.get(..n).unwrap_or(&[]);
    check_magic(source, head, "")?;
    let gzip = is_gzip(head);
    let head = io::Cursor::new(head.to_vec());
    let split = super::inflate::Split::new(opts.max_line_bytes);
    read_split(source, head.chain(input), gzip, opts, sink, split)
}

/// [`read_stream_into`] after the magic bytes: the text read (and inflated) on a second thread
/// that cuts it and parses some pieces as `split` says.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn read_split<R: Read + Send + 'static, S: RecordSink>(
    source: &str,
    input: R,
    gzip: bool,
    opts: &ReadOptions,
    sink: &mut S,
    split: super::inflate::Split,
) -> Result<Workload, SwfError> {
    super::inflate::with_pieces(input, gzip, split, |chunks| {
        parse_with(
            source,
            chunks,
            gzip,
            opts,
            sink,
            |c| c.input_failed,
            super::pieces::next_piece,
        )
    })
}

fn io_error(source: &str, e: io::Error) -> SwfError {
    SwfError::Io {
        file: source.to_owned(),
        source: e,
    }
}

/// Fills `buf` as far as the input allows (short reads are retried).
fn read_prefix<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(buf.get_mut(n..).unwrap_or(&mut [])) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

fn is_gzip(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b])
}

/// Rejects compressed formats other than gzip with a clear message (`inside`: where the data
/// was found, e.g. " inside gzip").
fn check_magic(source: &str, head: &[u8], inside: &str) -> Result<(), SwfError> {
    let format =
        if head.starts_with(b"BZh") && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b)) {
            "bzip2-compressed data"
        } else if head.starts_with(b"\xFD7zXZ\x00") {
            "xz-compressed data"
        } else if head.starts_with(b"\x28\xB5\x2F\xFD") {
            "zstd-compressed data"
        } else if head.starts_with(b"PK\x03\x04") {
            "a zip archive"
        } else if head.starts_with(b"\x1F\x9D") {
            "Unix compress (.Z) data"
        } else {
            return Ok(());
        };
    Err(SwfError::Unsupported {
        file: source.to_owned(),
        detail: format!("{format}{inside}; only plain text and gzip are read, decompress it first"),
    })
}

/// Remembers whether the wrapped reader itself failed, to tell an I/O error from a gzip one.
pub(crate) struct Tracked<R> {
    pub(crate) inner: R,
    pub(crate) failed: bool,
}

impl<R: Read> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let r = self.inner.read(buf);
        if let Err(e) = &r {
            if e.kind() != io::ErrorKind::Interrupted {
                self.failed = true;
            }
        }
        r
    }
}

/// Reads every line of `input`. `io_failed` tells whether a read error came from the
/// underlying input (an I/O error) rather than from the gzip decoder.
fn parse<B: BufRead, S: RecordSink, F: Fn(&B) -> bool>(
    source: &str,
    input: B,
    gzip: bool,
    opts: &ReadOptions,
    sink: &mut S,
    io_failed: F,
) -> Result<Workload, SwfError> {
    parse_with(source, input, gzip, opts, sink, io_failed, |_, _| Ok(false))
}

/// [`parse`] of a text whose end may be a pause: there `parsed` hands the lines parsed on
/// another thread that come next to the state (`Ok(true)`; the text goes on after them), or
/// says that the text is over (`Ok(false)`).
pub(super) fn parse_with<B, S, F, P>(
    source: &str,
    mut input: B,
    gzip: bool,
    opts: &ReadOptions,
    sink: &mut S,
    io_failed: F,
    mut parsed: P,
) -> Result<Workload, SwfError>
where
    B: BufRead,
    S: RecordSink,
    F: Fn(&B) -> bool,
    P: FnMut(&mut B, &mut State<'_, S>) -> Result<bool, SwfError>,
{
    let mut st = State::new(source, gzip, opts, sink);
    let mut lines = LineReader::new(opts.max_line_bytes);
    let mut buf = Vec::with_capacity(512);
    loop {
        match lines.next(&mut input, &mut buf) {
            Ok(LineKind::Eof) => {
                if !parsed(&mut input, &mut st)? {
                    break;
                }
            }
            Ok(kind) => {
                st.line_no += 1;
                if gzip && st.line_no == 1 {
                    // A .zip.gz or .bz2.gz is refused as the same file without gzip is, and a
                    // file compressed twice is not read as text.
                    check_magic(source, &buf, " inside gzip")?;
                    if is_gzip(&buf) {
                        return Err(SwfError::Unsupported {
                            file: source.to_owned(),
                            detail: "gzip-compressed data inside gzip (compressed twice); \
                                     decompress it first"
                                .to_owned(),
                        });
                    }
                }
                st.line(kind, &buf)?;
            }
            Err(e) if !gzip || io_failed(&input) => return Err(io_error(source, e)),
            Err(e) => {
                st.gzip_failed(e)?;
                break;
            }
        }
    }
    st.finish()
}

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
}

impl<'a, S: RecordSink> State<'a, S> {
    fn new(source: &str, gzip: bool, opts: &'a ReadOptions, sink: &'a mut S) -> Self {
        State {
            opts,
            sink,
            w: Workload {
                source: source.to_owned(),
                header: SwfHeader::default(),
                records: Vec::new(),
                issues: Vec::new(),
                issue_count: 0,
                skipped_lines: 0,
                gzip,
                streamed: 0,
            },
            line_no: 0,
            job_lines: 0,
            binary_lines: 0,
            first_skips: Vec::new(),
        }
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

    fn line(&mut self, kind: LineKind, mut bytes: &[u8]) -> Result<(), SwfError> {
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
            Ok(record) => {
                self.sink.push(record);
                self.w.streamed += 1;
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
    fn gzip_failed(&mut self, e: io::Error) -> Result<(), SwfError> {
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

    fn finish(self) -> Result<Workload, SwfError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const JOB: &str = "1 0 5 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1";

    #[test]
    fn record_bounds_count_lines_long_enough_for_a_record() {
        // Three records (ends \n, \r\n, lone \r, none at the end), a comment of 35 bytes
        // (counted: a bound may be above), blank and short lines (not counted).
        let comment = format!(";{}", "x".repeat(34));
        let text = format!("{JOB}\n\n\n1 2\n{comment}\r\n{JOB}\r\n{JOB}\r\r   \n{JOB}");
        let mut whole = RecordBound::default();
        whole.add(text.as_bytes());
        assert_eq!(whole.finish(), 5);
        // Chunk boundaries anywhere give the same count.
        for cut in [1, 7, 34, 35, 36, 50] {
            let mut b = RecordBound::default();
            for chunk in text.as_bytes().chunks(cut) {
                b.add(chunk);
            }
            assert_eq!(b.finish(), 5, "chunks of {cut}");
        }
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(most_records(&gz), 5);
        // A gzip stream of blank lines bounds nothing; plain text by its lines and size.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&[b'\n'; 100_000]).unwrap();
        assert_eq!(most_records(&gz.finish().unwrap()), 0);
        assert_eq!(most_records(text.as_bytes()), 8.min(text.len() / 36 + 1));
        assert_eq!(most_records(&[b'\n'; 3600]), 101);
    }
}
