//! Issue 37 item 10: a run that simulated no job (historic on a trace without waits, as SWF
//! converted through Batsim was) shows "-" for its figures, never zeros starred best.

use crate::common::{schedlab, tmpdir};

/// `text` written as `NAME.swf` in a directory of its own; its path.
fn swf(name: &str, text: &str) -> String {
    let t = tmpdir("table", name).join(format!("{name}.swf"));
    std::fs::write(&t, text).unwrap();
    t.to_str().unwrap().to_owned()
}

#[test]
fn a_run_of_no_job_shows_no_figures_and_no_star() {
    let t = &swf(
        "nowait",
        "; MaxProcs: 4\n1 0 -1 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1\n\
         2 5 -1 30 4 -1 -1 4 60 -1 1 8 1 -1 -1 -1 -1 -1\n",
    );
    let (ok, out, err) = schedlab(&["run", t, "-p", "fcfs", "-p", "historic"]);
    assert!(ok, "{err}");
    let line = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} row: {out}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(line("jobs")[1..], ["2", "0"]);
    let wait = line("mean wait (s)");
    // Job 2 (4 processors) waits for job 1 to end at 60: waits 0 and 55.
    assert_eq!(wait[3..], ["27.5*", "-"], "{out}");
    let mbs = line("mean bsld (MBS)");
    assert!(!mbs[4].contains('*') && mbs[4] == "-", "{out}");
}

/// A run on a cluster: the jobs that can never run there are left out, and the line above the
/// table counts them as the `jobs` and `skipped` rows do (it said "3 jobs simulated, 0 skipped"
/// while the table said 2 and 1).
#[test]
fn the_trace_line_counts_the_jobs_a_cluster_can_never_run() {
    // Two nodes of 4 cores, one partition of MaxTime 1 minute: job 2 asks for 120 s, over it.
    let t = &swf(
        "never",
        "; MaxProcs: 8\n1 0 -1 30 2 -1 -1 2 60 -1 1 7 1 -1 -1 -1 -1 -1\n\
         2 5 -1 30 2 -1 -1 2 120 -1 1 8 1 -1 -1 -1 -1 -1\n\
         3 9 -1 30 4 -1 -1 4 60 -1 1 8 1 -1 -1 -1 -1 -1\n",
    );
    let cluster = "1/n[1-2]:c4/p=batch:ALL:default:t1";
    let (ok, out, err) = schedlab(&["run", t, "-p", "easy", "--cluster", cluster]);
    assert!(ok, "{err}");
    assert!(
        out.contains("2 jobs simulated, 1 skipped (1 can never run on the cluster),"),
        "{out}"
    );
    // No node states memory: the line says so in words ("not counted of memory" before).
    assert!(
        out.contains("cluster: 8 cores, memory not counted, 0 GPUs on its usable nodes"),
        "{out}"
    );
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_owned()
    };
    assert_eq!(row("jobs").split_whitespace().nth(1), Some("2"), "{out}");
    assert_eq!(row("skipped").split_whitespace().nth(1), Some("1"), "{out}");
}

/// Every row of the table is as long as the header: each label fits the label column, so every
/// row's values sit under their policy (five labels, "mean width-normalized sld" the longest,
/// ran 1 to 3 characters past a 22-character column and pushed their row's values right). With
/// the node model (and conservative's guarantee figures), then on a cluster, every family of the
/// registry is printed.
#[test]
fn every_row_of_the_table_lines_up_under_the_header() {
    let t = &swf(
        "aligned",
        "; MaxProcs: 8\n1 0 -1 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1\n\
         2 5 -1 30 8 -1 -1 8 60 -1 1 8 1 -1 -1 -1 -1 -1\n\
         3 9 -1 30 4 -1 -1 4 60 -1 1 8 1 -1 -1 -1 -1 -1\n",
    );
    let cluster = "1/n[1-2]:c4/p=batch:ALL:default";
    let nodes = [
        "mean width-normalized sld",
        "[nodes] mean penalized %",
        "later than promised (%)",
    ];
    let on_cluster = ["[cluster] frag. GPUs %"];
    for (extra, labels) in [
        (&["--nodes"][..], &nodes[..]),
        (&["--cluster", cluster][..], &on_cluster[..]),
    ] {
        let mut args = vec!["run", t, "-p", "conservative", "-p", "easy"];
        args.extend_from_slice(extra);
        let (ok, out, err) = schedlab(&args);
        assert!(ok, "{err}");
        let lines: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.starts_with("metric "))
            .take_while(|l| !l.is_empty())
            .collect();
        let width = lines[0].chars().count();
        assert!(lines.len() > 20, "{out}");
        for l in &lines {
            assert_eq!(l.chars().count(), width, "{l:?} in\n{out}");
        }
        for label in labels {
            assert!(lines.iter().any(|l| l.starts_with(label)), "{label}: {out}");
        }
    }
}
