//! Jobs on a cluster's nodes, worked by hand: a GPU job waiting while cores are free, a
//! memory-bound node, exclusive jobs beside shared ones, overlapping partitions, a `-N 2` job,
//! jobs that can never run, and the checker catching a tampered allocation.

use crate::common;

use common::clusterkit::*;
use common::starts;
use schedlab::cluster::PackedAlloc;
use schedlab::job::Request;
use schedlab::sim::check_cluster::check_cluster;

#[test]
fn a_gpu_job_waits_while_cores_are_free_and_easy_backfills_past_it() {
    // g1 has the only GPU. J1 holds it until 100; J2 wants it (waits, 7 cores free); J3 needs
    // cores only and ends at 12, before J2's shadow time (100).
    let (js, p) = a_gpu_job_waiting_while_cores_are_free();
    let fcfs = run(&p, &js, "fcfs");
    assert_eq!(starts(&fcfs), [0, 100, 100]);
    let easy = run(&p, &js, "easy");
    assert_eq!(starts(&easy), [0, 100, 2]);
    assert_eq!(starts(&run(&p, &js, "conservative")), [0, 100, 2]);
    assert_eq!(nodes(&p, &easy, 1), ["g1"]);
    assert_eq!(easy.allocs[1].to_vec()[0].gpus, 1);
    // J3 went where the cores are first free: g1 (3 cores free), in node order.
    assert_eq!(nodes(&p, &easy, 2), ["g1"]);
}

#[test]
fn a_memory_bound_node_holds_a_job_back() {
    // 4 cores, 1000 MB. J1: 2 cores x 400 MB = 800 MB until 50; J2: 1 core x 400 MB, but only
    // 200 MB are free although 2 cores are.
    let js = jobs(&[(0, 50, 2, 400, req(0, 0)), (1, 10, 1, 400, req(0, 0))]);
    let p = place("NodeName=n1 CPUs=4 RealMemory=1000\n", &js, &[]);
    let s = run(&p, &js, "fcfs");
    assert_eq!(starts(&s), [0, 50]);
    assert_eq!(s.allocs[0].to_vec()[0].mem_mb, 800);
    // Without memory on the nodes, memory is not scheduled: J2 starts at once.
    let p = place("NodeName=n1 CPUs=4\n", &js, &[]);
    assert_eq!(starts(&run(&p, &js, "fcfs")), [0, 1]);
}

#[test]
fn exclusive_jobs_take_idle_nodes_whole_beside_shared_ones() {
    let ex = Request {
        exclusive: true,
        ..Request::default()
    };
    let js = jobs(&[
        (0, 100, 1, 0, req(0, 0)), // n1
        (1, 20, 2, 0, ex),         // n2, whole
        (2, 10, 1, 0, req(0, 0)),  // n1 (n2 is held whole)
        (3, 10, 1, 0, ex),         // no idle node until J2 ends at 21
    ]);
    let p = place("NodeName=n[1-2] CPUs=4\n", &js, &[]);
    for spec in ["fcfs", "easy"] {
        let s = run(&p, &js, spec);
        assert_eq!(starts(&s), [0, 1, 2, 21]);
        assert_eq!(nodes(&p, &s, 1), ["n2"]);
        assert!(s.allocs[1].to_vec()[0].whole);
        assert_eq!(nodes(&p, &s, 2), ["n1"]);
        assert_eq!(nodes(&p, &s, 3), ["n2"]);
    }
}

#[test]
fn overlapping_partitions_keep_jobs_on_their_nodes() {
    // Partition a: n1, n2 (default); b: n2 only. J1 (b) fills n2 until 100; J2 (a) fills n1
    // until 51; J3 (b) must wait for n2; J4 (a, 10 s) fits n1 at 51 and ends before J3's
    // shadow time: EASY backfills it there, fcfs keeps it behind J3.
    let b = Request {
        partition: 1,
        ..Request::default()
    };
    let js = jobs(&[
        (0, 100, 4, 0, b),
        (1, 50, 4, 0, req(0, 0)),
        (2, 10, 1, 0, b),
        (3, 10, 1, 0, req(0, 0)),
    ]);
    let p = place(
        "NodeName=n[1-2] CPUs=4\nPartitionName=a Nodes=n[1-2] Default=YES\nPartitionName=b Nodes=n2\n",
        &js,
        &["b"],
    );
    let fcfs = run(&p, &js, "fcfs");
    assert_eq!(starts(&fcfs), [0, 1, 100, 100]);
    let easy = run(&p, &js, "easy");
    assert_eq!(starts(&easy), [0, 1, 100, 51]);
    assert_eq!(nodes(&p, &easy, 0), ["n2"]);
    assert_eq!(nodes(&p, &easy, 2), ["n2"]);
    assert_eq!(nodes(&p, &easy, 3), ["n1"]);
}

