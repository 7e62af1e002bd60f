//! A cluster as the page's table editor shows it: a row per node group and per partition, each
//! cell the text the user edits. The table is a view of a parsed cluster ([`Table::of`]); it is
//! built back ([`Table::build`]) with the compact form's own field readers, cell by cell (so
//! that an error names its row and column), and the cluster made is read once more from its
//! compact form: the compact reader stays the one judge of what a cluster is.
//! docs/cluster-model.md ("The page") lists the columns.

use super::compact::{gpus_text, group_field, partition_field};
use super::{hostlist, time, Cluster, NodeGroup, NodeOrder, OverSubscribe, Partition, MAX_NODES};
use crate::quote::quote;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A node group's row: the text of each cell.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GroupRow {
    /// Node names, a hostlist (`n[1-16]`).
    pub nodes: String,
    /// How many nodes: a count other than the names' grows or shrinks the list.
    pub count: String,
    /// Cores per node.
    pub cores: String,
    /// Memory per node, MB (empty: Slurm's 1).
    pub memory: String,
    /// GPUs per node: `4`, or by type `a100=4,v100=2` (`a100:4` reads too); empty: none.
    pub gpus: String,
    /// Slurm's weight (empty: 1).
    pub weight: String,
    /// Features, comma-separated.
    pub features: String,
    /// The state slurm.conf gave (kept, not shown; empty: unknown).
    pub state: String,
}

/// A partition's row.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PartitionRow {
    /// Its name.
    pub name: String,
    /// Its nodes: a hostlist, `ALL`, or empty (none).
    pub nodes: String,
    /// The default partition.
    pub default: bool,
    /// `MaxTime`: minutes or a Slurm time (`2-00:00:00`); empty: unlimited.
    pub max_time: String,
    /// `DefaultTime`: as `max_time`; empty: not set (a job that gives no limit gets `MaxTime`).
    pub default_time: String,
    /// `MaxNodes`; empty: unlimited.
    pub max_nodes: String,
    /// `PriorityJobFactor` (empty: 1).
    pub job_factor: String,
    /// `PriorityTier` (empty: 1).
    pub tier: String,
    /// `OverSubscribe`: `NO`, `EXCLUSIVE`, `YES[:N]`, `FORCE[:N]` (empty: NO).
    pub oversubscribe: String,
    /// `State`: `UP`, `DOWN`, `DRAIN`, `INACTIVE` (empty: UP).
    pub state: String,
    /// `TRESBillingWeights` in the compact form's spelling (`cpu=1,mem=0.000244140625,gpu=4`;
    /// empty: none). No column of the page's table shows it: it is kept through edits.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub billing: String,
}

/// The two tables.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Table {
    /// Node groups, in the cluster's order.
    pub groups: Vec<GroupRow>,
    /// Partitions.
    pub partitions: Vec<PartitionRow>,
}

/// What is wrong with a cell: `table` is `groups` or `partitions` (empty: the whole cluster),
/// `row` counts from 0, `column` is the row's field name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CellError {
    /// `groups`, `partitions`, or empty for the whole cluster.
    pub table: &'static str,
    /// The row, from 0.
    pub row: usize,
    /// The column (a row field's name), or empty.
    pub column: &'static str,
    /// What is wrong.
    pub message: String,
}

fn num_or_empty<T: ToString + PartialEq>(v: T, default: T) -> String {
    if v == default {
        String::new()
    } else {
        v.to_string()
    }
}

impl Table {
    /// The tables of a cluster.
    pub fn of(c: &Cluster) -> Table {
        let total = c.total_nodes() as usize;
        let groups = c.groups.iter().map(|g| GroupRow {
            nodes: hostlist::format_ordered(&g.names),
            count: g.names.len().to_string(),
            cores: g.cpus.to_string(),
            memory: g.mem_mb.to_string(),
            gpus: gpus_text(g),
            weight: g.weight.to_string(),
            features: g.features.join(","),
            state: num_or_empty(g.state.word(), "unknown"),
        });
        let partitions = c.partitions.iter().map(|p| PartitionRow {
            name: p.name.clone(),
            nodes: if p.nodes.len() == total {
                "ALL".into()
            } else {
                hostlist::format_ordered(&p.nodes)
            },
            default: p.default,
            max_time: p
                .max_time
                .map_or(String::new(), |m| time::format_minutes(Some(m))),
            default_time: p.default_time.map_or(String::new(), time::format_minutes),
            max_nodes: p.max_nodes.map_or(String::new(), |n| n.to_string()),
            job_factor: p.priority_job_factor.to_string(),
            tier: p.priority_tier.to_string(),
            oversubscribe: match p.oversubscribe {
                OverSubscribe::No => "NO".into(),
                OverSubscribe::Exclusive => "EXCLUSIVE".into(),
                OverSubscribe::Yes(n) => format!("YES:{n}"),
                OverSubscribe::Force(n) => format!("FORCE:{n}"),
            },
            state: p.state.word().to_uppercase(),
            billing: (p.billing_weights.as_ref()).map_or(String::new(), |w| w.compact()),
        });
        Table {
            groups: groups.collect(),
            partitions: partitions.collect(),
        }
    }

