//! Slurm hostlist expressions: `n[1-16,20]`, `gpu[01-04]` (zero padding: a range is padded to the
//! width of its lower bound, as Slurm does), `a[1-2]b` (text after the brackets, and several
//! bracket groups, expanded as a product), and several comma-separated parts `n[1-2],m3`.
//!
//! [`format()`] writes a set of names back in the compact form Slurm prints (`n[1-2,5]`): names
//! sorted by prefix then number, one bracket per prefix. [`format_ordered`] keeps the names'
//! order (and repeats), merging only neighbours; `parse(format_ordered(v)) == v` for every list of
//! valid names. A name's number is its trailing digits; a name without trailing digits (`login`,
//! `a1b`) is written as it is.

use crate::quote::{quote, quote_char};
use std::fmt::Write as _;

/// At most this many names from one expression (a hostile `n[1-999999999]` is refused before
/// anything is allocated).
pub const MAX_NAMES: usize = 100_000;
/// A node name has at most this many bytes (a host name's limit).
pub const MAX_NAME_LEN: usize = 64;
/// Bracket groups in one part of an expression (`r[1-2]n[1-4]` has 2); bounds the recursion.
pub const MAX_BRACKETS: usize = 8;
/// Digits of a range bound (so that every number fits a u64).
const MAX_DIGITS: usize = 18;

/// A malformed hostlist expression: what is wrong, with the expression (shortened).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("hostlist {}: {reason}", quote(.expr))]
pub struct HostlistError {
    /// The expression (its first 80 characters).
    pub expr: String,
    /// What is wrong.
    pub reason: String,
}

fn error(expr: &str, reason: impl Into<String>) -> HostlistError {
    let mut e: String = expr.chars().take(80).collect();
    if e.len() < expr.len() {
        e.push_str("...");
    }
    HostlistError {
        expr: e,
        reason: reason.into(),
    }
}

/// A character a node name may hold: ASCII letters and digits, `-`, `_`, `.`.
pub fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// Checks one node name (also the rule for partition names, features and GPU types).
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("empty name".into());
    }
    if name.len() > MAX_NAME_LEN {
        return Err(format!("name longer than {MAX_NAME_LEN} bytes"));
    }
    if let Some(c) = name.chars().find(|&c| !is_name_char(c)) {
        return Err(format!(
            "{} in a name (letters, digits, '-', '_' and '.' only)",
            quote_char(c)
        ));
    }
    Ok(())
}

/// Expands an expression into its names, in order (repeats kept), at most [`MAX_NAMES`].
pub fn parse(expr: &str) -> Result<Vec<String>, HostlistError> {
    parse_with_limit(expr, MAX_NAMES)
}

/// [`parse`] with another bound on the number of names.
pub fn parse_with_limit(expr: &str, max: usize) -> Result<Vec<String>, HostlistError> {
    if expr.trim().is_empty() {
        return Err(error(expr, "empty hostlist"));
    }
    let mut out = Vec::new();
    for part in split_top(expr).map_err(|r| error(expr, r))? {
        if part.is_empty() {
            return Err(error(expr, "empty part (two commas, or a comma at an end)"));
        }
        if part.matches('[').count() > MAX_BRACKETS {
            return Err(error(
                expr,
                format!("more than {MAX_BRACKETS} bracket groups in one name"),
            ));
        }
        let names = expand(part, max - out.len()).map_err(|r| error(expr, r))?;
        out.extend(names);
    }
    Ok(out)
}

