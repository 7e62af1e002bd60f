//! Natively, a trace is read (and a gzip trace inflated) on a second thread while the reading
//! thread splits and parses its lines: the second thread hands over pieces of text through a
//! bounded channel, cut after the last `\n` of each read when there is one, and [`Chunks`] reads
//! them back as a `BufRead`. When the reading thread is behind, the second thread parses a piece
//! of whole lines itself and hands it over parsed ([`super::pieces`]); the reading thread then
//! finds a pause in the text ([`Chunks::take_parsed`]). The bytes, the errors and where they
//! occur are those of the input read in place, so the result is the same workload, issue for
//! issue.

use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

use flate2::read::MultiGzDecoder;

use super::pieces::{ends_lines, parse_piece, Piece};

/// Text per chunk handed over.
const CHUNK_BYTES: usize = 64 << 10;
/// Chunks in flight (bounded memory when the parse is the slower side).
const IN_FLIGHT: usize = 4;
/// The second thread parses a piece itself when this many pieces of text wait for the reading
/// thread (it has enough to do while the piece is parsed).
const BEHIND: usize = 2;

enum Msg {
    Data(Vec<u8>),
    /// A piece of whole lines, parsed; the text before it ended with a `\n`.
    Parsed(Piece),
    /// The input failed; `true` when the input itself failed (an I/O error), not the gzip
    /// stream.
    Failed(io::Error, bool),
}

/// Which pieces the second thread parses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Aside {
    /// None: it only reads (and inflates).
    #[cfg(test)]
    Never,
    /// Those it takes when the reading thread is behind.
    Balance,
    /// Every other piece that can be (tests: the same result whoever parses what).
    #[cfg(test)]
    Alternate,
    /// Every piece that can be.
    #[cfg(test)]
    All,
}

/// How the second thread cuts and shares the text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Split {
    /// Text per read.
    pub(crate) chunk_bytes: usize,
    pub(crate) aside: Aside,
    /// The reader's limit ([`super::ReadOptions::max_line_bytes`]).
    pub(crate) max_line_bytes: usize,
}

impl Split {
    pub(crate) fn new(max_line_bytes: usize) -> Split {
        Split {
            chunk_bytes: CHUNK_BYTES,
            aside: Aside::Balance,
            max_line_bytes,
        }
    }
}

/// The reading side: the text, chunk by chunk, and the pieces parsed aside.
pub(crate) struct Chunks {
    rx: Receiver<Msg>,
    cur: Vec<u8>,
    pos: usize,
    done: bool,
    /// A piece parsed aside, next in the text: until it is taken, the text pauses.
    parsed: Option<Piece>,
    /// Pieces of text handed over and not yet taken up here.
    waiting: Arc<AtomicUsize>,
    /// The error that ended the stream came from the input (I/O), not from gzip.
    pub(crate) input_failed: bool,
}

impl Chunks {
    /// The piece parsed aside at a pause in the text, if that is where the text stands.
    pub(crate) fn take_parsed(&mut self) -> Option<Piece> {
        self.parsed.take()
    }
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
        while self.pos >= self.cur.len() && !self.done && self.parsed.is_none() {
            match self.rx.recv() {
                Ok(Msg::Data(v)) => {
                    self.waiting.fetch_sub(1, Ordering::Relaxed);
                    self.cur = v;
                    self.pos = 0;
                }
                Ok(Msg::Parsed(piece)) => self.parsed = Some(piece),
                Ok(Msg::Failed(e, input)) => {
                    self.done = true;
                    self.input_failed = input;
                    return Err(e);
                }
                // The second thread is done (end of the input).
                Err(_) => self.done = true,
            }
        }
        Ok(self.cur.get(self.pos..).unwrap_or(&[]))
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.cur.len());
    }
}

/// Runs `parse` over the text of the gzip stream `input`, inflated on a second thread (no piece
/// parsed aside).
#[cfg(test)]
pub(crate) fn with_inflated<R: Read + Send + 'static, T>(
    input: R,
    parse: impl FnOnce(Chunks) -> T,
) -> T {
    let split = Split {
        aside: Aside::Never,
        ..Split::new(usize::MAX)
    };
    with_pieces(input, true, split, parse)
}

