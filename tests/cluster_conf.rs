//! Clusters from slurm.conf fixtures (tests/data/cluster/), their compact form, and
//! `schedlab cluster`.

use crate::common;

use common::{schedlab, tmpdir};
use proptest::prelude::*;
use schedlab::cluster::{conf, hostlist, Cluster, NodeState, OverSubscribe, PartitionState};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cluster")
        .join(name)
}

fn read(name: &str) -> conf::SlurmConf {
    conf::read_path(&fixture(name)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_small_gpu_cluster() {
    let c = read("gpu.conf").cluster;
    assert_eq!(c.groups.len(), 3);
    let g = &c.groups;
    assert_eq!(hostlist::format_ordered(&g[0].names), "gpu[01-04]");
    assert_eq!((g[0].cpus, g[0].mem_mb, g[0].weight), (64, 512_000, 10));
    assert_eq!(g[0].gres(), "gpu:a100:4");
    assert_eq!(g[0].features, ["a100", "ib"]);
    // CPUs from Sockets x CoresPerSocket x ThreadsPerCore.
    assert_eq!((g[1].cpus, g[1].gres()), (32, "gpu:v100:2".to_string()));
    assert_eq!((g[2].gpus_per_node(), g[2].state), (0, NodeState::Drain));
    assert_eq!(c.total_nodes(), 7);
    assert_eq!(c.total_cores(), 4 * 64 + 2 * 32 + 8);
    assert_eq!(c.total_mem_mb(), 4 * 512_000 + 2 * 192_000 + 32_000);
    assert_eq!(c.total_gpus(), 20);
    assert_eq!(c.gpus_by_type()["a100"], 16);
    let p = &c.partitions;
    assert_eq!(c.default_partition().unwrap().name, "gpu");
    assert_eq!(p[0].nodes.len(), 6);
    assert_eq!((p[1].max_time, p[1].priority_tier), (Some(1440), 2));
    assert_eq!(
        (p[2].max_time, p[2].oversubscribe),
        (Some(240), OverSubscribe::Force(2))
    );
}

#[test]
fn a_mixed_cluster_with_defaults_and_overlapping_partitions() {
    let c = read("mixed.conf").cluster;
    let g = &c.groups;
    // The first DEFAULT line: 2 x 24 x 1 CPUs, 192000 MB.
    assert_eq!(
        (g[0].names.len(), g[0].cpus, g[0].mem_mb, g[0].weight),
        (64, 48, 192_000, 1)
    );
    assert_eq!((g[1].cpus, g[1].mem_mb, g[1].weight), (48, 384_000, 10));
    assert_eq!(g[1].features, ["highmem"]);
    // The second DEFAULT line changes CPUs, memory and weight; the sockets stay.
    assert_eq!((g[2].cpus, g[2].mem_mb, g[2].weight), (32, 256_000, 20));
    assert_eq!(g[2].gres(), "gpu:1g.10gb:2,gpu:a100:4");
    assert_eq!(g[2].features, ["gpu", "a100"]);
    assert_eq!((g[3].gpus[""], g[3].features.len()), (4, 0));
    assert_eq!(c.total_gpus(), 4 * 6 + 4 * 4);
    let p = &c.partitions;
    let names: Vec<&str> = p.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["batch", "highmem", "gpu", "debug", "all"]);
    // PartitionName=DEFAULT: MaxTime 1 day, MaxNodes 16, unless a line says otherwise.
    assert_eq!(
        (p[0].max_time, p[0].max_nodes, p[0].default),
        (Some(1440), Some(16), true)
    );
    assert_eq!((p[1].max_time, p[1].priority_job_factor), (Some(2880), 10));
    assert_eq!(p[2].max_nodes, None);
    assert_eq!(
        (p[3].max_time, p[3].max_nodes, p[3].priority_tier),
        (Some(30), Some(2), 10)
    );
    // Overlaps: highmem inside batch, debug across CPU and GPU nodes, all over everything.
    assert!(p[1].nodes.iter().all(|n| p[0].nodes.contains(n)));
    assert_eq!(hostlist::format_ordered(&p[3].nodes), "cn[001-004],gn01");
    assert_eq!(p[4].nodes.len() as u64, c.total_nodes());
    assert_eq!(
        (p[4].max_time, p[4].state),
        (None, PartitionState::Inactive)
    );
}

/// The partition keys full.conf sets that nothing models (its lines 74-76: fat's AllowGroups, gpu's DefMemPerGPU, preempt's
/// PreemptMode and Hidden), in file order, each with its partitions: the admin is told of
/// them (the CLI's stderr, the page's cluster notes). Before, they were accepted in silence:
/// an admin read a schedule as if `AllowGroups=fatusers` held. gpu's `TRESBillingWeights`
/// is read (a GPU weighs 8, a GB of memory 0.25, a CPU 1), and kept by the compact form.
#[test]
fn partition_keys_not_modelled_are_named_with_their_partitions() {
    let s = read("full.conf");
    assert_eq!(
        s.ignored_partition_note().unwrap(),
        "partition keys accepted and not modelled (docs/cluster-model.md): AllowGroups (fat), DefMemPerGPU (gpu), PreemptMode \
         (preempt), Hidden (preempt)"
    );
    let gpu = s
        .cluster
        .partitions
        .iter()
        .find(|p| p.name == "gpu")
        .unwrap();
    let w = gpu.billing_weights.as_ref().unwrap();
    assert_eq!((w.cpu, w.mem_mb, w.gpu), (1.0, 0.25 / 1024.0, 8.0));
    assert!(s
        .cluster
        .to_compact()
        .contains(":bcpu=1,mem=0.000244140625,gpu=8"));
    let back = Cluster::from_compact(&s.cluster.to_compact()).unwrap();
    assert_eq!(back, s.cluster);
    // A key on several lines, and on a DEFAULT line, is named once with each partition.
    let s = conf::parse_str(
        "NodeName=n1 CPUs=4\nPartitionName=DEFAULT GraceTime=10\n\
         PartitionName=a Nodes=n1 AllowQos=x\nPartitionName=b Nodes=n1 allowqos=y\n",
        "t.conf",
    )
    .unwrap();
    assert_eq!(
        s.ignored_partition_keys,
        [
            ("GraceTime".to_string(), vec!["DEFAULT".to_string()]),
            (
                "AllowQos".to_string(),
                vec!["a".to_string(), "b".to_string()]
            ),
        ]
    );
    // Lines that set none: no note.
    let s = conf::parse_str(
        "NodeName=n1 CPUs=4\nPartitionName=a Nodes=n1 MaxTime=60\n",
        "t.conf",
    )
    .unwrap();
    assert_eq!(s.ignored_partition_note(), None);
}

#[test]
fn a_full_slurm_conf_keeps_its_other_keys() {
    let s = read("full.conf");
    let c = &s.cluster;
    assert_eq!(c.total_nodes(), 32 + 2 + 8);
    assert_eq!(c.groups[0].cpus, 128);
    assert_eq!(c.total_gpus(), 32);
    assert_eq!(c.partitions.len(), 4);
    assert_eq!(c.partitions[1].oversubscribe, OverSubscribe::Exclusive);
    assert_eq!(c.partitions[3].priority_tier, 0);
    assert_eq!(c.partitions[3].nodes.len(), 42);
    // Its line 73: compute's DefaultTime=01:00:00 (the limit of a job that gives none).
    assert_eq!(
        (c.partitions[0].default_time, c.partitions[0].max_time),
        (Some(Some(60)), Some(3 * 1440))
    );
    assert_eq!(c.partitions[1].default_time, None);
    let p = &s.params;
    assert_eq!(p.get("SchedulerType"), Some("sched/backfill"));
    assert_eq!(p.get("selecttype"), Some("select/cons_tres"));
    assert_eq!(p.get("PriorityWeightFairshare"), Some("10000"));
    assert_eq!(
        p.get("PriorityWeightTRES"),
        Some("CPU=1000,Mem=2000,GRES/gpu=3000")
    );
    assert!(p
        .get("SchedulerParameters")
        .unwrap()
        .contains("bf_window=4320"));
    assert_eq!(p.get_all("SlurmctldHost").len(), 2);
    assert_eq!(p.get("DisableRootJobs"), None, "commented out");
    assert!(p.len() > 40, "{}", p.len());
    assert_eq!(s.ignored_records.len(), 1);
}

#[test]
fn every_fixture_round_trips_through_the_compact_form() {
    for f in ["gpu.conf", "mixed.conf", "full.conf"] {
        let c = read(f).cluster;
        let text = c.to_compact();
        assert!(
            text.chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "-_.,:=/[]".contains(ch)),
            "{text}"
        );
        let back = Cluster::from_compact(&text).unwrap_or_else(|e| panic!("{f}: {e}: {text}"));
        assert_eq!(back, c, "{f}");
        assert_eq!(back.to_compact(), text);
        assert_eq!(back.summary(), c.summary());
    }
    assert_eq!(
        read("gpu.conf").cluster.to_compact(),
        "1/gpu[01-04]:c64:m512000:ga100=4:fa100,ib:w10/gpu[05-06]:c32:m192000:gv100=2:fv100:w5\
         /login1:c8:m32000:sdrain/p=gpu:gpu[01-06]:default:t2880\
         /p=a100:gpu[01-04]:t1440:r2/p=interactive:login1:t240:oforce2"
    );
}

