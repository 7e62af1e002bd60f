//! A cluster admin's own site through the command line: an sacct log whose job numbers in the
//! trace differ from its Slurm JobIDs (a line skipped before them, array elements), with a
//! slurm.conf of several partitions. Every message about a job names it as the log does.

use crate::common;
use common::{schedlab, tmpdir};

/// Two nodes of 4 CPUs; `debug` has one of them.
const CONF: &str = "\
SchedulerType=sched/backfill
SelectType=select/cons_tres
NodeName=n[1-2] CPUs=4 RealMemory=8000 State=UNKNOWN
PartitionName=batch Nodes=n[1-2] Default=YES MaxTime=1-00:00:00 State=UP
PartitionName=debug Nodes=n1 MaxTime=30:00 Hidden=YES State=UP
";

const HEAD: &str = "State|JobID|Submit|Start|End|Elapsed|User|Account|Partition|Timelimit|NCPUS|NNodes|NodeList|ReqTRES\n";

fn site(name: &str, sacct: &str) -> (String, String) {
    let d = tmpdir("admin", name);
    let (log, conf) = (d.join("sacct.txt"), d.join("slurm.conf"));
    std::fs::write(&log, format!("{HEAD}{sacct}")).unwrap();
    std::fs::write(&conf, CONF).unwrap();
    let s = |p: std::path::PathBuf| p.to_str().unwrap().to_string();
    (s(log), s(conf))
}

/// Line 2 (JobID 101) has no valid Submit and is skipped, so the trace numbers 102 as job 1
/// and 103_7 as job 2. 103_7 asks for 2 nodes in `debug`, which has 1: it can never run, and
/// the note names it `job 103_7` (the admin greps the log for it), not `job 2`, which is
/// nowhere in their log (before, the note said `job 2`).
#[test]
fn never_runnable_jobs_are_named_by_their_slurm_jobid() {
    let (log, conf) = site(
        "never",
        "COMPLETED|101|yesterday|2026-11-30T10:00:10|2026-11-30T10:01:10|00:01:00|ann|a|batch|00:10:00|4|1|n1|cpu=4,node=1\n\
         COMPLETED|102|2026-11-30T10:00:00|2026-11-30T10:00:10|2026-11-30T10:01:10|00:01:00|ann|a|batch|00:10:00|4|1|n1|cpu=4,node=1\n\
         COMPLETED|103_7|2026-11-30T10:00:01|2026-11-30T10:00:20|2026-11-30T10:01:20|00:01:00|bob|a|debug|00:10:00|8|2|n[1-2]|cpu=8,node=2\n",
    );
    let (ok, _, err) = schedlab(&["run", &log, "--slurm-conf", &conf, "-p", "easy"]);
    assert!(ok, "{err}");
    assert!(
        err.contains(
            "1 job can never run on the cluster and is left out; first: job 103_7: asks for 2 \
             nodes, partition debug has 1 usable"
        ),
        "{err}"
    );
}

/// A log whose recorded schedule does not fit the slurm.conf given: 102 holds both nodes
/// (8 CPUs) from 10:00:10 to 10:01:10 and 104 starts on them at 10:00:20. Replaying the
/// instant 10:00:30 (105's start) starts the earlier ones as recorded, and 104 cannot: the
/// replay's error names it by its JobID, 104 (before: `job 2`, its number in the trace after
/// the skipped line 2).
#[test]
fn replay_names_the_job_that_does_not_fit_by_its_slurm_jobid() {
    let (log, conf) = site(
        "overlap",
        "COMPLETED|101|yesterday|2026-11-30T10:00:10|2026-11-30T10:01:10|00:01:00|ann|a|batch|00:10:00|4|1|n1|cpu=4,node=1\n\
         COMPLETED|102|2026-11-30T10:00:00|2026-11-30T10:00:10|2026-11-30T10:01:10|00:01:00|ann|a|batch|00:10:00|8|2|n[1-2]|cpu=8,node=2\n\
         COMPLETED|104|2026-11-30T10:00:01|2026-11-30T10:00:20|2026-11-30T10:01:20|00:01:00|bob|a|batch|00:10:00|8|2|n[1-2]|cpu=8,node=2\n\
         COMPLETED|105|2026-11-30T10:00:02|2026-11-30T10:00:30|2026-11-30T10:01:30|00:01:00|bob|a|batch|00:10:00|4|1|n1|cpu=4,node=1\n",
    );
    let (ok, _, err) = schedlab(&["replay", &log, "--slurm-conf", &conf, "-p", "slurm"]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("the log starts job 104 (8 processors) here with 0 free"),
        "{err}"
    );
}

/// An sacct log exported without `Timelimit`: no job has a requested time, so each plans with
/// its runtime (what no scheduler knows: a backfill with exact estimates) and none is killed.
/// The run says so, naming the column (before, nothing was said, and the `slurm` policy's
/// backfill silently planned with the true runtimes). Of the three jobs simulated (102, 104,
/// 105; line 2 skipped, and 106 asks for 2 nodes in `debug`, which has 1: never runnable), all
/// three: "3 of 3 jobs simulated" (it said "4 of 4 jobs", 106 counted though never run). A log
/// with Timelimit says nothing of it.
#[test]
fn a_log_without_timelimit_is_said_to_plan_with_runtimes() {
    let (log, conf) = site(
        "nolimit",
        "COMPLETED|101|yesterday|2026-11-30T10:00:10|2026-11-30T10:01:10|00:01:00|ann|a|batch|00:10:00|4|1|n1|cpu=4,node=1\n\
         COMPLETED|102|2026-11-30T10:00:00|2026-11-30T10:00:10|2026-11-30T10:01:10|00:01:00|ann|a|batch|00:10:00|4|1|n1|cpu=4,node=1\n\
         COMPLETED|104|2026-11-30T10:00:01|2026-11-30T10:00:20|2026-11-30T10:01:20|00:01:00|bob|a|batch|00:10:00|4|1|n2|cpu=4,node=1\n\
         COMPLETED|105|2026-11-30T10:00:02|2026-11-30T10:01:10|2026-11-30T10:02:10|00:01:00|bob|a|batch|00:10:00|4|1|n1|cpu=4,node=1\n\
         COMPLETED|106|2026-11-30T10:00:03|2026-11-30T10:02:10|2026-11-30T10:03:10|00:01:00|bob|a|debug|00:10:00|8|2|n[1-2]|cpu=8,node=2\n",
    );
    let (ok, _, err) = schedlab(&["run", &log, "--slurm-conf", &conf, "-p", "slurm"]);
    assert!(ok, "{err}");
    assert!(!err.contains("no requested time"), "{err}");
    // The same log without its Timelimit column (the 10th).
    let text = std::fs::read_to_string(&log).unwrap();
    let cut: String = text
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split('|').collect();
            f.remove(9);
            f.join("|") + "\n"
        })
        .collect();
    let bare = log.replace("sacct.txt", "bare.txt");
    std::fs::write(&bare, cut).unwrap();
    let (ok, _, err) = schedlab(&["run", &bare, "--slurm-conf", &conf, "-p", "slurm"]);
    assert!(ok, "{err}");
    assert!(
        err.contains(
            "bare.txt: 3 of 3 jobs simulated give no requested time in Timelimit: each plans \
             with its runtime, as if its user had known it, and none is killed at a limit"
        ),
        "{err}"
    );
}
