//! Every file of this repository the documentation names in backticks (`src/...`, `www/...`,
//! `tests/...`, `scripts/...`, `examples/...`, `docs/...`) exists: a newcomer following the docs
//! literally opens it. Placeholders (`tests/NAME.rs`, `src/metrics/FAMILY.rs`), globs and brace
//! groups are not files; `src/plugins/...`, `src/slurmctld/...` and `src/common/...` are paths
//! in Slurm's source, not this one's; `tests/fuzz/work/` and `tests/fuzz/artifacts/` are made by
//! a fuzzing run and not committed (docs/fuzzing.md says so).

use std::path::{Path, PathBuf};

fn markdown(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            markdown(&p, out);
        } else if p.extension().is_some_and(|e| e == "md") {
            out.push(p);
        }
    }
}

/// The repository paths in a text's backticked spans.
fn named_paths(text: &str) -> Vec<String> {
    const ROOTS: [&str; 6] = ["src/", "www/", "tests/", "scripts/", "examples/", "docs/"];
    const NOT_OURS: [&str; 5] = [
        "src/plugins/",
        "src/slurmctld/",
        "src/common/",
        "tests/fuzz/work",
        "tests/fuzz/artifacts",
    ];
    let placeholder = |seg: &str| {
        let stem = seg.split('.').next().unwrap_or("");
        !stem.is_empty() && stem.chars().all(|c| c.is_ascii_uppercase() || c == '_')
    };
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|span| span.split_whitespace().next())
        .map(|p| p.trim_end_matches([',', '.', ':', ';', ')']))
        .filter(|p| ROOTS.iter().any(|r| p.starts_with(r)))
        .filter(|p| !NOT_OURS.iter().any(|r| p.starts_with(r)))
        .filter(|p| !p.contains(['*', '{', '<', '[', '$']) && !p.split('/').any(placeholder))
        .map(|p| p.split(':').next().unwrap().to_string())
        .collect()
}

#[test]
fn every_file_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    markdown(&root.join("docs"), &mut docs);
    let mut missing = Vec::new();
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        for p in named_paths(&text) {
            if !root.join(&p).exists() {
                missing.push(format!(
                    "{}: {p}",
                    doc.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "named in the docs, not in the repository:\n{}",
        missing.join("\n")
    );
}

/// The spans read: a path with its line (`src/a.rs:12`) is the file; a placeholder, a glob, a
/// group and another project's path are not read.
#[test]
fn the_paths_read_from_backticks() {
    let text = "see `src/a.rs:12`, `tests/NAME.rs`, `src/metrics/FAMILY.rs`, `www/*.js`, \
                `src/policy/blocks/{heads,shadow}.rs`, `src/plugins/sched/backfill/backfill.c`, \
                `scripts/check.sh --fast` and `docs/x.md`.";
    assert_eq!(
        named_paths(text),
        ["src/a.rs", "scripts/check.sh", "docs/x.md"]
    );
}
