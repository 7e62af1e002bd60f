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

/// A job the node selection cannot place is said to be that, not "no arrangement ... holds",
/// in words ("1 core", no "0 MB per core" for a job asking none): job 2, 1 core and 8 GPUs on
/// nodes of 4 GPUs. Job 1, 2 cores and 8 GPUs, runs on two nodes, one core and 4 GPUs each.
#[test]
fn a_job_the_selection_cannot_place_is_told_as_such() {
    let dir = crate::common::tmpdir("newcomer", "gpus");
    let t = dir.join("gpus.swf");
    std::fs::write(
        &t,
        "; MaxProcs: 32\n; GpuField: 19\n\
         1 0 -1 30 2 -1 -1 2 60 -1 1 7 1 -1 -1 -1 -1 -1 8\n\
         2 5 -1 30 1 -1 -1 1 60 -1 1 8 1 -1 -1 -1 -1 -1 8\n",
    )
    .unwrap();
    let cluster = "1/n[1-4]:c8:g4/p=b:ALL:default";
    let (ok, _, err) = schedlab(&[
        "run",
        t.to_str().unwrap(),
        "-p",
        "easy",
        "--cluster",
        cluster,
    ]);
    assert!(ok, "{err}");
    let said = "the node selection (cores taken node by node, each node's free GPUs with them) \
                finds no place in partition b for";
    assert!(!err.contains("job 1:"), "{err}");
    assert!(
        err.contains(&format!(
            "job 2: {said} 1 core, 8 GPUs on any number of nodes"
        )),
        "{err}"
    );
    assert!(
        !err.contains("arrangement") && !err.contains("MB per"),
        "{err}"
    );
}

/// A chart named `.jpg` (or without an extension) was written as SVG under that name; it is
/// refused before any run, naming the two formats, by every command that draws one.
#[test]
fn a_chart_file_must_be_svg_or_png() {
    let dir = crate::common::tmpdir("newcomer", "chartext");
    let trace = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/workloads/hand.swf");
    for name in ["chart.jpg", "chart"] {
        let out = dir.join(name);
        let out = out.to_str().unwrap();
        let commands: [&[&str]; 4] = [
            &["plot", trace, "-p", "easy", "--out", out],
            &[
                "sweep",
                trace,
                "-p",
                "easy",
                "--vary",
                "order=fcfs,sjf",
                "--out",
                out,
            ],
            &["trace", trace, "--chart", "hour", "--out", out],
            &["merge", "part.json", "--out", out],
        ];
        for args in commands {
            let (ok, _, err) = schedlab(args);
            assert!(!ok, "{args:?}");
            assert!(
                err.contains(&format!(
                    "--out {out}: a chart is written as .svg or .png, chosen by the file name's \
                     extension"
                )),
                "{args:?}: {err}"
            );
            assert!(!std::path::Path::new(out).exists(), "{args:?}");
        }
    }
    // A device takes SVG.
    let (ok, _, err) = schedlab(&["trace", trace, "--chart", "hour", "--out", "/dev/null"]);
    assert!(ok, "{err}");
    let svg = dir.join("chart.SVG");
    let (ok, _, err) = schedlab(&[
        "trace",
        trace,
        "--chart",
        "hour",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
}

/// A window that leaves no job says where the trace's jobs are (in seconds of its clock and,
/// with a start time, as dates): a date given for a log of another day read only as "window
/// [209697, end) s of the trace's clock".
#[test]
fn an_empty_window_says_when_the_jobs_are() {
    let log = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/slurm/gpu-3/run1/sacct.txt"
    );
    let (ok, _, err) = schedlab(&["run", log, "-p", "easy", "--from", "2026-11-30T00:00:00"]);
    assert!(!ok);
    assert!(
        err.contains(
            "60 jobs outside left out; the trace's jobs are submitted from 0 s \
             (2026-11-27T13:45:03) to 203 s (2026-11-27T13:48:26))"
        ),
        "{err}"
    );
    let swf = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/workloads/hand.swf");
    let (ok, _, err) = schedlab(&["run", swf, "-p", "easy", "--to=-1"]);
    assert!(!ok);
    // A trace without a header: the selection is the error given, not the machine size of 0
    // that no job left (it said "machine size 0 is not usable").
    assert!(
        err.contains("no job can be simulated: the selection left none (window [start, -1)"),
        "{err}"
    );
    assert!(
        err.contains("; the trace's jobs are submitted from 0 s to "),
        "{err}"
    );
    assert!(!err.contains(" s (20"), "no start time, no date: {err}");
}

/// A Batsim JSON file cut short names the place once ("line 3, column 9: EOF while parsing a
/// value", not "... at line 3 column 9" again).
#[test]
fn a_broken_json_names_its_place_once() {
    let dir = crate::common::tmpdir("newcomer", "json");
    let t = dir.join("cut.json");
    std::fs::write(&t, "{\"nb_res\": 4,\n \"jobs\": [\n  {\"id\": 1,").unwrap();
    let (ok, _, err) = schedlab(&["run", t.to_str().unwrap(), "-p", "easy"]);
    assert!(!ok);
    assert!(
        err.contains("not a Batsim JSON workload: line 3, column 11: EOF while parsing"),
        "{err}"
    );
    assert!(!err.contains(" at line "), "{err}");
}

/// `replay sacct.txt --slurm-conf slurm.conf` without -p was clap's "required" error: with a
/// Slurm site given the site's policy, `slurm`, is compared (and stderr says so); without a
/// site the error names what to give.
#[test]
fn replay_with_a_site_and_no_policy_compares_slurm() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/slurm/gpu-3/run1");
    let sacct = format!("{dir}/sacct.txt");
    let conf = format!("{dir}/slurm.conf");
    let (ok, out, err) = schedlab(&["replay", &sacct, "--slurm-conf", &conf]);
    assert!(ok, "{err}");
    assert!(err.contains("no -p given: comparing slurm"), "{err}");
    assert!(out.contains("slurm: "), "{out}");
    let (ok, out, err) = schedlab(&["replay", &sacct]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("give one or more with -p") && err.contains("--slurm-conf"),
        "{err}"
    );
}

