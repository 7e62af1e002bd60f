//! How much memory a trace may keep for its size: [`FREE_BYTES`] plus [`PER_INPUT_BYTE`] bytes
//! per byte of input (as given: compressed when gzip). A plain text keeps at most a few bytes
//! per byte of text, real gzip traces keep 6 to 16 (a trace of sequential job numbers and
//! nothing else varying, 70); a small gzip of repeated lines or of nested JSON would keep
//! hundreds of times its size (3 MB of gzip took 5.7 GB), and is refused with a clear message
//! instead. Readers count what they keep ([`Budget::check`]) against the input read so far.

use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::issue::SwfError;

/// Memory any trace may keep, whatever its size.
pub const FREE_BYTES: u64 = 64 << 20;
/// Memory a trace may keep per byte of input, beyond [`FREE_BYTES`].
pub const PER_INPUT_BYTE: u64 = 128;

/// The memory a trace of `input_bytes` bytes may keep.
pub fn retained_limit(input_bytes: u64) -> u64 {
    FREE_BYTES.saturating_add(input_bytes.saturating_mul(PER_INPUT_BYTE))
}

/// The input bytes read so far (shared with the reader that counts them, which may be on
/// another thread) and the check of what is kept against them.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    input: Arc<AtomicU64>,
}

impl Budget {
    /// The budget of an input of known size.
    pub fn of_size(bytes: u64) -> Budget {
        Budget {
            input: Arc::new(AtomicU64::new(bytes)),
        }
    }

    /// `reader`, counting into this budget what is read through it.
    pub fn counting<R: Read>(&self, reader: R) -> Counted<R> {
        Counted {
            inner: reader,
            input: self.input.clone(),
        }
    }

    /// The input bytes read so far.
    pub fn input_bytes(&self) -> u64 {
        self.input.load(Ordering::Relaxed)
    }

    /// An error when `kept` bytes (`what`: what they hold, for the message) are more than the
    /// input read so far may keep.
    pub fn check(&self, source: &str, kept: u64, what: &str) -> Result<(), SwfError> {
        let input = self.input_bytes();
        let limit = retained_limit(input);
        if kept <= limit {
            return Ok(());
        }
        Err(SwfError::TooLarge {
            file: source.to_owned(),
            detail: format!(
                "{what} would keep more than {limit} bytes in memory: a trace may keep {} MiB plus \
                 {PER_INPUT_BYTE} bytes per byte of input, and {input} bytes of it were read so far \
                 (a small compressed file that expands this much is not a trace)",
                FREE_BYTES >> 20
            ),
        })
    }
}

/// A reader that counts the bytes read through it into a [`Budget`].
pub struct Counted<R> {
    inner: R,
    input: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.input.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_grows_with_the_input_read() {
        let b = Budget::default();
        assert!(b.check("t", FREE_BYTES, "x").is_ok());
        assert!(b.check("t", FREE_BYTES + 1, "x").is_err());
        let mut r = b.counting(&[0u8; 1000][..]);
        io::copy(&mut r, &mut io::sink()).unwrap();
        assert_eq!(b.input_bytes(), 1000);
        assert!(b.check("t", FREE_BYTES + 128_000, "x").is_ok());
        let e = b.check("t", FREE_BYTES + 128_001, "5 jobs").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("t: too large for its size: 5 jobs would keep more than"));
        assert_eq!(retained_limit(u64::MAX), u64::MAX);
    }
}
