//! Association limits in the `slurm` policy (docs/slurm.md "Association limits"), on small
//! sacct logs worked by hand, as tests/slurm_qos_limits.rs: one node of 8 cores, every priority
//! weight 0 (so jobs go in arrival order), the main scheduler's full runs every 60 s from 0,
//! backfill cycles every 30 s from the first pass with a waiting job, a submission's
//! main-scheduler run 3 s (`batch_sched_delay`) after the background loop's last run. The assoc
//! file (`sacctmgr show assoc ... -P`) gives the limits; each job's account is the log's;
//! Slurm holds jobs by them only with `AccountingStorageEnforce` naming `limits`.

use crate::common::sitekit::{log_site, run_site};
use schedlab::sim::Schedule;

/// A job: (user, account, submit s, cores, limit s, runtime s).
type A = crate::slurm_qos_limits::Q;

/// The sacct log of `jobs` (ids 1, 2, ...) with their accounts.
fn log(jobs: &[A]) -> String {
    crate::slurm_qos_limits::sacct_log("Account", jobs)
}

/// The policy: limits enforced.
const SPEC: &str = "slurm[AccountingStorageEnforce=(associations,limits)]";

/// The assoc file's header and the tree: root, accounts phys and chem, users ann and bob in
/// phys, carol and dave in chem; `limits` are the rows with limits, after it.
const HEAD: &str =
    "Cluster|Account|User|Partition|ParentName|Share|GrpJobs|GrpTRES|MaxJobs|MaxTRES|MaxWall
c|root||||1|||||
";

/// The schedule of `spec` on `jobs` with the assoc file `assoc` and QOS file `qos`.
fn sched_with(jobs: &[A], assoc: Option<&str>, qos: Option<&str>, spec: &str) -> Schedule {
    sched_on("1/n1:c8:m1/p=batch:ALL:default", jobs, assoc, qos, spec)
}

/// The same on the cluster `cluster` (compact form).
fn sched_on(
    cluster: &str,
    jobs: &[A],
    assoc: Option<&str>,
    qos: Option<&str>,
    spec: &str,
) -> Schedule {
    sched_text(cluster, &log(jobs), assoc, qos, spec)
}

/// The same on the sacct log `text`.
fn sched_text(
    cluster: &str,
    text: &str,
    assoc: Option<&str>,
    qos: Option<&str>,
    spec: &str,
) -> Schedule {
    let assoc = assoc.map(|a| format!("{HEAD}{a}"));
    let (set, site) = log_site("a.sacct", cluster, text, qos, assoc.as_deref());
    run_site(&set, &site, spec)
}

fn sched(jobs: &[A], assoc: Option<&str>) -> Schedule {
    sched_with(jobs, assoc, None, SPEC)
}

fn starts(s: &Schedule) -> Vec<i64> {
    s.jobs.iter().map(|j| j.start).collect()
}

/// Account phys GrpTRES=cpu=4 over its users. At 0 the full run starts ann's two jobs of 2
/// cores (2, then 4: not over); bob's of 2 would make 6 > 4 (`grp_used_tres + request >
/// limit` on the account, his association's parent) and is held, holding nothing back:
/// carol's chem job, submitted at 1, starts at the main scheduler's run for her submission,
/// 3 s after the one at 0. bob's starts at 100, when ann's first ends (2 + 2 = 4). Without the
/// file, and with it but limits not enforced, the node's 8 cores take all four as they come.
#[test]
fn account_grp_tres_holds_a_third_job_while_another_accounts_starts() {
    let jobs = [
        ("ann", "phys", 0, 2, 200, 100),
        ("ann", "phys", 0, 2, 200, 150),
        ("bob", "phys", 0, 2, 200, 100),
        ("carol", "chem", 1, 2, 200, 100),
    ];
    let limits = "c|phys|||root|1||cpu=4|||\nc|phys|ann|||1|||||\nc|phys|bob|||1|||||\nc|chem|||root|1|||||\nc|chem|carol|||1|||||\n";
    assert_eq!(starts(&sched(&jobs, Some(limits))), [0, 0, 100, 3]);
    assert_eq!(starts(&sched(&jobs, None)), [0, 0, 0, 1]);
    let plain = sched_with(
        &jobs,
        Some(limits),
        None,
        "slurm[AccountingStorageEnforce=associations]",
    );
    assert_eq!(starts(&plain), [0, 0, 0, 1]);
}

