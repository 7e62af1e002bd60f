//! Word-at-a-time (SWAR) byte scanning: line ends and token bounds. Byte-by-byte loops
//! mispredict a lot on the padded columns of SWF text; these work on 8 bytes at once.

const LO7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const ONES: u64 = 0x0101_0101_0101_0101;

/// High bit of each byte of `w` set iff that byte equals `c` (exact: no carry crosses bytes).
#[inline]
fn eq_bytes(w: u64, c: u8) -> u64 {
    let y = w ^ (ONES * u64::from(c));
    !(((y & LO7) + LO7) | y | LO7)
}

/// High bit of each byte of `w` set iff that byte is below `c` (`c <= 0x80`; exact).
#[inline]
fn lt_bytes(w: u64, c: u8) -> u64 {
    !(((w & LO7) + ONES * u64::from(0x80 - c)) | w | LO7)
}

/// `u8::is_ascii_whitespace` for each byte of `w`: bit `i` set iff byte `i` (little-endian)
/// is `\t`, `\n`, `\x0C`, `\r` or a space.
#[inline]
fn ws_bits(w: u64) -> u64 {
    // Usually no byte is below 0x20, and then whitespace = spaces = bytes below 0x21.
    let m = if lt_bytes(w, 0x20) == 0 {
        lt_bytes(w, 0x21)
    } else {
        eq_bytes(w, b' ')
            | eq_bytes(w, b'\t')
            | eq_bytes(w, 0x0C)
            | eq_bytes(w, b'\r')
            | eq_bytes(w, b'\n')
    };
    // Gather the 8 high bits into the low byte.
    (m >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

fn word(bytes: &[u8]) -> u64 {
    <[u8; 8]>::try_from(bytes).map_or(0, u64::from_le_bytes)
}

/// Index of the first `\n` or `\r` in `s`.
pub(crate) fn find_eol(s: &[u8]) -> Option<usize> {
    let mut words = s.chunks_exact(8);
    let mut base = 0;
    for w in words.by_ref() {
        let w = word(w);
        // `\n` and `\r` are below 0x0E; text seldom has such bytes (tabs aside).
        if lt_bytes(w, 0x0E) != 0 {
            let hit = eq_bytes(w, b'\n') | eq_bytes(w, b'\r');
            if hit != 0 {
                return Some(base + (hit.trailing_zeros() / 8) as usize);
            }
        }
        base += 8;
    }
    let rest = words.remainder();
    rest.iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|i| base + i)
}

/// Whitespace bitmap of a block of at most 64 bytes (bit `i` = byte `i`); positions past the
/// block's end count as whitespace.
pub(crate) fn ws_mask(block: &[u8]) -> u64 {
    let mut mask = 0u64;
    let mut shift = 0;
    let mut words = block.chunks_exact(8);
    for w in words.by_ref() {
        mask |= ws_bits(word(w)) << shift;
        shift += 8;
    }
    if shift < 64 {
        let mut pad = [b' '; 8];
        for (d, s) in pad.iter_mut().zip(words.remainder()) {
            *d = *s;
        }
        mask |= ws_bits(u64::from_le_bytes(pad)) << shift;
        if shift + 8 < 64 {
            mask |= u64::MAX << (shift + 8);
        }
    }
    mask
}

/// Where the first 18 whitespace-separated tokens of a line are, and where a 19th starts.
pub(crate) struct Bounds {
    /// Tokens found, at most 19 (19 = there are extra tokens, starting at `starts[18]`).
    pub count: usize,
    pub starts: [usize; 19],
    pub ends: [usize; 18],
}

/// Token bounds as `split_ascii_whitespace` would give them, 64 bytes at a time.
pub(crate) fn token_bounds(bytes: &[u8]) -> Bounds {
    let mut b = Bounds {
        count: 0,
        starts: [0; 19],
        ends: [0; 18],
    };
    let mut ne = 0;
    let mut carry = 1u64; // the byte before the line counts as whitespace
    for (i, block) in bytes.chunks(64).enumerate() {
        let base = i * 64;
        let ws = ws_mask(block);
        let prev = (ws << 1) | carry;
        carry = ws >> 63;
        let mut end_bits = ws & !prev;
        while end_bits != 0 && ne < b.ends.len() {
            b.ends[ne] = base + end_bits.trailing_zeros() as usize;
            ne += 1;
            end_bits &= end_bits - 1;
        }
        let mut start_bits = !ws & prev;
        while start_bits != 0 && b.count < b.starts.len() {
            b.starts[b.count] = base + start_bits.trailing_zeros() as usize;
            b.count += 1;
            start_bits &= start_bits - 1;
        }
        if b.count == b.starts.len() {
            break;
        }
    }
    if carry == 0 && ne < b.ends.len() {
        b.ends[ne] = bytes.len(); // a token runs to the end of a 64-byte-multiple line
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_bitmap_is_exact() {
        for c in 0..=255u8 {
            let mut block = [b'7'; 64];
            block[13] = c;
            assert_eq!(
                ws_mask(&block),
                u64::from(c.is_ascii_whitespace()) << 13,
                "byte {c}"
            );
        }
        assert_eq!(ws_mask(b"1 2"), !0b101);
        assert_eq!(ws_mask(&[b'x'; 64]), 0);
        for c in 0..=255u8 {
            for limit in [0x0E, 0x20, 0x21, 0x80] {
                let w = u64::from_le_bytes([b'a', c, 0xff, 0x80, c, 0, 0x7f, b' ']);
                let want: u64 = w
                    .to_le_bytes()
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| u64::from(b < limit) << (8 * i + 7))
                    .sum();
                assert_eq!(lt_bytes(w, limit), want, "{c} < {limit}");
            }
        }
    }

    #[test]
    fn find_eol_matches_naive() {
        let mut data = vec![b'x'; 100];
        assert_eq!(find_eol(&data), None);
        for pos in 0..100 {
            for c in [b'\r', b'\n'] {
                data[pos] = c;
                data[99] = if pos == 99 { c } else { b'\n' };
                assert_eq!(find_eol(&data), Some(pos));
                data[pos] = 0x8a; // a byte that differs from \n only in its high bit
                data[99] = b'x';
                assert_eq!(find_eol(&data), None, "{pos}");
                data[pos] = b'x';
            }
        }
    }

    fn naive(text: &str) -> (usize, Vec<&str>) {
        let all: Vec<&str> = text.split_ascii_whitespace().collect();
        (all.len().min(19), all.into_iter().take(18).collect())
    }

    #[test]
    fn token_bounds_match_split_ascii_whitespace() {
        let mut seed = 7u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let pads = [" ", "\t", "  \t ", "\x0C", "      ", "\u{a0}"];
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..next(3) {
                text.push_str(pads[next(6) as usize]);
            }
            for _ in 0..next(25) {
                let width = [1, 2, 3, 7, 9, 63, 64, 65][next(8) as usize];
                text.extend((0..width).map(|_| char::from(b'0' + next(10) as u8)));
                if next(10) > 0 {
                    text.push_str(pads[next(6) as usize]);
                }
            }
            let b = token_bounds(text.as_bytes());
            let (count, tokens) = naive(&text);
            assert_eq!(b.count, count, "{text:?}");
            for (i, want) in tokens.iter().enumerate() {
                assert_eq!(&text[b.starts[i]..b.ends[i]], *want, "{text:?} token {i}");
            }
            if count == 19 {
                let rest: Vec<&str> = text.split_ascii_whitespace().skip(18).collect();
                let got: Vec<&str> = text[b.starts[18]..].split_ascii_whitespace().collect();
                assert_eq!(got, rest);
            }
        }
    }
}