    /// The cluster the tables describe, or every cell error (and the whole cluster's error).
    pub fn build(&self) -> Result<Cluster, Vec<CellError>> {
        let mut errors = Vec::new();
        let mut groups = Vec::new();
        let mut owner: HashMap<String, usize> = HashMap::new();
        for (k, row) in self.groups.iter().enumerate() {
            let mut bad = |column, message| {
                errors.push(CellError {
                    table: "groups",
                    row: k,
                    column,
                    message,
                })
            };
            let Some(g) = group(row, &mut bad) else {
                continue;
            };
            for n in &g.names {
                if let Some(&other) = owner.get(n) {
                    bad(
                        "nodes",
                        format!("node {n} is already in node group {}", other + 1),
                    );
                    break;
                }
            }
            for n in &g.names {
                owner.entry(n.clone()).or_insert(k);
            }
            groups.push(g);
        }
        if self.groups.is_empty() {
            errors.push(CellError {
                table: "",
                row: 0,
                column: "",
                message: "no node group: add one".into(),
            });
        }
        let whole = groups.len() == self.groups.len();
        let order = NodeOrder::new(&groups);
        let mut partitions = Vec::new();
        let mut default: Option<usize> = None;
        let mut names: HashMap<&str, usize> = HashMap::new();
        for (k, row) in self.partitions.iter().enumerate() {
            let mut bad = |column, message| {
                errors.push(CellError {
                    table: "partitions",
                    row: k,
                    column,
                    message,
                })
            };
            if let Some(other) = names.insert(row.name.trim(), k) {
                bad(
                    "name",
                    format!(
                        "partition {} is named twice (row {})",
                        row.name.trim(),
                        other + 1
                    ),
                );
            }
            if row.default {
                if let Some(other) = default {
                    bad(
                        "default",
                        format!(
                            "partition {} is the default already",
                            self.partitions[other].name
                        ),
                    );
                }
                default = Some(k);
            }
            let Some((mut p, list)) = partition(row, &mut bad) else {
                continue;
            };
            p.nodes = match list {
                None => order.all(),
                Some(l) => match order.sort(&l) {
                    Ok(nodes) => nodes,
                    Err(n) => {
                        // (A node of a group in error is not unknown: its group's cell says why.)
                        if whole {
                            bad("nodes", format!("node {n}: no node group has it"));
                        }
                        continue;
                    }
                },
            };
            partitions.push(p);
        }
        drop(order);
        if !errors.is_empty() {
            return Err(errors);
        }
        let c = Cluster { groups, partitions };
        // Read back from the compact form: what a link will carry, judged by its reader.
        Cluster::from_compact(&c.to_compact()).map_err(|e| {
            vec![CellError {
                table: "",
                row: 0,
                column: "",
                message: e.0,
            }]
        })
    }
}

type Bad<'a> = dyn FnMut(&'static str, String) + 'a;

/// A cell read by `field` when it is not empty; its error goes to `column`.
fn cell<T>(
    t: &mut T,
    bad: &mut Bad,
    column: &'static str,
    text: &str,
    key: char,
    field: fn(&mut T, char, &str) -> Result<(), Option<String>>,
) {
    let text = text.trim();
    if !text.is_empty() {
        if let Err(e) = field(t, key, text) {
            bad(column, e.unwrap_or_default());
        }
    }
}

