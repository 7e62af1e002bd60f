//! An sacct log's `Timelimit=Partition_Limit`: a job that gave no time limit. Slurm gives it,
//! when it starts it, its partition's `DefaultTime`, else its `MaxTime` (node_scheduler.c:
//! 2667-2674 of 22.05.8; slurm.conf.5 `DefaultTime`: "If not set then MaxTime will be used").
//! With the cluster's slurm.conf the job gets that requested time; without one, none, as
//! before, and the reader's warning says which.

use schedlab::cluster::conf;
use schedlab::input::{InputOptions, JobSet};
use schedlab::swf::ReadOptions;

/// Six jobs of 1 CPU, each run 10 minutes: 1 `batch` Partition_Limit, 2 `long`
/// Partition_Limit, 3 `free` Partition_Limit, 4 `batch` UNLIMITED (no limit: kept so), 5
/// `batch` 00:20:00, 6 `gone` (a partition the cluster lacks) Partition_Limit.
const LOG: &str = "\
JobID|User|Partition|Submit|Start|End|Elapsed|Timelimit|NCPUS|State
1|ann|batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:10:00|00:10:00|Partition_Limit|1|COMPLETED
2|ann|long|2024-01-01T00:00:01|2024-01-01T00:00:01|2024-01-01T00:10:01|00:10:00|Partition_Limit|1|COMPLETED
3|bob|free|2024-01-01T00:00:02|2024-01-01T00:00:02|2024-01-01T00:10:02|00:10:00|Partition_Limit|1|COMPLETED
4|bob|batch|2024-01-01T00:00:03|2024-01-01T00:00:03|2024-01-01T00:10:03|00:10:00|UNLIMITED|1|COMPLETED
5|ann|batch|2024-01-01T00:00:04|2024-01-01T00:00:04|2024-01-01T00:10:04|00:10:00|00:20:00|1|COMPLETED
6|bob|gone|2024-01-01T00:00:05|2024-01-01T00:00:05|2024-01-01T00:10:05|00:10:00|Partition_Limit|1|COMPLETED
";

/// `batch` (the default): DefaultTime 30 minutes under MaxTime 2 hours; `long`: MaxTime one
/// day, no DefaultTime; `free`: neither (MaxTime UNLIMITED).
const CONF: &str = "NodeName=n[1-2] CPUs=4\n\
    PartitionName=batch Nodes=ALL Default=YES DefaultTime=30 MaxTime=2:00:00\n\
    PartitionName=long Nodes=n1 MaxTime=1-00:00:00\n\
    PartitionName=free Nodes=n2 MaxTime=UNLIMITED\n";

fn read(cluster: Option<String>) -> JobSet {
    let input = InputOptions {
        cluster,
        ..InputOptions::default()
    };
    schedlab::run::read_bytes("pl.sacct", LOG.as_bytes(), &ReadOptions::default(), &input)
        .unwrap()
        .1
}

fn requested(set: &JobSet) -> Vec<Option<i64>> {
    set.jobs.iter().map(|j| j.requested()).collect()
}

#[test]
fn a_partition_limit_job_gets_its_partitions_default_time_else_its_max_time() {
    let cluster = conf::parse_str(CONF, "slurm.conf").unwrap().cluster;
    let set = read(Some(cluster.to_compact()));
    assert_eq!(
        requested(&set),
        [
            Some(1800),  // batch's DefaultTime, not its MaxTime
            Some(86400), // long's MaxTime
            None,        // free: neither
            None,        // UNLIMITED is no limit, whatever the partition
            Some(1200),  // its own
            Some(1800),  // gone: runs in the default partition, batch
        ]
    );
    let note = set
        .warnings
        .iter()
        .find(|w| w.starts_with("Timelimit: 4 jobs give Partition_Limit"))
        .unwrap_or_else(|| panic!("{:?}", set.warnings));
    assert_eq!(
        note,
        "Timelimit: 4 jobs give Partition_Limit; as Slurm does when it starts such a job, 2 \
         get their partition's DefaultTime, 1 gets its partition's MaxTime, 1 keeps no \
         requested time (its partition's DefaultTime and MaxTime are unset or UNLIMITED)"
    );
    // Jobs 3 and 4 plan with their runtime (the count of those without a requested time).
    assert!(
        set.warnings
            .iter()
            .any(|w| w.starts_with("2 of 6 jobs simulated give no requested time in Timelimit")),
        "{:?}",
        set.warnings
    );
}

#[test]
fn without_a_cluster_a_partition_limit_job_has_no_requested_time_and_the_reader_says_why() {
    let set = read(None);
    assert_eq!(requested(&set), [None, None, None, None, Some(1200), None]);
    let w = schedlab::workload::read_bytes("pl.sacct", LOG.as_bytes(), &ReadOptions::default())
        .unwrap();
    let issue = w.issues.iter().find(|i| i.line == 0).unwrap();
    assert_eq!(issue.field.as_deref(), Some("Timelimit"));
    assert_eq!(
        issue.reason,
        "4 jobs give Partition_Limit (first: job 1, line 2): Slurm gives such a job its \
         partition's DefaultTime, else its MaxTime, which a slurm.conf names (--slurm-conf or \
         --cluster FILE; the page's Cluster panel); without one, they have no requested time: \
         planned with their runtime, never killed at a limit"
    );
    assert_eq!(w.partition_limit, [2, 3, 4, 7]);
}

/// A job that ran past the DefaultTime it was given is killed there, as Slurm would have.
#[test]
fn a_partition_limit_job_past_its_default_time_is_killed_there() {
    let long_run = LOG.replace(
        "1|ann|batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:10:00|00:10:00",
        "1|ann|batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:40:00|00:40:00",
    );
    let cluster = conf::parse_str(CONF, "slurm.conf").unwrap().cluster;
    let input = InputOptions {
        cluster: Some(cluster.to_compact()),
        ..InputOptions::default()
    };
    let set = schedlab::run::read_bytes(
        "pl.sacct",
        long_run.as_bytes(),
        &ReadOptions::default(),
        &input,
    )
    .unwrap()
    .1;
    assert_eq!((set.jobs[0].runtime, set.jobs[0].killed), (1800, true));
}
