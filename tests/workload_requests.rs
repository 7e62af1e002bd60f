//! Jobs' requests (nodes, GPUs, memory, partition, exclusivity) read from Slurm sacct files:
//! the real Slurm 22.05 dumps of tests/data/slurm against the workloads that were submitted,
//! and hand-made files (columns reordered, subsets, older ReqMem forms, bad TRES).

use schedlab::input::{self, InputOptions};
use schedlab::job::Request;
use schedlab::swf::{ReadOptions, SwfError, Workload};
use schedlab::workload;
use std::collections::HashMap;
use std::path::PathBuf;

fn slurm(run: &str, file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/slurm/{run}/run1/{file}"))
}

fn read(text: &str) -> Result<Workload, SwfError> {
    workload::read_bytes("t.sacct", text.as_bytes(), &ReadOptions::default())
}

fn req(nodes: u32, gpus: u32, mem_per_node_mb: u32, exclusive: bool) -> Request {
    Request {
        nodes,
        gpus,
        mem_per_node_mb,
        partition: 0,
        exclusive,
    }
}

/// Lines of a CSV file as maps from the header's names.
fn csv(path: &PathBuf) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn real_slurm_requests_are_what_was_submitted() {
    for run in ["fairshare-1", "smallbf-2", "gpu-3"] {
        let w = workload::read_path(&slurm(run, "sacct.txt"), &ReadOptions::default()).unwrap();
        assert_eq!(w.records.len(), 60, "{run}");
        assert_eq!(w.partition_names, ["batch"], "{run}");
        // What the script submitted (sbatch -N nodes --ntasks-per-node=T --mem=MB
        // --gres=gpu:G), by Slurm job id.
        let submitted: HashMap<String, HashMap<String, String>> = {
            let by_name: HashMap<String, HashMap<String, String>> =
                csv(&slurm(run, "workload.csv"))
                    .into_iter()
                    .map(|r| (r["name"].clone(), r))
                    .collect();
            csv(&slurm(run, "submit.log"))
                .into_iter()
                .map(|s| (s["jobid"].clone(), by_name[&s["name"]].clone()))
                .collect()
        };
        let mut gpu_jobs = 0;
        for r in &w.records {
            let s = &submitted[&r.extra[0]];
            let n = |k: &str| s[k].parse::<u32>().unwrap();
            let (nodes, mem) = (n("nodes"), n("mem_mb_per_node"));
            let cpus = nodes * n("tasks_per_node");
            assert_eq!(r.allocated_processors, i64::from(cpus), "{run} {s:?}");
            assert_eq!(
                r.req,
                req(nodes, nodes * n("gpus_per_node"), mem, false),
                "{run} {s:?}"
            );
            // Field 10: KB per processor.
            let kb = f64::from(mem) * f64::from(nodes) * 1024.0 / f64::from(cpus);
            assert!((r.requested_memory - kb).abs() < 1e-6, "{run} {s:?}");
            assert_eq!(r.partition, 1);
            gpu_jobs += usize::from(r.req.gpus > 0);
        }
        // The ReqTRES lines naming gres/gpu, counted with grep.
        let want = [("fairshare-1", 13), ("smallbf-2", 8), ("gpu-3", 42)];
        assert!(
            want.contains(&(run, gpu_jobs)),
            "{run}: {gpu_jobs} GPU jobs"
        );
        // Through the input rules: the jobs keep their requests, the trace its partitions.
        let set = input::prepare(&w, &InputOptions::default()).unwrap();
        assert_eq!(set.partitions, ["batch"]);
        assert!(set.jobs.iter().all(|j| j.req.partition == 1));
        let gpus: u32 = set.jobs.iter().map(|j| j.req.gpus).sum();
        let want: u32 = w.records.iter().map(|r| r.req.gpus).sum();
        assert_eq!(gpus, want);
    }
}

