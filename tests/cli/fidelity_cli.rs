//! Issue 34 items 3 and 4 as a cluster admin meets them on the command line, on the committed
//! real Slurm run gpu-3/run1 (60 jobs, its slurm.conf and sshare file).

use crate::common::{schedlab, tmpdir};

const RUN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/slurm/gpu-3/run1");

fn file(name: &str) -> String {
    format!("{RUN}/{name}")
}

/// `--fidelity` labels each policy as the table above it does: a `slurm` spec with the
/// slurm.conf's keys merged in is `slurm (1)`, given in full under the table. Before, the
/// section cut every spec at 48 characters, so `-p slurm -p 'slurm[bf_window=1]'` gave two rows
/// (and two "Furthest off under" headings) reading `slurm[PriorityWeightAge=5000,PriorityWeightFair…`.
/// `historic` on the log's own cluster is the recorded schedule (every error 0): one line
/// says so instead of a table of zeros.
#[test]
fn fidelity_labels_policies_as_the_table_does() {
    let (sacct, conf) = (file("sacct.txt"), file("slurm.conf"));
    let (ok, out, err) = schedlab(&[
        "run",
        &sacct,
        "--slurm-conf",
        &conf,
        "-p",
        "historic",
        "-p",
        "slurm",
        "-p",
        "slurm[bf_window=1]",
        "--fidelity",
        "2",
    ]);
    assert!(ok, "{err}");
    let section = &out[out.find("Recorded against simulated wait").expect(&out)..];
    let first = |l: &str| l.split("  ").next().unwrap().trim().to_string();
    let rows: Vec<String> = section.lines().skip(2).take(3).map(first).collect();
    assert_eq!(
        rows,
        ["historic", "slurm (1)", "slurm[bf_window=1] (2)"],
        "{out}"
    );
    assert!(
        section.contains("\nhistoric: every job starts at its recorded wait\n"),
        "{out}"
    );
    assert!(
        section.contains("\nFurthest off under slurm (1):\n"),
        "{out}"
    );
    assert!(
        section.contains("\nFurthest off under slurm[bf_window=1] (2):\n"),
        "{out}"
    );
    assert!(!section.contains('…'), "{out}");
}

