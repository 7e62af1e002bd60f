//! Bounded line splitting over a `BufRead`: `\n`, `\r\n` and a lone `\r` end a line, and a
//! line longer than the limit is skipped to its end without being buffered.

use std::io::{self, BufRead};

use super::scan::find_eol;

/// What [`LineReader::next`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// No more input.
    Eof,
    /// A complete line is in the buffer (without its line ending).
    Line,
    /// The line was longer than the limit; the buffer holds only its first `max` bytes and
    /// the rest of it was consumed.
    TooLong,
}

pub(crate) struct LineReader {
    max: usize,
    /// The last line ended in `\r`: a `\n` right after it belongs to the same line ending.
    pending_cr: bool,
}

impl LineReader {
    pub(crate) fn new(max_line_bytes: usize) -> Self {
        LineReader {
            max: max_line_bytes,
            pending_cr: false,
        }
    }

    /// Reads the next line into `buf` (cleared first). On an error the partial line is
    /// dropped from the caller's point of view (it is not terminated, so it is not a line).
    pub(crate) fn next<B: BufRead>(
        &mut self,
        input: &mut B,
        buf: &mut Vec<u8>,
    ) -> io::Result<LineKind> {
        buf.clear();
        let mut started = false;
        let mut too_long = false;
        loop {
            let avail = match input.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                return Ok(match (started, too_long) {
                    (false, _) => LineKind::Eof,
                    (true, false) => LineKind::Line,
                    (true, true) => LineKind::TooLong,
                });
            }
            if self.pending_cr {
                self.pending_cr = false;
                if avail.first() == Some(&b'\n') {
                    input.consume(1);
                    continue;
                }
            }
            started = true;
            let (end, used) = match find_eol(avail) {
                Some(i) => {
                    self.pending_cr = avail.get(i) == Some(&b'\r');
                    (i, i + 1)
                }
                None => (avail.len(), avail.len()),
            };
            if !too_long {
                let room = self.max.saturating_sub(buf.len());
                if end > room {
                    too_long = true;
                    buf.extend_from_slice(avail.get(..room).unwrap_or(&[]));
                } else {
                    buf.extend_from_slice(avail.get(..end).unwrap_or(&[]));
                }
            }
            let complete = used > end;
            input.consume(used);
            if complete {
                return Ok(if too_long {
                    LineKind::TooLong
                } else {
                    LineKind::Line
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    fn split(input: &[u8], max: usize, cap: usize) -> Vec<(LineKind, Vec<u8>)> {
        let mut r = BufReader::with_capacity(cap, input);
        let mut lr = LineReader::new(max);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let k = lr.next(&mut r, &mut buf).unwrap();
            if k == LineKind::Eof {
                return out;
            }
            out.push((k, buf.clone()));
        }
    }

    #[test]
    fn line_endings() {
        use LineKind::Line;
        for cap in [1, 2, 3, 7, 64] {
            let got = split(b"a\r\nbb\rc\n\nd\r\r\ne", 100, cap);
            let want: Vec<(LineKind, Vec<u8>)> = ["a", "bb", "c", "", "d", "", "e"]
                .iter()
                .map(|s| (Line, s.as_bytes().to_vec()))
                .collect();
            assert_eq!(got, want, "cap {cap}");
            assert_eq!(split(b"x\n", 100, cap), vec![(Line, b"x".to_vec())]);
            assert_eq!(split(b"x\r", 100, cap), vec![(Line, b"x".to_vec())]);
            assert!(split(b"", 100, cap).is_empty());
        }
    }

    #[test]
    fn too_long_lines_are_bounded() {
        for cap in [1, 4, 64] {
            let got = split(b"abcdefgh\nxy\n0123456789", 4, cap);
            assert_eq!(got[0], (LineKind::TooLong, b"abcd".to_vec()), "cap {cap}");
            assert_eq!(got[1], (LineKind::Line, b"xy".to_vec()));
            assert_eq!(got[2], (LineKind::TooLong, b"0123".to_vec()));
            assert_eq!(split(b"abcd\n", 4, cap)[0].0, LineKind::Line);
        }
    }

    #[test]
    fn huge_line_from_reader_uses_bounded_memory() {
        let big = std::io::repeat(b'7').take(20 << 20).chain(&b"\n1 2\n"[..]);
        let mut r = BufReader::new(big);
        let mut lr = LineReader::new(1024);
        let mut buf = Vec::new();
        assert_eq!(lr.next(&mut r, &mut buf).unwrap(), LineKind::TooLong);
        assert_eq!(buf.len(), 1024);
        assert!(buf.capacity() < 64 << 10);
        assert_eq!(lr.next(&mut r, &mut buf).unwrap(), LineKind::Line);
        assert_eq!(buf, b"1 2");
    }
}
