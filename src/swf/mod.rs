//! Reading and writing the Standard Workload Format (SWF) of the Parallel Workloads Archive.
//!
//! An SWF trace is plain text (often gzip-compressed): one job per line with 18
//! whitespace-separated numeric fields ([`FIELD_NAMES`]), `-1` meaning "unknown", and header or
//! comment lines that start with `;` (`; MaxProcs: 430`).
//!
//! The reader is tolerant by default: a line it cannot read is skipped and reported as a
//! [`LineIssue`] (line number, field, reason) while everything else is kept; with
//! [`ReadOptions::strict`] the first issue is an error instead. It streams (bounded memory even
//! for a 100 MB line without a newline), detects gzip by its magic bytes rather than by file
//! name, and never panics on any input.
//!
//! Reading rules in brief:
//! - Lines end in `\n`, `\r\n` or a lone `\r`; a UTF-8 BOM at the start is skipped; blank
//!   lines are ignored; fields are separated by any ASCII whitespace.
//! - Integer fields given as decimals (`552.21`, `1e3`) are rounded to nearest; more than 18
//!   fields is fine (the rest go to [`SwfRecord::extra`]).
//! - Comment lines anywhere are kept in [`SwfHeader::lines`]; a typed header field takes the
//!   first value that parses, and one that does not parse is a warning.
//! - A gzip stream that breaks off keeps the jobs read before the break, with a whole-file
//!   warning (line 0, listed first in [`Workload::issues`]).
//! - Eight lines that are not text (NUL bytes, invalid UTF-8) before any job or comment line
//!   end the read at once: the input is taken for a binary file.
//!
//! ```
//! use schedlab::swf::{read_bytes, ReadOptions};
//! let text = b"; MaxProcs: 4\n1 0 5 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1\n";
//! let w = read_bytes("example.swf", text, &ReadOptions::default()).unwrap();
//! assert_eq!(w.header.max_procs, Some(4));
//! assert_eq!(w.records[0].run_time, 60);
//! ```

mod alea;
mod bound;
pub mod budget;
mod header;
#[cfg(not(target_arch = "wasm32"))]
mod inflate;
mod issue;
mod lines;
mod number;
#[cfg(not(target_arch = "wasm32"))]
mod pieces;
mod reader;
mod record;
mod scan;
mod state;
pub mod words;
mod workload;
mod writer;

pub use alea::{form as alea_form, kb_per_processor, note as alea_note};
pub use bound::PlainBound;
pub use budget::Budget;
pub use header::SwfHeader;
pub use issue::{LineIssue, Severity, SwfError};
pub(crate) use reader::compressed_format;
pub(crate) use reader::with_records;
pub use reader::{read, read_bytes, read_bytes_into, read_into, RecordSink};
#[cfg(not(target_arch = "wasm32"))]
pub use reader::{read_path, read_stream, read_stream_into};
pub use record::{SwfRecord, FIELD_NAMES};
pub use words::Words;
pub use workload::{EarlierRun, ReadOptions, Workload};
pub use writer::write;
