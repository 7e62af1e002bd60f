//! The Slurm site of a small sacct log and its site files, as `schedlab run` makes it: the
//! log's user names, accounts and each job's QOS (`run::named_site`), then the qos and assoc
//! files. One setup for the limit tests (tests/slurm_qos_limits.rs, slurm_assoc_limits.rs,
//! slurm_mins_limits.rs).

use schedlab::input::{InputOptions, JobSet};
use schedlab::sim::Schedule;
use schedlab::slurm::Site;
use schedlab::swf::ReadOptions;

/// The sacct log `text` (named `name`) read on `cluster` (compact form), and its site with the
/// qos file `qos` and the assoc file `assoc` (`None`: no such file).
pub fn log_site(
    name: &str,
    cluster: &str,
    text: &str,
    qos: Option<&str>,
    assoc: Option<&str>,
) -> (JobSet, Site) {
    let input = InputOptions {
        cluster: Some(cluster.into()),
        ..InputOptions::default()
    };
    let (workload, set) =
        schedlab::run::read_bytes(name, text.as_bytes(), &ReadOptions::default(), &input).unwrap();
    let mut site = Site::default()
        .with_user_names(workload.header.lines.iter().map(String::as_str))
        .with_accounts(set.accounts.clone())
        .with_job_qos(set.qos_names.clone(), set.qos.clone());
    if let Some(q) = qos {
        site = site.with_qos(q, "qos.txt").unwrap();
    }
    if let Some(a) = assoc {
        site = site.with_assoc(a, "assoc.txt").unwrap();
    }
    (set, site)
}

/// The schedule of the `slurm` policy `spec` on `set` under `site` (seed 1).
pub fn run_site(set: &JobSet, site: &Site, spec: &str) -> Schedule {
    let mut p = schedlab::policy::slurm::build_with_site(spec, site).unwrap();
    schedlab::run::simulate_with(set, p.as_mut(), 1, None).unwrap()
}
