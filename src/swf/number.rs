//! Numbers in SWF fields: integers (decimals rounded) and finite floats.

/// Why a token is not an acceptable number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bad {
    NotNumber,
    OutOfRange,
}

impl Bad {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Bad::NotNumber => "not a number",
            Bad::OutOfRange => "number out of range",
        }
    }
}

/// The fast path for the common case: `-?[0-9]{1,18}` (cannot overflow).
#[inline]
fn plain_int(t: &[u8]) -> Option<i64> {
    let (negative, digits) = match t.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, t),
    };
    if digits.is_empty() || digits.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &d in digits {
        let x = d.wrapping_sub(b'0');
        if x > 9 {
            return None;
        }
        v = v * 10 + i64::from(x);
    }
    Some(if negative { -v } else { v })
}

/// Up to 8 bytes of `line` from `start` as a little-endian word, zero-padded past the end.
#[inline]
fn word_at(line: &[u8], start: usize) -> u64 {
    match line.get(start..start + 8) {
        Some(w) => <[u8; 8]>::try_from(w).map_or(0, u64::from_le_bytes),
        // Near the end: the line's last 8 bytes, shifted down (no copy, no branch per byte).
        None => match line.len().checked_sub(8).and_then(|from| line.get(from..)) {
            Some(last) if start < line.len() => {
                let w = <[u8; 8]>::try_from(last).map_or(0, u64::from_le_bytes);
                w >> (8 * (start + 8 - line.len()))
            }
            _ => {
                let mut pad = [0u8; 8];
                let tail = line.get(start..).unwrap_or(&[]);
                for (d, s) in pad.iter_mut().zip(tail) {
                    *d = *s;
                }
                u64::from_le_bytes(pad)
            }
        },
    }
}

/// The value of the `len` (1..=8) ASCII digits at the low end of `w` (read from memory, so
/// the first digit is the low byte), or `None` when one of them is not a digit. No branch
/// per digit: the digits are checked and combined eight at a time (SWAR).
#[inline]
fn swar_digits(w: u64, len: usize) -> Option<u64> {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const SIXES: u64 = 0x0606_0606_0606_0606;
    if !(1..=8).contains(&len) {
        return None;
    }
    // Move the digits to the high bytes: the low ones become zeros (leading zeros).
    let shift = (8 - len as u32) * 8;
    let x = w.checked_shl(shift).unwrap_or(0);
    let keep = u64::MAX.checked_shl(shift).unwrap_or(0);
    // A digit is 0x30..=0x39: high nibble 3, and still 3 after adding 6 (no carry leaves a
    // byte whose high nibble is 3).
    let nibbles_ok = x & HIGH == ZEROS & keep;
    let below_ten = (x.wrapping_add(SIXES & keep)) & HIGH == ZEROS & keep;
    if !(nibbles_ok && below_ten) {
        return None;
    }
    let d = x - (ZEROS & keep);
    let d = ((d & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(2561)) >> 8;
    let d = ((d & 0x00FF_00FF_00FF_00FF).wrapping_mul(6_553_601)) >> 16;
    let d = ((d & 0x0000_FFFF_0000_FFFF).wrapping_mul(42_949_672_960_001)) >> 32;
    Some(d)
}

/// The token `-1` (an unknown value: most fields of most traces) as the low bytes of a word
/// read by [`word_at`]; read at once, without the digit paths.
const MINUS_ONE: u64 = u16::from_le_bytes(*b"-1") as u64;

/// The integer field `line[start..end]`, as [`parse_int`] reads it; tokens of at most 8
/// digits (with an optional `-`) take a branch-free path.
#[inline]
pub(crate) fn int_at(line: &[u8], start: usize, end: usize) -> Result<i64, Bad> {
    let len = end.saturating_sub(start);
    let w = word_at(line, start);
    if len == 2 && w & 0xFFFF == MINUS_ONE {
        return Ok(-1);
    }
    if let Some(v) = swar_digits(w, len) {
        return Ok(v as i64);
    }
    if len >= 2 && line.get(start) == Some(&b'-') {
        if let Some(v) = swar_digits(word_at(line, start + 1), len - 1) {
            return Ok(-(v as i64));
        }
    }
    slow_int(line.get(start..end).unwrap_or(&[]))
}

#[cold]
fn slow_int(token: &[u8]) -> Result<i64, Bad> {
    parse_int(token)
}

/// The float field `line[start..end]`, as [`parse_float`] reads it.
#[inline]
pub(crate) fn float_at(line: &[u8], start: usize, end: usize) -> Result<f64, Bad> {
    let len = end.saturating_sub(start);
    let w = word_at(line, start);
    if len == 2 && w & 0xFFFF == MINUS_ONE {
        return Ok(-1.0);
    }
    if let Some(v) = swar_digits(w, len) {
        return Ok(v as f64);
    }
    parse_float(line.get(start..end).unwrap_or(&[]))
}

/// Powers of ten exact in f64.
const POW10: [f64; 9] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];