/// Splits at the commas outside brackets.
fn split_top(expr: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let mut depth = 0u32;
    let mut start = 0;
    for (i, c) in expr.char_indices() {
        match c {
            '[' if depth > 0 => return Err("nested '['".into()),
            '[' => depth = 1,
            ']' if depth == 0 => return Err("']' without '['".into()),
            ']' => depth = 0,
            ',' if depth == 0 => {
                parts.push(&expr[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth > 0 {
        return Err("'[' without ']'".into());
    }
    parts.push(&expr[start..]);
    Ok(parts)
}

/// A bracket's ranges: (lo, hi, width) with lo <= hi.
fn ranges(inner: &str) -> Result<Vec<(u64, u64, usize)>, String> {
    let mut out = Vec::new();
    for r in inner.split(',') {
        let (lo, hi) = match r.split_once('-') {
            Some((a, b)) => (a, b),
            None => (r, r),
        };
        let num = |s: &str| -> Result<u64, String> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "range {}: expected digits or digits-digits",
                    quote(r)
                ));
            }
            if s.len() > MAX_DIGITS {
                return Err(format!("range {}: more than {MAX_DIGITS} digits", quote(r)));
            }
            s.parse()
                .map_err(|_| format!("range {}: not a number", quote(r)))
        };
        let (a, b) = (num(lo)?, num(hi)?);
        if b < a {
            return Err(format!(
                "range {}: the upper bound is below the lower",
                quote(r)
            ));
        }
        out.push((a, b, lo.len()));
    }
    Ok(out)
}

/// The names of one part (`pre[ranges]rest`, rest possibly holding more brackets), at most `room`.
fn expand(part: &str, room: usize) -> Result<Vec<String>, String> {
    let Some(open) = part.find('[') else {
        check_name(part).map_err(|e| format!("{}: {e}", quote(part)))?;
        if room == 0 {
            return Err(format!("more than {MAX_NAMES} names"));
        }
        return Ok(vec![part.to_string()]);
    };
    let close = open + part[open..].find(']').ok_or("'[' without ']'")?;
    let prefix = &part[..open];
    if let Some(c) = prefix.chars().find(|&c| !is_name_char(c)) {
        return Err(format!("{} in a name", quote_char(c)));
    }
    let rs = ranges(&part[open + 1..close])?;
    let rest = &part[close + 1..];
    let suffixes = if rest.is_empty() {
        vec![String::new()]
    } else if rest.contains('[') {
        expand(rest, room)?
    } else {
        if let Some(c) = rest.chars().find(|&c| !is_name_char(c)) {
            return Err(format!("{} in a name", quote_char(c)));
        }
        vec![rest.to_string()]
    };
    let mut count: u64 = 0;
    for &(a, b, _) in &rs {
        count = count.saturating_add((b - a).saturating_add(1));
    }
    if count.saturating_mul(suffixes.len() as u64) > room as u64 {
        return Err(format!("more than {MAX_NAMES} names"));
    }
    let mut out = Vec::with_capacity(count as usize * suffixes.len());
    for (a, b, w) in rs {
        for n in a..=b {
            for s in &suffixes {
                let name = format!("{prefix}{n:0w$}{s}");
                check_name(&name).map_err(|e| format!("{}: {e}", quote(&name)))?;
                out.push(name);
            }
        }
    }
    Ok(out)
}

/// A name split into (prefix, number, digits) when it ends in 1 to 18 digits.
fn split_number(name: &str) -> Option<(&str, u64, &str)> {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > MAX_DIGITS {
        return None;
    }
    let (prefix, d) = name.split_at(name.len() - digits);
    Some((prefix, d.parse().ok()?, d))
}

/// Writes names in the compact form, keeping their order and repeats: neighbours with the same
/// prefix share a bracket, consecutive numbers of the same padding share a range.
pub fn format_ordered<S: AsRef<str>>(names: &[S]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < names.len() {
        if !out.is_empty() {
            out.push(',');
        }
        let name = names[i].as_ref();
        let Some((prefix, _, _)) = split_number(name) else {
            out.push_str(name);
            i += 1;
            continue;
        };
        // Ranges (lo, hi, width, lo's digits) of the neighbours with this prefix.
        let mut runs: Vec<(u64, u64, usize, &str)> = Vec::new();
        while i < names.len() {
            let Some((p, n, d)) = split_number(names[i].as_ref()) else {
                break;
            };
            if p != prefix {
                break;
            }
            match runs.last_mut() {
                Some(r) if r.1.checked_add(1) == Some(n) && format!("{n:0w$}", w = r.2) == d => {
                    r.1 = n
                }
                _ => runs.push((n, n, d.len(), d)),
            }
            i += 1;
        }
        out.push_str(prefix);
        if runs.len() == 1 && runs[0].0 == runs[0].1 {
            out.push_str(runs[0].3);
            continue;
        }
        out.push('[');
        for (k, &(lo, hi, w, d)) in runs.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            out.push_str(d);
            if hi > lo {
                let _ = write!(out, "-{hi:0w$}");
            }
        }
        out.push(']');
    }
    out
}

