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

/// An integer field; a decimal such as `552.21` or `1e3` is rounded to nearest (half away
/// from zero). Outside i64 or not finite: [`Bad::OutOfRange`].
pub(crate) fn parse_int(token: &[u8]) -> Result<i64, Bad> {
    if let Some(v) = plain_int(token) {
        return Ok(v);
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