/// The common decimal `-?[0-9]{1,8}\.[0-9]{1,8}`, correctly rounded as `str::parse` gives it:
/// the digits without the point make an integer below 2^53, exact in f64, and one division
/// by an exact power of ten is correctly rounded (Clinger's fast path). `None`: another form.
fn decimal(token: &[u8]) -> Option<f64> {
    let (negative, rest) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    let dot = rest.iter().position(|&c| c == b'.')?;
    let (int, frac) = (rest.get(..dot)?, rest.get(dot + 1..)?);
    let i = swar_digits(word_at(int, 0), int.len())?;
    let f = swar_digits(word_at(frac, 0), frac.len())?;
    let m = i * 10u64.pow(frac.len() as u32) + f;
    if m > 1 << 53 {
        return None;
    }
    let v = m as f64 / POW10[frac.len()];
    Some(if negative { -v } else { v })
}

/// An integer field; a decimal such as `552.21` or `1e3` is rounded to nearest (half away
/// from zero). Outside i64 or not finite: [`Bad::OutOfRange`].
pub(crate) fn parse_int(token: &[u8]) -> Result<i64, Bad> {
    if let Some(v) = plain_int(token) {
        return Ok(v);
    }
    if let Some(f) = decimal(token) {
        return Ok(f.round() as i64); // below 2^53 in magnitude: in range
    }
    let Ok(token) = std::str::from_utf8(token) else {
        return Err(Bad::NotNumber);
    };
    if let Ok(v) = token.parse::<i64>() {
        return Ok(v);
    }
    // -2^63 is exact in f64; 2^63 is the first value past i64::MAX.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    match token.parse::<f64>() {
        Ok(f) if f.is_nan() => Err(Bad::NotNumber),
        Ok(f) => {
            let r = f.round();
            if r.is_finite() && (-LIMIT..LIMIT).contains(&r) {
                Ok(r as i64)
            } else {
                Err(Bad::OutOfRange)
            }
        }
        Err(_) => Err(Bad::NotNumber),
    }
}

