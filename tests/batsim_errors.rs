//! A bad Batsim workload is reported in Batsim's words: every message names the file, the job
//! (its place in `jobs` and its id or job number) and the Batsim key (`subtime`, `walltime`,
//! `res`, `profile`, ...), never an SWF line or field. The reader's paths
//! (`src/workload/batsim.rs`), the input rules' (`src/input/skip.rs`, with
//! `swf::words::Words::Batsim`) and the CLI's report of both.

use crate::common::{schedlab, tmpdir};
use schedlab::input::InputOptions;
use schedlab::swf::{ReadOptions, SwfError, Workload};

/// One job `job` (JSON, its keys without braces) after a good one, with a delay profile `d`
/// of 10 s and the profiles `more`.
fn doc(job: &str, more: &str) -> String {
    format!(
        r#"{{"nb_res": 4, "jobs": [
          {{"id": 1, "subtime": 0, "res": 1, "profile": "d"}},
          {{{job}}}],
          "profiles": {{"d": {{"type": "delay", "delay": 10}}{more}}}}}"#
    )
}

fn read(text: &str, strict: bool) -> Result<Workload, SwfError> {
    let opts = ReadOptions {
        strict,
        ..ReadOptions::default()
    };
    schedlab::workload::read_bytes("w.json", text.as_bytes(), &opts)
}

/// Each bad job is skipped with its place, id and key; in strict mode it is the error, with
/// the file's name.
#[test]
fn every_bad_job_names_its_place_id_and_batsim_key() {
    let p = r#", "p": {"type": "parallel_homogeneous", "cpu": 1}, "n": {"type": "delay"}, "m": {"type": "delay", "delay": -3}, "h": {"type": "delay", "delay": 1e300}"#;
    let cases: &[(&str, &str)] = &[
        (
            r#""subtime": 0, "res": 1, "profile": "d""#,
            "jobs[1].id: missing",
        ),
        (
            r#""id": 1e30, "subtime": 0, "res": 1, "profile": "d""#,
            "jobs[1] (id 1e+30).id: 1e+30 is not a job number",
        ),
        (
            r#""id": "w!7", "res": 1, "profile": "d""#,
            "jobs[1] (id w!7).subtime: missing",
        ),
        (
            r#""id": 7, "subtime": "soon", "res": 1, "profile": "d""#,
            "jobs[1] (id 7).subtime: not a number: \"soon\"",
        ),
        (
            r#""id": 7, "subtime": -1, "res": 1, "profile": "d""#,
            "jobs[1] (id 7).subtime: negative: -1",
        ),
        (
            r#""id": 7, "subtime": 1e300, "res": 1, "profile": "d""#,
            "jobs[1] (id 7).subtime: 1e+300 s is beyond 2^53 s",
        ),
        (
            r#""id": 7, "subtime": 0, "walltime": "1h", "res": 1, "profile": "d""#,
            "jobs[1] (id 7).walltime: not a number: \"1h\"",
        ),
        (
            r#""id": 7, "subtime": 0, "wall_time": 1e300, "res": 1, "profile": "d""#,
            "jobs[1] (id 7).walltime: 1e+300 s is beyond 2^53 s",
        ),
        (
            r#""id": 7, "subtime": 0, "profile": "d""#,
            "jobs[1] (id 7).res: missing",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1.5, "profile": "d""#,
            "jobs[1] (id 7).res: not a positive whole number: 1.5",
        ),
        // Batsim reads `res`, `subtime` and `walltime` as JSON numbers (rapidjson's IsInt /
        // IsNumber in its jobs.cpp) and refuses a number written as a string: so do we,
        // saying how to write it.
        (
            r#""id": 7, "subtime": 0, "res": "4", "profile": "d""#,
            "jobs[1] (id 7).res: \"4\" is a string, not a number (Batsim reads res as a JSON number: write 4)",
        ),
        (
            r#""id": 7, "subtime": " 12.5", "res": 1, "profile": "d""#,
            "jobs[1] (id 7).subtime: \" 12.5\" is a string, not a number (Batsim reads subtime as a JSON number: write 12.5)",
        ),
        (
            r#""id": 7, "subtime": "NaN", "res": 1, "profile": "d""#,
            "jobs[1] (id 7).subtime: not a number: \"NaN\"",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1"#,
            "jobs[1] (id 7).profile: missing",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1, "profile": "x""#,
            "jobs[1] (id 7).profile: no profile named \"x\" in \"profiles\"",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1, "profile": "p""#,
            "jobs[1] (id 7).profile: profile \"p\" is of type \"parallel_homogeneous\"",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1, "profile": "n""#,
            "jobs[1] (id 7).profile: profile \"n\" has no delay",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1, "profile": "m""#,
            "jobs[1] (id 7).profile: profile \"m\": negative delay -3",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1, "profile": "h""#,
            "jobs[1] (id 7).profile.delay: 1e+300 s is beyond 2^53 s",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1, "profile": "d", "gpus": -1"#,
            "jobs[1] (id 7).gpus: not a whole number from 0 to",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1, "profile": "d", "exclusive": 1"#,
            "jobs[1] (id 7).exclusive: not true or false: 1",
        ),
        (
            r#""id": 7, "subtime": 0, "res": 1, "profile": "d", "partition": """#,
            "jobs[1] (id 7).partition: not a partition name",
        ),
    ];
    for (job, want) in cases {
        let w = read(&doc(job, p), false).unwrap();
        assert_eq!(w.records.len(), 1, "{job}");
        let summary = w.summary(1);
        assert!(
            summary.starts_with(&format!("w.json: 1 job, 1 job skipped; first: {want}")),
            "{job}: {summary}"
        );
        assert!(
            !summary.contains("line") && !summary.contains("field "),
            "{summary}"
        );
        let e = read(&doc(job, p), true).unwrap_err().to_string();
        assert!(e.starts_with(&format!("w.json: {want}")), "{job}: {e}");
    }
    // A job that is no object has no id to name.
    let e = read(&doc("", p).replace("{}]", "7]"), true).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("w.json: jobs[1]: not a JSON object"),
        "{e}"
    );
}

