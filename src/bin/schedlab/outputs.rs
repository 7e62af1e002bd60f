//! The files `schedlab run` writes per policy (`--jobs-csv`, `--runs-csv`, `--heatmap-csv`): one
//! name per policy spec, never the same file twice, never the trace itself. Every name is
//! decided before any policy runs.

use std::path::{Path, PathBuf};

/// The longest tag of a spec in a file name, bytes (the tag is ASCII).
const MAX_TAG: usize = 96;

/// A file name for one policy's output: `jobs.csv` + `easy[order=sjf]` -> `jobs.easy_order-sjf.csv`;
/// `suffix` is added to the tag when the tags of two specs collide.
fn per_policy_path(path: &Path, spec: &str, several: bool, suffix: &str) -> PathBuf {
    if !several {
        return path.to_path_buf();
    }
    let tag: String = spec
        .chars()
        .map(|c| match c {
            '[' | ',' => '_',
            '=' => '-',
            ']' => '\0',
            c if c.is_ascii_alphanumeric() || c == '-' || c == '.' => c,
            _ => '_',
        })
        .filter(|&c| c != '\0')
        .collect();
    // A long spec (slurm's canonical spec holds every site value) would pass the file-name limit
    // of the file system (255 bytes): its tag is cut and the spec's hash keeps it unique.
    let tag = if tag.len() > MAX_TAG {
        format!("{}{}", &tag[..MAX_TAG - 9], spec_hash(spec))
    } else {
        tag
    };
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    let name = match path.extension().and_then(|e| e.to_str()) {
        Some(ext) => format!("{stem}.{tag}{suffix}.{ext}"),
        None => format!("{stem}.{tag}{suffix}"),
    };
    path.with_file_name(name)
}

/// FNV-1a of the spec, 8 hex digits: the same on every machine and in every version.
fn spec_hash(spec: &str) -> String {
    let h = spec.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("-{:08x}", (h ^ (h >> 32)) as u32)
}

/// The path of `p` for comparisons: its folder resolved (the file itself may not exist yet).
fn resolved(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (dir.canonicalize(), p.file_name()) {
        (Ok(d), Some(f)) => d.join(f),
        _ => p.to_path_buf(),
    }
}

/// Refuses a chart file (`flag`, `out`) whose name ends in neither `.svg` nor `.png`: the
/// extension chooses the format, and `chart.jpg` was written as SVG under that name. A device
/// or pipe (`/dev/null`, `/dev/stdout`) takes SVG.
pub fn chart_file(flag: &str, out: &Path) -> Result<(), String> {
    let ext = out.extension().and_then(|e| e.to_str()).unwrap_or("");
    let device = std::fs::metadata(out).is_ok_and(|m| !m.is_file() && !m.is_dir());
    if device || ext.eq_ignore_ascii_case("svg") || ext.eq_ignore_ascii_case("png") {
        Ok(())
    } else {
        Err(format!(
            "{flag} {}: a chart is written as .svg or .png, chosen by the file name's extension",
            out.display()
        ))
    }
}

/// Refuses an output file (`flag`, `out`) that is the input file `input` (it would be overwritten
/// while, or before, it is read).
pub fn not_the_input(flag: &str, out: &Path, input: &Path) -> Result<(), String> {
    if resolved(out) == resolved(input) {
        return Err(format!(
            "{flag} {}: the same file as the input {}; give another file name",
            out.display(),
            input.display()
        ));
    }
    Ok(())
}

/// Refuses an output file (`flag`, `out`) whose folder does not exist, before any work: a
/// sweep's shard wrote its part only after all its points had run, and then failed with the bare
/// "No such file or directory", its hours of work lost.
pub fn folder_exists(flag: &str, out: &Path) -> Result<(), String> {
    match out.parent() {
        Some(d) if !d.as_os_str().is_empty() && !d.is_dir() => Err(format!(
            "{flag} {}: the folder {} does not exist (make it first: mkdir -p {}); nothing was run",
            out.display(),
            d.display(),
            d.display()
        )),
        _ => Ok(()),
    }
}