#[test]
fn presets() {
    let pool = Cluster::single_pool(1024);
    assert_eq!((pool.total_cores(), pool.total_gpus()), (1024, 0));
    assert_eq!(pool.default_partition().unwrap().nodes, ["pool"]);
    for (name, text) in Cluster::PRESETS {
        let c = Cluster::from_compact(text).unwrap();
        assert_eq!(&c.to_compact(), text, "{name}");
        assert!(c.total_gpus() > 0, "{name}");
    }
}

#[test]
fn errors_name_the_file_the_line_and_the_field() {
    let d = tmpdir("cluster", "errors");
    let cases = [
        (
            "NodeName=n[1-4] CPUs=4\nNodeName=m1 RealMemory=lots\n",
            ":2: RealMemory: expected a whole number",
        ),
        (
            "NodeName=n[1-4]\nPartitionName=p Nodes=n[1-5]\n",
            ":2: Nodes: partition p names node n5, which no NodeName line defines",
        ),
        (
            "NodeName=n[1-4]\nNodeName=n4\n",
            ":2: NodeName: node n4 is already defined on line 1",
        ),
        ("# nodes\nInclude nodes-missing.conf\n", ":2: Include: "),
        (
            "NodeName=n1\nPartitionName=p MaxTime=forever\n",
            ":2: MaxTime: \"forever\" is not a time",
        ),
    ];
    for (k, (text, want)) in cases.iter().enumerate() {
        let f = d.join(format!("bad{k}.conf"));
        std::fs::write(&f, text).unwrap();
        let e = conf::read_path(&f).unwrap_err().to_string();
        assert!(
            e.starts_with(&f.display().to_string()) && e.contains(want),
            "{e}\nwant {want}"
        );
        let (ok, _, err) = schedlab(&["cluster", f.to_str().unwrap()]);
        assert!(!ok && err.contains(want), "{err}");
    }
    let (ok, _, err) = schedlab(&["cluster", "/no/such/slurm.conf"]);
    assert!(!ok && err.contains("/no/such/slurm.conf"), "{err}");
}