/// A float field; must be finite.
pub(crate) fn parse_float(token: &[u8]) -> Result<f64, Bad> {
    if let Some(v) = plain_int(token) {
        // Exact below 2^53 and correctly rounded above, as `parse` would give it.
        return Ok(v as f64);
    }
    if let Some(f) = decimal(token) {
        return Ok(f);
    }
    let Ok(token) = std::str::from_utf8(token) else {
        return Err(Bad::NotNumber);
    };
    match token.parse::<f64>() {
        Ok(f) if f.is_nan() => Err(Bad::NotNumber),
        Ok(f) if f.is_finite() => Ok(f),
        Ok(_) => Err(Bad::OutOfRange),
        Err(_) => Err(Bad::NotNumber),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int(b"-1"), Ok(-1));
        assert_eq!(parse_int(b"+7"), Ok(7));
        assert_eq!(parse_int(b"552.21"), Ok(552));
        assert_eq!(parse_int(b"2.5"), Ok(3));
        assert_eq!(parse_int(b"-2.5"), Ok(-3));
        assert_eq!(parse_int(b"1e3"), Ok(1000));
        assert_eq!(
            parse_int(b"-999999999999999999"),
            Ok(-999_999_999_999_999_999)
        );
        assert_eq!(parse_int(b"9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse_int(b"-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_int(b"0000000000000000000000042"), Ok(42));
        assert_eq!(parse_int(b"9223372036854775808"), Err(Bad::OutOfRange));
        assert_eq!(parse_int(b"-9.3e18"), Err(Bad::OutOfRange));
        assert_eq!(parse_int(b"inf"), Err(Bad::OutOfRange));
        assert_eq!(parse_int(b"nan"), Err(Bad::NotNumber));
        assert_eq!(parse_int(b"-"), Err(Bad::NotNumber));
        assert_eq!(parse_int(b""), Err(Bad::NotNumber));
        assert_eq!(parse_int(b"12abc"), Err(Bad::NotNumber));
        assert_eq!(parse_int(b"1\xff"), Err(Bad::NotNumber));
    }

    /// The old readers: a digit loop, else the standard library's parse.
    fn reference_int(t: &[u8]) -> Result<i64, Bad> {
        if let Some(v) = plain_int(t) {
            return Ok(v);
        }
        let s = std::str::from_utf8(t).map_err(|_| Bad::NotNumber)?;
        if let Ok(v) = s.parse::<i64>() {
            return Ok(v);
        }
        match s.parse::<f64>() {
            Ok(f) if f.is_nan() => Err(Bad::NotNumber),
            Ok(f) => {
                let r = f.round();
                if r.is_finite()
                    && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&r)
                {
                    Ok(r as i64)
                } else {
                    Err(Bad::OutOfRange)
                }
            }
            Err(_) => Err(Bad::NotNumber),
        }
    }

    fn reference_float(t: &[u8]) -> Result<f64, Bad> {
        if let Some(v) = plain_int(t) {
            return Ok(v as f64);
        }
        let s = std::str::from_utf8(t).map_err(|_| Bad::NotNumber)?;
        match s.parse::<f64>() {
            Ok(f) if f.is_nan() => Err(Bad::NotNumber),
            Ok(f) if f.is_finite() => Ok(f),
            Ok(_) => Err(Bad::OutOfRange),
            Err(_) => Err(Bad::NotNumber),
        }
    }

    #[test]
    fn fast_paths_read_as_the_reference() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let alphabet = b"0123456789-.+e /:x\xff";
        let mut tokens: Vec<Vec<u8>> = [
            "0",
            "-0",
            "-1",
            "00000000",
            "99999999",
            "12345678",
            "123456789",
            "-12345678",
            "-0.0",
            "0.5",
            "2.5",
            "-2.5",
            "71.00",
            "552.21",
            "99999999.99999999",
            "9007199254740993",
            "90071992.54740993",
            "1.",
            ".5",
            "-",
            ".",
            "",
            "1e3",
            "4:",
            "/9",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
        for _ in 0..200_000 {
            let len = 1 + next(12) as usize;
            tokens.push(
                (0..len)
                    .map(|_| {
                        if next(4) == 0 {
                            alphabet[next(alphabet.len() as u64) as usize]
                        } else {
                            b'0' + next(10) as u8
                        }
                    })
                    .collect(),
            );
        }
        for t in &tokens {
            // In a line, with bytes around it, and at its very end.
            for (pre, line) in [
                (2, [b"7 ".as_slice(), t, b" 12345678"].concat()),
                (2, [b"7 ".as_slice(), t].concat()),
                (10, [b"123456789 ".as_slice(), t].concat()),
            ] {
                let (s, e) = (pre, pre + t.len());
                let want = reference_float(t).map(f64::to_bits);
                assert_eq!(float_at(&line, s, e).map(f64::to_bits), want, "{t:?}");
                assert_eq!(int_at(&line, s, e), reference_int(t), "{t:?}");
            }
        }
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float(b"-1"), Ok(-1.0));
        assert_eq!(parse_float(b"489.00"), Ok(489.0));
        assert_eq!(parse_float(b"1e-7"), Ok(1e-7));
        assert_eq!(parse_float(b"123456789012345678"), Ok(123456789012345678.0));
        assert_eq!(parse_float(b"1e400"), Err(Bad::OutOfRange));
        assert_eq!(parse_float(b"-inf"), Err(Bad::OutOfRange));
        assert_eq!(parse_float(b"NaN"), Err(Bad::NotNumber));
        assert_eq!(parse_float(b"1.2.3"), Err(Bad::NotNumber));
    }
}
