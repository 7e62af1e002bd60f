//! Every trace in tests/data/ through every policy: the invariant checker passes and
//! every job line is accounted for (ran, or skipped with the reader's / input's / policy's reason).

use crate::common;
use schedlab::input::{prepare, InputOptions};
use schedlab::metrics::{classic, MetricOptions};
use schedlab::policy;
use schedlab::sim::{check::check, simulate};
use schedlab::swf::{read_path, ReadOptions};

#[test]
fn every_trace_through_every_policy() {
    let Some(dir) = common::trace_dir() else {
        unreachable!("trace_dir fails when the traces are missing");
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"))
        .collect();
    files.push(dir.join("nonstandard/wagap-2013.swf"));
    files.sort();
    assert!(
        files.len() >= 7,
        "expected the repository's traces, found {files:?}"
    );
    for path in files {
        let w = read_path(&path, &ReadOptions::default()).unwrap();
        // wagap (no header) ran on 20 x 80 + 48 x 12 = 2,176 CPUs (SOURCES.md); without the
        // size the machine would be the widest job and the queue would hold the whole trace.
        let opts = InputOptions {
            procs: path.ends_with("nonstandard/wagap-2013.swf").then_some(2176),
            ..InputOptions::default()
        };
        let set = prepare(&w, &opts).unwrap();
        let lines = w.records.len() as u64 + w.skipped_lines;
        assert_eq!(set.jobs.len() + set.skipped.len(), w.records.len());
        for p in policy::catalogue() {
            let mut pol = policy::build(p.name).unwrap();
            let s = simulate(&set.jobs, set.procs, pol.as_mut(), 1, None).unwrap();
            if let Err(e) = check(&set.jobs, &s) {
                panic!("{} / {}: {}", path.display(), p.name, e.join("\n"));
            }
            let m = classic(&set, &s, &MetricOptions::default());
            assert_eq!(
                m.counts.jobs + m.counts.skipped,
                lines,
                "{} / {}: jobs + skipped != job lines",
                path.display(),
                p.name
            );
            assert_eq!(
                m.counts.skipped,
                w.skipped_lines + set.skipped.len() as u64 + s.rejected.len() as u64
            );
            if p.name != "historic" {
                assert!(s.rejected.is_empty());
                assert!(
                    m.utilization > 0.0 && m.utilization <= 1.0 + 1e-9,
                    "{} / {}: utilization {}",
                    path.display(),
                    p.name,
                    m.utilization
                );
            }
        }
    }
}
