//! How many records a trace's text holds at most, counted before or while it is read, so that
//! its jobs can go into one vector of their number instead of growing blocks.

use std::io::Read;

use super::reader::{is_gzip, BUF_BYTES};

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

/// Compressed size from which [`super::read_bytes_into`] inflates a gzip trace once more beforehand to
/// bound its records (a trace of about a million jobs and more, where a vector of exactly
/// their size instead of growing blocks matters; smaller ones are not slowed down).
pub(super) const COUNT_GZIP_FROM: usize = 16 << 20;

/// A bound of the records of a text held in memory: for plain text its lines (a count the
/// compiler vectorizes), and no more than one per 36 bytes; for gzip, [`RecordBound`] of what
/// decodes (not the lines: a stream of blank lines must not reserve room).
pub(super) fn most_records(bytes: &[u8]) -> usize {
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
