//! Alea's machine description (`NAME.machines`, beside an Alea workload such as
//! `wagap-2013.swf`), read as a [`Cluster`]: one node group per line, its fields cut by tabs
//! (any blank here), as Alea's `MachineLoader.createGridResources` reads them:
//!
//! ```text
//! cluster_id  cluster_name  number_of_nodes  CPUs_per_node  CPU_speed  RAM_per_node_in_KB  [description]
//! 0           zewura        20               80             1          529426432
//! ```
//!
//! - the name makes the nodes' names, numbered from 1: `zewura[1-20]`;
//! - memory is in KB (Alea's README and loader), read as whole MB (`RealMemory`), rounded
//!   down; without it Alea gives a node 1024 KB: 1 MB, Slurm's own default;
//! - the CPU speed (Alea's `peRating`, relative) must be 1: schedlab runs every core at one
//!   speed;
//! - the optional description (Alea's partition or properties, which its schedulers match a
//!   job's against) is not read: every node is in one partition, `all`, the default.
//!
//! Blank lines are skipped. Every error names the file, the line and the field
//! ([`ConfError`], as a slurm.conf's).

use super::conf::ConfError;
use super::{Cluster, NodeGroup, Partition};
use crate::quote::quote;

/// The fields of a line, for messages.
const FIELDS: [&str; 7] = [
    "cluster_id",
    "cluster_name",
    "number_of_nodes",
    "CPUs_per_node",
    "CPU_speed",
    "RAM_per_node_in_KB",
    "description",
];

/// Does `text` look like an Alea `.machines` file: every non-blank line of 5 to 7 fields, no
/// `=` (a slurm.conf's lines have one), its id, node and CPU counts whole numbers?
pub fn looks_like(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty()).peekable();
    lines.peek().is_some()
        && lines.all(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let whole = |i: usize| f[i].bytes().all(|b| b.is_ascii_digit());
            (5..=7).contains(&f.len()) && !l.contains('=') && whole(0) && whole(2) && whole(3)
        })
}

