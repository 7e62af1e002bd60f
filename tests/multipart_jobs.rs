//! Jobs submitted to several partitions (`sbatch -p a,b`, sacct's `Partition` a list): the
//! reader keeps the list, and on a cluster such a job starts in whichever of its partitions can
//! start it (Slurm tries them by `PriorityTier`, then in the list's order). Hand-worked cases,
//! each failing when the job is kept in the first partition of its list alone.

use crate::common::clusterkit;
use schedlab::cluster::conf;
use schedlab::input::{InputOptions, JobSet};
use schedlab::sim::Schedule;
use schedlab::swf::ReadOptions;

/// Two nodes of 8 cores: `a` on n1 (the default), `b` on n2, both of tier 1.
const TWO: &str = "NodeName=n1 CPUs=8\nNodeName=n2 CPUs=8\n\
    PartitionName=a Nodes=n1 Default=YES\n\
    PartitionName=b Nodes=n2\n";

const HEAD: &str = "JobID|User|Partition|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|State\n";

/// A log line: job `id` of `user` in `parts`, `times` (submitted at second `submit`, started
/// at `start`, run `run` seconds, limit `limit` minutes), `cpus` cores on one node.
fn line(id: u32, user: &str, parts: &str, times: (i64, i64, i64, i64), cpus: u32) -> String {
    let (submit, start, run, limit) = times;
    let t = |s: i64| format!("2026-01-05T08:{:02}:{:02}", s / 60, s % 60);
    format!(
        "{id}|{user}|{parts}|{}|{}|{}|00:{:02}:{:02}|00:{limit:02}:00|{cpus}|1|COMPLETED\n",
        t(submit),
        t(start),
        t(start + run),
        run / 60,
        run % 60
    )
}

fn read(log: &str, conf_text: &str) -> JobSet {
    let cluster = conf::parse_str(conf_text, "slurm.conf").unwrap().cluster;
    let input = InputOptions {
        cluster: Some(cluster.to_compact()),
        ..InputOptions::default()
    };
    schedlab::run::read_bytes("m.sacct", log.as_bytes(), &ReadOptions::default(), &input)
        .unwrap()
        .1
}

/// `spec` run on the log's cluster, both checkers passed (`clusterkit::run`).
fn run(set: &JobSet, spec: &str) -> Schedule {
    clusterkit::run(set.placement.as_deref().unwrap(), &set.jobs, spec)
}

/// The node names job index `j` ran on.
fn on(set: &JobSet, s: &Schedule, j: usize) -> Vec<String> {
    clusterkit::nodes(set.placement.as_deref().unwrap(), s, j)
}

/// Job 1 holds all of `a` (n1) for 100 s; job 2, submitted to `a,b` 10 s later, starts at once
/// in `b` (n2) under every policy that runs on a cluster; kept in `a` it waited for job 1.
#[test]
fn a_job_whose_first_partition_is_busy_starts_in_its_second() {
    let log = format!(
        "{HEAD}{}{}",
        line(1, "ann", "a", (0, 0, 100, 5), 8),
        line(2, "bob", "a,b", (10, 100, 50, 5), 4)
    );
    let set = read(&log, TWO);
    for spec in ["fcfs", "easy", "conservative", "slurm"] {
        let s = run(&set, spec);
        let start = s.jobs[1].start;
        assert!(start < 100, "{spec}: job 2 starts at {start}");
        assert_eq!(on(&set, &s, 1), ["n2"], "{spec}");
        assert_eq!(on(&set, &s, 0), ["n1"], "{spec}");
    }
    // The same log with job 2 in `a` alone: it waits for job 1.
    let set = read(&log.replace("|a,b|", "|a|"), TWO);
    for spec in ["fcfs", "easy", "conservative", "slurm"] {
        let s = run(&set, spec);
        assert!(s.jobs[1].start >= 100, "{spec}");
    }
}

/// `slurm`'s main scheduler: an entry that does not fit blocks its partition only. Job 1 holds
/// 6 cores of n1 (`a`) until 300 s; job 2 (all 8 cores of `a`) does not fit and blocks `a`;
/// job 3 (2 cores, `a` alone) would fit on n1 but is behind the block, and backfill cannot
/// start it before job 2's reservation (its limit runs past it); job 4 (2 cores, `a,b`) has
/// its `a` entry blocked and starts through its `b` entry on n2. Kept in `a` it waited as job 3.
#[test]
fn slurm_blocks_a_partition_not_the_jobs_other_entries() {
    let log = format!(
        "{HEAD}{}{}{}{}",
        line(1, "ann", "a", (0, 0, 300, 6), 6),
        line(2, "bob", "a", (20, 300, 60, 5), 8),
        line(3, "cat", "a", (21, 360, 60, 9), 2),
        line(4, "dan", "a,b", (22, 360, 60, 9), 2)
    );
    let set = read(&log, TWO);
    let s = run(&set, "slurm");
    assert!(s.jobs[1].start >= 300, "job 2 waits for job 1");
    assert!(s.jobs[2].start >= 300, "job 3 is blocked behind job 2");
    assert!(
        s.jobs[3].start < 40,
        "job 4 starts in b: {}",
        s.jobs[3].start
    );
    assert_eq!(on(&set, &s, 3), ["n2"]);
    let set = read(&log.replace("|a,b|", "|a|"), TWO);
    let s = run(&set, "slurm");
    assert!(s.jobs[3].start >= 300);
}

