//! slurm.conf's `Include FILE` lines, read as Slurm 22.05 reads them (parse_config.c
//! `_parse_include_directive`, `_add_full_path`, `_parse_for_format`): the keyword in any case
//! then white space; a relative path is taken from the directory of the file that includes it;
//! `%c` stands for the `ClusterName` read so far, in lower case; the included file's lines are
//! read in place of the `Include` line. Every line keeps its own file and line number, so an
//! error names the included file where it is. Text without a file (the page's pasted lines)
//! has no directory to read from: an `Include` line there is an error naming it.

use super::lines::logical_lines;
use super::ConfError;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The logical lines to read, in order: (file, first physical line, text).
pub(super) type Lines = Vec<(Rc<str>, usize, String)>;

/// How deep files may include files (a file that includes itself stops here).
const MAX_DEPTH: usize = 16;

/// The file an `Include` line names: `None` for any other line; `Some(None)` for an `Include`
/// naming no file.
fn include_target(text: &str) -> Option<Option<&str>> {
    let t = text.trim_start();
    let head = t.get(..7)?;
    if !head.eq_ignore_ascii_case("include") || !t[7..].starts_with(char::is_whitespace) {
        return None;
    }
    Some(t[7..].split_whitespace().next())
}

/// A line's `ClusterName=` value, when it sets one.
fn cluster_name(text: &str) -> Option<&str> {
    let (k, v) = text.trim().split_once('=')?;
    k.trim()
        .eq_ignore_ascii_case("ClusterName")
        .then(|| v.split_whitespace().next().unwrap_or(""))
}

/// The lines of a text that has no file behind it: an `Include` line is an error.
pub(super) fn of_text(text: &str, file: &str) -> Result<Lines, ConfError> {
    let f: Rc<str> = file.into();
    let mut out = Vec::new();
    for (line, t) in logical_lines(text) {
        if include_target(&t).is_some() {
            return Err(ConfError {
                file: file.to_string(),
                line,
                field: Some("Include".into()),
                message: "Include lines are not read here: put the included file's lines in \
                          place of this one (schedlab's command line reads them)"
                    .into(),
            });
        }
        out.push((f.clone(), line, t));
    }
    Ok(out)
}

/// The lines of a slurm.conf file with those of the files its `Include` lines name.
pub(super) fn of_file(path: &Path) -> Result<Lines, ConfError> {
    let mut out = Vec::new();
    let mut cluster = None;
    let text = read(path).map_err(|message| ConfError {
        file: path.display().to_string(),
        line: 0,
        field: None,
        message,
    })?;
    read_into(path, &text, 0, &mut out, &mut cluster)?;
    Ok(out)
}

/// A file's text; the message says why not.
fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))
}

fn read_into(
    path: &Path,
    text: &str,
    depth: usize,
    out: &mut Lines,
    cluster: &mut Option<String>,
) -> Result<(), ConfError> {
    let file = path.display().to_string();
    let f: Rc<str> = file.as_str().into();
    for (line, t) in logical_lines(text) {
        let Some(target) = include_target(&t) else {
            if let Some(name) = cluster_name(&t) {
                *cluster = Some(name.to_string());
            }
            out.push((f.clone(), line, t));
            continue;
        };
        let fail = |message: String| ConfError {
            file: file.clone(),
            line,
            field: Some("Include".into()),
            message,
        };
        let target = target.ok_or_else(|| fail("names no file".into()))?;
        let name = if target.contains("%c") {
            let c = cluster.as_deref().ok_or_else(|| {
                fail(format!(
                    "{target}: %c stands for the ClusterName, which no line before it sets"
                ))
            })?;
            target.replace("%c", &c.to_lowercase())
        } else {
            target.to_string()
        };
        let full: PathBuf = match Path::new(&name) {
            p if p.is_absolute() => p.to_path_buf(),
            p => path.parent().unwrap_or(Path::new("")).join(p),
        };
        if depth + 1 >= MAX_DEPTH {
            return Err(fail(format!(
                "{}: files included more than {MAX_DEPTH} deep (a file that includes itself?)",
                full.display()
            )));
        }
        let inner = read(&full).map_err(|e| fail(format!("{}: {e}", full.display())))?;
        read_into(&full, &inner, depth + 1, out, cluster)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_lines_are_told_from_keys() {
        assert_eq!(
            include_target("Include nodes.conf"),
            Some(Some("nodes.conf"))
        );
        assert_eq!(
            include_target("  include\t/etc/a.conf x"),
            Some(Some("/etc/a.conf"))
        );
        assert_eq!(include_target("Include "), Some(None));
        assert_eq!(include_target("IncludeX=1"), None);
        assert_eq!(include_target("NodeName=include"), None);
        assert_eq!(cluster_name("ClusterName=Frost"), Some("Frost"));
        assert_eq!(cluster_name("clustername = frost "), Some("frost"));
        assert_eq!(cluster_name("NodeName=a"), None);
    }
}
