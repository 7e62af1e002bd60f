//! A log whose jobs ask for GPUs, run without a cluster: the schedule ignores the GPUs, and
//! both `run` and `replay` say so on stderr (a replay there reads far below what the model
//! reaches on the cluster, and a new user would blame the model).

use crate::common::schedlab;

const DUMP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/slurm/gpu-3/run1/sacct.txt"
);
const CONF: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/slurm/gpu-3/run1/slurm.conf"
);

/// The jobs whose `ReqTRES` column names `gres/gpu`, counted from the file itself.
fn gpu_jobs() -> usize {
    let text = std::fs::read_to_string(DUMP).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('|').collect();
    let col = header.iter().position(|&h| h == "ReqTRES").unwrap();
    lines
        .filter(|l| {
            l.split('|')
                .nth(col)
                .is_some_and(|t| t.contains("gres/gpu"))
        })
        .count()
}

#[test]
fn gpu_jobs_without_a_cluster_are_named_on_stderr() {
    let asking = gpu_jobs();
    assert!(asking > 0);
    let note =
        format!("{asking} jobs ask for GPUs, which run on processors alone without a cluster");
    for command in ["run", "replay"] {
        let (ok, _, err) = schedlab(&[command, DUMP, "-p", "easy"]);
        assert!(ok, "{command}: {err}");
        assert_eq!(err.matches(&note).count(), 1, "{command}: {err}");
        let (ok, _, err) = schedlab(&[command, DUMP, "--slurm-conf", CONF, "-p", "easy"]);
        assert!(ok, "{command}: {err}");
        assert!(!err.contains("ask for GPUs"), "{command}: {err}");
    }
}
