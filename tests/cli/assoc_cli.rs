//! `--assoc`: the association limits of `sacctmgr show assoc format=Cluster,Account,User,
//! Partition,ParentName,Share,GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall -P` for the `slurm` policy,
//! each job's account from the sacct log's `Account` column.

use crate::common::{schedlab, tmpdir};

/// The page's fixture (tests/browser/fixtures/assoc-sacct.txt, assoc.txt): three jobs of 2
/// processors on the log's 4, 100 s each, ann's 1 and 2 in phys at 0, bob's 3 in chem at 10.
/// Limits enforced: with ann's MaxJobs=1 job 2 is held to 100 and job 3 starts at 10 (the
/// backfill cycle its submission wakes); without the file 1 and 2 start at 0 and 3 at 100, as
/// with the file when the limits are not enforced. An assoc file without an account of the log
/// is said on stderr.
#[test]
fn assoc_limits_hold_a_users_second_job() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/fixtures");
    let (log, assoc) = (dir.join("assoc-sacct.txt"), dir.join("assoc.txt"));
    let d = tmpdir("cli", "assoc");
    let starts = |spec: &str, extra: &[&str]| {
        let csv = d.join("jobs.csv");
        let args = [
            &["run", log.to_str().unwrap(), "-p", spec][..],
            extra,
            &["--jobs-csv", csv.to_str().unwrap()][..],
        ]
        .concat();
        let (ok, _, err) = schedlab(&args);
        assert!(ok, "{err}");
        let text = std::fs::read_to_string(&csv).unwrap();
        let mut lines = text.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let start = head.iter().position(|h| *h == "starting_time").unwrap();
        let starts = lines
            .map(|l| l.split(',').nth(start).unwrap().to_string())
            .collect::<Vec<_>>();
        (starts, err)
    };
    let on = "slurm[AccountingStorageEnforce=(associations,limits)]";
    let a = assoc.to_str().unwrap();
    let (with, err) = starts(on, &["--assoc", a]);
    assert_eq!(with, ["0", "100", "10"]);
    assert!(!err.contains("not in it"), "{err}");
    assert_eq!(starts(on, &[]).0, ["0", "0", "100"]);
    assert_eq!(starts("slurm", &["--assoc", a]).0, ["0", "0", "100"]);
    // A file without chem: said on stderr (its jobs are held by no association limit).
    let part = d.join("part.txt");
    std::fs::write(&part, "Account|User|MaxJobs\nphys||\nphys|ann|1\n").unwrap();
    let (with, err) = starts(on, &["--assoc", part.to_str().unwrap()]);
    assert_eq!(with, ["0", "100", "10"]);
    assert!(
        err.contains("part.txt: 1 of the log's 2 accounts is not in it (chem): its jobs are held by no association limit"),
        "{err}"
    );
}

#[test]
fn a_bad_assoc_file_names_file_line_and_field() {
    let d = tmpdir("cli", "assoc-bad");
    let run = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm/gpu-3/run1");
    let sacct = run.join("sacct.txt");
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "Account|User|GrpTRES\nphys||\nphys|ann|cpu=lots\n").unwrap();
    let (s, b) = (sacct.to_str().unwrap(), bad.to_str().unwrap());
    for cmd in ["run", "replay"] {
        let (ok, _, err) = schedlab(&[cmd, s, "-p", "slurm", "--assoc", b]);
        assert!(!ok && err.contains("bad.txt:3: GrpTRES: "), "{cmd}: {err}");
    }
    let (ok, _, err) = schedlab(&[
        "sweep",
        s,
        "-p",
        "slurm",
        "--vary",
        "bf_window=1,2",
        "--assoc",
        b,
    ]);
    assert!(!ok && err.contains("bad.txt:3: GrpTRES"), "sweep: {err}");
}
