//! Every committed fuzz input through its target on stable: the seed corpora
//! (`tests/fuzz/corpus/TARGET/`) and the minimized inputs of every bug the fuzzers found
//! (`tests/fuzz/regressions/TARGET/`, one file each, named after what it broke). A target
//! panics on a bug (see `tests/fuzz/targets.rs`), so each file is a test case.

#[path = "fuzz/targets.rs"]
mod targets;

use std::path::Path;

fn inputs(dir: &str, target: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz")
        .join(dir)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn run_all(dir: &str) -> usize {
    let mut n = 0;
    for t in targets::TARGETS {
        for path in inputs(dir, t.name) {
            let data = std::fs::read(&path).expect("readable input");
            let outcome = std::panic::catch_unwind(|| (t.run)(&data));
            assert!(outcome.is_ok(), "{}: {} fails", t.name, path.display());
            n += 1;
        }
    }
    n
}

#[test]
fn seed_corpora_pass_every_target() {
    for t in targets::TARGETS {
        assert!(
            !inputs("corpus", t.name).is_empty(),
            "no seed corpus for {}",
            t.name
        );
    }
    assert!(run_all("corpus") > 0);
}

#[test]
fn regression_inputs_pass() {
    run_all("regressions");
}