/// The output files of each spec (`specs`, canonical), per option: `options` are (flag, path
/// given). A tag shared by two specs gets a hash of the spec; the same spec given twice gets
/// its rank too. Refused: a file that is the trace (`trace`), or one file for two outputs.
pub fn plan(
    options: &[(&str, Option<&Path>)],
    specs: &[String],
    trace: &Path,
) -> Result<Vec<Vec<Option<PathBuf>>>, String> {
    let several = specs.len() > 1;
    let mut out = vec![Vec::new(); specs.len()];
    let mut seen: Vec<(PathBuf, String)> = vec![(resolved(trace), "the trace".to_string())];
    for &(flag, path) in options {
        let Some(path) = path else {
            out.iter_mut().for_each(|o| o.push(None));
            continue;
        };
        let plain: Vec<PathBuf> = specs
            .iter()
            .map(|s| per_policy_path(path, s, several, ""))
            .collect();
        for (i, spec) in specs.iter().enumerate() {
            let mut p = plain[i].clone();
            if plain.iter().filter(|&q| *q == p).count() > 1 {
                let mut suffix = spec_hash(spec);
                if specs.iter().filter(|&s| s == spec).count() > 1 {
                    suffix.push_str(&format!("-{}", i + 1));
                }
                p = per_policy_path(path, spec, several, &suffix);
            }
            let r = resolved(&p);
            let what = format!("{flag} {} ({spec})", p.display());
            if let Some((_, first)) = seen.iter().find(|(q, _)| *q == r) {
                return Err(format!(
                    "{what}: the same file as {first}; give another file name"
                ));
            }
            seen.push((r, what));
            out[i].push(Some(p));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_per_spec() {
        let specs: Vec<String> = [
            "easy[queue=expr(wait*procs)]",
            "easy[queue=expr(wait/procs)]",
        ]
        .map(String::from)
        .to_vec();
        let p = Path::new("/nowhere/j.csv");
        let got = plan(&[("--jobs-csv", Some(p))], &specs, Path::new("t.swf")).unwrap();
        let a = got[0][0].as_ref().unwrap();
        let b = got[1][0].as_ref().unwrap();
        assert_ne!(a, b);
        assert!(a
            .to_str()
            .unwrap()
            .starts_with("/nowhere/j.easy_queue-expr_wait_procs_-"));
        // A tag that no other spec has keeps its plain name.
        let specs = vec!["fcfs".to_string(), "easy".to_string()];
        let got = plan(&[("--jobs-csv", Some(p))], &specs, Path::new("t.swf")).unwrap();
        assert_eq!(got[0][0].as_deref(), Some(Path::new("/nowhere/j.fcfs.csv")));
        // The same spec twice: two files.
        let specs = vec!["fcfs".to_string(), "fcfs".to_string()];
        let got = plan(&[("--jobs-csv", Some(p))], &specs, Path::new("t.swf")).unwrap();
        assert_ne!(got[0][0], got[1][0]);
    }

    #[test]
    fn long_specs_get_short_unique_names() {
        let long = |last: u32| {
            let keys: Vec<String> = (0..40).map(|k| format!("Key{k}={last}")).collect();
            format!("slurm[{}]", keys.join(","))
        };
        let specs = vec![long(1), long(2), "fcfs".to_string()];
        let p = Path::new("/nowhere/j.csv");
        let got = plan(&[("--jobs-csv", Some(p))], &specs, Path::new("t.swf")).unwrap();
        let names: Vec<String> = got
            .iter()
            .map(|o| {
                o[0].as_ref()
                    .unwrap()
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert!(names.iter().all(|n| n.len() <= 120), "{names:?}");
        assert!(
            names[0].starts_with("j.slurm_Key0-1_Key1-1"),
            "{}",
            names[0]
        );
        assert_ne!(names[0], names[1]);
        assert_eq!(names[2], "j.fcfs.csv");
    }

    #[test]
    fn never_the_trace_nor_one_file_twice() {
        let specs = vec!["fcfs".to_string()];
        let t = Path::new("/nowhere/t.swf");
        let e = plan(&[("--jobs-csv", Some(t))], &specs, t).unwrap_err();
        assert!(e.contains("the same file as the trace"), "{e}");
        let j = Path::new("/nowhere/j.csv");
        let e = plan(
            &[("--jobs-csv", Some(j)), ("--runs-csv", Some(j))],
            &specs,
            t,
        )
        .unwrap_err();
        assert!(e.contains("--runs-csv") && e.contains("--jobs-csv"), "{e}");
    }
}