fn group(row: &GroupRow, bad: &mut Bad) -> Option<NodeGroup> {
    let list = row.nodes.trim();
    if list.is_empty() {
        bad("nodes", "no node names: e.g. n[1-16]".into());
        return None;
    }
    let mut names = match hostlist::parse_with_limit(list, MAX_NODES) {
        Ok(n) => n,
        Err(e) => {
            bad("nodes", e.to_string());
            return None;
        }
    };
    let count = row.count.trim();
    if !count.is_empty() && count != names.len().to_string() {
        match count.parse::<usize>() {
            Ok(n) if (1..=MAX_NODES).contains(&n) => match resize(&names, n) {
                Ok(r) => names = r,
                Err(e) => bad("count", e),
            },
            _ => bad(
                "count",
                format!(
                    "{}: a whole number of nodes from 1 to {MAX_NODES}",
                    quote(count)
                ),
            ),
        }
    }
    let mut g = NodeGroup::new(names, 1, 1);
    let gpus = row.gpus.replace(':', "=").replace(' ', "");
    let features = row.features.replace(' ', "");
    // A cell in error is recorded (so the build fails); the names still count for the others.
    let cells = [
        ("cores", row.cores.as_str(), 'c'),
        ("memory", &row.memory, 'm'),
        ("gpus", &gpus, 'g'),
        ("weight", &row.weight, 'w'),
        ("features", &features, 'f'),
        ("state", &row.state, 's'),
    ];
    for (column, text, key) in cells {
        cell(&mut g, bad, column, text, key, group_field);
    }
    if row.cores.trim().is_empty() {
        bad("cores", "cores per node: a whole number from 1".into());
    }
    Some(g)
}

fn partition(row: &PartitionRow, bad: &mut Bad) -> Option<(Partition, Option<Vec<String>>)> {
    let name = row.name.trim();
    if let Err(e) = hostlist::check_name(name) {
        bad(
            "name",
            if name.is_empty() {
                "a partition needs a name".into()
            } else {
                e
            },
        );
        return None;
    }
    let list = row.nodes.trim();
    let nodes = if list.eq_ignore_ascii_case("all") {
        None
    } else if list.is_empty() {
        Some(Vec::new())
    } else {
        match hostlist::parse(list) {
            Ok(n) => Some(n),
            Err(e) => {
                bad("nodes", e.to_string());
                return None;
            }
        }
    };
    let mut p = Partition::new(name, Vec::new());
    p.default = row.default;
    // OverSubscribe as slurm.conf writes it (`YES:2`, `FORCE`) or as the compact form (`yes2`).
    let over = row.oversubscribe.trim().to_lowercase().replace(':', "");
    let over = if over == "yes" || over == "force" {
        format!("{over}4")
    } else {
        over
    };
    let max_nodes = row.max_nodes.trim();
    let max_nodes = if max_nodes.eq_ignore_ascii_case("unlimited") {
        ""
    } else {
        max_nodes
    };
    let cells = [
        ("max_time", row.max_time.as_str(), 't'),
        ("default_time", row.default_time.as_str(), 'l'),
        ("max_nodes", max_nodes, 'x'),
        ("job_factor", &row.job_factor, 'j'),
        ("tier", &row.tier, 'r'),
        ("oversubscribe", &over, 'o'),
        ("state", &row.state, 's'),
        ("billing", &row.billing, 'b'),
    ];
    for (column, text, key) in cells {
        cell(&mut p, bad, column, text, key, partition_field);
    }
    Some((p, nodes))
}

/// `names` cut to `n`, or grown by numbering on from the last name (`n16` -> `n17`, `gpu09` ->
/// `gpu10`, zero-padded as the last name is).
fn resize(names: &[String], n: usize) -> Result<Vec<String>, String> {
    if n <= names.len() {
        return Ok(names[..n].to_vec());
    }
    let last = names.last().map(String::as_str).unwrap_or("");
    let digits = last.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (prefix, num) = last.split_at(last.len() - digits);
    let start: u64 = match num.parse() {
        Ok(v) if digits <= 18 => v,
        _ => {
            return Err(format!(
                "{last} does not end in a number: write the names as a range (n[1-{n}])"
            ))
        }
    };
    let width = if num.starts_with('0') { digits } else { 0 };
    let mut out = names.to_vec();
    out.extend((1..=(n - names.len()) as u64).map(|k| format!("{prefix}{:0width$}", start + k)));
    Ok(out)
}
