//! `historic` on a cluster starts each job on the nodes its sacct record names (`NodeList`):
//! a log replayed on its own cluster is its recorded schedule, node for node. Worked by hand on
//! a two-node log, then held on every committed real Slurm run.

use schedlab::input::{InputOptions, JobSet};
use schedlab::sim::Schedule;
use schedlab::swf::ReadOptions;
use std::path::Path;

/// `sacct` read onto the cluster of slurm.conf `conf`.
fn read(sacct: &str, conf: &str) -> JobSet {
    let conf = schedlab::cluster::conf::parse_str(conf, "slurm.conf").unwrap();
    let (_, set) = schedlab::run::read_bytes(
        "sacct.txt",
        sacct.as_bytes(),
        &ReadOptions::default(),
        &InputOptions {
            cluster: Some(conf.cluster.to_compact()),
            ..InputOptions::default()
        },
    )
    .unwrap();
    set
}

fn starts(s: &Schedule) -> Vec<i64> {
    s.jobs.iter().map(|r| r.start).collect()
}

fn reasons(s: &Schedule) -> Vec<&str> {
    (0..s.jobs.len()).map(|j| s.reason_word(j)).collect()
}

fn nodes(set: &JobSet, s: &Schedule, j: usize) -> Vec<String> {
    let l = &set.placement.as_ref().unwrap().layout;
    let shares = s.allocs[j].iter();
    shares
        .map(|x| l.nodes[x.node as usize].name.clone())
        .collect()
}

const TWO_NODES: &str = "NodeName=g1 CPUs=4 Gres=gpu:1\nNodeName=c1 CPUs=4\n\
    PartitionName=batch Nodes=ALL Default=YES\n";

const HEAD: &str = "JobID|User|Partition|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|AllocTRES|State\n";

/// Worked by hand. Job 1 (4 cores, no GPU) ran on c1 from 0 to 100; job 2 (1 core and the
/// GPU) was submitted at 10 and started at once on g1. The cluster's own selection puts job 1
/// on g1, the first node (as `historic` did before it read `NodeList`), so job 2 found g1's
/// cores taken and started late, at 100. On its recorded nodes job 1 leaves g1 free: job 2
/// starts at 10 on g1, as recorded. Job 3 names a node the cluster does not have (n9): it is
/// placed by the selection (g1's 3 free cores), at its recorded 20, and a note says so. Job
/// 4's NodeList is no hostlist (`g[1-`): placed by the selection (g1 again, job 3 having
/// ended), at its recorded 30, and a note names its line.
#[test]
fn historic_starts_jobs_on_their_recorded_nodes() {
    let log = format!(
        "{HEAD}\
         1|u|batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:40|00:01:40|10|4|1|c1|cpu=4,node=1|COMPLETED\n\
         2|u|batch|2024-01-01T00:00:10|2024-01-01T00:00:10|2024-01-01T00:00:40|00:00:30|10|1|1|g1|cpu=1,gres/gpu=1,node=1|COMPLETED\n\
         3|u|batch|2024-01-01T00:00:20|2024-01-01T00:00:20|2024-01-01T00:00:30|00:00:10|10|1|1|n9|cpu=1,node=1|COMPLETED\n\
         4|u|batch|2024-01-01T00:00:30|2024-01-01T00:00:30|2024-01-01T00:00:40|00:00:10|10|1|1|g[1-|cpu=1,node=1|COMPLETED\n"
    );
    let set = read(&log, TWO_NODES);
    assert!(
        set.warnings
            .iter()
            .any(|w| w.starts_with("1 job ran on nodes the cluster does not have (the first: n9)")),
        "{:?}",
        set.warnings
    );
    assert!(
        set.warnings.iter().any(|w| w.starts_with(
            "1 job names nodes that cannot be read (the first: line 5: NodeList \"g[1-\""
        )),
        "{:?}",
        set.warnings
    );
    let s = schedlab::run::simulate(&set, "historic", 1, None).unwrap();
    assert_eq!(starts(&s), [0, 10, 20, 30]);
    assert_eq!(reasons(&s), ["replay", "replay", "replay", "replay"]);
    assert_eq!(nodes(&set, &s, 0), ["c1"]);
    assert_eq!(nodes(&set, &s, 1), ["g1"]);
    assert_eq!(nodes(&set, &s, 2), ["g1"]);
    assert_eq!(nodes(&set, &s, 3), ["g1"]);
    // Without NodeList the selection places job 1 on g1 and job 2 starts late.
    let bare = log
        .replace("|NodeList|", "|")
        .replace("|c1|", "|")
        .replace("|g1|", "|");
    let bare = bare.replace("|n9|", "|").replace("|g[1-|", "|");
    let set = read(&bare, TWO_NODES);
    let s = schedlab::run::simulate(&set, "historic", 1, None).unwrap();
    assert_eq!(starts(&s), [0, 100, 20, 30]);
    assert_eq!(reasons(&s), ["replay", "replay-late", "replay", "replay"]);
    assert_eq!(nodes(&set, &s, 0), ["g1"]);
}

/// Every committed real Slurm run (tests/data/slurm), replayed on its own slurm.conf: every
/// job starts at its recorded start (none late) and on its recorded nodes. Before `historic`
/// read `NodeList`, 0 to 43 jobs of a run started late (tiers-4/run2: 43 of 90).
#[test]
fn historic_is_each_real_slurm_run_on_its_own_cluster() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm");
    let mut runs = 0;
    for config in ["fairshare-1", "smallbf-2", "gpu-3", "tiers-4"] {
        for run in ["run1", "run2"] {
            let dir = root.join(config).join(run);
            let conf = std::fs::read_to_string(dir.join("slurm.conf")).unwrap();
            let text = std::fs::read_to_string(dir.join("sacct.txt")).unwrap();
            let set = read(&text, &conf);
            let s = schedlab::run::simulate(&set, "historic", 1, None).unwrap();
            let logged =
                schedlab::replay::recorded::Logged::from_sacct(&text, "sacct.txt", &set.jobs)
                    .unwrap();
            for (j, job) in set.jobs.iter().enumerate() {
                let name = format!("{config}/{run} job {}", set.log_id(j));
                assert_eq!(
                    s.jobs[j].start,
                    job.submit + job.trace_wait().unwrap(),
                    "{name}"
                );
                assert_eq!(s.reason_word(j), "replay", "{name}");
                let mut want = logged.nodes[j].clone().unwrap();
                let mut got = nodes(&set, &s, j);
                want.sort();
                got.sort();
                assert_eq!(got, want, "{name}");
            }
            runs += 1;
        }
    }
    assert_eq!(runs, 8);
}
