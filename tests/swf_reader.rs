//! The SWF reader on the real traces in `tests/data/`, round trips, and gzip input.

use crate::common;
use common::swfkit::without_lines;
use std::io::Write as _;
use std::path::PathBuf;

use flate2::write::GzEncoder;
use flate2::Compression;
use schedlab::swf::{self, ReadOptions, SwfRecord, Workload};

/// The repository's trace folder (a missing one fails the test).
fn data_dir() -> Option<PathBuf> {
    common::trace_dir()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

fn written(w: &Workload) -> Vec<u8> {
    let mut out = Vec::new();
    swf::write(&mut out, w).unwrap();
    out
}

struct Trace {
    file: &'static str,
    jobs: usize,
    extras: usize,
    max_procs: Option<u64>,
    max_nodes: Option<u64>,
    gzip: bool,
}

const TRACES: [Trace; 7] = [
    Trace {
        file: "KTH-SP2-1996-2.1-cln.swf.gz",
        jobs: 28_476,
        extras: 0,
        max_procs: Some(100),
        max_nodes: Some(100),
        gzip: true,
    },
    Trace {
        file: "LANL-CM5-1994-4.1-cln.swf.gz",
        jobs: 122_060,
        extras: 0,
        max_procs: Some(1024),
        max_nodes: Some(1024),
        gzip: true,
    },
    Trace {
        file: "NASA-iPSC-1993-3.1-cln.swf.gz",
        jobs: 18_239,
        extras: 0,
        max_procs: Some(128),
        max_nodes: Some(128),
        gzip: true,
    },
    Trace {
        file: "lublin_256.swf",
        jobs: 10_000,
        extras: 0,
        max_procs: None,
        max_nodes: Some(256),
        gzip: false,
    },
    Trace {
        file: "5K_sample",
        jobs: 4_961,
        extras: 0,
        max_procs: Some(128),
        max_nodes: Some(128),
        gzip: false,
    },
    Trace {
        file: "hpc2n.swf",
        jobs: 3_170,
        extras: 0,
        max_procs: Some(240),
        max_nodes: Some(240),
        gzip: false,
    },
    Trace {
        file: "nonstandard/wagap-2013.swf",
        jobs: 17_900,
        extras: 3,
        max_procs: None,
        max_nodes: None,
        gzip: false,
    },
];

#[test]
fn every_real_trace_parses_cleanly() {
    let Some(dir) = data_dir() else { return };
    for t in &TRACES {
        let w = swf::read_path(&dir.join(t.file), &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(w.records.len(), t.jobs, "{}", t.file);
        assert_eq!(w.issue_count, 0, "{}", w.summary(5));
        assert!(w.issues.is_empty() && w.skipped_lines == 0, "{}", t.file);
        assert_eq!(w.header.max_procs, t.max_procs, "{}", t.file);
        assert_eq!(w.header.max_nodes, t.max_nodes, "{}", t.file);
        assert_eq!(w.gzip, t.gzip, "{}", t.file);
        assert!(w.source.ends_with(t.file));
        assert!(
            w.records.iter().all(|r| r.extra.len() == t.extras),
            "{}",
            t.file
        );
        // File order is kept: job numbers strictly increase in every one of these traces.
        assert!(
            w.records
                .windows(2)
                .all(|p| p[0].job_number < p[1].job_number),
            "{}",
            t.file
        );
        // Records sit right after the header in all of them.
        assert_eq!(
            w.records[0].line,
            w.header.lines.len() as u64 + 1,
            "{}",
            t.file
        );
        assert!(
            w.summary(3).ends_with("jobs, no issues"),
            "{}",
            w.summary(3)
        );
    }
}

#[test]
fn real_trace_values() {
    let Some(dir) = data_dir() else { return };
    let opts = ReadOptions::default();
    let kth = swf::read_path(&dir.join("KTH-SP2-1996-2.1-cln.swf.gz"), &opts).unwrap();
    let h = &kth.header;
    assert_eq!(h.version.as_deref(), Some("2.2"));
    assert_eq!(h.computer.as_deref(), Some("IBM SP2"));
    assert_eq!((h.max_jobs, h.max_records), (Some(28490), Some(28476)));
    assert_eq!(
        (h.unix_start_time, h.time_zone),
        (Some(843480031), Some(3600))
    );
    assert_eq!(h.time_zone_string.as_deref(), Some("Europe/Stockholm"));
    assert_eq!(h.preemption.as_deref(), Some("No"));
    assert_eq!(h.end_time.as_deref(), Some("Fri Aug 29 10:55:01 CEST 1997"));
    assert_eq!(
        h.notes,
        [
            "uses the EASY scheduler",
            "THIS IS A CLEANED VERSION OF THE LOG!"
        ]
    );
    assert_eq!(h.lines.len(), 24);
    assert_eq!(h.lines[0], "; Version: 2.2");
    assert_eq!(h.get("Acknowledge"), Some("Lars Malinowsky"));
    let r = &kth.records[0];
    let want = SwfRecord {
        line: 25,
        job_number: 15,
        submit_time: 599850,
        wait_time: 192180,
        run_time: 3477,
        allocated_processors: 4,
        average_cpu_time: -1.0,
        used_memory: -1.0,
        requested_processors: 4,
        requested_time: 53940,
        requested_memory: -1.0,
        status: 1,
        user_id: 12,
        group_id: 12,
        executable: -1,
        queue: -1,
        partition: -1,
        preceding_job: -1,
        think_time: -1,
        extra: vec![],
        req: Default::default(),
    };
    assert_eq!(r, &want);

    let lanl = swf::read_path(&dir.join("LANL-CM5-1994-4.1-cln.swf.gz"), &opts).unwrap();
    assert_eq!(lanl.records[1].average_cpu_time, 489.0);
    assert_eq!(lanl.records[1].requested_memory, 1024.0);
    assert_eq!(lanl.header.max_queues, Some(18));
    assert_eq!(
        lanl.header
            .fields
            .iter()
            .filter(|(k, _)| k == "Queue")
            .count(),
        18
    );

    let hpc2n = swf::read_path(&dir.join("hpc2n.swf"), &opts).unwrap();
    assert!(hpc2n.records.iter().any(|r| r.average_cpu_time == 552.21));
    assert_eq!(hpc2n.header.max_partitions, Some(2));

    let wagap = swf::read_path(&dir.join("nonstandard/wagap-2013.swf"), &opts).unwrap();
    assert!(wagap.header.lines.is_empty());
    let r = &wagap.records[0];
    // Field 10 in Alea's bytes per node (64 GiB on one node), kept as the file gives it; as
    // SWF's KB per processor 68719476736 / 1024 / 64 = 1048576.
    assert_eq!(
        (r.job_number, r.submit_time, r.requested_memory),
        (0, 1356996147, 68719476736.0)
    );
    assert_eq!(swf::kb_per_processor(r), 1048576.0);
    assert_eq!(
        (r.req.nodes, r.req.mem_per_node_mb, r.req.exclusive),
        (1, 65536, true)
    );
    assert_eq!(r.extra[1], "q_1d");
    assert!(r.extra[0].starts_with("{1241,1241,"));
    assert_eq!(r.extra[2], "1:ppn=64:x86_64:cl_zewura#excl");
}

#[test]
fn real_traces_round_trip() {
    let Some(dir) = data_dir() else { return };
    for t in &TRACES {
        let a = swf::read_path(&dir.join(t.file), &ReadOptions::default()).unwrap();
        let text = written(&a);
        let b = swf::read_bytes("again.swf", &text, &ReadOptions::default()).unwrap();
        assert_eq!(b.issue_count, 0, "{}", b.summary(3));
        assert_eq!(a.header, b.header, "{}", t.file);
        assert_eq!(a.records, b.records, "{}", t.file);
        assert!(!b.gzip);
    }
}

const HAND_MADE: &str = "\
; Version: 2.2
; MaxProcs: 64
; Note: hand-made, with extras and fractional floats
1 0 10 100 4 99.5 1024.25 4 200 0.001 1 1 1 -1 -1 -1 -1 -1
2 5 -1 -1 -1 -1 -1 8 -1 -1 5 2 1 3 0 1 -1 -1 extra_a {1,2,3}
3 7 0 60 2 1e-7 123456789.125 2 60 -1 1 3 2 -1 -1 -1 1 30 x
";

#[test]
fn hand_made_round_trip_with_extras_and_fractions() {
    let opts = ReadOptions::default();
    let a = swf::read_bytes("hand.swf", HAND_MADE.as_bytes(), &opts).unwrap();
    assert_eq!(a.issue_count, 0, "{}", a.summary(3));
    assert_eq!(a.records.len(), 3);
    assert_eq!(a.records[0].used_memory, 1024.25);
    assert_eq!(a.records[1].extra, ["extra_a", "{1,2,3}"]);
    assert_eq!(a.records[2].average_cpu_time, 1e-7);
    let text = written(&a);
    let s = String::from_utf8(text.clone()).unwrap();
    assert!(
        s.contains("\n1 0 10 100 4 99.5 1024.25 4 200 0.001 1 1 1 -1 -1 -1 -1 -1\n"),
        "{s}"
    );
    assert!(s.contains(" 0.0000001 123456789.125 "), "{s}");
    let b = swf::read_bytes("hand.swf", &text, &opts).unwrap();
    assert_eq!(a.header, b.header);
    assert_eq!(a.records, b.records);
    assert_eq!(written(&b), text, "writing is stable");
}

#[test]
fn comments_between_jobs_are_kept_and_written_first() {
    let text = "; A: 1\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n\n; Note: mid\n2 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n";
    let a = swf::read_bytes("mid.swf", text.as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(a.header.lines, ["; A: 1", "; Note: mid"]);
    assert_eq!(a.header.notes, ["mid"]);
    assert_eq!((a.records[0].line, a.records[1].line), (2, 5));
    let b = swf::read_bytes("mid.swf", &written(&a), &ReadOptions::default()).unwrap();
    assert_eq!(b.header, a.header);
    assert_eq!(without_lines(&a), without_lines(&b));
    assert_eq!((b.records[0].line, b.records[1].line), (3, 4));
}

#[test]
fn gzip_is_detected_by_magic_and_parses_identically() {
    let plain = swf::read_bytes("h.swf", HAND_MADE.as_bytes(), &ReadOptions::default()).unwrap();
    let gz = gzip(HAND_MADE.as_bytes());
    // From memory, from a reader, and from a file whose name says nothing about gzip.
    let from_bytes = swf::read_bytes("h.swf", &gz, &ReadOptions::default()).unwrap();
    let from_reader = swf::read("h.swf", &gz[..], &ReadOptions::default()).unwrap();
    let path = std::env::temp_dir().join(format!("swf-gz-test-{}.swf", std::process::id()));
    std::fs::write(&path, &gz).unwrap();
    let from_file = swf::read_path(&path, &ReadOptions::default());
    std::fs::remove_file(&path).unwrap();
    let from_file = from_file.unwrap();
    for w in [&from_bytes, &from_reader, &from_file] {
        assert!(w.gzip);
        assert_eq!(w.header, plain.header);
        assert_eq!(w.records, plain.records);
        assert_eq!(w.issue_count, 0);
    }
    assert!(!plain.gzip);
    // A plain file named .gz is read as plain text.
    let path = std::env::temp_dir().join(format!("swf-plain-test-{}.swf.gz", std::process::id()));
    std::fs::write(&path, HAND_MADE).unwrap();
    let named_gz = swf::read_path(&path, &ReadOptions::default());
    std::fs::remove_file(&path).unwrap();
    assert_eq!(named_gz.unwrap().records, plain.records);
}

#[test]
fn multi_member_gzip_is_read_whole() {
    let (a, b) = HAND_MADE.split_at(HAND_MADE.find("2 5 -1").unwrap());
    let mut gz = gzip(a.as_bytes());
    gz.extend(gzip(b.as_bytes()));
    let plain = swf::read_bytes("h.swf", HAND_MADE.as_bytes(), &ReadOptions::default()).unwrap();
    let w = swf::read("h.swf", &gz[..], &ReadOptions::default()).unwrap();
    assert_eq!(w.records, plain.records);
    assert_eq!(w.issue_count, 0);
}

#[test]
fn real_trace_gzipped_again_parses_identically() {
    let Some(dir) = data_dir() else { return };
    let text = std::fs::read(dir.join("hpc2n.swf")).unwrap();
    let plain = swf::read_bytes("hpc2n.swf", &text, &ReadOptions::default()).unwrap();
    let gz = swf::read("hpc2n.swf", &gzip(&text)[..], &ReadOptions::default()).unwrap();
    assert_eq!(plain.records, gz.records);
    assert_eq!(plain.header, gz.header);
    assert!(gz.gzip && !plain.gzip);
}

/// A file is read on two threads (read or inflated on one, its lines parsed on both, the pieces
/// joined in file order): the same workload as the bytes read in place on one thread, gzip or
/// plain, on every real trace (LANL-CM5 decompressed too: a plain file of 122,060 job lines
/// whose pieces both threads parse).
#[test]
fn files_read_on_two_threads_equal_the_bytes_read_in_place() {
    let Some(dir) = data_dir() else { return };
    let tmp = std::env::temp_dir().join(format!("schedlab-two-threads-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut files: Vec<PathBuf> = TRACES.iter().map(|t| dir.join(t.file)).collect();
    let lanl = std::fs::read(dir.join("LANL-CM5-1994-4.1-cln.swf.gz")).unwrap();
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&lanl[..]), &mut plain).unwrap();
    files.push(tmp.join("lanl-plain.swf"));
    std::fs::write(files.last().unwrap(), &plain).unwrap();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        let in_place = swf::read_bytes(&name, &bytes, &ReadOptions::default()).unwrap();
        let threaded = swf::read_path(path, &ReadOptions::default()).unwrap();
        assert_eq!(threaded, in_place, "{name}");
    }
    std::fs::remove_dir_all(&tmp).unwrap();
}

/// The bound of a plain text's records counted a chunk at a time (as the page counts a file it
/// reads in chunks) is the bound of the whole: lines ended by `\n`, by a lone `\r` when no `\n`
/// comes, never more than one per 36 bytes. Worked out by hand.
#[test]
fn plain_bound_in_chunks_is_the_bound_of_the_whole() {
    let line = "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1";
    let cases = [
        // 3 lines of 48 bytes, `\n` each: 3 ends + 1.
        (format!("{line}\n{line}\n{line}\n"), 4),
        // The same with `\r` only (old Mac): 3 + 1.
        (format!("{line}\r{line}\r{line}\r"), 4),
        // `\r\n`: the `\n`s count (the `\r`s are not counted once a `\n` came).
        (format!("{line}\r\n{line}\r\n"), 3),
        // Forty blank lines in 40 bytes: no more than 40 / 36 + 1.
        ("\n".repeat(40), 2),
    ];
    for (text, want) in cases {
        for chunk in [1, 2, 7, 64, text.len()] {
            let mut bound = schedlab::swf::PlainBound::default();
            for part in text.as_bytes().chunks(chunk) {
                bound.add(part);
            }
            assert_eq!(bound.finish(), want, "{text:?} in chunks of {chunk}");
        }
    }
}
