//! Natively, a gzip trace is inflated on a second thread while the reading thread splits and
//! parses its lines: the decoder hands over chunks of text through a bounded channel, and
//! [`Chunks`] reads them back as a `BufRead`. The bytes, the errors and where they occur are
//! those of a decoder read in place, so the result is the same workload, issue for issue.

use std::io::{self, BufRead, Read};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use flate2::read::MultiGzDecoder;

/// Text per chunk handed over.
const CHUNK_BYTES: usize = 256 << 10;
/// Chunks in flight (bounded memory when the parse is the slower side).
const IN_FLIGHT: usize = 4;

enum Msg {
    Data(Vec<u8>),
    /// The decoder failed; `true` when the input itself failed (an I/O error), not the gzip
    /// stream.
    Failed(io::Error, bool),
}

/// The reading side: the decoded text, chunk by chunk.
pub(crate) struct Chunks {
    rx: Receiver<Msg>,
    cur: Vec<u8>,
    pos: usize,
    done: bool,
    /// The error that ended the stream came from the input (I/O), not from gzip.
    pub(crate) input_failed: bool,
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Chunks {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.cur.len() && !self.done {
            match self.rx.recv() {
                Ok(Msg::Data(v)) => {
                    self.cur = v;
                    self.pos = 0;
                }
                Ok(Msg::Failed(e, input)) => {
                    self.done = true;
                    self.input_failed = input;
                    return Err(e);
                }
                // The decoder is done (end of the stream).
                Err(_) => self.done = true,
            }
        }
        Ok(self.cur.get(self.pos..).unwrap_or(&[]))
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.cur.len());
    }
}

/// Runs `parse` over the text of the gzip stream `input`, inflated on a second thread.
///
/// The thread is not joined: when the parse stops early (a `--strict` error) on an input that
/// never ends (a pipe left open), the decoder may be blocked reading it, and waiting for it
/// would hang. It ends at its next hand-over (nobody receives any more), at the end of the
/// input, or with the process.
pub(crate) fn with_inflated<R: Read + Send + 'static, T>(
    input: R,
    parse: impl FnOnce(Chunks) -> T,
) -> T {
    let (tx, rx) = sync_channel(IN_FLIGHT);
    std::thread::spawn(move || inflate(input, tx));
    parse(Chunks {
        rx,
        cur: Vec::new(),
        pos: 0,
        done: false,
        input_failed: false,
    })
}

/// Hands over what each read of the decoder gives (up to [`CHUNK_BYTES`]): on a file that is
/// most of a chunk per read, and on a slow pipe the text arrives as soon as it is inflated.
fn inflate<R: Read>(input: R, tx: SyncSender<Msg>) {
    let mut decoder = MultiGzDecoder::new(super::reader::Tracked {
        inner: input,
        failed: false,
    });
    loop {
        let mut chunk = vec![0u8; CHUNK_BYTES];
        match decoder.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                chunk.truncate(n);
                if tx.send(Msg::Data(chunk)).is_err() {
                    return; // the reader stopped
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                let _ = tx.send(Msg::Failed(e, decoder.get_ref().failed));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression};
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn same_bytes_and_same_error_as_in_place() {
        let text: Vec<u8> = (0..700_000u32)
            .flat_map(|i| format!("{i} {}\n", i * 7).into_bytes())
            .collect();
        let packed = gz(&text);
        let all = with_inflated(io::Cursor::new(packed.clone()), |mut c| {
            let mut v = Vec::new();
            c.read_to_end(&mut v).map(|_| v)
        });
        assert_eq!(all.unwrap(), text);
        // Cut short: every byte the decoder gave before failing, then its error.
        let cut = &packed[..packed.len() / 2];
        let mut want = Vec::new();
        let want_err = MultiGzDecoder::new(cut).read_to_end(&mut want).unwrap_err();
        let (got, err, input) = with_inflated(io::Cursor::new(cut.to_vec()), |mut c| {
            let mut v = Vec::new();
            let e = c.read_to_end(&mut v).unwrap_err();
            (v, e, c.input_failed)
        });
        assert_eq!(got, want);
        assert_eq!(err.kind(), want_err.kind());
        assert!(!input);
        // The reader may stop early: the decoder thread ends too.
        let first = with_inflated(io::Cursor::new(packed), |mut c| {
            c.fill_buf().map(|b| b.len())
        });
        assert!(first.unwrap() > 0);
    }

    /// Gives `data`, then blocks for ever, as a pipe whose writer never closes it.
    struct OpenPipe(io::Cursor<Vec<u8>>, std::sync::mpsc::Receiver<()>);

    impl Read for OpenPipe {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.read(buf)? {
                0 => {
                    let _ = self.1.recv(); // never answered
                    Ok(0)
                }
                n => Ok(n),
            }
        }
    }

    #[test]
    fn text_from_a_pipe_left_open_arrives_and_an_early_stop_returns() {
        let (keep, rx) = std::sync::mpsc::channel();
        std::mem::forget(keep); // the writer never closes the pipe
        let input = OpenPipe(io::Cursor::new(gz(b"a first line\nsecond\n")), rx);
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // The parse reads the first line and stops there.
            let line = with_inflated(input, |mut c| {
                let mut l = String::new();
                c.read_line(&mut l).map(|_| l)
            });
            let _ = done_tx.send(line.unwrap());
        });
        let line = done_rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("the parse of a pipe left open returns");
        assert_eq!(line, "a first line\n");
    }
}
