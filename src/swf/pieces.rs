//! Natively the lines of a trace are parsed on two threads: the thread that reads the input (and
//! inflates it, for gzip) cuts the text into pieces of whole lines and, when the reading thread
//! is behind, parses a piece itself ([`parse_piece`]); the reading thread parses the other
//! pieces and takes the parsed ones in file order ([`replay`]), so that every record, skip,
//! warning and error comes out as from one thread, in the same order and on the same line.
//!
//! A piece parsed aside starts at a line start and ends with a `\n`, and is never the first one
//! (the byte-order mark and the magic bytes of the first line are looked at in order). Its line
//! numbers count from the piece's start; the reading thread, which knows how many lines came
//! before, adds them.

use super::issue::SwfError;
use super::lines::{LineKind, LineReader};
use super::reader::RecordSink;
use super::record::{parse_job_line, JobError, SwfRecord};
use super::state::{classify, LineClass, State};

/// The lines of a piece of whole lines, parsed.
pub(crate) struct Piece {
    /// Lines in the piece (blank ones included).
    lines: u64,
    /// What its lines hold, in order (blank lines aside).
    events: Vec<Event>,
}

/// A line of a piece (its number counted from the piece's start, 1-based).
enum Event {
    /// A job line: its record, or why it has none.
    Job(u64, Result<SwfRecord, JobError>),
    /// A comment line or a line longer than the limit, for the reading thread to read in order
    /// (a comment may set the header).
    Other(u64, LineKind, Vec<u8>),
}

/// Text bytes per line, at least, for a piece to be parsed aside: a record's line holds 18
/// fields and 17 separators. A piece of shorter lines (short comments, lines that are not SWF)
/// is left to the reading thread, so that the lines parsed aside never take more than a few
/// times the text's size.
const BYTES_PER_LINE: usize = 32;

/// Parses a piece of whole lines (`text` ends with `\n` and starts a line); `None` when it
/// holds more lines than [`BYTES_PER_LINE`] allows (blank ones aside).
pub(crate) fn parse_piece(text: &[u8], max_line_bytes: usize) -> Option<Piece> {
    let mut input = text;
    let mut lines = LineReader::new(max_line_bytes);
    let mut buf = Vec::with_capacity(512);
    let most = text.len() / BYTES_PER_LINE + 1;
    let mut events = Vec::with_capacity(text.len() / 64 + 1);
    let mut n = 0;
    // A slice never fails to read.
    while let Ok(kind @ (LineKind::Line | LineKind::TooLong)) = lines.next(&mut input, &mut buf) {
        n += 1;
        match classify(kind, &buf) {
            LineClass::Blank => continue,
            LineClass::Job => events.push(Event::Job(n, parse_job_line(n, &buf))),
            LineClass::Other => events.push(Event::Other(n, kind, buf.clone())),
        }
        if events.len() > most {
            return None;
        }
    }
    events.shrink_to_fit();
    Some(Piece { lines: n, events })
}

/// Takes a piece parsed aside into the state, as if its lines had been read here: records to the
/// sink, issues in order (in strict mode the first one is the error).
pub(super) fn replay<S: RecordSink>(st: &mut State<'_, S>, piece: Piece) -> Result<(), SwfError> {
    let base = st.line_no;
    for event in piece.events {
        match event {
            Event::Job(n, parsed) => {
                st.line_no = base + n;
                st.job_lines += 1;
                st.job_parsed(parsed.map(|mut r| {
                    r.line += base;
                    r
                }))?;
            }
            Event::Other(n, kind, bytes) => {
                st.line_no = base + n;
                st.other(kind, &bytes)?;
            }
        }
    }
    st.line_no = base + piece.lines;
    Ok(())
}

/// The hook of [`super::reader::parse_with`] over [`super::inflate::Chunks`]: at a pause in the
/// text, the piece parsed aside that comes next.
pub(super) fn next_piece<S: RecordSink>(
    chunks: &mut super::inflate::Chunks,
    st: &mut State<'_, S>,
) -> Result<bool, SwfError> {
    match chunks.take_parsed() {
        Some(piece) => replay(st, piece).map(|()| true),
        None => Ok(false),
    }
}

/// Whether `text` can be parsed as a piece: it ends with a `\n` (so its last line is whole).
pub(crate) fn ends_lines(text: &[u8]) -> bool {
    text.last() == Some(&b'\n')
}

#[cfg(test)]
#[path = "pieces_tests.rs"]
mod tests;