/// What is wrong with the workload as a whole names the file and Batsim's key.
#[test]
fn a_bad_workload_names_the_file_and_its_key() {
    let cases: &[(&str, &str)] = &[
        ("{\"nb_res\": 4, \"jobs\": [", "w.json: no jobs: not a Batsim JSON workload: line 1, column"),
        ("{\"nb_res\": 4}", "w.json: no jobs: not a Batsim workload: no \"jobs\" array"),
        ("{\"nb_res\": 4, \"jobs\": []}", "w.json: no jobs: the \"jobs\" array is empty"),
        (
            "{\"nb_res\": 0, \"jobs\": []}",
            "w.json: no jobs: not a usable Batsim workload: nb_res 0 is not a number of resources",
        ),
        (
            "{\"nb_res\": 4, \"jobs\": [{\"id\": 3, \"res\": 1}]}",
            "w.json: no jobs: none of the 1 jobs could be read; first: jobs[0] (id 3).subtime: missing",
        ),
    ];
    for (text, want) in cases {
        let e = read(text, false).unwrap_err().to_string();
        assert!(e.starts_with(want), "{text}: {e}");
    }
}

/// The input rules speak of a Batsim job by its place in `jobs` and of its fields by Batsim's
/// keys: worked by hand on 4 resources, jobs[1] (id 7) asks `res` 8 (wider than the machine),
/// jobs[2] repeats id 1 (first at jobs[0]), jobs[3] (id "x", numbered by its place: job 4)
/// has `swf_status` 5 (skipped by option), jobs[4] (id 9) runs 0 s (skipped by option).
#[test]
fn the_input_rules_speak_batsims_words() {
    let text = r#"{"nb_res": 4, "jobs": [
      {"id": 1, "subtime": 0, "res": 1, "profile": "d"},
      {"id": 7, "subtime": 1, "res": 8, "profile": "d"},
      {"id": 1, "subtime": 2, "res": 1, "profile": "d"},
      {"id": "x", "subtime": 3, "res": 1, "profile": "d", "swf_status": 5},
      {"id": 9, "subtime": 4, "res": 1, "profile": "z"}],
      "profiles": {"d": {"type": "delay", "delay": 10}, "z": {"type": "delay", "delay": 0}}}"#;
    let input = InputOptions {
        skip_status: vec![5],
        skip_zero_runtime: true,
        ..InputOptions::default()
    };
    let (_, set) =
        schedlab::run::read_bytes("w.json", text.as_bytes(), &ReadOptions::default(), &input)
            .unwrap();
    let got: Vec<String> = set
        .skipped
        .iter()
        .map(|s| format!("{}: {}", set.words.job(s.line, s.id), s.reason))
        .collect();
    assert_eq!(
        got,
        [
            "jobs[1] (job 7): res: 8 processors, wider than the machine (4)",
            "jobs[2] (job 1): id: duplicate job number 1 (first at jobs[0])",
            "jobs[3] (job 4): swf_status: status 5 is skipped by option",
            "jobs[4] (job 9): profile (its delay): zero runtime is skipped by option",
        ]
    );
    // The CLI says the file, then each job.
    let dir = tmpdir("batsim", "words");
    let path = dir.join("w.json");
    std::fs::write(&path, text).unwrap();
    let (ok, _, err) = schedlab(&[
        "run",
        path.to_str().unwrap(),
        "-p",
        "fcfs",
        "--skip-status",
        "5",
        "--skip-zero-runtime",
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("w.json: 4 jobs skipped by the input rules; first:\n  jobs[1] (job 7): res:"),
        "{err}"
    );
    assert!(!err.contains("field ") && !err.contains("line"), "{err}");
    // With no job left, the error names the file and the first job.
    let one = r#"{"nb_res": 4, "jobs": [{"id": 5, "subtime": 0, "res": 9, "profile": "d"}],
      "profiles": {"d": {"type": "delay", "delay": 10}}}"#;
    let e = schedlab::run::read_bytes(
        "w.json",
        one.as_bytes(),
        &ReadOptions::default(),
        &InputOptions::default(),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        e.starts_with(
            "w.json: no job can be simulated (1 skipped; first: jobs[0] (job 5): res: 9 processors"
        ),
        "{e}"
    );
}