#[test]
fn real_slurm_lines_checked_by_hand() {
    let w = workload::read_path(&slurm("gpu-3", "sacct.txt"), &ReadOptions::default()).unwrap();
    let job = |id: &str| w.records.iter().find(|r| r.extra[0] == id).unwrap();
    // Line 2: NCPUS 2, NNodes 2, ReqTRES billing=2,cpu=2,gres/gpu=4,mem=1000M,node=2,
    // ReqMem 1000M (Slurm 22.05: the job's total): 500 MB per node, 500 MB per CPU.
    let r = job("1");
    assert_eq!((r.line, r.allocated_processors), (2, 2));
    assert_eq!(r.req, req(2, 4, 500, false));
    assert_eq!(r.requested_memory, 512_000.0);
    // Line 11: 16 CPUs on 4 nodes, mem=8000M: 2000 MB per node, no GPU.
    let r = job("10");
    assert_eq!((r.line, r.allocated_processors), (11, 16));
    assert_eq!(r.req, req(4, 0, 2000, false));
    assert_eq!(r.requested_memory, 512_000.0);
    // Line 12: 8 CPUs on 2 nodes, gres/gpu=2, mem=8000M.
    let r = job("11");
    assert_eq!(r.req, req(2, 2, 4000, false));
    assert_eq!(r.requested_memory, 1_024_000.0);
}

const HEAD: &str = "JobID|Submit|Start|End|State";

#[test]
fn columns_in_any_order_and_any_subset() {
    // The same job three ways: TRES only (CPUs from AllocTRES), columns reordered, and the
    // older per-node ReqMem with NNodes and ReqNodes.
    let a = read(&format!(
        "{HEAD}|AllocTRES|ReqTRES|Partition\n\
         7|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:11:00|COMPLETED|\
         cpu=8,mem=16G,node=2,gres/gpu:a100=2,gres/gpu:v100=1|cpu=8,mem=16G,node=2,gres/gpu=3|gpu\n"
    ))
    .unwrap();
    let b = read(
        "Partition|ReqTRES|State|End|NCPUS|Start|Submit|JobID\n\
         gpu|gres/gpu=3,node=2,mem=16384M,cpu=8|COMPLETED|2024-01-01T00:11:00|8|\
         2024-01-01T00:01:00|2024-01-01T00:00:00|7\n",
    )
    .unwrap();
    let c = read(&format!(
        "{HEAD}|NCPUS|ReqCPUS|NNodes|ReqNodes|ReqMem|Partition\n\
         7|2024-01-01T00:00:00|2024-01-01T00:01:00|2024-01-01T00:11:00|COMPLETED|8|8|2|2|8Gn|gpu\n"
    ))
    .unwrap();
    for w in [&a, &b] {
        let r = &w.records[0];
        assert_eq!(r.allocated_processors, 8);
        assert_eq!(r.req, req(2, 3, 8192, false));
        assert_eq!(r.requested_memory, 16384.0 * 1024.0 / 8.0);
        assert_eq!(w.partition_names, ["gpu"]);
    }
    // No GPU column: none; per node as written.
    assert_eq!(c.records[0].req, req(2, 0, 8192, false));
    assert_eq!(c.records[0].requested_memory, 16384.0 * 1024.0 / 8.0);
}

/// sacct of Slurm <= 19.05 has no TRES columns: its GPUs are in `ReqGRES` / `AllocGRES`,
/// per node (they were not read: no GPU). Job 1 asks 2 nodes with `gpu:2` each: 2 x 2 = 4
/// GPUs. Job 2's ReqGRES is empty; AllocGRES `gpu:tesla:3` on its 1 node: 3.
#[test]
fn old_sacct_gres_columns_give_gpus_per_node_times_nodes() {
    let w = read(&format!(
        "{HEAD}|NCPUS|NNodes|ReqNodes|ReqMem|ReqGRES|AllocGRES\n\
         1|2019-01-01T00:00:00|2019-01-01T00:01:00|2019-01-01T00:11:00|COMPLETED|8|2|2|8Gn|\
         gpu:2|gpu:2(IDX:0-1)\n\
         2|2019-01-01T00:00:00|2019-01-01T00:01:00|2019-01-01T00:11:00|COMPLETED|4|1|1|8Gn||\
         gpu:tesla:3\n"
    ))
    .unwrap();
    assert_eq!(w.records[0].req, req(2, 4, 8192, false));
    assert_eq!(w.records[1].req, req(1, 3, 8192, false));
}

