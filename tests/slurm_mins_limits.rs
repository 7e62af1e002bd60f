//! QOS `UsageFactor` and the minutes limits in the `slurm` policy (docs/slurm.md "Minutes
//! limits"), on small sacct logs worked by hand as tests/slurm_qos_limits.rs: one node of 8
//! cores, every priority weight 0 (jobs go in arrival order), the main scheduler's full runs
//! every 60 s from 0, backfill cycles every 30 s, a submission's main-scheduler run 3 s
//! (`batch_sched_delay`) after the background loop's last run; limits enforced. The log names
//! each job's account and QOS; the QOS file gives the `UsageFactor`s and QOS limits, the
//! assoc file the association limits.

use crate::common::sitekit::{log_site, run_site};
use schedlab::sim::{Outcome, Schedule};

/// A job: (user, account, QOS, submit s, cores, limit s, runtime s).
type J = (&'static str, &'static str, &'static str, i64, u32, i64, i64);

/// The sacct log of `jobs` (ids 1, 2, ...).
fn log(jobs: &[J]) -> String {
    let t = |s: i64| {
        format!(
            "2024-01-01T{:02}:{:02}:{:02}",
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    };
    let hms = |s: i64| format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    let mut out = String::from(
        "JobID|User|Account|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State\n",
    );
    for (i, &(user, account, qos, submit, cpus, limit, run)) in jobs.iter().enumerate() {
        out.push_str(&format!(
            "{}|{user}|{account}|{qos}|{}|{}|{}|{}|{}|{cpus}|1|n1|COMPLETED\n",
            i + 1,
            t(submit),
            t(submit),
            t(submit + run),
            hms(run),
            hms(limit),
        ));
    }
    out
}

/// Limits enforced, every weight 0.
const SPEC: &str = "slurm[AccountingStorageEnforce=(associations,limits,qos)]";

/// The QOS file: normal (UsageFactor 1), half (0.5, MaxTRESMins=cpu=64), free (0).
const QOS: &str = "Name|Priority|UsageFactor|GrpTRESMins|GrpTRESRunMins|MaxTRESMins\n\
                   normal|0|1.000000|||\nhalf|0|0.500000|||cpu=64\nfree|0|0.000000|||\n";

/// The assoc file's header and root; `rows` after it.
fn assoc(rows: &str) -> String {
    format!(
        "Cluster|Account|User|Partition|ParentName|Share|GrpTRESMins|GrpTRESRunMins|MaxTRESMins\n\
         c|root||||1|||\n{rows}"
    )
}

/// The schedule of `spec` on `jobs` with the QOS file [`QOS`] and the assoc file `rows`.
fn sched(jobs: &[J], rows: Option<&str>, spec: &str) -> Schedule {
    let assoc = rows.map(assoc);
    let (set, site) = log_site(
        "m.sacct",
        "1/n1:c8:m1/p=batch:ALL:default",
        &log(jobs),
        Some(QOS),
        assoc.as_deref(),
    );
    // On a thread with a time guard: a run without end fails the test rather than hangs it.
    let spec = spec.to_string();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run_site(&set, &site, &spec));
    });
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .expect("the run did not end within 60 s")
}

fn starts(s: &Schedule) -> Vec<i64> {
    s.jobs.iter().map(|j| j.start).collect()
}

fn rejected(s: &Schedule, k: usize) -> bool {
    matches!(s.jobs[k].outcome, Outcome::Rejected)
}

/// `MaxTRESMins`: a job's time limit in minutes times its CPUs over the limit, never
/// runnable (QOSMaxCpuMinutesPerJobLimit, AssocMaxCpuMinutesPerJobLimit), left out. QOS half
/// MaxTRESMins=cpu=64: ann's 8-core job of 10 minutes (80) is left out, her 8-core one of 8
/// minutes (64, not over) starts at 0. eng MaxTRESMins=cpu=24 (frank's association inherits
/// it): frank's 4-core job of 7 minutes (28) is left out, his 4-core one of 6 (24) starts when
/// ann's ends, at 100. QOS half's limit is checked in place of eng's: frank's 2-core job of
/// 30 minutes in half (60: over eng's 24, not over half's 64) starts at 100 too.
#[test]
fn max_tres_mins_leaves_out_a_job_over_it() {
    let jobs = [
        ("ann", "phys", "half", 0, 8, 600, 100),
        ("ann", "phys", "half", 0, 8, 480, 100),
        ("frank", "eng", "normal", 0, 4, 420, 100),
        ("frank", "eng", "normal", 0, 4, 360, 100),
        ("frank", "eng", "half", 0, 2, 1800, 100),
    ];
    let rows = "c|phys|||root|1|||\nc|phys|ann|||1|||\nc|eng|||root|1|||cpu=24\n\
                c|eng|frank|||1|||cpu=24\n";
    let s = sched(&jobs, Some(rows), SPEC);
    assert!(rejected(&s, 0) && rejected(&s, 2));
    assert_eq!(
        (s.jobs[1].start, s.jobs[3].start, s.jobs[4].start),
        (0, 100, 100)
    );
}

