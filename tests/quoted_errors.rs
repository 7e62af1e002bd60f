//! Messages show a user's value as written, between plain double quotes (`src/quote.rs`), never
//! in Rust's Debug form (`"{\"name\": 1}"`), and still name the file, line and field: one
//! hand-made bad input per source of values (a QOS file, a slurm.conf, an SWF line, a policy
//! spec, a share link's parameter).

use schedlab::cluster::conf;
use schedlab::metrics::catalogue;
use schedlab::slurm::qos;
use schedlab::swf::{self, ReadOptions};

/// `msg` holds each of `want` and no backslash-escaped quote (a backslash the user wrote is
/// shown once: `"1\0"`, where Debug doubles it).
fn check(msg: &str, want: &[&str]) {
    assert!(!msg.contains("\\\""), "an escaped quote: {msg}");
    for w in want {
        assert!(msg.contains(w), "{w:?} missing from: {msg}");
    }
}

#[test]
fn a_qos_files_priority() {
    let e = qos::parse("Name|Priority\nnormal|\"5\"\n", "qos.txt").unwrap_err();
    check(
        &e,
        &["qos.txt:2", "Priority", r#"""5"" is not a whole number"#],
    );
}

#[test]
fn a_slurm_confs_weight() {
    let e = conf::parse_str("NodeName=n1 CPUs=4 Weight=1\\0\n", "slurm.conf")
        .unwrap_err()
        .to_string();
    check(&e, &["slurm.conf:1", "Weight", r#""1\0""#]);
}

#[test]
fn an_swf_lines_field() {
    let line = "1 0 10 1\"0 4 -1 -1 4 200 -1 1 1 1 -1 -1 -1 -1 -1\n";
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    let e = swf::read_bytes("t.swf", line.as_bytes(), &strict)
        .unwrap_err()
        .to_string();
    check(&e, &["line 1", "field 4 (run_time)", r#""1"0""#]);
}

#[test]
fn a_policy_specs_value() {
    let e = schedlab::policy::build("easy[predictor=la\"st]")
        .err()
        .expect("a bad predictor is refused")
        .to_string();
    check(&e, &["predictor", r#""la"st""#]);
}

#[test]
fn a_share_links_metric() {
    // `sweepmetric=w"ait` in a link, read as the CLI's `--metric`.
    let e = catalogue::lookup("w\"ait").unwrap_err();
    check(&e, &[r#"metric "w"ait""#]);
}