#[test]
fn missing_fields_leave_the_request_unknown() {
    // No node count: memory known per CPU only; no memory at all: -1; no partition: none.
    let w = read(&format!(
        "{HEAD}|NCPUS|ReqMem\n\
         1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED|4|4000M\n\
         2|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED|4|2Gc\n\
         3|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED|4|\n"
    ))
    .unwrap();
    let got: Vec<(Request, f64)> = w
        .records
        .iter()
        .map(|r| (r.req, r.requested_memory))
        .collect();
    assert_eq!(
        got,
        [
            (req(0, 0, 0, false), 1_024_000.0),
            (req(0, 0, 0, false), 2_097_152.0),
            (req(0, 0, 0, false), -1.0)
        ]
    );
    assert!(w.partition_names.is_empty());
    assert!(w.records.iter().all(|r| r.partition == -1));
    let set = input::prepare(&w, &InputOptions::default()).unwrap();
    assert!(set.partitions.is_empty());
    assert!(set.jobs.iter().all(|j| j.req.partition == 0));
}

/// A job submitted to several partitions (`sbatch -p short,batch`) that started is recorded
/// with the partition it ran in first (Slurm 22.05's `rebuild_job_part_list`, job_scheduler.c):
/// job 1 ran in `short`, job 2 in `batch` (listed `batch,short`), job 3 asked `batch` alone.
/// Each is its first name: the trace's partitions are `short`, `batch` (before: `short,batch`
/// and `batch,short`, two partitions no cluster has, whose jobs ran in its default one).
#[test]
fn a_partition_list_is_the_partition_the_job_ran_in_first() {
    let w = read(&format!(
        "{HEAD}|NCPUS|Partition\n\
         1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED|4|short,batch\n\
         2|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED|4|batch,short\n\
         3|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED|4|batch\n"
    ))
    .unwrap();
    assert_eq!(w.partition_names, ["short", "batch"]);
    let parts: Vec<i64> = w.records.iter().map(|r| r.partition).collect();
    assert_eq!(parts, [1, 2, 2]);
    // The reader tells of the two jobs of several partitions, once for the file.
    assert_eq!(w.issue_count, 1);
    let i = w.issues[0].to_string();
    assert!(
        i.starts_with(
            "Partition: 2 jobs submitted to several partitions (first: job 1 in short,batch)"
        ),
        "{i}"
    );
}

#[test]
fn more_cpus_than_asked_is_whole_nodes() {
    // sbatch -n 3 --exclusive on 16-CPU nodes: 16 CPUs allocated for 3 asked.
    let w = read(&format!(
        "{HEAD}|ReqTRES|AllocTRES\n\
         1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED|\
         cpu=3,mem=3000M,node=1|cpu=16,mem=3000M,node=1\n\
         2|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED|\
         cpu=3,mem=3000M,node=1|cpu=3,mem=3000M,node=1\n"
    ))
    .unwrap();
    let r = &w.records;
    assert_eq!(
        (r[0].allocated_processors, r[0].requested_processors),
        (16, 3)
    );
    assert_eq!(r[0].req, req(1, 0, 3000, true));
    assert_eq!(r[1].req, req(1, 0, 3000, false));
}

#[test]
fn bad_requests_name_the_line_and_the_column() {
    let job = "2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|COMPLETED";
    let w = read(&format!(
        "JobID|Submit|Start|End|State|NCPUS|ReqTRES|ReqMem|NNodes\n\
         1|{job}|2|cpu=2,node|1G|1\n\
         2|{job}|2|cpu=2,gres/gpu=lots|1G|1\n\
         3|{job}|2|cpu=2,mem=2X|1G|1\n\
         4|{job}|2|cpu=2|much|1\n\
         5|{job}|2|cpu=2,gres/gpu=99999999999|1G|1\n\
         6|{job}|2|cpu=2,gres/gpu=1|1G|1\n"
    ))
    .unwrap();
    assert_eq!(w.records.len(), 1);
    assert_eq!(w.records[0].req, req(1, 1, 1024, false));
    let issues: Vec<String> = w.issues.iter().map(|i| i.to_string()).collect();
    let want = [
        "line 2, column 7 (ReqTRES): not a TRES entry (key=value): \"node\"",
        "line 3, column 7 (ReqTRES): gres/gpu: not a count: \"lots\"",
        "line 4, column 7 (ReqTRES): mem: not a memory size",
        "line 5, column 8 (ReqMem): not a memory size",
        "line 6, column 7 (ReqTRES): 99999999999 GPUs: at most 2147483647",
    ];
    assert_eq!(issues.len(), want.len(), "{issues:?}");
    for (got, want) in issues.iter().zip(want) {
        assert!(
            got.starts_with(want),
            "{got:?} does not start with {want:?}"
        );
    }
}