#[test]
fn a_two_node_job_gets_exactly_two_nodes() {
    // J1: 1 core on n1 until 100. J2 (-N 2, 8 cores): 4 on each of n2, n3 until 31. J3 (-N 2,
    // 2 cores): one core on each of two nodes; only n1 has room until 31.
    let js = jobs(&[
        (0, 100, 1, 0, req(0, 0)),
        (1, 30, 8, 0, req(2, 0)),
        (2, 10, 2, 0, req(2, 0)),
    ]);
    let p = place("NodeName=n[1-3] CPUs=4\n", &js, &[]);
    let s = run(&p, &js, "easy");
    assert_eq!(starts(&s), [0, 1, 31]);
    assert_eq!(nodes(&p, &s, 1), ["n2", "n3"]);
    assert_eq!(nodes(&p, &s, 2), ["n1", "n2"]);
    assert!(s.allocs[2].iter().all(|x| x.cpus == 1));
}

#[test]
fn jobs_that_can_never_run_are_rejected_with_their_reason() {
    let js = jobs(&[
        (0, 10, 1, 0, req(0, 4)),    // 4 GPUs, the cluster has 2
        (0, 10, 2, 0, req(3, 0)),    // 3 nodes, 2 exist
        (0, 10, 1, 5000, req(0, 0)), // 5000 MB per core, nodes have 1000
        (
            0,
            10,
            1,
            0,
            Request {
                partition: 1,
                ..Request::default()
            },
        ), // a partition the cluster does not have: runs in the default one
        (0, 10, 2, 0, req(0, 0)),    // fine
    ]);
    let p = place(
        "NodeName=n[1-2] CPUs=4 RealMemory=1000 Gres=gpu:1\n",
        &js,
        &["nope"],
    );
    let s = run(&p, &js, "easy");
    let reasons: Vec<&str> = s.rejected.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(
        s.rejected.iter().map(|(j, _)| *j).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    assert!(reasons[0].contains("4 GPUs"), "{reasons:?}");
    assert!(reasons[1].contains("3 nodes"), "{reasons:?}");
    assert!(reasons[2].contains("5000 MB"), "{reasons:?}");
    // Job 3 (1 core) and job 4 (2 cores) both fit n1 at once.
    assert_eq!((s.jobs[3].start, s.jobs[4].start), (0, 0));
    assert_eq!(p.absent, [("nope".to_string(), 1)]);
    // The notes a user reads name both: the partition sent to the default one, and how many
    // jobs are left out with the first reasons, by job id.
    let notes = p.notes(&js);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].contains("nope (1 job)"), "{notes:?}");
    assert!(notes[1].starts_with("3 jobs can never run"), "{notes:?}");
    assert!(
        notes[1].contains(&format!("job {}: asks for 4 GPUs", js[0].id)),
        "{notes:?}"
    );
}

/// An SWF trace's partition number 1 on a cluster of one partition: the number means nothing
/// to it, the job runs in that partition as it would anyway, and nothing is said. On a cluster
/// of two partitions, neither named 1, the note stays (which one the job runs in is the
/// default's choice); so does a partition a log names (`nope` above).
#[test]
fn a_partition_number_on_a_cluster_of_one_partition_is_not_said() {
    let numbered = Request {
        partition: 1,
        ..Request::default()
    };
    let js = jobs(&[(0, 10, 1, 0, numbered)]);
    let one = place("NodeName=n[1-2] CPUs=4\n", &js, &["1"]);
    assert_eq!(one.absent, [("1".to_string(), 1)]);
    assert_eq!(one.notes(&js), Vec::<String>::new());
    let two = place(
        "NodeName=n[1-2] CPUs=4\nPartitionName=a Nodes=n1 Default=YES\nPartitionName=b Nodes=n2\n",
        &js,
        &["1"],
    );
    let notes = two.notes(&js);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("partitions not in the cluster: 1 (1 job)"),
        "{notes:?}"
    );
    // The schedule is the same either way: the job starts at once.
    assert_eq!(starts(&run(&one, &js, "easy")), [0]);
}

#[test]
fn the_checker_catches_an_overfull_node() {
    let js = jobs(&[(0, 10, 1, 0, req(0, 1)), (0, 10, 1, 0, req(0, 0))]);
    let p = place("NodeName=n[1-2] CPUs=4 Gres=gpu:1\n", &js, &[]);
    let mut s = run(&p, &js, "fcfs");
    // Both on n1 (each got 1 core there); give the second job a GPU as well: n1 has one.
    let mut a = s.allocs[1].to_vec();
    a[0].gpus = 1;
    s.allocs[1] = PackedAlloc::new(&a);
    let errs = check_cluster(&p, &s).unwrap_err();
    assert!(
        errs.iter().any(|e| e.contains("GPUs allocated")),
        "{errs:?}"
    );
    assert!(
        errs.iter().any(|e| e.contains("over its capacity")),
        "{errs:?}"
    );
}