/// The cluster of an Alea `.machines` text; `file` names it in errors.
pub fn parse_str(text: &str, file: &str) -> Result<Cluster, ConfError> {
    let err = |line: usize, field: Option<usize>, message: String| ConfError {
        file: file.to_string(),
        line,
        field: field.map(|i| FIELDS[i].to_string()),
        message,
    };
    let mut groups = Vec::new();
    // Nodes over all lines so far: capped before any line's names are made, so that a long
    // file of large lines cannot exhaust memory.
    let mut total = 0u64;
    for (i, l) in text.lines().enumerate() {
        let line = i + 1;
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.is_empty() {
            continue;
        }
        if !(5..=7).contains(&f.len()) {
            return Err(err(
                line,
                None,
                format!(
                    "{} fields: an Alea machine line has 5 to 7 ({})",
                    f.len(),
                    FIELDS.join(" ")
                ),
            ));
        }
        let count = |k: usize, least: u64| -> Result<u64, ConfError> {
            match f[k].parse::<u64>() {
                Ok(n) if n >= least => Ok(n),
                _ => Err(err(
                    line,
                    Some(k),
                    format!("{}: not a whole number of at least {least}", quote(f[k])),
                )),
            }
        };
        count(0, 0)?;
        let name = f[1];
        let nodes = count(2, 1)?;
        total += nodes.min(super::MAX_NODES as u64 + 1);
        if total > super::MAX_NODES as u64 {
            return Err(err(
                line,
                Some(2),
                format!("{nodes} nodes: at most {} over the file", super::MAX_NODES),
            ));
        }
        if groups.len() >= super::MAX_GROUPS {
            return Err(err(
                line,
                None,
                format!("more than {} machine lines", super::MAX_GROUPS),
            ));
        }
        let cpus = u32::try_from(count(3, 1)?)
            .map_err(|_| err(line, Some(3), format!("{}: too many CPUs", f[3])))?;
        if f[4] != "1" {
            return Err(err(
                line,
                Some(4),
                format!(
                    "{}: only 1 is read (schedlab runs every CPU at one speed)",
                    quote(f[4])
                ),
            ));
        }
        let mem_mb = match f.get(5) {
            Some(_) => count(5, 1024)? / 1024,
            None => 1,
        };
        let names: Vec<String> = (1..=nodes).map(|k| format!("{name}{k}")).collect();
        super::check_node_name(&names[0]).map_err(|e| err(line, Some(1), e))?;
        groups.push((line, NodeGroup::new(names, cpus, mem_mb)));
    }
    if groups.is_empty() {
        return Err(err(0, None, "no machine lines".into()));
    }
    let nodes: Vec<String> = groups
        .iter()
        .flat_map(|(_, g)| g.names.iter().cloned())
        .collect();
    let mut all = Partition::new("all", nodes);
    all.default = true;
    let lines: Vec<usize> = groups.iter().map(|(l, _)| *l).collect();
    let cluster = Cluster {
        groups: groups.into_iter().map(|(_, g)| g).collect(),
        partitions: vec![all],
    };
    cluster.validate().map_err(|e| {
        // Two lines of the same name make the same nodes: name the second.
        let line = (cluster.groups.iter().enumerate())
            .find(|(k, g)| {
                cluster.groups[..*k]
                    .iter()
                    .any(|h| h.names[0] == g.names[0])
            })
            .map_or(0, |(k, _)| lines[k]);
        err(line, (line > 0).then_some(1), e.to_string())
    })?;
    Ok(cluster)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::MAX_GROUPS;

    /// Worked by hand: Alea's own example (its README, wagap-2013.swf.machines): zewura, 20
    /// nodes of 80 CPUs and 529426432 KB (517018 MB: 529426432 / 1024 = 517018.0); zegox, 48
    /// nodes of 12 CPUs and 94035968 KB (91832 MB). 1600 + 576 = 2176 cores on 68 nodes.
    #[test]
    fn reads_aleas_example() {
        let text = "0\tzewura\t20\t80\t1\t529426432\n1\tzegox\t48\t12\t1\t94035968 \n";
        assert!(looks_like(text));
        let c = parse_str(text, "wagap.machines").unwrap();
        assert_eq!((c.total_nodes(), c.total_cores()), (68, 2176));
        let g = &c.groups;
        assert_eq!(
            (g[0].cpus, g[0].mem_mb, g[0].names.len()),
            (80, 517_018, 20)
        );
        assert_eq!((g[1].cpus, g[1].mem_mb, g[1].names.len()), (12, 91_832, 48));
        assert_eq!(
            (g[0].names[0].as_str(), g[1].names[47].as_str()),
            ("zewura1", "zegox48")
        );
        assert_eq!(c.partitions.len(), 1);
        assert!(c.partitions[0].default && c.partitions[0].nodes.len() == 68);
        // No memory: Alea's 1024 KB, 1 MB; a description is not read.
        let c = parse_str("\n3 tiny 2 4 1\n4 big 1 8 1 2048 batch\n", "m").unwrap();
        assert_eq!((c.groups[0].mem_mb, c.groups[1].mem_mb), (1, 2));
    }

    #[test]
    fn errors_name_the_file_line_and_field() {
        let e = |text: &str| parse_str(text, "x.machines").unwrap_err().to_string();
        assert_eq!(
            e("0 a 2 4 1 2048\n1 b 0 4 1 2048\n"),
            "x.machines:2: number_of_nodes: \"0\": not a whole number of at least 1"
        );
        assert_eq!(
            e("0 a 2 four 1 2048\n"),
            "x.machines:1: CPUs_per_node: \"four\": not a whole number of at least 1"
        );
        assert_eq!(
            e("0 a 2 4 2.5 2048\n"),
            "x.machines:1: CPU_speed: \"2.5\": only 1 is read (schedlab runs every CPU at one speed)"
        );
        assert_eq!(
            e("0 a 2 4 1 100\n"),
            "x.machines:1: RAM_per_node_in_KB: \"100\": not a whole number of at least 1024"
        );
        assert!(e("0 a 2 4\n").starts_with("x.machines:1: 4 fields: an Alea machine line"));
        assert!(e("0 a 2 4 1\n1 a 3 4 1\n").starts_with("x.machines:2: cluster_name: "));
        assert_eq!(e("\n\n"), "x.machines: no machine lines");
        // The nodes are capped over the whole file (60,000 + 50,000 > 100,000), before the
        // second line's names are made; a file of many lines cannot exhaust memory.
        assert_eq!(
            e("0 a 60000 4 1\n1 b 50000 4 1\n"),
            "x.machines:2: number_of_nodes: 50000 nodes: at most 100000 over the file"
        );
        let many: String = (0..=MAX_GROUPS)
            .map(|k| format!("{k} g{k}x 1 1 1\n"))
            .collect();
        assert!(
            e(&many).ends_with("more than 10000 machine lines"),
            "{}",
            e(&many)
        );
        assert!(!looks_like("NodeName=n1 CPUs=4\n"));
        assert!(!looks_like(""));
    }
}
