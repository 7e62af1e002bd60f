//! slurm.conf's text as lines and tokens: comments dropped, continued lines joined, values
//! split at white space outside double quotes.

/// The logical lines: (first physical line, text without comment), continuations joined.
pub(super) fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        if !open {
            start = i + 1;
        }
        let mut content = String::with_capacity(raw.len());
        let mut chars = raw.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&'#') => {
                    content.push('#');
                    chars.next();
                }
                '#' => break,
                _ => content.push(c),
            }
        }
        // As Slurm's parse_config.c: comments go first, then a `\` ending what is left (white
        // space after it aside) continues the line, the next line appended as it is, with
        // nothing between: `bf_interval=30,\` then `bf_window=60` is one value.
        if let Some(joined) = content.trim_end().strip_suffix('\\') {
            cur.push_str(joined);
            open = true;
            continue;
        }
        cur.push_str(&content);
        out.push((start, std::mem::take(&mut cur)));
        open = false;
    }
    if open {
        out.push((start, cur));
    }
    out
}

/// The tokens of `line` as [`tokens`] cuts them, as written (quotes kept): what an error shows,
/// so that a user sees the text they gave (`{"name":` was shown as `{name:`).
pub(super) fn written(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() && !quoted {
            if let Some(s) = start.take() {
                out.push(&line[s..i]);
            }
            continue;
        }
        start.get_or_insert(i);
        if c == '"' {
            quoted = !quoted;
        }
    }
    out.extend(start.map(|s| &line[s..]));
    out
}

/// Splits a line into tokens at white space outside double quotes (quotes removed).
pub(super) fn tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err("a '\"' without its closing '\"'".into());
    }
    if any {
        out.push(cur);
    }
    Ok(out)
}
