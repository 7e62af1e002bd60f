//! Hand-worked: waiting jobs' priorities under accrue limits, `PriorityWeightAge=1000`,
//! `PriorityMaxAge` 10 minutes (so 100 per minute of age), periods every minute from 0, no
//! other factor.

use crate::slurm::params::SlurmParams;
use crate::slurm::state::State;
use crate::slurm::Site;
use crate::Time;

const ASSOC: &str = "Account|User|ParentName|GrpJobsAccrue|MaxJobsAccrue\n\
                     root||||\nphys||root|PHYS_GRP|\nphys|alice|||ALICE_MAX\nphys|bob|||\n";

/// The priorities at `at` of jobs submitted at 0 by `users` (1 alice, 2 bob), with queue
/// builds at `builds` and job `start.0` started at `start.1`; `qos`: the QOS file, `extra`:
/// more parameters.
fn run(
    assoc: &str,
    qos: &str,
    extra: &[(&str, &str)],
    users: &[i64],
    builds: &[Time],
    start: Option<(usize, Time)>,
    at: Time,
) -> Vec<f64> {
    let mut site = Site::default();
    if !assoc.is_empty() {
        site = site.with_assoc(assoc, "assoc.txt").unwrap();
    }
    if !qos.is_empty() {
        site = site.with_qos(qos, "qos.txt").unwrap();
    }
    site.users = vec!["alice".into(), "bob".into()];
    let mut params = SlurmParams::default();
    for (k, v) in [
        ("PriorityWeightAge", "1000"),
        ("PriorityMaxAge", "10"),
        ("PriorityCalcPeriod", "1"),
        ("AccountingStorageEnforce", "associations,limits"),
    ]
    .iter()
    .chain(extra)
    {
        params.set(k, v).unwrap();
    }
    let st = State::shared(site, params);
    let jobs: Vec<_> = users.iter().map(|&u| (u, 1, 0, None)).collect();
    st.borrow_mut().prepare(jobs.into_iter(), 8);
    let mut s = st.borrow_mut();
    let mf = s.mf.as_mut().unwrap();
    mf.advance(0, true);
    for j in 0..users.len() {
        mf.submitted(j, 0);
    }
    // A start before a build of its second.
    let mut events: Vec<(Time, usize)> = builds.iter().map(|&t| (t, usize::MAX)).collect();
    events.extend(start.map(|(j, t)| (t, j)));
    events.sort();
    for (t, j) in events {
        mf.advance(t, true);
        match j {
            usize::MAX => mf.queue_built(t),
            j => mf.started(j, t),
        }
    }
    mf.advance(at, true);
    (0..users.len()).map(|j| mf.priority(j)).collect()
}

fn assoc(phys_grp: &str, alice_max: &str) -> String {
    ASSOC
        .replace("PHYS_GRP", phys_grp)
        .replace("ALICE_MAX", alice_max)
}

/// alice's `MaxJobsAccrue=1`, her two jobs submitted at 0, a queue build at 0: job 0 accrues
/// from 0, job 1 is at the limit. At 60 job 0 has 60 s of age (100), job 1 none (1, Slurm's
/// least). Job 0 starts at 90, the build at 90 lets job 1 accrue from 90: at 120 it has
/// 30 s (50), not the 200 of its submission. Without the limit both have 100 at 60.
#[test]
fn max_jobs_accrue_holds_back_the_age_of_a_users_jobs_past_it() {
    let a = assoc("", "1");
    assert_eq!(run(&a, "", &[], &[1, 1], &[0], None, 60), [100.0, 1.0]);
    let later = run(&a, "", &[], &[1, 1], &[0, 90], Some((0, 90)), 120);
    assert_eq!(later[1], 50.0);
    // No build since the start: job 1 still accrues nothing.
    assert_eq!(run(&a, "", &[], &[1, 1], &[0], Some((0, 90)), 120)[1], 1.0);
    // Without the limit, and with it but limits not enforced or ACCRUE_ALWAYS: from submission.
    let none = assoc("", "");
    assert_eq!(run(&none, "", &[], &[1, 1], &[0], None, 60), [100.0, 100.0]);
    let not = [("AccountingStorageEnforce", "associations")];
    assert_eq!(run(&a, "", &not, &[1, 1], &[0], None, 60), [100.0, 100.0]);
    let always = [("PriorityFlags", "ACCRUE_ALWAYS")];
    assert_eq!(
        run(&a, "", &always, &[1, 1], &[0], None, 60),
        [100.0, 100.0]
    );
}