#[test]
fn the_cli_runs_a_trace_on_a_slurm_conf_and_writes_allocations() {
    let dir = std::env::temp_dir().join(format!("schedlab-cluster-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Three jobs of 4, 2 and 6 cores on two nodes of 4 cores: job 3 spans both nodes once
    // jobs 1 and 2 end (at 100 and 50).
    let swf = "; MaxProcs: 8\n1 0 -1 100 4 -1 -1 4 100 -1 1 1 -1 -1 -1 -1 -1 -1\n\
               2 0 -1 50 2 -1 -1 2 50 -1 1 1 -1 -1 -1 -1 -1 -1\n\
               3 1 -1 10 6 -1 -1 6 10 -1 1 1 -1 -1 -1 -1 -1 -1\n";
    std::fs::write(dir.join("t.swf"), swf).unwrap();
    std::fs::write(
        dir.join("slurm.conf"),
        "ClusterName=x\nSchedulerType=sched/backfill\nNodeName=n[1-2] CPUs=4\n\
         PartitionName=all Nodes=ALL Default=YES\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .current_dir(&dir)
        .args(["run", "t.swf", "-p", "easy", "--slurm-conf", "slurm.conf"])
        .args(["--jobs-csv", "j.csv", "--alloc-csv", "a.csv"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let alloc = std::fs::read_to_string(dir.join("a.csv")).unwrap();
    assert_eq!(
        alloc,
        "job_id,node,cpus,mem_mb,gpus\n1,n1,4,0,0\n2,n2,2,0,0\n3,n1,4,0,0\n3,n2,2,0,0\n"
    );
    let jobs = std::fs::read_to_string(dir.join("j.csv")).unwrap();
    let head: Vec<&str> = jobs.lines().next().unwrap().split(',').collect();
    assert_eq!(&head[head.len() - 4..], ["nodes", "cpus", "mem_mb", "gpus"]);
    let row3: Vec<&str> = jobs.lines().nth(3).unwrap().split(',').collect();
    assert_eq!(row3[7], "100", "job 3 starts when job 1 ends");
    assert_eq!(&row3[row3.len() - 4..], ["n[1-2]", "6", "0", "0"]);
    // Without a cluster, no allocation file.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_schedlab"))
        .current_dir(&dir)
        .args(["run", "t.swf", "-p", "easy", "--alloc-csv", "b.csv"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--alloc-csv"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The backfill thread runs a cycle `bf_interval` after the last only if something changed
/// since (backfill.c `_more_work`), else it looks again each second. One node of 4 cores;
/// J1 (3 cores) runs 0-100; J2 (4 cores) waits from 1, its will-run start 100; J4 (1 core, 5 s)
/// is submitted at 14 and can only be backfilled. Cycles 5 s apart, the main scheduler's full
/// runs every 10 s (at 0, 10, 20).
///
/// J2 alone waiting: the cycle at 1 tests it (its start is its will-run test's, the node is
/// not idle: no change), the one at 6 runs for J2's submission at 1; the full run at 10 fails
/// the partition on J2 and reaches no other job (`_schedule` sets no `last_job_update`), so the
/// look at 11 finds nothing changed and the thread looks each second: J4's submission at 14
/// runs a cycle at 14, which starts it.
///
/// J3 (1 core, 200 s: it would delay J2, so it is never backfilled) waiting behind J2 from 2:
/// the full run at 10 reaches J3 after J2 failed the partition, a `last_job_update` (job_scheduler.c
/// 1649, whether J3's reason changes or not), so a cycle runs at 11 and the next look is at
/// 16: J4 starts at 16.
#[test]
fn a_main_run_that_reaches_a_job_behind_a_blocked_one_keeps_the_backfill_grid() {
    let spec = "slurm[bf_interval=5,sched_interval=10]";
    let conf = "NodeName=n1 CPUs=4\n";
    let alone = jobs(&[
        (0, 100, 3, 0, req(0, 0)),
        (1, 100, 4, 0, req(0, 0)),
        (14, 5, 1, 0, req(0, 0)),
    ]);
    let s = run(&place(conf, &alone, &[]), &alone, spec);
    assert_eq!(starts(&s), [0, 100, 14]);
    let behind = jobs(&[
        (0, 100, 3, 0, req(0, 0)),
        (1, 100, 4, 0, req(0, 0)),
        (2, 200, 1, 0, req(0, 0)),
        (14, 5, 1, 0, req(0, 0)),
    ]);
    let s = run(&place(conf, &behind, &[]), &behind, spec);
    assert_eq!(starts(&s), [0, 100, 200, 16]);
}