/// A one-node cluster in words: "1 node in 1 group", not "1 nodes in 1 groups".
#[test]
fn the_summary_counts_one_in_the_singular() {
    let c = schedlab::cluster::conf::parse_str(
        "NodeName=n1 CPUs=8 Gres=gpu:1\nPartitionName=p Nodes=n1 Default=YES\n",
        "one.conf",
    )
    .unwrap()
    .cluster;
    let s = c.summary();
    assert!(
        s.starts_with("cluster: 1 node in 1 group, 8 cores, 1 MB memory, 1 GPU, 1 partition"),
        "{s}"
    );
    assert!(s.contains("  n1  1 node  cpus 8"), "{s}");
}

#[test]
fn the_cli_prints_the_summary_json_and_compact_form() {
    let f = fixture("mixed.conf");
    let f = f.to_str().unwrap();
    let (ok, out, err) = schedlab(&["cluster", f]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("cluster: 104 nodes in 4 groups, 4864 cores"),
        "{out}"
    );
    assert!(out.contains("  batch*  nodes cn[001-096] (96)"), "{out}");
    assert!(out.contains("gn[01-04]  4 nodes  cpus 32  mem 256000 MB  gres gpu:1g.10gb:2,gpu:a100:4  features gpu,a100  weight 20"), "{out}");

    // `--slurm-conf FILE`, as run, replay and sweep take it, reads the same (it was refused).
    let (ok, same, err) = schedlab(&["cluster", "--slurm-conf", f]);
    assert!(ok && same == out, "{err}");
    let (ok, json, _) = schedlab(&["cluster", f, "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["totals"]["gpus"], 40);
    assert_eq!(v["totals"]["gpus_by_type"]["a100"], 16);
    assert_eq!(v["groups"][0]["names"], "cn[001-064]");
    assert_eq!(v["partitions"][3]["nodes"], "cn[001-004],gn01");
    assert_eq!(v["partitions"][0]["max_time"], 1440);

    let (ok, compact, _) = schedlab(&["cluster", f, "--compact"]);
    assert!(ok);
    let (ok, again, err) = schedlab(&["cluster", "--from-compact", compact.trim()]);
    assert!(ok, "{err}");
    assert_eq!(again, out);
    assert_eq!(v["compact"], compact.trim());

    let (ok, out, _) = schedlab(&["cluster", "--preset", "gpu"]);
    assert!(ok && out.contains("64 GPUs (a100: 64)"), "{out}");
    let (ok, out, _) = schedlab(&["cluster", "--preset", "pool:128", "--compact"]);
    assert!(ok);
    assert_eq!(out.trim(), "1/pool:c128:m0/p=pool:ALL:default");
    let (ok, _, err) = schedlab(&["cluster", "--from-compact", "1/n1:c4/p=x:n2"]);
    assert!(!ok && err.contains("partition x names node n2"), "{err}");
    let (ok, _, err) = schedlab(&["cluster", "--preset", "huge"]);
    assert!(!ok && err.contains("valid: gpu, mixed, pool:N"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A real slurm.conf with one line damaged anywhere: read or refused with the file and a
    /// line, never a panic; what reads round-trips through the compact form.
    #[test]
    fn a_damaged_conf_is_read_or_refused(line in 0usize..200, at in 0usize..200, ch in prop::sample::select(vec!['=', '[', ']', ',', ':', '#', '\\', '"', ' ', '0', 'x', '-', '\n'])) {
        let text = std::fs::read_to_string(fixture("full.conf")).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let n = line % lines.len();
        let l = &mut lines[n];
        let mut i = at % (l.len() + 1);
        while !l.is_char_boundary(i) {
            i -= 1;
        }
        l.insert(i, ch);
        match conf::parse_str(&lines.join("\n"), "full.conf") {
            Ok(s) => prop_assert_eq!(Cluster::from_compact(&s.cluster.to_compact()).unwrap(), s.cluster),
            Err(e) => prop_assert!(e.to_string().starts_with("full.conf"), "{}", e),
        }
    }
}
