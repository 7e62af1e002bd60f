//! A trace read from the page's `Uint8Array` a chunk at a time: the file stays in JavaScript's
//! memory and the wasm memory holds one chunk of it at a time, never the whole file (a gzip
//! trace of 10 M jobs is 150 MB, its text 730 MB). An SWF trace streams through the reader
//! straight into raw jobs (`run::read_bytes` does the same from bytes in wasm memory); plain
//! text is counted first, chunk by chunk, so that its jobs go into one vector of their number;
//! gzip is inflated once, its jobs in blocks. Other formats (Slurm sacct, Batsim JSON) are read
//! whole, as `run::read_bytes` does.

use std::io::{self, Read};

use js_sys::Uint8Array;

use crate::input::{self, InputOptions, JobSet, RawJobs};
use crate::run::Error;
use crate::swf::{self, ReadOptions, RecordSink, Workload};
use crate::workload::{self as formats, Format};

/// Bytes per chunk copied from JavaScript.
const CHUNK: u32 = 1 << 20;

/// A `Read` over a JavaScript `Uint8Array` (a slice of it copied in at each read).
struct JsBytes<'a> {
    array: &'a Uint8Array,
    at: u32,
    len: u32,
}

impl<'a> JsBytes<'a> {
    fn new(array: &'a Uint8Array) -> JsBytes<'a> {
        JsBytes {
            array,
            at: 0,
            len: array.length(),
        }
    }
}

impl Read for JsBytes<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = u32::try_from(buf.len())
            .unwrap_or(u32::MAX)
            .min(self.len - self.at);
        let end = self.at + n;
        if let Some(out) = buf.get_mut(..n as usize) {
            self.array.subarray(self.at, end).copy_to(out);
        }
        self.at = end;
        Ok(n as usize)
    }
}

/// The first `n` bytes of `array` (all of it when shorter), copied into wasm memory.
fn head(array: &Uint8Array, n: u32) -> Vec<u8> {
    array.subarray(0, n.min(array.length())).to_vec()
}

/// At most how many records the plain text in `array` holds ([`swf::PlainBound`], counted a
/// chunk at a time).
fn plain_bound(array: &Uint8Array) -> usize {
    let mut bound = swf::PlainBound::default();
    let mut buf = vec![0u8; CHUNK as usize];
    let mut bytes = JsBytes::new(array);
    while let Ok(n @ 1..) = bytes.read(&mut buf) {
        bound.add(buf.get(..n).unwrap_or(&[]));
    }
    bound.finish()
}

/// Reads a trace held in a JavaScript `Uint8Array` (plain or gzip, any format) straight into
/// jobs and applies the input semantics: what [`crate::run::read_bytes`] gives for the same
/// bytes, without copying the file into wasm memory.
pub(super) fn read_array(
    name: &str,
    array: &Uint8Array,
    read: &ReadOptions,
    input: &InputOptions,
) -> Result<(Workload, JobSet), Error> {
    let mut raw = RawJobs::new(input);
    // The format from the text's first 64 KiB (a gzip file's first MiB inflates to more).
    let workload = match formats::detect(&head(array, CHUNK)) {
        Format::Swf => {
            if head(array, 2) != [0x1f, 0x8b] {
                let bound = plain_bound(array);
                raw.records_hint(&|| bound);
            }
            swf::read_into(name, JsBytes::new(array), read, &mut raw)?
        }
        _ => formats::read_bytes_into(name, &array.to_vec(), read, &mut raw)?,
    };
    let mut jobs = input::prepare_raw(&workload, raw, input)?;
    jobs.warnings
        .extend(crate::run::machines_hint(&workload, input));
    Ok((workload, jobs))
}
