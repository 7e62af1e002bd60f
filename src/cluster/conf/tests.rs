//! Tests of the slurm.conf reader.

use super::*;
use crate::cluster::{NodeState, OverSubscribe, PartitionState};
use proptest::prelude::*;

fn conf(text: &str) -> SlurmConf {
    parse_str(text, "t.conf").unwrap_or_else(|e| panic!("{e}"))
}

fn error(text: &str) -> String {
    parse_str(text, "t.conf").unwrap_err().to_string()
}

/// A partition's `OverTimeLimit` (minutes, `UNLIMITED`), its `DEFAULT` line's too, is kept
/// beside the cluster for Slurm's limit checks; a bad value is an error naming the field.
#[test]
fn partitions_over_time_limits() {
    let c = conf(
        "NodeName=n[1-2] CPUs=4\n\
         PartitionName=DEFAULT OverTimeLimit=2\n\
         PartitionName=a Nodes=n1 OverTimeLimit=infinite\n\
         PartitionName=b Nodes=n2\n",
    );
    assert_eq!(
        c.over_time,
        [("a".to_string(), None), ("b".to_string(), Some(2))]
    );
    assert_eq!(c.cluster.partitions.len(), 2);
    let e = error("NodeName=n1\nPartitionName=p Nodes=n1 OverTimeLimit=1:00\n");
    assert!(e.starts_with("t.conf:2: OverTimeLimit: "), "{e}");
}

#[test]
fn nodes_defaults_and_derived_cpus() {
    let c = conf(
        "nodename=DEFAULT RealMemory=1000 Sockets=2 CoresPerSocket=8 ThreadsPerCore=2\n\
         NodeName=n[1-4]\n\
         NodeName=DEFAULT RealMemory=2000\n\
         NodeName=m[1-2] CPUs=12 Gres=gpu:a100:2,gpu:v100:1(S:0,1),mps:200 Features=ib,nvme Weight=5 State=DOWN\n\
         NODENAME=b1 Sockets=4 CoresPerSocket=4 Gres=gpu:3 TmpDisk=100 NodeAddr=10.0.0.1\n",
    )
    .cluster;
    let g = &c.groups;
    assert_eq!((g[0].cpus, g[0].mem_mb, g[0].weight), (32, 1000, 1));
    // A later DEFAULT line changes only what it names.
    assert_eq!((g[1].cpus, g[1].mem_mb, g[1].weight), (12, 2000, 5));
    assert_eq!(g[1].gpus.get("a100"), Some(&2));
    assert_eq!(g[1].gpus.get("v100"), Some(&1));
    assert_eq!(g[1].features, ["ib", "nvme"]);
    assert_eq!(g[1].state, NodeState::Down);
    // Sockets x CoresPerSocket x ThreadsPerCore (the DEFAULT's 2 threads).
    assert_eq!((g[2].cpus, g[2].gpus[""]), (32, 3));
    assert_eq!(c.total_nodes(), 7);
    let b = conf("NodeName=b1 Boards=2 SocketsPerBoard=2 CoresPerSocket=4").cluster;
    assert_eq!(b.groups[0].cpus, 16);
}

/// GRES counts with Slurm 22.05's suffixes (`suffix_mult`, in any case): `1kib` = 1024, `2KB` =
/// 2000, `1k` = 1024; with a type, beside `mps`, with a socket binding.
#[test]
fn gres_counts_take_slurms_suffixes() {
    let gpus = |gres: &str| {
        conf(&format!("NodeName=n1 CPUs=4 Gres={gres}"))
            .cluster
            .groups[0]
            .gpus
            .clone()
    };
    assert_eq!(gpus("gpu:1kib")[""], 1024);
    assert_eq!(gpus("gpu:2KB,mps:100")[""], 2000);
    assert_eq!(gpus("gpu:tesla:1k(S:0-1)")["tesla"], 1024);
    assert_eq!(super::gres_count("3"), Ok(3));
    assert_eq!(super::gres_count("1t"), Ok(1 << 40));
    assert!(super::gres_count("k").is_err() && super::gres_count("99999999999p").is_err());
}