/// phys `GrpJobsAccrue=2` counts its users' jobs together: alice's two jobs take both, bob's
/// job (2) accrues nothing at 60. An account's own `MaxJobsAccrue` does not bind its users
/// (the Max limits of the job's own association only): alice's row without it, all accrue.
#[test]
fn grp_jobs_accrue_counts_the_children_of_an_account() {
    let a = assoc("2", "");
    assert_eq!(
        run(&a, "", &[], &[1, 1, 2], &[0], None, 60),
        [100.0, 100.0, 1.0]
    );
    let max_on_account = "Account|User|ParentName|MaxJobsAccrue\n\
                          root|||\nphys||root|1\nphys|alice||\n";
    assert_eq!(
        run(max_on_account, "", &[], &[1, 1], &[0], None, 60),
        [100.0, 100.0]
    );
}

/// The first limit set is the job's one limit: QOS normal's `GrpJobsAccrue=3` is found before
/// alice's `MaxJobsAccrue=1`, so her two jobs both accrue (acct_policy.c
/// `_get_accrue_create_cnt` keeps the first). `MaxJobsAccruePU=1` counts per user in the QOS
/// (alice's second job waits, bob's accrues), `MaxJobsAccruePA=1` per account (bob's waits
/// too).
#[test]
fn the_qos_limit_comes_first_and_counts_per_user_or_account() {
    let a = assoc("", "1");
    let grp = "Name|Priority|GrpJobsAccrue\nnormal|0|3\n";
    assert_eq!(run(&a, grp, &[], &[1, 1], &[0], None, 60), [100.0, 100.0]);
    let none = assoc("", "");
    let pu = "Name|Priority|MaxJobsAccruePU\nnormal|0|1\n";
    assert_eq!(
        run(&none, pu, &[], &[1, 1, 2], &[0], None, 60),
        [100.0, 1.0, 100.0]
    );
    let pa = "Name|Priority|MaxJobsAccruePerAccount\nnormal|0|1\n";
    assert_eq!(
        run(&none, pa, &[], &[1, 1, 2], &[0], None, 60),
        [100.0, 1.0, 1.0]
    );
}

/// The columns read as sacctmgr prints them; a bad count names the file, line and field.
#[test]
fn accrue_limits_read_from_the_files() {
    let t = crate::slurm::qos::parse(
        "Name|Priority|GrpJobsAccrue|MaxJobsAccruePU|MaxJobsAccruePA\nnormal|0|5|2|3\nhigh|1|||\n",
        "q",
    )
    .unwrap();
    let n = t.accrue_of("normal").unwrap();
    assert_eq!((n.grp, n.max, n.max_pa), (Some(5), Some(2), Some(3)));
    assert!(t.accrue_of("high").is_none());
    assert!(t.limits.is_empty(), "an accrue limit holds no job back");
    let e = crate::slurm::qos::parse("Name|Priority|MaxJobsAccruePU\nnormal|0|x\n", "q");
    assert_eq!(
        e.unwrap_err(),
        "q:2: MaxJobsAccruePU: \"x\" is not a whole number"
    );
    let a = crate::slurm::assoc::parse(&assoc("4", "1"), "a").unwrap();
    let alice = &a.rows[a.find("phys", Some("alice")).unwrap()];
    assert_eq!((alice.accrue.max, alice.limits.is_none()), (Some(1), true));
    assert_eq!(a.rows[a.find("phys", None).unwrap()].accrue.grp, Some(4));
    let e = crate::slurm::assoc::parse("Account|User|GrpJobsAccrue\nphys||-\n", "a");
    assert_eq!(
        e.unwrap_err(),
        "a:2: GrpJobsAccrue: \"-\" is not a whole number"
    );
}

/// The `MaxJobsAccrue` key, the cluster's limit every user association without its own
/// inherits: 1 holds alice's second job back and not bob's (each user's count), with or
/// without an assoc file; alice's row's own `MaxJobsAccrue=2` goes first.
#[test]
fn the_key_gives_every_user_the_clusters_max_jobs_accrue() {
    let key = [("MaxJobsAccrue", "1")];
    let none = assoc("", "");
    let want = [100.0, 1.0, 100.0];
    assert_eq!(run(&none, "", &key, &[1, 1, 2], &[0], None, 60), want);
    assert_eq!(run("", "", &key, &[1, 1, 2], &[0], None, 60), want);
    let own = assoc("", "2");
    assert_eq!(
        run(&own, "", &key, &[1, 1, 2], &[0], None, 60),
        [100.0, 100.0, 100.0]
    );
    let mut p = SlurmParams::default();
    assert_eq!(p.set("MaxJobsAccrue", "none").unwrap(), "none");
    assert!(p.set("MaxJobsAccrue", "-1").is_err());
}