/// bob MaxJobs=1 (his own association): his first job starts at 0, his second is held
/// (`used_jobs >= max_jobs`) to 100, when the first ends; ann's, at 1, starts at 3 past it.
#[test]
fn user_max_jobs_holds_a_users_second_job() {
    let jobs = [
        ("bob", "phys", 0, 1, 200, 100),
        ("bob", "phys", 0, 1, 200, 100),
        ("ann", "phys", 1, 1, 200, 100),
    ];
    let limits = "c|phys|||root|1|||||\nc|phys|bob|||1|||1||\nc|phys|ann|||1|||||\n";
    assert_eq!(starts(&sched(&jobs, Some(limits))), [0, 100, 3]);
    assert_eq!(starts(&sched(&jobs, None)), [0, 0, 1]);
}

/// Account chem GrpJobs=2 counts its two users' running jobs (each start counts at every level
/// of the walk up the tree, `_adjust_limit_usage`): carol's and dave's first jobs start at 0;
/// carol's second is held (chem runs 2, `used_jobs >= grp_jobs`) though she runs only one, to
/// 100 when dave's ends; ann's phys job at 1 starts at 3. With a QOS file whose `normal` sets
/// GrpJobs=5, the QOS's limit is checked in place of the association's (`qos_rec.grp_jobs`
/// set): carol's second starts at 0 too.
#[test]
fn a_parents_grp_jobs_counts_its_children() {
    let jobs = [
        ("carol", "chem", 0, 1, 300, 200),
        ("dave", "chem", 0, 1, 200, 100),
        ("carol", "chem", 0, 1, 200, 100),
        ("ann", "phys", 1, 1, 200, 100),
    ];
    let limits = "c|chem|||root|1|2||||\nc|chem|carol|||1|||||\nc|chem|dave|||1|||||\nc|phys|||root|1|||||\nc|phys|ann|||1|||||\n";
    assert_eq!(starts(&sched(&jobs, Some(limits))), [0, 0, 100, 3]);
    let qos = "Name|Priority|MaxJobsPU|MaxTRESPU|GrpTRES|GrpJobs|MaxWall|Flags\nnormal|10||||5||\n";
    let over = sched_with(&jobs, Some(limits), Some(qos), SPEC);
    assert_eq!(starts(&over), [0, 0, 0, 1]);
}

/// Backfill passes over a held job: no reservation (as tests/slurm_qos_limits.rs's, with
/// account phys GrpTRES=cpu=8 in place of a QOS's MaxTRESPU). ann's phys job 1 (4 cores, to
/// 1000) and carol's chem job 2 (4 cores, to 500) fill the node. ann's job 3 (8 cores, limit
/// 600) is held (phys holds 4, 4 + 8 > 8): no reservation, and dave's chem job 4 (4 cores,
/// limit 700, at 20) starts at 500 when carol's ends. At 1000 job 3 is within the limit but
/// only 4 cores are free: reserved then at 1200, when job 4 ends, and starts there. Without
/// the limit job 3 is reserved from 1000 and job 4 waits for it, to 1600.
#[test]
fn backfill_gives_a_held_job_no_reservation() {
    let jobs = [
        ("ann", "phys", 0, 4, 1000, 1000),
        ("carol", "chem", 0, 4, 500, 500),
        ("ann", "phys", 10, 8, 600, 600),
        ("dave", "chem", 20, 4, 700, 700),
    ];
    let limits = "c|phys|||root|1||cpu=8|||\nc|phys|ann|||1|||||\nc|chem|||root|1|||||\nc|chem|carol|||1|||||\nc|chem|dave|||1|||||\n";
    let held = sched(&jobs, Some(limits));
    assert_eq!(starts(&held), [0, 0, 1200, 500]);
    assert_eq!(held.jobs[2].first_reservation(), Some(1200));
    let free = sched(&jobs, None);
    assert_eq!(starts(&free), [0, 0, 1000, 1600]);
    assert_eq!(free.jobs[2].first_reservation(), Some(1000));
}

/// Jobs no start or end can let run are left out as never runnable (before, the passes went on
/// for ever): frank's 6-core job over his association's MaxTRES=cpu=4, carol's 6-core job over
/// chem's GrpTRES=cpu=5 alone, and dave's 300-s limit over chem's dave MaxWall=4 (minutes:
/// 240 s). The others start at 0: frank's 4-core job (not over), carol's 2-core one.
#[test]
fn a_job_over_a_limit_alone_is_left_out() {
    let jobs = [
        ("frank", "eng", 0, 6, 200, 100),
        ("frank", "eng", 0, 4, 200, 100),
        ("carol", "chem", 0, 6, 200, 100),
        ("carol", "chem", 0, 1, 200, 100),
        ("dave", "chem", 0, 1, 300, 100),
    ];
    let limits = "c|eng|||root|1|||||\nc|eng|frank|||1||||cpu=4|\nc|chem|||root|1||cpu=5|||\nc|chem|carol|||1|||||\nc|chem|dave|||1|||||4\n";
    let s = sched(&jobs, Some(limits));
    let rejected = |k: usize| matches!(s.jobs[k].outcome, schedlab::sim::Outcome::Rejected);
    assert!(rejected(0) && rejected(2) && rejected(4));
    assert_eq!((s.jobs[1].start, s.jobs[3].start), (0, 0));
}

