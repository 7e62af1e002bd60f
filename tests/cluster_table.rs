//! The page's table editor of a cluster (`cluster::table`): a preset's tables build it back; an
//! edited cell changes the compact form as worked out by hand; a bad cell is an error naming its
//! row and column, never a panic.

use schedlab::cluster::table::{CellError, Table};
use schedlab::cluster::{compact, Cluster, OverSubscribe};

fn gpu() -> Table {
    Table::of(&Cluster::from_compact(compact::GPU_PRESET).unwrap())
}

fn built(t: &Table) -> String {
    t.build().unwrap().to_compact()
}

fn errors(t: &Table) -> Vec<(&'static str, usize, &'static str)> {
    t.build()
        .unwrap_err()
        .iter()
        .map(|e: &CellError| (e.table, e.row, e.column))
        .collect()
}

#[test]
fn the_presets_tables_build_them_back() {
    for (name, text) in Cluster::PRESETS {
        let t = Table::of(&Cluster::from_compact(text).unwrap());
        assert_eq!(built(&t), *text, "{name}");
    }
    let t = gpu();
    let g = &t.groups[0];
    assert_eq!(
        (g.nodes.as_str(), g.count.as_str(), g.cores.as_str()),
        ("gpu[01-16]", "16", "64")
    );
    assert_eq!(
        (g.gpus.as_str(), g.features.as_str()),
        ("a100=4", "a100,ib")
    );
    let p = &t.partitions[1];
    assert_eq!(
        (p.name.as_str(), p.nodes.as_str(), p.max_time.as_str()),
        ("debug", "gpu[01-02]", "01:00:00")
    );
    assert_eq!(
        (p.tier.as_str(), p.oversubscribe.as_str(), p.state.as_str()),
        ("2", "NO", "UP")
    );
    assert_eq!(t.partitions[0].nodes, "ALL");
}

#[test]
fn edits_make_the_compact_form() {
    let mut t = gpu();
    t.groups[0].cores = "32".into();
    t.groups[0].gpus = "a100:2, v100:1".into();
    t.partitions[1].max_time = "1-00:00:00".into();
    t.partitions[1].oversubscribe = "yes".into();
    t.partitions[1].max_nodes = "2".into();
    assert_eq!(
        built(&t),
        "1/gpu[01-16]:c32:m512000:ga100=2,v100=1:fa100,ib/p=gpu:ALL:default:t2880\
/p=debug:gpu[01-02]:t1440:x2:r2:oyes4"
    );
    // The count grows the names on from the last one, or cuts them.
    t.groups[0].count = "20".into();
    let c = t.build().unwrap();
    assert_eq!(c.groups[0].names.last().unwrap(), "gpu20");
    // ALL follows: the gpu partition has the new nodes too.
    assert_eq!(c.partitions[0].nodes.len(), 20);
    t.groups[0].count = "3".into();
    assert_eq!(Table::of(&t.build().unwrap()).groups[0].nodes, "gpu[01-03]");
    // A second group and an exclusive partition over it.
    let mut t = gpu();
    t.groups.push(Default::default());
    t.groups[1].nodes = "cpu[1-4]".into();
    t.groups[1].cores = "8".into();
    t.partitions.push(Default::default());
    t.partitions[2].name = "cpu".into();
    t.partitions[2].nodes = "cpu[1-4]".into();
    t.partitions[2].oversubscribe = "EXCLUSIVE".into();
    let c = t.build().unwrap();
    assert_eq!(c.total_nodes(), 20);
    assert_eq!(c.partitions[2].oversubscribe, OverSubscribe::Exclusive);
    assert!(
        c.to_compact().contains("/cpu[1-4]:c8:m1/"),
        "{}",
        c.to_compact()
    );
    // A removed partition is gone from the form.
    t.partitions.remove(1);
    assert!(!built(&t).contains("debug"));
}

#[test]
fn bad_cells_are_named() {
    let mut t = gpu();
    t.partitions[1].nodes = "gpu[01-02],gpu99".into();
    t.groups[0].cores = "many".into();
    assert_eq!(
        errors(&t),
        [("groups", 0, "cores"), ("partitions", 1, "nodes")]
    );
    let e = t.build().unwrap_err();
    assert!(e[1].message.contains("gpu99"), "{}", e[1].message);

    let mut t = gpu();
    t.partitions[1].default = true;
    t.partitions[1].max_time = "soon".into();
    t.partitions[0].state = "sleeping".into();
    assert_eq!(
        errors(&t),
        [
            ("partitions", 0, "state"),
            ("partitions", 1, "default"),
            ("partitions", 1, "max_time")
        ]
    );

    let mut t = gpu();
    t.groups.push(t.groups[0].clone());
    t.groups[0].count = "0".into();
    t.groups[0].gpus = "a100=0".into();
    t.partitions[0].name = String::new();
    assert_eq!(
        errors(&t),
        [
            ("groups", 0, "count"),
            ("groups", 0, "gpus"),
            ("groups", 1, "nodes"),
            ("partitions", 0, "name")
        ]
    );

    let mut t = gpu();
    t.groups[0].nodes = "gpu[01-".into();
    t.partitions[1].name = "gpu".into();
    assert_eq!(
        errors(&t),
        [("groups", 0, "nodes"), ("partitions", 1, "name")]
    );

    let mut t = gpu();
    t.groups[0].nodes = "gpu".into();
    t.groups[0].count = "4".into();
    // (The debug partition's nodes are gone with the names.)
    assert_eq!(
        errors(&t),
        [("groups", 0, "count"), ("partitions", 1, "nodes")]
    );
    t.groups.clear();
    assert_eq!(errors(&t)[0], ("", 0, ""));
}

/// A partition's `TRESBillingWeights` has no column: its row keeps them (the compact form's
/// spelling), so an edit of another cell keeps them, and a row without them serializes as
/// before (no `billing` key).
#[test]
fn billing_weights_are_kept_through_an_edit() {
    let c = Cluster::from_compact(
        "1/n[1-4]:c8:m16000:g2/p=batch:ALL:default:bcpu=1,mem=0.000244140625,gpu=4",
    )
    .unwrap();
    let mut t = Table::of(&c);
    assert_eq!(t.partitions[0].billing, "cpu=1,mem=0.000244140625,gpu=4");
    t.partitions[0].max_time = "60".into();
    let back = t.build().unwrap();
    let w = back.partitions[0].billing_weights.as_ref().unwrap();
    assert_eq!((w.cpu, w.mem_mb, w.gpu), (1.0, 0.25 / 1024.0, 4.0));
    assert_eq!(back.partitions[0].max_time, Some(60));
    let json = serde_json::to_string(&gpu()).unwrap();
    assert!(!json.contains("billing"), "{json}");
    t.partitions[0].billing = "cpu=x".into();
    assert_eq!(errors(&t), [("partitions", 0, "billing")]);
}
