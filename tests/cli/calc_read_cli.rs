//! `slurm[calc_phase=read]` says why it read no phase, and reads a JSON dump's priorities as a
//! `-P` log's `Priority` column: json-16, one real Slurm 22.05 run dumped both ways.

use crate::common::{schedlab, tmpdir};

const RUN: &str = "tests/data/slurm/json-16";

/// `schedlab replay` of json-16's `log` (`sacct.txt` or `sacct.json`) with its site, `more`
/// after: (ok, stdout, stderr).
fn replay(log: &str, more: &[&str]) -> (bool, String, String) {
    let (log, conf, sshare) = (
        format!("{RUN}/{log}"),
        format!("{RUN}/slurm.conf"),
        format!("{RUN}/sshare-start.txt"),
    );
    let mut args = vec!["replay", &log, "--slurm-conf", &conf, "--sshare", &sshare];
    args.extend(more);
    schedlab(&args)
}

/// The phases note of a run's stderr.
fn note(err: &str) -> &str {
    err.lines()
        .find(|l| l.starts_with("sacct log: the loops' phases"))
        .unwrap_or("")
}

/// The same run's `-P` export and JSON dump record the same priorities: the replay reads the
/// same half minute from each and makes the same decisions, the ends' sides told alike.
#[test]
fn a_json_dump_gives_the_replay_of_its_p_export() {
    let spec = ["-p", "slurm[calc_phase=read]", "-p", "slurm"];
    let (ok, p_out, p_err) = replay("sacct.txt", &spec);
    assert!(ok, "{p_err}");
    let (ok, j_out, j_err) = replay("sacct.json", &spec);
    assert!(ok, "{j_err}");
    assert!(note(&p_err).contains("calc_phase="), "{p_err}");
    assert!(!note(&p_err).contains("read none"), "{p_err}");
    assert_eq!(note(&p_err), note(&j_err));
    assert_eq!(p_out, j_out);
    let sides = |e: &str| -> Vec<String> {
        (e.lines())
            .filter(|l| l.contains("Priority column tells the side"))
            .map(String::from)
            .collect()
    };
    assert_eq!(sides(&p_err), sides(&j_err));
}

/// A log without `Priority` (json-16's export without that column): the note says why no
/// phase was read; with `--no-priorities`, that. `schedlab run` reads none: it says so.
#[test]
fn calc_phase_read_says_why_it_read_none() {
    let d = tmpdir("calc-read", "none");
    let text = std::fs::read_to_string(format!("{RUN}/sacct.txt")).unwrap();
    let head = text.lines().next().unwrap();
    let col = head.split('|').position(|c| c == "Priority").unwrap();
    let without: Vec<String> = (text.lines())
        .map(|l| {
            let mut f: Vec<&str> = l.split('|').collect();
            f.remove(col);
            f.join("|")
        })
        .collect();
    let log = d.join("sacct.txt");
    std::fs::write(&log, without.join("\n") + "\n").unwrap();
    let (log, conf) = (log.to_str().unwrap(), format!("{RUN}/slurm.conf"));
    let read = ["-p", "slurm[calc_phase=read]", "--slurm-conf", &conf];
    let (ok, _, err) = schedlab(&[&["replay", log][..], &read].concat());
    assert!(ok, "{err}");
    assert!(
        note(&err).contains(
            "; calc_phase=read read none (the log records no job's priority: an sacct log \
             without its Priority column"
        ),
        "{err}"
    );
    let (ok, _, err) = replay(
        "sacct.txt",
        &["-p", "slurm[calc_phase=read]", "--no-priorities"],
    );
    assert!(ok, "{err}");
    assert!(
        note(&err).contains("calc_phase=read read none (--no-priorities)"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&[&["run", log][..], &read].concat());
    assert!(ok, "{err}");
    assert!(
        note(&err).contains("calc_phase=read read none (only schedlab replay reads it"),
        "{err}"
    );
    // Asked of a trace that is no sacct log: said too.
    let (ok, _, err) = schedlab(&[
        "run",
        "tests/data/hpc2n.swf",
        "-p",
        "slurm[calc_phase=read]",
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("calc_phase=read read none (the trace is no sacct log"),
        "{err}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}