/// An association's `node` limit counts distinct nodes, and a job only the nodes it gets that
/// the association does not hold yet (`_get_unique_job_node_cnt`). Two nodes of 8 cores; bio
/// GrpTRES=node=1. erin's job 1 (2 cores) starts at 0 on a node; her job 2 (2 cores) asks one
/// node, 1 + 1 > 1 on its count alone, but the node select/cons_tres gives it is job 1's (the
/// tightest fit, 6 cores free there): no new node, 1 + 0 = 1, it starts at 0. Her job 3 (8
/// cores) can only go to the empty node: a new one, 1 + 1 > 1, held to 100, when jobs 1 and 2
/// end and bio holds no node. dave's chem job (1 core, at 1) starts at 3. Without the limit
/// job 3 starts at 0 too.
#[test]
fn a_node_limit_counts_only_nodes_the_association_does_not_hold() {
    let jobs = [
        ("erin", "bio", 0, 2, 200, 100),
        ("erin", "bio", 0, 2, 200, 100),
        ("erin", "bio", 0, 8, 200, 100),
        ("dave", "chem", 1, 1, 200, 100),
    ];
    let limits = "c|bio|||root|1||node=1|||\nc|bio|erin|||1|||||\nc|chem|||root|1|||||\nc|chem|dave|||1|||||\n";
    let two = "1/n[1-2]:c8:m1/p=batch:ALL:default";
    let held = sched_on(two, &jobs, Some(limits), None, SPEC);
    assert_eq!(starts(&held), [0, 0, 100, 3]);
    let free = sched_on(two, &jobs, None, None, SPEC);
    assert_eq!(starts(&free), [0, 0, 0, 1]);
}

/// A job's memory counts as Slurm's TRES accounting does (`job_get_tres_mem`, job_mgr.c
/// 22.05: a memory per CPU times its CPUs), in the never-runnable check as in the limit check.
/// One node of 8 cores and 32000 MB; chem GrpTRES=mem=8000 (MB). carol's job 1 (2 cores,
/// `ReqMem` 5000Mc: 10000 MB > 8000 alone) is left out as never runnable (before, only a
/// memory per node was counted there: it was held for ever and the passes went on without
/// end). Her job 2 (1 core, 4000Mc: 4000) and dave's job 3 (2 cores, 2000Mn: 2000 on its one
/// node) start at 0 (6000); dave's job 4 (1 core, 3000Mc: 3000) would make 9000 > 8000, held
/// to 100, when jobs 2 and 3 end. The run goes on a thread with a time guard, so that a run
/// without end fails the test rather than hangs it.
#[test]
fn memory_per_cpu_counts_against_a_mem_limit_and_leaves_out_a_job_over_it() {
    let jobs: [A; 4] = [
        ("carol", "chem", 0, 2, 200, 100),
        ("carol", "chem", 0, 1, 200, 100),
        ("dave", "chem", 0, 2, 200, 100),
        ("dave", "chem", 0, 1, 200, 100),
    ];
    let mem = ["5000Mc", "4000Mc", "2000Mn", "3000Mc"];
    let mut text = String::new();
    for (i, line) in log(&jobs).lines().enumerate() {
        let m = if i == 0 { "ReqMem" } else { mem[i - 1] };
        text.push_str(&format!("{line}|{m}\n"));
    }
    let limits = "c|chem|||root|1||mem=8000|||\nc|chem|carol|||1|||||\nc|chem|dave|||1|||||\n";
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let cluster = "1/n1:c8:m32000/p=batch:ALL:default";
        let s = sched_text(cluster, &text, Some(limits), None, SPEC);
        let rejected = matches!(s.jobs[0].outcome, schedlab::sim::Outcome::Rejected);
        let _ = tx.send((rejected, starts(&s)[1..].to_vec()));
    });
    let got = rx.recv_timeout(std::time::Duration::from_secs(60));
    let (rejected, rest) = got.expect("the run did not end within 60 s");
    assert!(rejected);
    assert_eq!(rest, [0, 0, 100]);
}
