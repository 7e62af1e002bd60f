//! Tokens of a priority expression, each with its byte position in the source.

use super::ExprError;

#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Tok<'s> {
    Num(f64),
    Name(&'s str),
    Op(u8),
    Open,
    Close,
    Comma,
    End,
}

impl Tok<'_> {
    /// How the token is named in an error message.
    pub(super) fn describe(&self) -> String {
        match self {
            Tok::Num(v) => format!("number {v}"),
            Tok::Name(n) => format!("\"{n}\""),
            Tok::Op(c) => format!("'{}'", *c as char),
            Tok::Open => "'('".into(),
            Tok::Close => "')'".into(),
            Tok::Comma => "','".into(),
            Tok::End => "the end of the expression".into(),
        }
    }
}

/// Splits `src` into tokens with their positions (0-based byte offsets; the source is ASCII).
pub(super) fn tokens(src: &str) -> Result<Vec<(usize, Tok<'_>)>, ExprError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let tok = match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'0'..=b'9' | b'.' => {
                i = number_end(b, i);
                let text = &src[start..i];
                let v = text.parse::<f64>().map_err(|_| {
                    ExprError::at(src, start, format!("\"{text}\" is not a number"))
                })?;
                Tok::Num(v)
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                Tok::Name(&src[start..i])
            }
            b'+' | b'-' | b'*' | b'/' | b'^' => {
                i += 1;
                Tok::Op(c)
            }
            b'(' => {
                i += 1;
                Tok::Open
            }
            b')' => {
                i += 1;
                Tok::Close
            }
            b',' => {
                i += 1;
                Tok::Comma
            }
            _ => {
                let ch = src[start..].chars().next().unwrap_or('?');
                return Err(ExprError::at(
                    src,
                    start,
                    format!("unexpected character '{ch}' (expected a number, a name, an operator + - * / ^, or parentheses)"),
                ));
            }
        };
        out.push((start, tok));
    }
    out.push((src.len(), Tok::End));
    Ok(out)
}

/// End of a number starting at `i`: digits, one '.', an exponent `e[+-]digits`.
fn number_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut k = i + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            return k;
        }
        // "2e" or "2e+": take the letters too so the number is reported as malformed.
        return k.max(i + 1);
    }
    i
}