#[test]
fn partitions() {
    let s = conf(
        "NodeName=n[1-4] CPUs=4\nNodeName=g[1-2] CPUs=8 Gres=gpu:2\n\
         PartitionName=DEFAULT MaxTime=1-00:00:00 State=UP\n\
         PartitionName=batch Nodes=n[1-4],g1 Default=YES MaxNodes=2 OverSubscribe=FORCE:2\n\
         PartitionName=gpu Nodes=g[2,1] MaxTime=UNLIMITED PriorityTier=2 PriorityJobFactor=10 OverSubscribe=EXCLUSIVE\n\
         PartitionName=all Nodes=ALL MaxTime=30 Shared=YES State=INACTIVE\n\
         PartitionName=empty\n",
    );
    let p = &s.cluster.partitions;
    assert_eq!(p[0].nodes, ["n1", "n2", "n3", "n4", "g1"]);
    assert!(p[0].default && !p[1].default);
    assert_eq!((p[0].max_time, p[0].max_nodes), (Some(1440), Some(2)));
    assert_eq!(p[0].oversubscribe, OverSubscribe::Force(2));
    assert_eq!(p[1].nodes, ["g1", "g2"]);
    assert_eq!(
        (p[1].max_time, p[1].priority_tier, p[1].priority_job_factor),
        (None, 2, 10)
    );
    assert_eq!(p[2].nodes.len(), 6);
    assert_eq!(
        (p[2].oversubscribe, p[2].state),
        (OverSubscribe::Yes(4), PartitionState::Inactive)
    );
    assert!(p[3].nodes.is_empty());
    assert_eq!(s.cluster.default_partition().unwrap().name, "batch");
}

#[test]
fn comments_continuations_quotes_and_params() {
    let s = conf(
        "# a comment\nClusterName=lab # trailing\nSlurmctldHost=head1\nSlurmctldHost=head2\n\
         SchedulerParameters=\"bf_window=2880, bf_continue\"\nComment=a\\#b\n\
         NodeName=n[1-2] \\\n   CPUs=4 \\\n   RealMemory=100\n\
         PriorityWeightAge=1000 PriorityWeightFairshare=10000\nDownNodes=n1 State=DOWN\n",
    );
    assert_eq!(s.params.get("clustername"), Some("lab"));
    assert_eq!(s.params.get("SlurmctldHost"), Some("head2"));
    assert_eq!(s.params.get_all("slurmctldhost"), ["head1", "head2"]);
    assert_eq!(
        s.params.get("SchedulerParameters"),
        Some("bf_window=2880, bf_continue")
    );
    assert_eq!(s.params.get("Comment"), Some("a#b"));
    assert_eq!(s.params.get("PriorityWeightFairshare"), Some("10000"));
    assert_eq!(s.params.get("Nope"), None);
    assert_eq!(s.ignored_records, [(11, "DownNodes".to_string())]);
    assert_eq!(
        (s.cluster.groups[0].cpus, s.cluster.groups[0].mem_mb),
        (4, 100)
    );
}

/// A continued line is joined as Slurm's parse_config.c joins it: the `\` (and white space
/// after it) removed, comments first, the next line appended with nothing between. So a
/// SchedulerParameters list broken after a comma stays one value:
/// "bf_window=2880,bf_interval=30," + "bf_resolution=600" (not a key `bf_resolution` of its
/// own), and a comment after the `\` still continues the line (CPUs=4 belongs to n1).
#[test]
fn continuations_join_as_slurm_does() {
    let s = conf(
        "SchedulerParameters=bf_window=2880,bf_interval=30,\\\nbf_resolution=600\n\
         NodeName=n1 \\ # the only node\n  CPUs=4\n",
    );
    assert_eq!(
        s.params.get("SchedulerParameters"),
        Some("bf_window=2880,bf_interval=30,bf_resolution=600")
    );
    assert_eq!(s.params.get("bf_resolution"), None);
    assert_eq!(s.cluster.groups[0].cpus, 4);
}

