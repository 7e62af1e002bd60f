//! An admin's own slurm.conf as sites write it: its nodes and partitions in a file its
//! `Include` line names, and keys from older Slurm versions (`PriorityFlags=FAIR_TREE`).

use crate::common;
use common::{schedlab, tmpdir};

/// The Slurm demo's run (gpu-3/run1): its sacct log, slurm.conf and sshare file.
const DEMO: (&str, &str, &str) = (
    "tests/data/slurm/gpu-3/run1/sacct.txt",
    "tests/data/slurm/gpu-3/run1/slurm.conf",
    "tests/data/slurm/gpu-3/run1/sshare-start.txt",
);

/// gpu-3/run1's slurm.conf split as many sites split theirs: the NodeName and PartitionName
/// lines moved to `conf.d/nodes.conf`, named by `Include conf.d/nodes.conf` (a path relative
/// to the slurm.conf's directory, as Slurm's `_add_full_path`), and `PriorityFlags=FAIR_TREE`
/// added (the default since 19.05, still in older sites' files). `replay` gives the same
/// figures as on the committed slurm.conf, `cluster` the same nodes, and `sweep` runs (its
/// parts hashing the included file too).
/// Before, every command stopped at the Include line ("Include lines are not supported") and,
/// that line inlined, at `FAIR_TREE` ("unknown priority flag").
#[test]
fn a_slurm_conf_with_include_lines_and_fair_tree_reads_as_the_whole_file() {
    let (sacct, conf, sshare) = DEMO;
    let d = tmpdir("include", "site");
    std::fs::create_dir_all(d.join("conf.d")).unwrap();
    let text = std::fs::read_to_string(conf).unwrap();
    let (nodes, rest): (Vec<&str>, Vec<&str>) = text
        .lines()
        .partition(|l| l.starts_with("NodeName=") || l.starts_with("PartitionName="));
    assert_eq!(nodes.len(), 2, "{text}");
    std::fs::write(d.join("conf.d/nodes.conf"), nodes.join("\n") + "\n").unwrap();
    let split = d.join("slurm.conf");
    std::fs::write(
        &split,
        rest.join("\n") + "\nPriorityFlags=FAIR_TREE\nInclude conf.d/nodes.conf\n",
    )
    .unwrap();
    let split = split.to_str().unwrap();
    let replay = |conf: &str| {
        let args = [
            "replay",
            sacct,
            "-p",
            "slurm",
            "--slurm-conf",
            conf,
            "--sshare",
            sshare,
        ];
        let (ok, out, err) = schedlab(&args);
        assert!(ok, "{conf}: {err}");
        out
    };
    let whole = replay(conf);
    assert!(whole.contains("recall"), "{whole}");
    assert_eq!(replay(split), whole);
    let (ok, out, err) = schedlab(&["cluster", split, "--compact"]);
    assert!(ok, "{err}");
    let (_, want, _) = schedlab(&["cluster", conf, "--compact"]);
    assert_eq!(out, want);
    // A sweep's parts carry the site's content hash, the included files' too: a part made after
    // conf.d/nodes.conf changed does not merge with one made before.
    let part = |shard: &str, name: &str| {
        let out = d.join(name);
        let args = [
            "sweep",
            sacct,
            "-p",
            "slurm",
            "--vary",
            "bf_window=1,30",
            "--slurm-conf",
            split,
            "--shard",
            shard,
            "--out",
            out.to_str().unwrap(),
        ];
        let (ok, _, err) = schedlab(&args);
        assert!(ok, "{err}");
        out.to_str().unwrap().to_string()
    };
    let (a1, a2) = (part("1/2", "a1.json"), part("2/2", "a2.json"));
    let (ok, _, err) = schedlab(&["merge", &a1, &a2]);
    assert!(ok, "{err}");
    let nodes_conf = d.join("conf.d/nodes.conf");
    let changed = std::fs::read_to_string(&nodes_conf).unwrap() + "PriorityWeightAge=1\n";
    std::fs::write(&nodes_conf, changed).unwrap();
    let b2 = part("2/2", "b2.json");
    let (ok, _, err) = schedlab(&["merge", &a1, &b2]);
    assert!(!ok && err.contains("site_hash"), "{err}");
    // A missing included file is said on the Include line.
    std::fs::remove_file(d.join("conf.d/nodes.conf")).unwrap();
    let (ok, _, err) = schedlab(&["run", sacct, "-p", "easy", "--slurm-conf", split]);
    let line = rest.len() + 2;
    assert!(!ok);
    assert!(
        err.contains(&format!("{split}:{line}: Include: ")) && err.contains("nodes.conf"),
        "{err}"
    );
}
