//! Issue 37 item 10: a run that simulated no job (historic on a trace without waits, as SWF
//! converted through Batsim was) shows "-" for its figures, never zeros starred best.

use crate::common::{schedlab, tmpdir};

#[test]
fn a_run_of_no_job_shows_no_figures_and_no_star() {
    let t = tmpdir("table", "nowait").join("nowait.swf");
    std::fs::write(
        &t,
        "; MaxProcs: 4\n1 0 -1 60 2 -1 -1 2 120 -1 1 7 1 -1 -1 -1 -1 -1\n\
         2 5 -1 30 4 -1 -1 4 60 -1 1 8 1 -1 -1 -1 -1 -1\n",
    )
    .unwrap();
    let t = t.to_str().unwrap();
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