/// Writes a set of names in the compact form Slurm prints: sorted by prefix, then number (then
/// padding), repeats dropped, one bracket per prefix: `n[1-2,5],m3` for {n1, n2, n5, m3} reads
/// `m3,n[1-2,5]`.
pub fn format<I, S>(names: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut v: Vec<String> = names.into_iter().map(|s| s.as_ref().to_string()).collect();
    v.sort_by(|a, b| {
        let key = |s: &str| match split_number(s) {
            Some((p, n, d)) => (p.to_string(), Some((n, d.len()))),
            None => (s.to_string(), None),
        };
        key(a).cmp(&key(b)).then_with(|| a.cmp(b))
    });
    v.dedup();
    format_ordered(&v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn p(s: &str) -> Vec<String> {
        parse(s).unwrap()
    }

    #[test]
    fn slurm_examples() {
        assert_eq!(p("n[1-3,5]"), ["n1", "n2", "n3", "n5"]);
        assert_eq!(p("gpu[01-04]"), ["gpu01", "gpu02", "gpu03", "gpu04"]);
        assert_eq!(p("n[8-10]"), ["n8", "n9", "n10"]);
        assert_eq!(p("n[08-10]"), ["n08", "n09", "n10"]);
        assert_eq!(p("n[1-2],m3"), ["n1", "n2", "m3"]);
        assert_eq!(p("a[1-2]b"), ["a1b", "a2b"]);
        assert_eq!(p("r[1-2]n[1-2]"), ["r1n1", "r1n2", "r2n1", "r2n2"]);
        assert_eq!(p("a[1]b[1]c[1]d[1]e[1]f[1]g[1]h[1]"), ["a1b1c1d1e1f1g1h1"]);
        assert_eq!(p("login"), ["login"]);
        assert_eq!(p("[1-2]"), ["1", "2"]);
    }

    #[test]
    fn formats_as_slurm_prints() {
        assert_eq!(format(["n1", "n2", "n5"]), "n[1-2,5]");
        assert_eq!(format(["n5", "n2", "n1", "n2"]), "n[1-2,5]");
        assert_eq!(format(["gpu01", "gpu02", "gpu03", "gpu04"]), "gpu[01-04]");
        assert_eq!(format(["n08", "n09", "n10", "n11"]), "n[08-11]");
        assert_eq!(format(["n3", "m1", "n1", "n2"]), "m1,n[1-3]");
        assert_eq!(format(["n7"]), "n7");
        assert_eq!(format(["a1b", "a2b"]), "a1b,a2b");
        assert_eq!(format(["n9", "n10", "n05"]), "n[05,9-10]");
        assert_eq!(
            format_ordered(&["n3", "n1", "n2", "m1", "n4"]),
            "n[3,1-2],m1,n4"
        );
        assert_eq!(format(Vec::<String>::new()), "");
    }

    #[test]
    fn errors() {
        for bad in [
            "",
            "n[",
            "n]",
            "n[1-",
            "n[3-1]",
            "n[a]",
            "n[1-2",
            "n[[1]]",
            "n,,m",
            ",n",
            "n m",
            "n[1-999999999]",
            "n[1-2]/x",
            "n[1234567890123456789]",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let e = parse("n[3-1]").unwrap_err().to_string();
        assert!(e.contains("n[3-1]") && e.contains("upper bound"), "{e}");
        assert!(parse_with_limit("n[1-10]", 9).is_err());
        assert_eq!(parse_with_limit("n[1-10]", 10).unwrap().len(), 10);
        assert!(parse("n[1-100000]").is_ok());
        assert!(parse("n[1-100000],m").is_err());
    }

    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => (prop::sample::select(vec!["n", "gpu", "a-b", "x.y", "", "c1_"]), 0u64..300, 0usize..4)
                .prop_map(|(p, n, w)| format!("{p}{n:0w$}")),
            1 => prop::sample::select(vec!["login", "a1b", "head-node"]).prop_map(String::from),
        ]
        .prop_filter("a name", |s| !s.is_empty())
    }

    proptest! {
        #[test]
        fn a_set_round_trips(names in prop::collection::vec(name(), 0..60)) {
            let set: std::collections::BTreeSet<String> = names.iter().cloned().collect();
            let text = format(&names);
            if set.is_empty() {
                prop_assert_eq!(text, "");
            } else {
                let back = parse(&text).unwrap();
                prop_assert_eq!(back.iter().cloned().collect::<std::collections::BTreeSet<_>>(), set.clone());
                prop_assert_eq!(back.len(), set.len());
                // The compact form is canonical: formatting its names gives it back.
                prop_assert_eq!(format(&back), text.clone());
                prop_assert_eq!(format_ordered(&back), text);
            }
        }

        #[test]
        fn a_list_round_trips_in_order(names in prop::collection::vec(name(), 1..60)) {
            let text = format_ordered(&names);
            let back = parse(&text).unwrap();
            prop_assert_eq!(&back, &names);
            prop_assert_eq!(format_ordered(&back), text);
        }

        #[test]
        fn any_text_parses_or_errs(s in "[n0-9\\[\\],\\-ab ]{0,24}") {
            if let Ok(v) = parse(&s) {
                prop_assert!(!v.is_empty());
                let again = parse(&format_ordered(&v)).unwrap();
                prop_assert_eq!(again, v);
            }
        }
    }
}