/// `GrpTRESRunMins`: the running jobs' TRES-minutes left of their limits plus the job's. chem
/// GrpTRESRunMins=cpu=100; periods every 300 s (Slurm's default `PriorityCalcPeriod`). carol's
/// job 1 (4 cores, 16 minutes: 64) starts at 0; dave's job 2 (2 cores, 20 minutes: 40) would
/// make 104 > 100: held, though 4 cores are free; ann's phys job 3 (at 1) starts at 3. The
/// period at 300 takes 300 s off job 1's: 660 · 4 s = 44 minutes, 44 + 40 = 84: job 2 starts
/// at 300. With job 1 in QOS half (UsageFactor 0.5) it holds 960 · 0.5 · 4 s = 32 minutes:
/// 32 + 40 = 72, job 2 starts at 0; in free (UsageFactor 0) it holds none: 0 + 40, job 2
/// starts at 0 (and with no job waiting, ann's at 1 as it comes, as without limits in
/// tests/slurm_assoc_limits.rs). dave's chem job 4 of 8 cores and 15 minutes (120) is over the limit alone:
/// left out (AssocGrpCPURunMinutesLimit).
#[test]
fn grp_tres_run_mins_holds_what_would_go_over_it() {
    let rows = "c|chem|||root|1||cpu=100|\nc|chem|carol|||1|||\nc|chem|dave|||1|||\n\
                c|phys|||root|1|||\nc|phys|ann|||1|||\n";
    let with = |qos1: &'static str| {
        let jobs = [
            ("carol", "chem", qos1, 0, 4, 960, 600),
            ("dave", "chem", "normal", 0, 2, 1200, 100),
            ("ann", "phys", "normal", 1, 1, 600, 100),
            ("dave", "chem", "normal", 2, 8, 900, 100),
        ];
        sched(&jobs, Some(rows), SPEC)
    };
    let s = with("normal");
    assert_eq!(starts(&s)[..3], [0, 300, 3]);
    assert!(rejected(&s, 3));
    assert_eq!(starts(&with("half"))[..3], [0, 0, 1]);
    assert_eq!(starts(&with("free"))[..3], [0, 0, 1]);
    // Without the assoc file both start at 0.
    let jobs = [
        ("carol", "chem", "normal", 0, 4, 960, 600),
        ("dave", "chem", "normal", 0, 2, 1200, 100),
    ];
    assert_eq!(starts(&sched(&jobs, None, SPEC)), [0, 0]);
}

/// `GrpTRESMins` on erin's association: cpu=1, her decayed usage in whole minutes.
/// Periods every 60 s, `PriorityDecayHalfLife` 1 minute (d = 1 - 0.693 / 60 per second, d^60
/// = 0.4981). Her job 1 (2 cores) runs 0-300: each period adds 60 · 0.4981 · 2 = 59.77
/// CPU-seconds after decaying the usage by 0.4981: at 300, 59.77 · (1 + 0.4981 + 0.2481 +
/// 0.1236 + 0.0616) = 115.4, 1 minute (whole): at the limit. Her job 2 (1 core, at 310) is
/// held (`usage >= limit`); the period at 360 decays it to 57.5 (0 minutes): it starts at 360.
/// With job 1 in QOS half (UsageFactor 0.5) the usage at 300 is 57.7 (0 minutes): job 2
/// starts at its submission's run, 310.
#[test]
fn grp_tres_mins_holds_a_user_at_her_decayed_usage() {
    let spec = "slurm[AccountingStorageEnforce=(associations,limits,qos),PriorityCalcPeriod=1,\
                PriorityDecayHalfLife=1]";
    let rows = "c|bio|||root|1|||\nc|bio|erin|||1|cpu=1||\n";
    let with = |qos1: &'static str| {
        let jobs = [
            ("erin", "bio", qos1, 0, 2, 600, 300),
            ("erin", "bio", "normal", 310, 1, 600, 100),
        ];
        starts(&sched(&jobs, Some(rows), spec))
    };
    assert_eq!(with("normal"), [0, 360]);
    assert_eq!(with("half"), [0, 310]);
}
