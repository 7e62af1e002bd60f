//! Accrue limits in the `slurm` policy (docs/slurm.md "Accrue time"), on a small sacct log
//! worked by hand: one node of 8 cores, every job 8 cores (one runs at a time), age the only
//! priority factor (`PriorityWeightAge=1000`, `PriorityMaxAge` 10 minutes: 100 per minute of
//! age), periods every minute from 0, limits enforced.
//!
//! Jobs: ann's 1 (0 s, runs 300 s), 2 (1 s, 100 s) and 3 (2 s, 100 s), bob's 4 (100 s, 100 s).
//! Job 1 starts at 0, and the node is full to 300. Without an accrue limit every job ages from
//! its submission: at 300 job 2 (299 s of age) starts, then at 400 job 3 (its 358 s at the
//! period of 360 against job 4's 260 s), then job 4 at 500. With ann's `MaxJobsAccrue=1` her
//! job 2 takes her one accrue place at the first queue build after its submission and job 3
//! ages only from the first queue build after job 2 started (at 300 or a cycle after): at 400
//! the period of 360 gives it at most 60 s of age, against job 4's 260 s, so job 4 starts at
//! 400 and job 3 at 500.

use crate::common::sitekit::{log_site, run_site};
use crate::slurm_qos_limits::{sacct_log, Q};

const SPEC: &str = "slurm[AccountingStorageEnforce=(associations,limits),PriorityWeightAge=1000,\
                    PriorityMaxAge=10,PriorityCalcPeriod=1]";

/// The starts of `spec` on the jobs above, their second field in `column` (`Account` or
/// `QOS`: phys for ann and bob, or normal), with the QOS and assoc files given.
fn starts(column: &str, qos: Option<&str>, assoc: Option<&str>, spec: &str) -> Vec<i64> {
    let v = if column == "QOS" { "normal" } else { "phys" };
    let jobs: [Q; 4] = [
        ("ann", v, 0, 8, 400, 300),
        ("ann", v, 1, 8, 400, 100),
        ("ann", v, 2, 8, 400, 100),
        ("bob", v, 100, 8, 400, 100),
    ];
    let cluster = "1/n1:c8:m1/p=batch:ALL:default";
    let (set, site) = log_site("a.sacct", cluster, &sacct_log(column, &jobs), qos, assoc);
    run_site(&set, &site, spec)
        .jobs
        .iter()
        .map(|j| j.start)
        .collect()
}

const ASSOC: &str = "Account|User|ParentName|MaxJobsAccrue\nroot|||\nphys||root|\n\
                     phys|ann||ANN\nphys|bob||\n";

#[test]
fn max_jobs_accrue_lets_a_later_job_pass_a_users_job_past_the_limit() {
    let with = ASSOC.replace("ANN", "1");
    assert_eq!(
        starts("Account", None, Some(&with), SPEC),
        [0, 300, 500, 400]
    );
    let without = ASSOC.replace("ANN", "");
    assert_eq!(
        starts("Account", None, Some(&without), SPEC),
        [0, 300, 400, 500]
    );
    // `ACCRUE_ALWAYS`: accrue limits are not read.
    let always = SPEC.replace("]", ",PriorityFlags=ACCRUE_ALWAYS]");
    assert_eq!(
        starts("Account", None, Some(&with), &always),
        [0, 300, 400, 500]
    );
}

/// The same through the QOS: normal's `MaxJobsAccruePU=1` counts ann's jobs in it.
#[test]
fn max_jobs_accrue_pu_of_a_qos_does_the_same() {
    let qos = "Name|Priority|MaxJobsAccruePU\nnormal|0|1\n";
    assert_eq!(starts("QOS", Some(qos), None, SPEC), [0, 300, 500, 400]);
    let plain = SPEC.replace(",limits)", ")");
    assert_eq!(starts("QOS", Some(qos), None, &plain), [0, 300, 400, 500]);
}

/// The same with no file, by the `MaxJobsAccrue` key (the cluster's limit, each user's).
#[test]
fn the_max_jobs_accrue_key_does_the_same_without_a_file() {
    let key = SPEC.replace("]", ",MaxJobsAccrue=1]");
    assert_eq!(starts("Account", None, None, &key), [0, 300, 500, 400]);
    assert_eq!(starts("Account", None, None, SPEC), [0, 300, 400, 500]);
}