/// Slurm tries a job's partitions by `PriorityTier`, highest first, whatever the list's order:
/// with both nodes free, job 1 (`b,a`, `a` of tier 2) starts in `a`; of equal tiers, in the
/// list's first.
#[test]
fn a_job_starts_in_its_highest_tier_partition_first() {
    let tiers = TWO.replace("Default=YES", "Default=YES PriorityTier=2");
    let log = format!("{HEAD}{}", line(1, "ann", "b,a", (0, 0, 60, 5), 4));
    let (tiered, flat) = (read(&log, &tiers), read(&log, TWO));
    for spec in ["fcfs", "easy", "slurm"] {
        assert_eq!(on(&tiered, &run(&tiered, spec), 0), ["n1"], "{spec}");
        assert_eq!(on(&flat, &run(&flat, spec), 0), ["n2"], "{spec}");
    }
}

/// The reader keeps the list of a job submitted to several partitions (the log's order; the
/// first is its partition), from a `|` export and a `,` one alike, and the cluster its
/// partitions in the order Slurm tries them.
#[test]
fn the_reader_keeps_a_jobs_partitions() {
    let log = format!(
        "{HEAD}{}{}",
        line(1, "ann", "b,a", (0, 0, 60, 5), 4),
        line(2, "ann", "a", (1, 1, 60, 5), 4)
    );
    let tiers = TWO.replace("Default=YES", "Default=YES PriorityTier=2");
    for text in [log.clone(), log.replace('|', ",")] {
        let set = read(&text, &tiers);
        let place = set.placement.as_deref().unwrap();
        // Job 1's partition is its list's first, b (index 1 of the cluster's); tried: a, b.
        assert_eq!(set.partitions, ["b", "a"]);
        assert_eq!(set.jobs[0].req.partition, 1);
        assert_eq!(place.needs[0].part, 1);
        assert_eq!(place.parts_of(0), [0, 1]);
        assert_eq!(place.parts_of(1), [0]);
    }
}

/// A reservation takes the earliest start over the job's partitions. Job 1 holds 6 of n1's 8
/// cores (`a`) until 600 s (limit 10 minutes), job 2 all of n2 (`b`) until 300 s (limit 5);
/// job 3 (`a,b`, 8 cores) waits: its earliest start is 300 s in `b`, not 600 s in `a`. Job 4
/// (`a`, 2 cores, limit 15 minutes) then fits beside it: on n1's 2 free cores, which job 3
/// does not take. `easy` (job 3's shadow time in `b`, n1's cores left over) and `conservative`
/// (job 3 planned on n2) start job 4 at once; with job 3 in `a` alone its shadow (its plan)
/// takes all of n1 at 600 s and job 4, running past it, waits. `slurm` 22.05 tests each of
/// job 3's entries and reserves in each partition (backfill.c: no `bf_one_resv_per_job`):
/// n1 is held from 600 s too, so job 4 waits until job 3 has started (at 300 s, in `b`).
#[test]
fn a_reservation_takes_the_earliest_of_the_jobs_partitions() {
    let log = format!(
        "{HEAD}{}{}{}{}",
        line(1, "ann", "a", (0, 0, 600, 10), 6),
        line(2, "bob", "b", (0, 0, 300, 5), 8),
        line(3, "cat", "a,b", (10, 300, 300, 5), 8),
        line(4, "dan", "a", (20, 20, 600, 15), 2)
    );
    let set = read(&log, TWO);
    for spec in ["easy", "conservative"] {
        let s = run(&set, spec);
        assert_eq!(s.jobs[3].start, 20, "{spec}: job 4");
        assert_eq!(
            (s.jobs[2].start, on(&set, &s, 2)),
            (300, vec!["n2".to_string()]),
            "{spec}"
        );
    }
    let s = run(&set, "slurm");
    assert!(
        s.jobs[3].start >= 300,
        "slurm: job 4 at {}",
        s.jobs[3].start
    );
    assert_eq!(on(&set, &s, 2), ["n2"]);
    // Job 3 in `a` alone: job 4 waits under every policy.
    let set = read(&log.replace("|a,b|", "|a|"), TWO);
    for spec in ["easy", "conservative"] {
        let s = run(&set, spec);
        assert!(s.jobs[3].start > 20, "{spec}: job 4 at {}", s.jobs[3].start);
    }
}

/// The other policies that place jobs on nodes themselves: `sjbf` (its own selection) starts
/// the job of [`a_job_whose_first_partition_is_busy_starts_in_its_second`] in its second
/// partition at once, `conservative[guarantees=off]` (guarantee-free backfilling, on conservative's node plan) plans
/// it there; `rua` and `pv-easy` start it through the engine's selection.
#[test]
fn the_other_policies_start_a_job_in_its_second_partition() {
    let log = format!(
        "{HEAD}{}{}",
        line(1, "ann", "a", (0, 0, 100, 5), 8),
        line(2, "bob", "a,b", (10, 100, 50, 5), 4)
    );
    let set = read(&log, TWO);
    for spec in [
        "sjbf",
        "sjbf[rsp=lc]",
        "conservative[guarantees=off]",
        "rua",
        "pv-easy",
    ] {
        let s = run(&set, spec);
        assert_eq!(
            (s.jobs[1].start, on(&set, &s, 1)),
            (10, vec!["n2".to_string()]),
            "{spec}"
        );
    }
}