#[test]
fn errors_name_file_line_and_field() {
    let cases = [
        (
            "NodeName=n1 CPUs=x",
            "t.conf:1: CPUs: expected a whole number",
        ),
        (
            "NodeName=n1\nNodeName=n[0-2]",
            "t.conf:2: NodeName: node n1 is already defined on line 1",
        ),
        (
            "NodeName=n1 RealMem=4",
            "t.conf:1: RealMem: not a NodeName key",
        ),
        ("NodeName=n[3-1]", "t.conf:1: NodeName: hostlist"),
        (
            "NodeName=n1\nPartitionName=p Nodes=n[1-2]",
            "t.conf:2: Nodes: partition p names node n2, which no NodeName line defines",
        ),
        (
            "NodeName=n1\nPartitionName=p MaxTime=1:2:3:4",
            "t.conf:2: MaxTime: ",
        ),
        (
            "NodeName=n1\nPartitionName=p OverSubscribe=MAYBE",
            "t.conf:2: OverSubscribe:",
        ),
        (
            "NodeName=n1\nPartitionName=p Default=Y",
            "t.conf:2: Default:",
        ),
        (
            "NodeName=n1\nPartitionName=p\nPartitionName=p",
            "t.conf:3: PartitionName: partition p is already defined on line 2",
        ),
        ("NodeName=n1 Gres=gpu:a:b:c", "t.conf:1: Gres:"),
        (
            "NodeName=n1\nPartitionName=p TRESBillingWeights=\"CPU=1,Mem=0.25X\"",
            "t.conf:2: TRESBillingWeights: Mem: \"0.25X\": the unit is K, M, G, T or P",
        ),
        (
            "NodeName=n1 Gres=gpu:2x",
            "t.conf:1: Gres: \"2x\": not a count (digits, then none or k, m, g, t, p",
        ),
        ("NodeName=n1 State=SLEEPY", "t.conf:1: State:"),
        (
            "Include /etc/slurm/nodes.conf\nNodeName=n1",
            "t.conf:1: Include: Include lines are not read here",
        ),
        ("ClusterName", "t.conf:1: expected Key=Value"),
        // Another file where a slurm.conf goes: said what it looks like (before, only
        // `expected Key=Value, got ";"` for an SWF trace's header).
        (
            "; Version: 2.2\n; MaxProcs: 240\n1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1",
            "t.conf:1: expected Key=Value, got \";\" (this looks like an SWF workload trace: \
             load it as the trace, not as a slurm.conf)",
        ),
        (
            "1 0 10 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1",
            "t.conf:1: expected Key=Value, got \"1\" (this looks like an SWF workload trace",
        ),
        (
            "JobID|JobName|User|Submit|Start|End|State\n1|a|u|x|y|z|COMPLETED",
            "t.conf:1: expected Key=Value, got \"JobID|JobName|User|Submit|Start|End|State\" \
             (this looks like an sacct log: load it as the trace",
        ),
        (
            "Account|User|RawShares|NormShares|RawUsage",
            "t.conf:1: expected Key=Value, got \"Account|User|RawShares|NormShares|RawUsage\" \
             (this looks like sshare or sacctmgr show assoc output",
        ),
        (
            "Name|Priority\nnormal|0",
            "t.conf:1: expected Key=Value, got \"Name|Priority\" (this looks like sacctmgr show \
             qos output",
        ),
        ("NodeName=n1 CPUs", "t.conf:1: expected Key=Value"),
        // A key one typo from a known one names it.
        (
            "NodeName=n1\nPartitionName=p Nodes=n1 DefaultTme=10",
            "t.conf:2: DefaultTme: not a PartitionName key; did you mean DefaultTime?",
        ),
        (
            "NodeName=n1 RealMemroy=10",
            "t.conf:1: RealMemroy: not a NodeName key; did you mean RealMemory?",
        ),
        // Pasted JSON, and a quoted token, shown as written: the quotes were dropped
        // (`got "{name:"` for `{"name": "n1"}`).
        (
            "{\"name\": \"n1\", \"cpus\": 4}",
            "t.conf:1: expected Key=Value, got \"{\"name\":\" (this looks like JSON",
        ),
        (
            "NodeName=n1 \"CPUs 4\" RealMemory=10",
            "t.conf:1: expected Key=Value, got \"\"CPUs 4\"\"",
        ),
        ("ClusterName=x", "t.conf: no NodeName line"),
        ("NodeName=n1 Reason=\"open", "t.conf:1: a '\"' without"),
        ("NodeName=n1 CPUs=0", "t.conf:1: CPUs: 0: at least 1"),
        (
            "NodeName=n[1-100001]",
            "t.conf:1: NodeName: more than 100000 nodes",
        ),
        ("NodeName=ALL", "t.conf:1: NodeName: ALL: ALL is reserved"),
        (
            "NodeName=n1 Sockets=65536 CoresPerSocket=65536 ThreadsPerCore=2",
            "t.conf:1: CPUs: sockets",
        ),
    ];
    for (text, want) in cases {
        let e = error(text);
        assert!(e.starts_with(want), "{text:?}:\n  got  {e}\n  want {want}");
    }
}

