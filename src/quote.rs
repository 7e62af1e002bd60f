//! A value a user gave, quoted in a message as they wrote it: `"{"name": 1}"`, where Rust's
//! Debug form would print `"{\"name\": 1}"`. Every message that shows a user's value (a file's
//! field, a spec's value, a URL parameter, a command-line flag) quotes it through [`quote`], a
//! character through [`quote_char`].

/// `text` between double quotes, as written: quotes and backslashes stay as they are. Only
/// control characters are escaped (`\t`, `\n`, `\u{1b}`), so a message stays on one line and
/// shows what cannot be seen; a value longer than 40 characters is cut, with its length in bytes.
pub fn quote(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    let (shown, cut) = match text.char_indices().nth(MAX_CHARS) {
        Some((at, _)) => (&text[..at], true),
        None => (text, false),
    };
    let mut out = String::with_capacity(shown.len() + 2);
    out.push('"');
    for c in shown.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out.push('"');
    if cut {
        out.push_str(&format!("... ({} bytes)", text.len()));
    }
    out
}

/// One character between single quotes, as the crate's messages quote a character (`';'`,
/// `'|'`): as written, a control character escaped (`'\t'`).
pub fn quote_char(c: char) -> String {
    if c.is_control() {
        format!("'{}'", c.escape_debug())
    } else {
        format!("'{c}'")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_shown_as_written() {
        assert_eq!(quote(r#"{"name": 1}"#), r#""{"name": 1}""#);
        assert_eq!(quote(r"C:\jobs"), r#""C:\jobs""#);
        assert_eq!(quote("abc"), "\"abc\"");
        assert_eq!(quote_char('\''), "'''");
        assert_eq!(quote_char('"'), "'\"'");
        assert_eq!(quote_char('\t'), r"'\t'");
    }

    #[test]
    fn control_characters_are_made_visible() {
        assert_eq!(quote("a\tb\n"), r#""a\tb\n""#);
        assert_eq!(quote("\u{1b}[0m"), r#""\u{1b}[0m""#);
    }

    #[test]
    fn long_values_are_cut() {
        let long = "é".repeat(100);
        let q = quote(&long);
        assert!(q.len() < 120, "{q}");
        assert!(q.ends_with("... (200 bytes)"), "{q}");
        assert_eq!(q.chars().filter(|&c| c == 'é').count(), 40);
    }
}