fn batsim_job(extra: &str) -> String {
    format!(
        r#"{{"nb_res": 64, "jobs": [{{"id": 1, "subtime": 0, "res": 8, "profile": "p"{extra}}}],
            "profiles": {{"p": {{"type": "delay", "delay": 10}}}}}}"#
    )
}

#[test]
fn batsim_request_keys() {
    let w = workload::read_bytes(
        "t.json",
        batsim_job(r#", "nodes": 2, "gpus": 4, "mem_per_node_mb": 1000, "exclusive": true, "partition": "gpu""#)
            .as_bytes(),
        &ReadOptions::default(),
    )
    .unwrap();
    let r = &w.records[0];
    assert_eq!((r.allocated_processors, r.partition), (8, 1));
    assert_eq!(r.req, req(2, 4, 1000, true));
    assert_eq!(w.partition_names, ["gpu"]);
    // Without the keys: nothing asked.
    let plain =
        workload::read_bytes("t.json", batsim_job("").as_bytes(), &ReadOptions::default()).unwrap();
    assert_eq!(
        (plain.records[0].req, plain.records[0].partition),
        (req(0, 0, 0, false), -1)
    );
    for (extra, field, why) in [
        (
            r#", "gpus": -1"#,
            "gpus",
            "not a whole number from 0 to 2147483647: -1",
        ),
        (r#", "gpus": 1.5"#, "gpus", "not a whole number"),
        (r#", "nodes": "two""#, "nodes", "not a whole number"),
        (
            r#", "mem_per_node_mb": 1e12"#,
            "mem_per_node_mb",
            "not a whole number",
        ),
        (r#", "exclusive": 1"#, "exclusive", "not true or false: 1"),
        (r#", "partition": 3"#, "partition", "not a partition name"),
    ] {
        let e = workload::read_bytes(
            "t.json",
            batsim_job(extra).as_bytes(),
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        let want = format!("jobs[0] (id 1).{field}: {why}");
        assert!(e.contains(&want), "{e:?} lacks {want:?}");
    }
}

#[test]
fn sacct_to_batsim_and_back_keeps_requests() {
    let w = workload::read_path(&slurm("gpu-3", "sacct.txt"), &ReadOptions::default()).unwrap();
    let mut out = Vec::new();
    workload::batsim::write(&mut out, &w, 32).unwrap();
    let back = workload::read_bytes("b.json", &out, &ReadOptions::default()).unwrap();
    let reqs = |w: &Workload| {
        w.records
            .iter()
            .map(|r| (r.req, r.partition))
            .collect::<Vec<_>>()
    };
    assert_eq!(reqs(&back), reqs(&w));
    assert_eq!(back.partition_names, ["batch"]);
}

#[test]
fn sacct_to_swf_keeps_gpus_in_a_named_column_and_says_what_it_drops() {
    use schedlab::workload::conversion;
    let mut w = workload::read_path(&slurm("gpu-3", "sacct.txt"), &ReadOptions::default()).unwrap();
    let dropped = conversion::dropped(&w, false);
    assert_eq!(
        dropped,
        [
            "the node count of 60 jobs dropped (SWF has no field for it)",
            "the memory per node of 60 jobs dropped (field 10 keeps the memory per processor)",
            "the partition name of 60 jobs dropped (field 16 keeps its number, a Note line the names)",
        ]
    );
    // Field 19 is the Slurm JobID: the GPUs go to field 20.
    assert_eq!(conversion::gpus_to_column(&mut w), Some(20));
    assert_eq!(conversion::gpus_to_column(&mut w), None);
    let mut text = Vec::new();
    schedlab::swf::write(&mut text, &w).unwrap();
    let back = schedlab::swf::read_bytes("g.swf", &text, &ReadOptions::default()).unwrap();
    let gpus = |w: &Workload| w.records.iter().map(|r| r.req.gpus).collect::<Vec<_>>();
    assert_eq!(gpus(&back), gpus(&w));
    assert_eq!(gpus(&back).iter().sum::<u32>(), 78);
    // Batsim keeps the memory per node; a job asking per CPU only loses its memory there.
    assert!(conversion::dropped(&w, true).is_empty());
    w.records[0].req.mem_per_node_mb = 0;
    assert_eq!(
        conversion::dropped(&w, true),
        ["the memory per processor of 1 job dropped (SWF field 10: Batsim has no key for it)"]
    );
}