/// `replay -p historic`: the log's own schedule. Its decisions are the recorded ones by
/// definition (before, a fresh `historic` asked at each instant knew none of the jobs submitted
/// before it and printed recall 6.7%, precision 100%); its whole run is the recorded run, 0
/// apart on every figure (before, 152.4 / 157.6 s, 3.4% apart: the whole run did not give it the
/// log's NodeList, so jobs whose recorded nodes the default selection did not pick started late).
#[test]
fn replay_of_historic_is_the_log() {
    let (sacct, conf) = (file("sacct.txt"), file("slurm.conf"));
    let (ok, out, err) = schedlab(&[
        "replay",
        &sacct,
        "--slurm-conf",
        &conf,
        "-p",
        "historic",
        "--whole-run",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("historic: the log's own schedule: its decisions are the recorded ones"));
    assert!(
        out.contains("mean wait 152.4 / 152.4 s (0.0% apart)")
            && out.contains("largest wait CDF gap 0.000"),
        "{out}"
    );
}

/// `--sshare` from another cluster (none of the log's users or accounts in it) is said on
/// stderr by run, replay and sweep; the log's own sshare file gives no note. The log has 6 users
/// (alice, bob, carol, dave, erin, frank) in 4 accounts (bio, chem, eng, phys).
#[test]
fn an_sshare_without_the_logs_users_is_said() {
    let d = tmpdir("cli", "other-sshare");
    let other = d.join("other.txt");
    std::fs::write(
        &other,
        "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS\n\
         root|||0.000000|0||1.000000||\n \
         astro||10|0.5|1000|0.5|0.5||1\n  \
         astro|zoe|1|1.0|1000|0.5|0.5|0.5|1\n",
    )
    .unwrap();
    let other = other.to_str().unwrap();
    let (sacct, conf, own) = (
        file("sacct.txt"),
        file("slurm.conf"),
        file("sshare-start.txt"),
    );
    let base = ["--slurm-conf", conf.as_str(), "-p", "slurm"];
    let runs: [Vec<&str>; 3] = [
        vec!["run", &sacct],
        vec!["replay", &sacct],
        vec!["sweep", &sacct, "--vary", "bf_window=1,10"],
    ];
    for cmd in runs {
        let with = |sshare: &str| {
            let mut args = cmd.clone();
            args.extend(base);
            args.extend(["--sshare", sshare]);
            schedlab(&args)
        };
        let (ok, _, err) = with(other);
        assert!(ok, "{err}");
        assert!(
            err.contains("other.txt: 6 of the log's 6 users have no association in it")
                && err.contains("4 of its 4 accounts are not in it (bio, chem, eng, phys)")
                && err.contains("is it the sshare of the cluster and time of this log?"),
            "{cmd:?}: {err}"
        );
        let (ok, _, err) = with(&own);
        assert!(ok && !err.contains("association"), "{cmd:?}: {err}");
    }
}

/// A log whose recorded schedule overfills the machine it is replayed on: the replay says so
/// and names the job, where it blamed the policy ("policy easy: invalid decision", as
/// KTH-SP2's log gives at t=1889398). On 4 processors: job 1 runs 0-100 on 4, the log starts job
/// 2 (2 processors) at 10 with none free; the decision at job 3's start (20) replays it first.
#[test]
fn a_recorded_schedule_that_overfills_the_machine_is_said() {
    let t = tmpdir("cli", "overfull").join("overfull.swf");
    let line = |id: u32, wait: u32, procs: u32| {
        format!("{id} 0 {wait} 100 {procs} -1 -1 {procs} 200 -1 1 1 1 -1 1 -1 -1 -1\n")
    };
    let text = format!(
        "; MaxProcs: 4\n{}{}{}",
        line(1, 0, 4),
        line(2, 10, 2),
        line(3, 20, 1)
    );
    std::fs::write(&t, text).unwrap();
    let (ok, _, err) = schedlab(&["replay", t.to_str().unwrap(), "-p", "easy"]);
    assert!(!ok);
    assert!(
        err.contains(
            "policy replay failed at t=10: the log starts job 2 (2 processors) here with 0 free"
        ),
        "{err}"
    );
}

/// `replay` on a slurm.conf lacking nodes the log ran on (n3, n4: the gpu-3 run's cluster cut to
/// n[1-2]) stops at the first such job and says what to give (`run` goes on: `historic` places
/// those jobs by the cluster's selection, and says so).
#[test]
fn replay_on_a_cluster_without_the_logs_nodes_says_what_to_give() {
    let conf = std::fs::read_to_string(file("slurm.conf")).unwrap();
    let small = conf.replace("n[1-4]", "n[1-2]");
    assert_ne!(small, conf);
    let path = tmpdir("cli", "small-conf").join("slurm.conf");
    std::fs::write(&path, small).unwrap();
    let sacct = file("sacct.txt");
    let args = ["--slurm-conf", path.to_str().unwrap(), "-p", "slurm"];
    let (ok, _, err) = schedlab(&[&["replay", sacct.as_str()][..], &args].concat());
    assert!(!ok);
    assert!(
        err.contains("job 4: NodeList: node n3 is not a node of the cluster: a replay holds")
            && err.contains("give the slurm.conf (or --cluster) of the cluster the log ran on"),
        "{err}"
    );
    let (ok, _, err) = schedlab(&[&["run", sacct.as_str()][..], &args].concat());
    assert!(ok, "{err}");
    assert!(
        err.contains("26 jobs ran on nodes the cluster does not have (the first: n3)"),
        "{err}"
    );
}

/// `schedlab run -p slurm` and `schedlab replay --whole-run -p slurm` are one schedule (the
/// controller's time-limit checks in both, `run::simulate_set`): on gpu-3/run1 with its
/// site, the same mean wait, 137.4 s with the loops' phases read from the log (`bf_phase=2`,
/// `sched_phase=8`; 145.2 s before a cycle due while no job waits kept its second,
/// docs/slurm-runs.md "Where the whole runs leave the recorded ones"; 145.3 s before the backfill thread's changes were the main scheduler's and
/// the cycle's own, docs/slurm.md "When a cycle runs"; 149.6 s at the default phases;
/// 134.3 and 124.0 s before its `TIMEOUT` jobs
/// ran to the model's check, docs/slurm.md "Time limits"; `run` said 109.8 s when it killed
/// jobs at their limit).
#[test]
fn run_and_the_whole_replay_give_one_slurm_schedule() {
    let (sacct, conf, sshare) = (
        file("sacct.txt"),
        file("slurm.conf"),
        file("sshare-start.txt"),
    );
    let site = ["--slurm-conf", &conf, "--sshare", &sshare, "-p", "slurm"];
    let (ok, out, err) = schedlab(&[&["run", &sacct][..], &site].concat());
    assert!(ok, "{err}");
    let row = out
        .lines()
        .find(|l| l.starts_with("mean wait (s)"))
        .expect(&out);
    assert_eq!(row.split_whitespace().last(), Some("137.4"), "{row}");
    let (ok, out, err) = schedlab(&[&["replay", &sacct, "--whole-run"][..], &site].concat());
    assert!(ok, "{err}");
    assert!(out.contains("mean wait 152.4 / 137.4 s"), "{out}");
}

/// The furthest jobs are named as the log names them (Slurm's `JobID`), so that an admin finds
/// them in sacct. Worked by hand, 8 cores in all: job 5048 (8 cores) ran 0-100; job 5049 (8
/// cores, limit 10 minutes, submitted at 1) 100-160, waiting 99 s; array task 123_4 (8 cores,
/// limit 2 minutes, submitted at 2) 160-220, waiting 158 s. `easy[queue=sjf]` starts the
/// shorter limit first at 100: 123_4 runs 100-160 (wait 98, 60 s sooner), then 5049 160-220
/// (wait 159, 60 s later). Equal errors are listed in job order.
#[test]
fn the_furthest_jobs_are_named_by_their_slurm_job_ids() {
    let dir = tmpdir("fidelity", "ids");
    let log = dir.join("ids.txt");
    std::fs::write(
        &log,
        "JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|State\n\
         5048|u|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:40|00:01:40|00:10:00|8|1|COMPLETED\n\
         5049|u|2024-01-01T00:00:01|2024-01-01T00:01:40|2024-01-01T00:02:40|00:01:00|00:10:00|8|1|COMPLETED\n\
         123_4|v|2024-01-01T00:00:02|2024-01-01T00:02:40|2024-01-01T00:03:40|00:01:00|00:02:00|8|1|COMPLETED\n",
    )
    .unwrap();
    let (ok, out, err) = schedlab(&[
        "run",
        log.to_str().unwrap(),
        "-p",
        "easy[queue=sjf]",
        "--fidelity",
        "2",
    ]);
    assert!(ok, "{err}");
    let table = &out[out.find("Furthest off under").expect(&out)..];
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows[0][..4], ["5049", "99", "159", "+60"], "{table}");
    assert_eq!(rows[1][..4], ["123_4", "158", "98", "-60"], "{table}");
    // Each waited for 5048's end (the head's reservation at 100), named as the log names it.
    assert_eq!(rows[1].last(), Some(&"5048"), "{table}");
}
