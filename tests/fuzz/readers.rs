//! The readers' fuzz targets (`swf`, `gzip`, `sacct`, `batsim`): each reads its bytes, runs
//! the input rules under a few option sets on what it read, and checks what the input step
//! promises (submit order, processors within the machine, runtimes not negative) and, for SWF,
//! the writer's round trip and strict against tolerant reading.

use schedlab::input::{self, EstimateSource, InputOptions, JobSet, Origin, Wide};
use schedlab::machine::NodeModel;
use schedlab::swf::{self, ReadOptions, Workload};
use schedlab::workload::{batsim, sacct};

pub(super) fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// The input rules under a few option sets; each either prepares jobs or refuses with an error.
fn prepare_variants(w: &Workload) {
    let variants = [
        InputOptions::default(),
        InputOptions {
            wide: Wide::Clamp,
            estimate: EstimateSource::Runtime,
            origin: Origin::Trace,
            skip_zero_runtime: true,
            skip_status: vec![0, 5],
            ..InputOptions::default()
        },
        InputOptions {
            procs: Some(3),
            estimate: EstimateSource::Ignore,
            kill: false,
            offline: true,
            max_jobs: Some(5),
            nodes: Some(NodeModel::default()),
            ..InputOptions::default()
        },
    ];
    for opts in &variants {
        if let Ok(set) = input::prepare(w, opts) {
            check_set(&set);
        }
    }
}

/// What the input step promises of a prepared job set.
pub(super) fn check_set(set: &JobSet) {
    assert!(set.procs >= 1, "machine of 0 processors");
    for pair in set.jobs.windows(2) {
        assert!(pair[0].submit <= pair[1].submit, "jobs not in submit order");
    }
    for j in &set.jobs {
        assert!(
            j.procs >= 1 && j.procs <= set.procs,
            "job {} needs {} of {} processors",
            j.id,
            j.procs,
            set.procs
        );
        assert!(j.runtime >= 0, "job {} runs {} s", j.id, j.runtime);
    }
}

/// SWF bytes: tolerant and strict reading, the input rules, and the writer's round trip.
pub fn swf_bytes(data: &[u8]) {
    let tolerant = swf::read_bytes("fuzz.swf", data, &ReadOptions::default());
    let strict = swf::read_bytes(
        "fuzz.swf",
        data,
        &ReadOptions {
            strict: true,
            ..ReadOptions::default()
        },
    );
    if let (Ok(s), Ok(t)) = (&strict, &tolerant) {
        assert_eq!(s.records, t.records, "strict and tolerant reading differ");
    }
    let Ok(w) = tolerant else { return };
    assert!(w.issues.len() <= ReadOptions::default().max_issues);
    prepare_variants(&w);
    round_trip(&w);
}

/// Writing a workload and reading it back gives its header and records (line numbers aside).
fn round_trip(w: &Workload) {
    let mut out = Vec::new();
    swf::write(&mut out, w).expect("writing to memory");
    let back = swf::read_bytes("again.swf", &out, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("the writer's output does not read back: {e}"));
    let strip = |w: &Workload| {
        w.records
            .iter()
            .map(|r| swf::SwfRecord {
                line: 0,
                // SWF has no room for a request (GPUs aside, with a GpuField header).
                req: Default::default(),
                ..r.clone()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(w), strip(&back), "records change through the writer");
    assert_eq!(w.header, back.header, "header changes through the writer");
}

/// gzip bytes: as given (a stream of any shape), and the text of the rest compressed, which
/// must read exactly as the plain text does, unless the rest is gzip data itself: compressed
/// once more, it is refused as compressed twice (while the rest alone is read).
pub fn gzip_bytes(data: &[u8]) {
    use flate2::write::GzEncoder;
    use std::io::Write as _;
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        // Raw bytes after the gzip magic: the decoder's errors and odd streams.
        let mut gz = vec![0x1f, 0x8b];
        gz.extend_from_slice(rest);
        if let Ok(w) = swf::read_bytes("fuzz.swf.gz", &gz, &ReadOptions::default()) {
            prepare_variants(&w);
        }
        let _ = schedlab::workload::read_bytes("fuzz.gz", &gz, &ReadOptions::default());
        return;
    }
    let mut enc = GzEncoder::new(Vec::new(), flate2::Compression::new(u32::from(mode >> 5)));
    enc.write_all(rest).expect("compressing in memory");
    let gz = enc.finish().expect("compressing in memory");
    let plain = swf::read_bytes("t.swf", rest, &ReadOptions::default());
    let packed = swf::read_bytes("t.swf", &gz, &ReadOptions::default());
    if rest.starts_with(&[0x1f, 0x8b]) {
        match packed {
            Err(swf::SwfError::Unsupported { detail, .. })
                if detail.contains("compressed twice") => {}
            other => panic!(
                "gzip data compressed again: {:?}, not refused as compressed twice",
                other.map(|w| w.records.len())
            ),
        }
        return;
    }
    match (plain, packed) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.records, b.records, "gzip reads other records");
            assert_eq!(a.issue_count, b.issue_count, "gzip reads other issues");
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "plain {:?} but gzip {:?}",
            a.map(|w| w.records.len()),
            b.map(|w| w.records.len())
        ),
    }
}

pub fn sacct_text(data: &[u8]) {
    let t = text(data);
    if let Ok(w) = sacct::read("fuzz.sacct", &t, &ReadOptions::default()) {
        prepare_variants(&w);
    }
    let _ = schedlab::workload::read_bytes("fuzz.txt", data, &ReadOptions::default());
}

pub fn batsim_text(data: &[u8]) {
    let t = text(data);
    if let Ok(w) = batsim::read("fuzz.json", &t, &ReadOptions::default()) {
        prepare_variants(&w);
        let mut out = Vec::new();
        let _ = batsim::write(&mut out, &w, 8);
    }
}