proptest! {
    #[test]
    fn random_lines_never_panic(lines in prop::collection::vec(
        prop_oneof![
            "[A-Za-z=\\[\\]0-9,:#\\\\\" -]{0,40}",
            "(NodeName|PartitionName|nodes|CPUs|Gres|MaxTime|OverSubscribe)=[a-z0-9\\[\\],:-]{0,12}( [A-Za-z]{1,8}=[A-Za-z0-9:\\[\\],-]{0,10}){0,3}",
        ],
        0..8,
    )) {
        let text = lines.join("\n");
        if let Ok(s) = parse_str(&text, "fuzz.conf") {
            prop_assert!(s.cluster.validate().is_ok());
            prop_assert_eq!(Cluster::from_compact(&s.cluster.to_compact()).unwrap(), s.cluster);
        }
    }
}

/// `Include` lines read as Slurm 22.05's parse_config.c reads them (`_parse_include_directive`,
/// `_add_full_path`, `_parse_for_format`), worked by hand: site.conf sets ClusterName=Frost,
/// then `include conf.d/nodes-%c.conf` (keyword in any case) reads conf.d/nodes-frost.conf
/// (%c: the cluster name in lower case; the path relative to site.conf's directory), whose
/// `Include parts.conf` reads conf.d/parts.conf (relative to conf.d, the including file's
/// directory). The lines come in place: the NodeName=DEFAULT of site.conf line 2 gives the
/// nodes of nodes-frost.conf 8 CPUs, and the partition of parts.conf takes them; the key after
/// the Include (PriorityWeightAge) is read too. An error in an included file names that file
/// and its line; a node defined twice names the other file; a missing file or a file that
/// includes itself is an error on the Include line.
#[test]
fn include_lines_read_the_files_they_name() {
    let d = std::env::temp_dir().join(format!("schedlab-conf-include-{}", std::process::id()));
    std::fs::create_dir_all(d.join("conf.d")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(d.join(name), text).unwrap();
    write(
        "site.conf",
        "ClusterName=Frost\nNodeName=DEFAULT CPUs=8\ninclude conf.d/nodes-%c.conf\nPriorityWeightAge=500\n",
    );
    write(
        "conf.d/nodes-frost.conf",
        "# nodes\nNodeName=n[1-4] RealMemory=16000\nInclude parts.conf\n",
    );
    write(
        "conf.d/parts.conf",
        "PartitionName=batch Nodes=n[1-4] Default=YES\n",
    );
    let c = read_path(&d.join("site.conf")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.cluster.total_nodes(), 4);
    assert_eq!(c.cluster.total_cores(), 32);
    assert_eq!(c.cluster.partitions[0].name, "batch");
    assert_eq!(c.cluster.partitions[0].nodes.len(), 4);
    assert_eq!(c.params.get("PriorityWeightAge"), Some("500"));
    // The files read besides site.conf (a sweep's parts hash them with it).
    assert_eq!(
        included_files(&d.join("site.conf")).unwrap(),
        [
            d.join("conf.d/nodes-frost.conf"),
            d.join("conf.d/parts.conf")
        ]
    );
    let err = |site: &str| {
        write("site.conf", site);
        read_path(&d.join("site.conf")).unwrap_err().to_string()
    };
    let parts = d.join("conf.d/parts.conf").display().to_string();
    write("conf.d/parts.conf", "PartitionName=batch Nodes=n[1-5]\n");
    let e = err("ClusterName=frost\nInclude conf.d/nodes-%c.conf\n");
    assert!(e.starts_with(&format!("{parts}:1: Nodes: ")), "{e}");
    write("conf.d/parts.conf", "NodeName=n4\n");
    let e = err("ClusterName=frost\nInclude conf.d/nodes-%c.conf\n");
    assert!(
        e.contains("node n4 is already defined on ") && e.contains("nodes-frost.conf:2"),
        "{e}"
    );
    let site = d.join("site.conf").display().to_string();
    let e = err("Include conf.d/nodes-%c.conf\n");
    assert!(
        e.starts_with(&format!("{site}:1: Include: ")) && e.contains("ClusterName"),
        "{e}"
    );
    let e = err("NodeName=a\nInclude missing.conf\n");
    assert!(
        e.starts_with(&format!("{site}:2: Include: ")) && e.contains("missing.conf"),
        "{e}"
    );
    let e = err("NodeName=a\nInclude site.conf\n");
    assert!(e.contains("included more than 16 deep"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// NodeSet lines (slurm.conf.5, "NODESET CONFIGURATION"), worked by hand: fastset is the nodes
/// with feature fast (a1, a2, c1); mixset the union of b[2-3] and the nodes with feature ib
/// (c1). Partition quick names fastset: a1, a2, c1; mixed names b1 and mixset: b1, b2, b3, c1
/// (the node order of the file). The sets are read after the partitions that name them, as
/// Slurm builds partitions once the file is read. Before, a partition naming a NodeSet was an
/// error ("names node fastset, which no NodeName line defines").
#[test]
fn node_sets_name_nodes_in_partitions() {
    let c = conf(
        "NodeName=a[1-2] CPUs=4 Feature=fast\n\
         NodeName=b[1-3] CPUs=8\n\
         NodeName=c1 CPUs=2 Feature=fast,ib\n\
         PartitionName=quick Nodes=fastset\n\
         PartitionName=mixed Nodes=b1,mixset Default=YES\n\
         NodeSet=fastset Feature=fast\n\
         NodeSet=mixset Nodes=b[2-3] Feature=ib\n",
    );
    let nodes = |i: usize| c.cluster.partitions[i].nodes.join(",");
    assert_eq!(nodes(0), "a1,a2,c1");
    assert_eq!(nodes(1), "b1,b2,b3,c1");
    assert!(c.ignored_records.is_empty());
    let e = error("NodeName=n1\nNodeSet=s Weight=1\nPartitionName=p Nodes=s\n");
    assert!(
        e.starts_with("t.conf:2: Weight: a NodeSet line takes"),
        "{e}"
    );
}

/// `TRESBillingWeights` on a `PartitionName=DEFAULT` line holds for the partitions after it;
/// a partition's own replaces it, and an empty value clears it (Slurm's
/// `set_partition_billing_weights`).
#[test]
fn billing_weights_and_the_default_line() {
    let s = parse_str(
        "NodeName=n[1-2] CPUs=4\nPartitionName=DEFAULT TRESBillingWeights=\"CPU=2,GRES/gpu=4\"\n\
         PartitionName=a Nodes=n1\nPartitionName=b Nodes=n2 TRESBillingWeights=Mem=1G\n\
         PartitionName=c Nodes=n2 TRESBillingWeights=\n",
        "t.conf",
    )
    .unwrap();
    let w: Vec<Option<String>> = (s.cluster.partitions.iter())
        .map(|p| p.billing_weights.as_ref().map(|w| w.text.clone()))
        .collect();
    assert_eq!(
        w,
        [Some("CPU=2,GRES/gpu=4".into()), Some("Mem=1G".into()), None]
    );
    assert!(s.ignored_partition_note().is_none());
}
