//! QOS limits in the `slurm` policy (docs/slurm.md "QOS limits"), on small sacct logs worked
//! by hand: one node of 8 cores, every priority weight 0 (so jobs go in arrival order), the
//! main scheduler's full runs every 60 s from 0, backfill cycles every 30 s from the first
//! pass with a waiting job, a submission's main-scheduler run 3 s (`batch_sched_delay`) after
//! the background loop's last run. The QOS file gives the limits; each job's QOS is the log's;
//! Slurm holds jobs by them only with `AccountingStorageEnforce` naming `limits` (the spec's
//! key, as a slurm.conf gives it).

use crate::common::sitekit::{log_site, run_site};
use schedlab::sim::Schedule;

/// A job: (user, QOS, submit s, cores, limit s, runtime s).
pub(crate) type Q = (&'static str, &'static str, i64, u32, i64, i64);

/// The sacct log of `jobs` (ids 1, 2, ...), its recorded starts at submission (a simulation
/// does not read them).
fn log(jobs: &[Q]) -> String {
    sacct_log("QOS", jobs)
}

/// The sacct log of `jobs` with `column` (`QOS`, `Account`) as each job's second field.
pub(crate) fn sacct_log(column: &str, jobs: &[Q]) -> String {
    let t = |s: i64| format!("2024-01-01T00:{:02}:{:02}", s / 60, s % 60);
    let hms = |s: i64| format!("00:{:02}:{:02}", s / 60, s % 60);
    let mut out = format!(
        "JobID|User|{column}|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State\n"
    );
    for (i, &(user, value, submit, cpus, limit, run)) in jobs.iter().enumerate() {
        out.push_str(&format!(
            "{}|{user}|{value}|{}|{}|{}|{}|{}|{cpus}|1|n1|COMPLETED\n",
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

/// The policy: limits enforced.
const SPEC: &str = "slurm[AccountingStorageEnforce=(associations,limits)]";

/// The schedule of [`SPEC`] on `jobs` with the QOS file `qos` (`None`: no file).
fn sched(jobs: &[Q], qos: Option<&str>) -> Schedule {
    sched_spec(jobs, qos, SPEC)
}

/// The schedule of `spec` on `jobs` with the QOS file `qos`.
fn sched_spec(jobs: &[Q], qos: Option<&str>, spec: &str) -> Schedule {
    sched_on("1/n1:c8:m1/p=batch:ALL:default", jobs, qos, spec)
}

/// The same on the cluster `cluster` (compact form).
fn sched_on(cluster: &str, jobs: &[Q], qos: Option<&str>, spec: &str) -> Schedule {
    let (set, site) = log_site("q.sacct", cluster, &log(jobs), qos, None);
    run_site(&set, &site, spec)
}

fn starts(s: &Schedule) -> Vec<i64> {
    s.jobs.iter().map(|j| j.start).collect()
}

const HEAD: &str = "Name|Priority|MaxJobsPU|MaxTRESPU|GrpTRES|GrpJobs|MaxWall|Flags\n";

/// `normal` MaxJobsPU=2. ann submits three one-core jobs at 0 (100 s each, limit 200 s), bob one
/// at 1. The full run at 0 starts ann's first two; her third is held (she runs 2 normal jobs,
/// `used_limits->jobs >= max_jobs_pu`), and holds nothing back: bob's job starts at the
/// main scheduler's run for his submission, 3 s after the one at 0 (the backfill cycle, first
/// run at 0 for ann's held job, comes next at 30). ann's third starts at 100, when her first
/// ends (the main scheduler runs at every end). Without the limit all three of ann's start at
/// 0, and bob's at 1 by the first backfill cycle, run at the first pass with a waiting job. A
/// QOS file of Name and Priority alone (the qos runs') has no limit: the same schedule as none.
#[test]
fn max_jobs_pu_holds_a_users_third_job_while_another_users_starts() {
    let jobs = [
        ("ann", "normal", 0, 1, 200, 100),
        ("ann", "normal", 0, 1, 200, 100),
        ("ann", "normal", 0, 1, 200, 100),
        ("bob", "normal", 1, 1, 200, 100),
    ];
    let limits = format!("{HEAD}normal|10|2|||||\n");
    assert_eq!(starts(&sched(&jobs, Some(&limits))), [0, 0, 100, 3]);
    assert_eq!(starts(&sched(&jobs, None)), [0, 0, 0, 1]);
    let old = "Name|Priority\nnormal|10\n";
    assert_eq!(starts(&sched(&jobs, Some(old))), [0, 0, 0, 1]);
    // Limits not enforced (`AccountingStorageEnforce` without `limits`): no job held.
    let plain = sched_spec(
        &jobs,
        Some(&limits),
        "slurm[AccountingStorageEnforce=associations]",
    );
    assert_eq!(starts(&plain), [0, 0, 0, 1]);
}

/// `low` GrpTRES=cpu=4 over every user of the QOS. At 0: ann's job of 3 cores starts; bob's of
/// 2 would make 5 > 4 (`grp_used_tres + request > limit`) and is held; carol's of 1 makes 4,
/// not over, and starts past it; dave's `normal` job of 2 is not limited. bob's starts at 100,
/// when ann's ends (1 + 2 = 3). Without the limit all four start at 0 (8 cores).
#[test]
fn grp_tres_holds_a_job_that_would_take_the_qos_past_it() {
    let jobs = [
        ("ann", "low", 0, 3, 200, 100),
        ("bob", "low", 0, 2, 200, 100),
        ("carol", "low", 0, 1, 200, 150),
        ("dave", "normal", 0, 2, 200, 100),
    ];
    let limits = format!("{HEAD}normal|10||||||\nlow|0|||cpu=4|||\n");
    assert_eq!(starts(&sched(&jobs, Some(&limits))), [0, 100, 0, 0]);
    assert_eq!(starts(&sched(&jobs, None)), [0, 0, 0, 0]);
}

/// Backfill passes over a held job: it gets no reservation (`acct_policy_job_runnable_post_select`
/// before `_add_reservation`). `high` MaxTRESPU=cpu=8. ann's `high` job 1 (4 cores) and carol's
/// job 2 (4 cores) fill the node from 0, to 1000 and 500. ann's job 3 (`high`, 8 cores, limit
/// 600) waits: its cores are free at 1000, but she holds 4 of her 8 in `high`, 4 + 8 > 8: held,
/// so the cycles plan nothing for it, and dave's job 4 (4 cores, limit 700, submitted at 20)
/// starts at 500 when carol's ends (held, job 3 does not block the main scheduler either). At
/// 1000 job 1 ends: job 3 is within the limit (0 + 8 ≤ 8) but only 4 cores are free, so its
/// first reservation is made then, at 1200, when job 4 ends; it starts at 1200. Without the limit job 3 blocks the main scheduler at 500 and backfill
/// reserves the node for it from 1000 (its first planned start, recorded): job 4, ending at
/// 1200, would overlap it and waits for it, to 1600.
#[test]
fn backfill_gives_a_held_job_no_reservation() {
    let jobs = [
        ("ann", "high", 0, 4, 1000, 1000),
        ("carol", "normal", 0, 4, 500, 500),
        ("ann", "high", 10, 8, 600, 600),
        ("dave", "normal", 20, 4, 700, 700),
    ];
    let limits = format!("{HEAD}normal|10||||||\nhigh|100||cpu=8||||\n");
    let held = sched(&jobs, Some(&limits));
    assert_eq!(starts(&held), [0, 0, 1200, 500]);
    assert_eq!(held.jobs[2].first_reservation(), Some(1200));
    let free = sched(&jobs, None);
    assert_eq!(starts(&free), [0, 0, 1000, 1600]);
    assert_eq!(free.jobs[2].first_reservation(), Some(1000));
}

/// `low` GrpJobs=1 over every user of the QOS: ann's `low` job starts at 0 and holds bob's
/// (`grp_used_jobs >= grp_jobs`) to 100, when hers ends (the main scheduler runs at every end);
/// carol's `normal` job is not limited and starts at 0. Without the limit all three start at 0.
#[test]
fn grp_jobs_holds_a_qos_to_its_running_jobs() {
    let jobs = [
        ("ann", "low", 0, 1, 200, 100),
        ("bob", "low", 0, 1, 200, 100),
        ("carol", "normal", 0, 1, 200, 100),
    ];
    let limits = format!("{HEAD}normal|10||||||\nlow|0||||1||\n");
    assert_eq!(starts(&sched(&jobs, Some(&limits))), [0, 100, 0]);
    assert_eq!(starts(&sched(&jobs, None)), [0, 0, 0]);
}

/// `low` MaxWall=2 (minutes): bob's `low` job with a limit of 200 s is over it
/// (`time_limit > max_wall_pj`) and is held for ever, which no start or end changes: it is left
/// out as never runnable (before, the simulation's passes went on for ever); ann's `low` job of
/// 100 s limit is within and starts at 0, as does carol's `normal` one with the 200 s limit.
/// Without the limit bob's starts at 0 too.
#[test]
fn max_wall_holds_a_job_whose_limit_is_over_it() {
    let jobs = [
        ("ann", "low", 0, 1, 100, 50),
        ("bob", "low", 0, 1, 200, 100),
        ("carol", "normal", 0, 1, 200, 100),
    ];
    let limits = format!("{HEAD}normal|10||||||\nlow|0|||||2|\n");
    let held = sched(&jobs, Some(&limits));
    assert_eq!((held.jobs[0].start, held.jobs[2].start), (0, 0));
    assert!(
        matches!(held.jobs[1].outcome, schedlab::sim::Outcome::Rejected),
        "{:?}",
        held.jobs[1].outcome
    );
    assert_eq!(starts(&sched(&jobs, None)), [0, 0, 0]);
}

/// A job whose own TRES are over its QOS's `GrpTRES` or `MaxTRESPU` is held for ever
/// (`_validate_tres_usage_limits`: `tres_req_cnt > limit` whatever is used; Slurm pends it with
/// `QOSGrpCpuLimit`, `QOSMaxCpuPerUserLimit`): it is left out as never runnable, with that
/// reason (before, the periodic passes of the idle node went on for ever). `low` GrpTRES=cpu=4:
/// ann's `low` job of 6 cores is over it alone; `high` MaxTRESPU=cpu=5: bob's `high` job of 6
/// is over it alone; carol's `low` job of 4 (4 ≤ 4) starts at 0, dave's `normal` one of 2 at 0
/// (4 + 2 of 8 cores). `normal` GrpJobs=0 would hold every `normal` job for ever too: a file
/// with it leaves dave's out and the others as before.
#[test]
fn a_job_over_a_tres_limit_alone_is_left_out_with_slurms_reason() {
    let jobs = [
        ("ann", "low", 0, 6, 200, 100),
        ("bob", "high", 0, 6, 200, 100),
        ("carol", "low", 0, 4, 200, 100),
        ("dave", "normal", 0, 2, 200, 100),
    ];
    let limits = format!("{HEAD}normal|10||||||\nlow|0|||cpu=4|||\nhigh|100||cpu=5||||\n");
    let held = sched(&jobs, Some(&limits));
    let rejected: Vec<(usize, &str)> = (held.rejected.iter())
        .map(|(j, why)| (*j, why.as_str()))
        .collect();
    assert_eq!(rejected.len(), 2, "{rejected:?}");
    assert_eq!(rejected[0].0, 0);
    assert!(
        rejected[0].1.contains("QOSGrpCpuLimit"),
        "{}",
        rejected[0].1
    );
    assert_eq!(rejected[1].0, 1);
    assert!(
        rejected[1].1.contains("QOSMaxCpuPerUserLimit"),
        "{}",
        rejected[1].1
    );
    assert_eq!((held.jobs[2].start, held.jobs[3].start), (0, 0));
    let zero = format!("{HEAD}normal|10||||0||\nlow|0|||cpu=4|||\nhigh|100||cpu=5||||\n");
    let none = sched(&jobs, Some(&zero));
    let left: Vec<usize> = none.rejected.iter().map(|r| r.0).collect();
    assert_eq!(left, [0, 1, 3]);
    assert!(none.rejected[2].1.contains("QOSGrpJobsLimit"));
    assert_eq!(none.jobs[2].start, 0);
}

/// A QOS's `node` limit counts distinct nodes, and a job only the nodes it gets that the QOS
/// (for `GrpTRES`), or its user in the QOS (for `MaxTRESPU`), does not hold yet: Slurm's
/// `_qos_job_runnable_post_select` calls `_get_unique_job_node_cnt` before each check
/// (acct_policy.c 2243-2251, 2467-2475 in 22.05), as for an association. Two nodes of 8 cores;
/// `low` GrpTRES=node=1. ann's job 1 (2 cores) starts at 0 on a node; her job 2 (2 cores)
/// asks one node, 1 + 1 > 1 on its count alone, but the node select/cons_tres gives it is job
/// 1's (the tightest fit): no new node, 1 + 0 = 1, it starts at 0. Her job 3 (8 cores) can only
/// go to the empty node: a new one, 1 + 1 > 1, held to 100, when jobs 1 and 2 end. carol's
/// `normal` job (1 core, at 1) starts at 3. The same with `low` MaxTRESPU=node=1 (all three
/// are ann's). Counting nodes whole, job 2 was held to 100 and job 3 to 200.
#[test]
fn a_node_limit_counts_only_nodes_the_qos_does_not_hold() {
    let jobs = [
        ("ann", "low", 0, 2, 200, 100),
        ("ann", "low", 0, 2, 200, 100),
        ("ann", "low", 0, 8, 200, 100),
        ("carol", "normal", 1, 1, 200, 100),
    ];
    let two = "1/n[1-2]:c8:m1/p=batch:ALL:default";
    for low in ["low|0|||node=1|||", "low|0||node=1||||"] {
        let qos = format!("{HEAD}normal|10||||||\n{low}\n");
        let s = sched_on(two, &jobs, Some(&qos), SPEC);
        assert_eq!(starts(&s), [0, 0, 100, 3], "{low}");
    }
    assert_eq!(starts(&sched_on(two, &jobs, None, SPEC)), [0, 0, 0, 1]);
}
