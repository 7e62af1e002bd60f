//! The streaming SWF reader.

use std::io::{self, BufRead, BufReader, Read};

use flate2::read::MultiGzDecoder;

use super::bound::{most_records, COUNT_GZIP_FROM};
use super::budget::Budget;
use super::issue::SwfError;
use super::lines::{LineKind, LineReader};
use super::record::SwfRecord;
use super::state::State;
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

pub(super) const BUF_BYTES: usize = 64 << 10;

/// Reads a trace from `reader` (plain text or gzip, detected by its magic bytes). `source`
/// names it in every message.
pub fn read<R: Read>(source: &str, reader: R, opts: &ReadOptions) -> Result<Workload, SwfError> {
    with_records(|sink| read_into(source, reader, opts, sink))
}

/// [`read`], each record handed to `sink` as it is read instead of kept in
/// [`Workload::records`] (left empty; [`Workload::streamed`] counts them).
pub fn read_into<R: Read, S: RecordSink>(
    source: &str,
    reader: R,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Workload, SwfError> {
    let budget = Budget::default();
    let mut reader = budget.counting(reader);
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
        parse(source, buffered, true, opts, sink, budget, |b| {
            b.get_ref().get_ref().failed
        })
    } else {
        let buffered = BufReader::with_capacity(BUF_BYTES, input);
        parse(source, buffered, false, opts, sink, budget, |_| true)
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
/// `COUNT_GZIP_FROM` bytes (inflated twice: once to count).
pub fn read_bytes_into<S: RecordSink>(
    source: &str,
    bytes: &[u8],
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Workload, SwfError> {
    check_magic(source, bytes, "")?;
    let budget = Budget::of_size(bytes.len() as u64);
    if !is_gzip(bytes) || bytes.len() >= COUNT_GZIP_FROM {
        sink.records_hint(&|| most_records(bytes));
    }
    if is_gzip(bytes) {
        let decoder = flate2::bufread::MultiGzDecoder::new(bytes);
        let buffered = BufReader::with_capacity(BUF_BYTES, decoder);
        // A slice never fails to read: any error is the gzip stream's.
        parse(source, buffered, true, opts, sink, budget, |_| false)
    } else {
        parse(source, bytes, false, opts, sink, budget, |_| true)
    }
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
    input: R,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Workload, SwfError> {
    let budget = Budget::default();
    let mut input = budget.counting(input);
    let mut prefix = [0u8; 8];
    let n = read_prefix(&mut input, &mut prefix).map_err(|e| io_error(source, e))?;
    let head = prefix.get(..n).unwrap_or(&[]);
    check_magic(source, head, "")?;
    let gzip = is_gzip(head);
    let head = io::Cursor::new(head.to_vec());
    let split = super::inflate::Split::new(opts.max_line_bytes);
    read_split(source, head.chain(input), gzip, opts, sink, split, budget)
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
    budget: Budget,
) -> Result<Workload, SwfError> {
    super::inflate::with_pieces(input, gzip, split, |chunks| {
        parse_with(
            source,
            chunks,
            opts,
            State::new(source, gzip, opts, sink, budget),
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

pub(super) fn is_gzip(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b])
}

/// The compressed format other than gzip that `head` starts with, by its magic bytes.
pub(crate) fn compressed_format(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(b"BZh") && head.get(3).is_some_and(|b| (b'1'..=b'9').contains(b)) {
        Some("bzip2-compressed data")
    } else if head.starts_with(b"\xFD7zXZ\x00") {
        Some("xz-compressed data")
    } else if head.starts_with(b"\x28\xB5\x2F\xFD") {
        Some("zstd-compressed data")
    } else if head.starts_with(b"PK\x03\x04") {
        Some("a zip archive")
    } else if head.starts_with(b"\x1F\x9D") {
        Some("Unix compress (.Z) data")
    } else {
        None
    }
}

/// Rejects compressed formats other than gzip with a clear message (`inside`: where the data
/// was found, e.g. " inside gzip").
fn check_magic(source: &str, head: &[u8], inside: &str) -> Result<(), SwfError> {
    let Some(format) = compressed_format(head) else {
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

/// Reads every line of `input`, keeping no more records than `budget` allows. `io_failed` tells whether a read error came from the
/// underlying input (an I/O error) rather than from the gzip decoder.
fn parse<B: BufRead, S: RecordSink, F: Fn(&B) -> bool>(
    source: &str,
    input: B,
    gzip: bool,
    opts: &ReadOptions,
    sink: &mut S,
    budget: Budget,
    io_failed: F,
) -> Result<Workload, SwfError> {
    let st = State::new(source, gzip, opts, sink, budget);
    parse_with(source, input, opts, st, io_failed, |_, _| Ok(false))
}

/// [`parse`] of a text whose end may be a pause: there `parsed` hands the lines parsed on
/// another thread that come next to the state (`Ok(true)`; the text goes on after them), or
/// says that the text is over (`Ok(false)`).
pub(super) fn parse_with<B, S, F, P>(
    source: &str,
    mut input: B,
    opts: &ReadOptions,
    mut st: State<'_, S>,
    io_failed: F,
    mut parsed: P,
) -> Result<Workload, SwfError>
where
    B: BufRead,
    S: RecordSink,
    F: Fn(&B) -> bool,
    P: FnMut(&mut B, &mut State<'_, S>) -> Result<bool, SwfError>,
{
    let gzip = st.gzip();
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
