//! `slurm` with no site of the user's (`Trace::run`, a share link's run): the spec alone, on
//! the cluster its slurm.conf describes, gives the schedule that slurm.conf gives. The job size
//! and TRES factors divide by the cluster's totals, and the backfill rounds on the trace's
//! clock, whether or not a slurm.conf is read.

use schedlab::input::InputOptions;
use schedlab::metrics::MetricOptions;
use schedlab::run::Trace;
use schedlab::swf::ReadOptions;
use std::path::Path;

/// Two nodes of 4 cores and 2 GPUs: 8 cores and 4 GPUs in all.
const CONF: &str = "NodeName=n[1-2] CPUs=4 RealMemory=1000 Gres=gpu:2\n\
    PartitionName=batch Nodes=ALL Default=YES\n\
    PriorityWeightTRES=CPU=1000,GRES/gpu=1000\n";

/// Job 1 takes all 8 cores from 0 to 100. Job 2 (1 core, 2 GPUs) and job 3 (8 cores on both
/// nodes) wait for it; whichever starts at 100 keeps the other waiting until it ends.
const LOG: &str = "\
JobID|User|Partition|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|ReqTRES|State
1|u|batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:40|00:01:40|00:10:00|8|2|n[1-2]|cpu=8,node=2|COMPLETED
2|u|batch|2024-01-01T00:00:01|2024-01-01T00:01:40|2024-01-01T00:02:40|00:01:00|00:10:00|1|1|n1|cpu=1,gres/gpu=2,node=1|COMPLETED
3|u|batch|2024-01-01T00:00:02|2024-01-01T00:02:40|2024-01-01T00:03:40|00:01:00|00:10:00|8|2|n[1-2]|cpu=8,node=2|COMPLETED
";

/// The trace `log` on the cluster of slurm.conf `conf`.
fn trace(log: &str, conf: &str) -> Trace {
    let conf = schedlab::cluster::conf::parse_str(conf, "slurm.conf").unwrap();
    let input = InputOptions {
        cluster: Some(conf.cluster.to_compact()),
        ..InputOptions::default()
    };
    let read =
        schedlab::run::read_bytes("sacct.txt", log.as_bytes(), &ReadOptions::default(), &input);
    let (w, jobs) = read.unwrap();
    Trace::of_jobs(w, jobs, MetricOptions::default()).unwrap()
}

fn starts(t: &Trace, spec: &str, site: Option<&schedlab::slurm::Site>) -> Vec<i64> {
    let r = t.run_at(spec, site, 1, None).unwrap();
    r.schedule.jobs.iter().map(|j| j.start).collect()
}

/// Worked by hand (priority_multifactor.c: each TRES factor is the job's count over the
/// cluster's total, times its weight). On the cluster's totals, job 2's priority is 1000 ·
/// 1/8 (cores) + 1000 · 2/4 (GPUs) = 625, job 3's 1000 · 8/8 = 1000: job 3 starts at 100,
/// job 2 at its end, 160. On a pool of 8 processors and no GPU (a total of 0 GPUs read as 1)
/// job 2's would be 125 + 2000 = 2125, and job 2 would start first (100, then job 3 at 160):
/// the schedule before the spec read the cluster's totals. With the slurm.conf read as the
/// site, and with the spec alone on its cluster, the same.
#[test]
fn the_spec_alone_reads_the_clusters_totals() {
    let t = trace(LOG, CONF);
    let spec = "slurm[PriorityWeightTRES=(CPU=1000,GRES/gpu=1000)]";
    assert_eq!(starts(&t, spec, None), [0, 160, 100]);
    let read = schedlab::cluster::conf::parse_str(CONF, "slurm.conf").unwrap();
    let site = t.named_site(schedlab::slurm::Site::default().with_conf(&read));
    assert_eq!(starts(&t, "slurm", Some(&site)), [0, 160, 100]);
}

/// Every committed real run, on its own cluster: `slurm` with its slurm.conf as the site, and
/// the spec that site makes (the keys the slurm.conf sets, as `schedlab run` prints it) alone
/// on the same cluster give the same schedule, start for start and reservation for
/// reservation (before, all four differed: the backfill rounded on time 0, not the trace's clock).
#[test]
fn a_runs_own_spec_gives_its_slurm_confs_schedule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm");
    for name in [
        "fairshare-1/run1",
        "smallbf-2/run2",
        "gpu-3/run1",
        "tiers-4/run1",
    ] {
        let dir = root.join(name);
        let conf = std::fs::read_to_string(dir.join("slurm.conf")).unwrap();
        let log = std::fs::read_to_string(dir.join("sacct.txt")).unwrap();
        let t = trace(&log, &conf);
        let read = schedlab::cluster::conf::parse_str(&conf, "slurm.conf").unwrap();
        let site = t.named_site(schedlab::slurm::Site::default().with_conf(&read));
        let spec = schedlab::policy::slurm::build_with_site("slurm", &site)
            .unwrap()
            .spec();
        let with_site = t.run_at("slurm", Some(&site), 1, None).unwrap().schedule;
        let alone = t.run_at(&spec, None, 1, None).unwrap().schedule;
        let of = |s: &schedlab::sim::Schedule| -> Vec<(i64, Option<i64>)> {
            s.jobs
                .iter()
                .map(|j| (j.start, j.first_reservation()))
                .collect()
        };
        assert_eq!(of(&with_site), of(&alone), "{name}: {spec}");
    }
}

/// A slurm.conf whose default partition line has no `PriorityJobFactor` sets none (the page
/// said "reads 1 scheduler parameter of slurm.conf (PriorityJobFactor=1)" of NodeName and
/// PartitionName lines alone); one that sets it to 4 sets it, and its spec carries it.
#[test]
fn a_partition_without_priority_job_factor_sets_none() {
    let read = schedlab::cluster::conf::parse_str(CONF, "slurm.conf").unwrap();
    let site = schedlab::slurm::Site::default().with_conf(&read);
    assert!(site.conf.iter().all(|(k, _)| *k != "PriorityJobFactor"));
    let four = CONF.replace("Default=YES", "Default=YES PriorityJobFactor=4");
    let read = schedlab::cluster::conf::parse_str(&four, "slurm.conf").unwrap();
    let site = schedlab::slurm::Site::default().with_conf(&read);
    assert!(site.conf.contains(&("PriorityJobFactor", "4".to_string())));
}