/// `bench --instant 0` was refused as `generate: jobs 0: ...` after the table's heading, naming
/// no flag; the flags take 1 to the generator's most, said by clap with the flag.
#[test]
fn bench_sizes_name_their_flag() {
    for flag in ["--instant", "--gpu-cluster"] {
        let (ok, out, err) = schedlab(&["bench", flag, "0"]);
        assert!(!ok, "{out}");
        assert!(
            err.contains(&format!("invalid value '0' for '{flag} <N>'"))
                && err.contains("a number of jobs from 1 to 10000000"),
            "{err}"
        );
        assert!(!out.contains("trace"), "{out}");
    }
}

/// `replay --debug-log` with a file holding no backfill cycle of the run (here the sacct log
/// itself, as a mistaken argument) had every instant run no cycle, said only as "0 backfill
/// cycles": `slurm`'s recall fell from 78% to 33%. It is an error naming the file; the run's
/// own log still reads.
#[test]
fn a_debug_log_without_the_runs_cycles_is_refused() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/slurm/smallbf-2/run4"
    );
    let (sacct, conf) = (format!("{dir}/sacct.txt"), format!("{dir}/slurm.conf"));
    let replay = |log: &str| {
        let args = ["replay", &sacct, "--slurm-conf", &conf, "-p", "slurm"];
        schedlab(&[&args[..], &["--debug-log", log]].concat())
    };
    let (ok, out, err) = replay(&sacct);
    assert!(!ok, "{out}");
    assert!(
        err.contains("sacct.txt: no backfill cycle within the run")
            && err.contains("(0 `_attempt_backfill: beginning` lines in all)"),
        "{err}"
    );
    let (ok, out, err) = replay(&format!("{dir}/slurmctld.log.gz"));
    assert!(ok, "{err}");
    // Its 84 `_attempt_backfill: beginning` lines (zgrep -c), each a cycle.
    assert!(err.contains("84 backfill cycles"), "{err}");
    assert!(out.starts_with("slurm: "), "{out}");
}

/// `replay --whole-run --noise OTHER` measures two runs of one workload apart; a log of another
/// workload (gpu-3's beside smallbf-2's, both 60 jobs) gave a noise floor as readily, and
/// nothing said so. A run of the same workload says nothing more.
#[test]
fn a_noise_log_of_another_workload_is_said_to_be_one() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/slurm");
    let run = format!("{data}/smallbf-2/run4");
    let noise = |other: &str| {
        schedlab(&[
            "replay",
            &format!("{run}/sacct.txt"),
            "--slurm-conf",
            &format!("{run}/slurm.conf"),
            "-p",
            "easy",
            "--whole-run",
            "--noise",
            &format!("{data}/{other}/sacct.txt"),
        ])
    };
    let (ok, out, err) = noise("gpu-3/run1");
    assert!(ok, "{err}");
    assert!(out.contains("noise floor"), "{out}");
    assert!(
        err.contains(
            "gpu-3/run1/sacct.txt: not a run of this log's workload (60 jobs here, 60 there;"
        ) && err.contains("the noise floor compares two workloads"),
        "{err}"
    );
    let (ok, out, err) = noise("smallbf-2/run1");
    assert!(ok, "{err}");
    assert!(out.contains("noise floor"), "{out}");
    assert!(!err.contains("not a run of"), "{err}");
}

/// `bench` measured every trace before it named a bad spec (`-p eazy` ran the parse and the
/// expected end times first, then printed "failed" in the table), and a trace that could not
/// be read was a row of the table with exit status 0. A bad spec is refused before the table;
/// a trace that cannot be read is said, the others measured, and the status is 1.
#[test]
fn bench_refuses_a_bad_spec_first_and_fails_on_an_unreadable_trace() {
    let hpc2n = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hpc2n.swf");
    let (ok, out, err) = schedlab(&["bench", hpc2n, "-p", "eazy", "--repeat", "1"]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("unknown policy \"eazy\" (did you mean \"easy\"?)"),
        "{err}"
    );
    assert!(!out.contains("parse"), "{out}");
    let dir = crate::common::tmpdir("bench", "empty");
    let empty = dir.join("empty.swf");
    std::fs::write(&empty, "").unwrap();
    let small = dir.join("small.swf");
    std::fs::write(&small, "1 0 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n").unwrap();
    let (ok, out, err) = schedlab(&[
        "bench",
        empty.to_str().unwrap(),
        small.to_str().unwrap(),
        "-p",
        "fcfs",
        "--repeat",
        "1",
    ]);
    assert!(!ok, "{out}");
    assert!(out.contains("small.swf") && out.contains("fcfs"), "{out}");
    assert!(err.contains("empty.swf: no jobs: empty file"), "{err}");
}
