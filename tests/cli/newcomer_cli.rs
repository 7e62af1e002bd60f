//! What a new user meets first: every subcommand's help names the formats it reads, and a
//! preset that cannot be is refused rather than silently changed.

use crate::common::schedlab;

/// `plot`, `sweep` and `trace` read every format `run` reads (by content), and their help says
/// so (it said "SWF trace, plain or gzip").
#[test]
fn every_trace_argument_names_the_formats_it_reads() {
    for command in ["run", "plot", "sweep", "trace", "replay", "convert"] {
        let (ok, out, err) = schedlab(&[command, "--help"]);
        assert!(ok, "{command}: {err}");
        assert!(
            out.contains("sacct") && (command == "replay" || out.contains("Batsim")),
            "{command} --help: {out}"
        );
    }
    let sacct = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/slurm/gpu-3/run1/sacct.txt"
    );
    let (ok, out, err) = schedlab(&["trace", sacct]);
    assert!(ok, "{err}");
    assert!(out.contains("60 jobs, 6 users"), "{out}");
}

/// `--preset pool:0` printed a pool of 1 processor; 0 is refused as the compact form's `c0` is.
#[test]
fn a_pool_of_no_processor_is_refused() {
    let (ok, out, err) = schedlab(&["cluster", "--preset", "pool:0"]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("pool:N takes a number of processors >= 1"),
        "{err}"
    );
    let (ok, out, err) = schedlab(&["cluster", "--preset", "pool:3"]);
    assert!(ok, "{err}");
    assert!(out.contains("3 cores"), "{out}");
}

/// docs/share-links.md lists every demo a link can name (`demo:slurm-gpu` was missing), read
/// from the page's own list in www/trace.js.
#[test]
fn the_share_link_doc_names_every_demo() {
    let root = env!("CARGO_MANIFEST_DIR");
    let js = std::fs::read_to_string(format!("{root}/www/trace.js")).unwrap();
    let doc = std::fs::read_to_string(format!("{root}/docs/share-links.md")).unwrap();
    let list = js.split("export const DEMOS = [").nth(1).unwrap();
    let list = list.split("\n];").next().unwrap();
    let ids: Vec<&str> = list
        .split("{ id: '")
        .skip(1)
        .map(|s| s.split('\'').next().unwrap())
        .collect();
    assert_eq!(ids.len(), 5, "{ids:?}");
    for id in ids {
        assert!(
            doc.contains(&format!("`demo:{id}`")),
            "demo:{id} not in docs/share-links.md"
        );
    }
}