/// Runs `parse` over the text of `input` (a gzip stream when `gzip`), read and inflated on a
/// second thread which parses some pieces of it as `split` says.
///
/// The thread is not joined: when the parse stops early (a `--strict` error) on an input that
/// never ends (a pipe left open), the second thread may be blocked reading it, and waiting for
/// it would hang. It ends at its next hand-over (nobody receives any more), at the end of the
/// input, or with the process.
pub(crate) fn with_pieces<R: Read + Send + 'static, T>(
    input: R,
    gzip: bool,
    split: Split,
    parse: impl FnOnce(Chunks) -> T,
) -> T {
    let (tx, rx) = sync_channel(IN_FLIGHT);
    let waiting = Arc::new(AtomicUsize::new(0));
    let feed = Feed {
        tx,
        split,
        waiting: Arc::clone(&waiting),
        at_line_start: false,
        eligible: 0,
    };
    if gzip {
        std::thread::spawn(move || {
            let decoder = MultiGzDecoder::new(super::reader::Tracked {
                inner: input,
                failed: false,
            });
            feed.run(decoder, |d| d.get_ref().failed);
        });
    } else {
        std::thread::spawn(move || feed.run(input, |_| true));
    }
    parse(Chunks {
        rx,
        cur: Vec::new(),
        pos: 0,
        done: false,
        parsed: None,
        waiting,
        input_failed: false,
    })
}

/// The second thread's side.
struct Feed {
    tx: SyncSender<Msg>,
    split: Split,
    waiting: Arc<AtomicUsize>,
    /// The text handed over so far ends with a `\n` (and is not empty).
    at_line_start: bool,
    /// Pieces that could have been parsed aside so far.
    eligible: u64,
}

impl Feed {
    /// Hands over what each read gives (up to a chunk, after the last line it did not end):
    /// on a file that is most of a chunk per read, and on a slow pipe the text arrives as soon
    /// as it is read. `input_failed` tells an I/O error of the input from a gzip one.
    fn run<R: Read>(mut self, mut input: R, input_failed: impl Fn(&R) -> bool) {
        let mut carry: Vec<u8> = Vec::new();
        loop {
            let kept = carry.len();
            let mut chunk = Vec::with_capacity(kept + self.split.chunk_bytes);
            chunk.append(&mut carry);
            chunk.resize(kept + self.split.chunk_bytes, 0);
            match input.read(chunk.get_mut(kept..).unwrap_or(&mut [])) {
                Ok(0) => {
                    if kept > 0 {
                        chunk.truncate(kept);
                        self.send_text(chunk);
                    }
                    return;
                }
                Ok(n) => {
                    chunk.truncate(kept + n);
                    // The unfinished last line waits for the next read.
                    if let Some(cut) = chunk.iter().rposition(|&b| b == b'\n') {
                        carry.extend_from_slice(chunk.get(cut + 1..).unwrap_or(&[]));
                        chunk.truncate(cut + 1);
                    }
                    if !self.hand_over(chunk) {
                        return; // the reader stopped
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                    chunk.truncate(kept);
                    carry = chunk;
                }
                Err(e) => {
                    chunk.truncate(kept);
                    if kept > 0 && !self.send_text(chunk) {
                        return;
                    }
                    let _ = self.tx.send(Msg::Failed(e, input_failed(&input)));
                    return;
                }
            }
        }
    }

    /// Hands over a piece of text, parsed or not; `false` when the reader stopped.
    fn hand_over(&mut self, piece: Vec<u8>) -> bool {
        if self.at_line_start && ends_lines(&piece) {
            self.eligible += 1;
            let aside = match self.split.aside {
                #[cfg(test)]
                Aside::Never => false,
                Aside::Balance => self.waiting.load(Ordering::Relaxed) >= BEHIND,
                #[cfg(test)]
                Aside::Alternate => self.eligible % 2 == 1,
                #[cfg(test)]
                Aside::All => true,
            };
            if aside {
                if let Some(parsed) = parse_piece(&piece, self.split.max_line_bytes) {
                    return self.tx.send(Msg::Parsed(parsed)).is_ok();
                }
            }
        }
        self.send_text(piece)
    }

    fn send_text(&mut self, piece: Vec<u8>) -> bool {
        self.at_line_start = ends_lines(&piece);
        self.waiting.fetch_add(1, Ordering::Relaxed);
        self.tx.send(Msg::Data(piece)).is_ok()
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
