//! Slurm's `slurm.conf`, read as Slurm reads it: `NodeName=` and `PartitionName=` lines (with
//! their `DEFAULT` lines) make the [`Cluster`]; every other `Key=Value` is kept in [`Params`] for
//! the parts that read scheduler parameters. Keys are case-insensitive, `#` starts a comment
//! (`\#` is a `#`), a trailing `\` continues a line, values may be double-quoted. An `Include`
//! line reads the file it names in its place ([`read_path`]; an error in text without a file,
//! [`parse_str`]). Every error names the file, the line and the field.

use super::{
    check_node_name, hostlist, Cluster, NodeGroup, NodeOrder, Partition, MAX_GROUPS,
    MAX_MEMBERSHIPS, MAX_NODES, MAX_PARTITIONS,
};
use crate::quote::quote;
use std::collections::HashMap;
use std::path::Path;

/// A malformed slurm.conf: the file, the line (1-based; 0 for the file as a whole), the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfError {
    /// The file, as given.
    pub file: String,
    /// The line (the first of a continued line); 0 for the file as a whole.
    pub line: usize,
    /// The key at fault, as written, if one is.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for ConfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if let Some(k) = &self.field {
            write!(f, ": {k}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfError {}

/// The keys of slurm.conf that are not node or partition lines, as written (last one wins for
/// [`Params::get`]; keys such as `SlurmctldHost` may repeat).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Params {
    /// (key as written, value, line)
    entries: Vec<(String, String, usize)>,
    /// Per entry, the file an `Include` line read it from (`None`: the file read itself).
    #[serde(skip)]
    included: Vec<Option<String>>,
}

impl Params {
    /// The value of a key (any case); the last line that sets it wins.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v, _)| v.as_str())
    }

    /// Every value of a key (any case), in file order.
    pub fn get_all(&self, key: &str) -> Vec<&str> {
        self.entries
            .iter()
            .filter(|(k, _, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v, _)| v.as_str())
            .collect()
    }

    /// Every (key, value, line), in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, usize)> {
        self.entries
            .iter()
            .map(|(k, v, l)| (k.as_str(), v.as_str(), *l))
    }

    /// Every (key, value, line, included file), in file order: the file is the one an
    /// `Include` line read the entry from (`None`: the file read itself), whose line it is.
    pub fn iter_placed(&self) -> impl Iterator<Item = (&str, &str, usize, Option<&str>)> {
        (self.entries.iter().zip(&self.included))
            .map(|((k, v, l), f)| (k.as_str(), v.as_str(), *l, f.as_deref()))
    }

    /// How many (key, value) entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No entry at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A slurm.conf read: the cluster it describes and its other keys.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SlurmConf {
    /// The nodes and partitions.
    pub cluster: Cluster,
    /// Every other key.
    pub params: Params,
    /// The partitions that set their own `OverTimeLimit` (name, minutes; `None`:
    /// `UNLIMITED`), in file order: Slurm's limit checks read it before the cluster's.
    pub over_time: Vec<(String, Option<u32>)>,
    /// Lines of records that describe no resource here (`DownNodes=`, `FrontendName=`,
    /// `SwitchName=`), by line number: read and left aside.
    pub ignored_records: Vec<(usize, String)>,
    /// The partition keys of [`IGNORED_PARTITION_KEYS`] the file sets (as written, each once,
    /// in file order), with the partitions that set them (`DEFAULT` for a
    /// `PartitionName=DEFAULT` line): accepted and not modelled, which the admin is told.
    pub ignored_partition_keys: Vec<(String, Vec<String>)>,
}

impl SlurmConf {
    /// One line on the partition keys the file sets that nothing models: `partition keys
    /// not modelled: AllowGroups (batch), AllowAccounts (gpu, cpu)`; `None` when none.
    pub fn ignored_partition_note(&self) -> Option<String> {
        (!self.ignored_partition_keys.is_empty()).then(|| {
            let keys: Vec<String> = (self.ignored_partition_keys.iter())
                .map(|(k, parts)| format!("{k} ({})", parts.join(", ")))
                .collect();
            format!(
                "partition keys accepted and not modelled (docs/cluster-model.md): {}",
                keys.join(", ")
            )
        })
    }
}

/// Node-line keys read by Slurm that describe no resource schedlab models (accepted, ignored).
pub const IGNORED_NODE_KEYS: &[&str] = &[
    "ActiveFeatures",
    "BcastAddr",
    "Comment",
    "CoreSpecCount",
    "CpuBind",
    "CpuSpecList",
    "Extra",
    "MemSpecLimit",
    "NodeAddr",
    "NodeHostname",
    "Parameters",
    "Port",
    "Reason",
    "RestrictedCoresPerGPU",
    "TmpDisk",
    "Topology",
    "TRESWeights",
];

/// Partition-line keys read by Slurm that schedlab does not model yet (accepted, ignored).
pub const IGNORED_PARTITION_KEYS: &[&str] = &[
    "AllocNodes",
    "AllowAccounts",
    "AllowGroups",
    "AllowQos",
    "Alternate",
    "CpuBind",
    "DefCpuPerGPU",
    "DefMemPerCPU",
    "DefMemPerGPU",
    "DefMemPerNode",
    "DenyAccounts",
    "DenyQos",
    "DisableRootJobs",
    "ExclusiveTopo",
    "ExclusiveUser",
    "GraceTime",
    "Hidden",
    "LLN",
    "MaxCPUsPerNode",
    "MaxCPUsPerSocket",
    "MaxMemPerCPU",
    "MaxMemPerNode",
    "MinNodes",
    "PowerDownOnIdle",
    "PreemptMode",
    "QOS",
    "ReqResv",
    "ResumeTimeout",
    "RootOnly",
    "SelectTypeParameters",
    "SuspendTime",
    "SuspendTimeout",
    "Topology",
];

/// Record types whose lines are read and left aside.
pub const IGNORED_RECORDS: &[&str] = &["DownNodes", "FrontendName", "SwitchName"];

fn known(list: &[&str], key: &str) -> bool {
    list.iter().any(|k| k.eq_ignore_ascii_case(key))
}

mod include;
mod lines;
mod misplaced;
mod nodesets;
mod values;

use lines::tokens;
use std::rc::Rc;

pub use values::gres_count;
use values::{node_key, part_key, NodeSpec, PartSpec};

/// Reads a slurm.conf file (`file` names it in errors) and the files its `Include` lines
/// name (`include`: as Slurm, a relative path from the including file's directory); an error
/// in an included file names that file and its line.
pub fn read_path(path: &Path) -> Result<SlurmConf, ConfError> {
    parse_lines(include::of_file(path)?, &path.display().to_string())
}

/// The files a slurm.conf's `Include` lines read (nested ones too), in reading order, without
/// the slurm.conf itself.
pub fn included_files(path: &Path) -> Result<Vec<std::path::PathBuf>, ConfError> {
    let top = path.display().to_string();
    let mut out: Vec<std::path::PathBuf> = Vec::new();
    for (file, _, _) in include::of_file(path)? {
        if *file != *top && out.last().is_none_or(|f| f.display().to_string() != *file) {
            out.push(std::path::PathBuf::from(&*file));
        }
    }
    Ok(out)
}

/// Reads slurm.conf text; `file` names it in errors. An `Include` line is an error: the text
/// has no directory to read the included file from ([`read_path`] reads it).
pub fn parse_str(text: &str, file: &str) -> Result<SlurmConf, ConfError> {
    parse_lines(include::of_text(text, file)?, file)
}

/// Reads the logical lines of a slurm.conf (each with its file); `file` names the whole.
fn parse_lines(lines: include::Lines, file: &str) -> Result<SlurmConf, ConfError> {
    let whole = |message: String| ConfError {
        file: file.to_string(),
        line: 0,
        field: None,
        message,
    };
    let mut params = Params::default();
    let mut ignored_records = Vec::new();
    let mut ignored_partition_keys: Vec<(String, Vec<String>)> = Vec::new();
    let mut nodesets: Vec<nodesets::NodeSetLine> = Vec::new();
    let mut groups: Vec<NodeGroup> = Vec::new();
    let mut node_line: HashMap<String, (Rc<str>, usize)> = HashMap::new();
    let mut node_default = NodeSpec::default();
    let mut part_default = PartSpec::default();
    // (file, line, name, spec as merged with the defaults of its time)
    let mut parts: Vec<(Rc<str>, usize, String, PartSpec)> = Vec::new();
    for (src, line, text) in lines {
        let fail = |line: usize, field: Option<&str>, message: String| ConfError {
            file: src.to_string(),
            line,
            field: field.map(str::to_string),
            message,
        };
        // Where an earlier line is: its number, and its file when another.
        let at = |(f, l): &(Rc<str>, usize)| match *f == src {
            true => format!("line {l}"),
            false => format!("{f}:{l}"),
        };
        let toks = tokens(&text).map_err(|m| fail(line, None, m))?;
        let Some(first) = toks.first() else { continue };
        // The k-th token as the line writes it (its quotes kept).
        let not_pair = |k: usize, hint: &str| {
            let t = lines::written(&text)
                .get(k)
                .copied()
                .unwrap_or_default()
                .to_string();
            fail(line, None, format!("expected Key=Value, got \"{t}\"{hint}"))
        };
        let Some((key, value)) = first.split_once('=') else {
            return Err(not_pair(0, misplaced::hint(&text)));
        };
        let pairs = || {
            toks[1..]
                .iter()
                .enumerate()
                .map(|(k, t)| t.split_once('=').ok_or_else(|| not_pair(k + 1, "")))
        };
        if key.eq_ignore_ascii_case("NodeName") {
            let mut spec = NodeSpec::default();
            for p in pairs() {
                let (k, v) = p?;
                node_key(&mut spec, k, v).map_err(|m| fail(line, Some(k), m))?;
            }
            if value.eq_ignore_ascii_case("DEFAULT") {
                node_default = node_default.merged(&spec);
                continue;
            }
            let spec = node_default.merged(&spec);
            let room = MAX_NODES - node_line.len();
            let names = hostlist::parse_with_limit(value, room).map_err(|e| {
                let m = if e.reason.starts_with("more than") {
                    format!("more than {MAX_NODES} nodes in the cluster")
                } else {
                    e.to_string()
                };
                fail(line, Some(key), m)
            })?;
            for n in &names {
                check_node_name(n).map_err(|m| fail(line, Some(key), format!("{n}: {m}")))?;
                if let Some(l) = node_line.insert(n.clone(), (src.clone(), line)) {
                    return Err(fail(
                        line,
                        Some(key),
                        format!("node {n} is already defined on {}", at(&l)),
                    ));
                }
            }
            if groups.len() >= MAX_GROUPS {
                return Err(fail(
                    line,
                    Some(key),
                    format!("more than {MAX_GROUPS} NodeName lines"),
                ));
            }
            let cpus = spec.cpus().ok_or_else(|| {
                fail(
                    line,
                    Some("CPUs"),
                    "sockets x cores x threads is too large".into(),
                )
            })?;
            groups.push(NodeGroup {
                names,
                cpus,
                mem_mb: spec.mem_mb.unwrap_or(1),
                gpus: spec.gpus.unwrap_or_default(),
                features: spec.features.unwrap_or_default(),
                weight: spec.weight.unwrap_or(1),
                state: spec.state.unwrap_or_default(),
            });
        } else if key.eq_ignore_ascii_case("PartitionName") {
            let mut spec = PartSpec::default();
            for p in pairs() {
                let (k, v) = p?;
                part_key(&mut spec, k, v).map_err(|m| fail(line, Some(k), m))?;
                if known(IGNORED_PARTITION_KEYS, k) {
                    let at = match (ignored_partition_keys.iter())
                        .position(|(seen, _): &(String, Vec<String>)| seen.eq_ignore_ascii_case(k))
                    {
                        Some(at) => at,
                        None => {
                            ignored_partition_keys.push((k.to_string(), Vec::new()));
                            ignored_partition_keys.len() - 1
                        }
                    };
                    let parts = &mut ignored_partition_keys[at].1;
                    if !parts.iter().any(|p| p == value) {
                        parts.push(value.to_string());
                    }
                }
            }
            if value.eq_ignore_ascii_case("DEFAULT") {
                part_default = part_default.merged(&spec);
                continue;
            }
            hostlist::check_name(value)
                .map_err(|m| fail(line, Some(key), format!("{}: {m}", quote(value))))?;
            if let Some((f, l, _, _)) = parts.iter().find(|(_, _, n, _)| n == value) {
                return Err(fail(
                    line,
                    Some(key),
                    format!(
                        "partition {value} is already defined on {}",
                        at(&(f.clone(), *l))
                    ),
                ));
            }
            if parts.len() >= MAX_PARTITIONS {
                return Err(fail(
                    line,
                    Some(key),
                    format!("more than {MAX_PARTITIONS} partitions"),
                ));
            }
            parts.push((
                src.clone(),
                line,
                value.to_string(),
                part_default.merged(&spec),
            ));
        } else if key.eq_ignore_ascii_case("NodeSet") {
            let mut set = nodesets::NodeSetLine::new(value);
            for p in pairs() {
                let (k, v) = p?;
                set.key(k, v).map_err(|m| fail(line, Some(k), m))?;
            }
            nodesets.push(set);
        } else if known(IGNORED_RECORDS, key) {
            ignored_records.push((line, key.to_string()));
        } else {
            let included = (*src != *file).then(|| src.to_string());
            params
                .entries
                .push((key.to_string(), value.to_string(), line));
            params.included.push(included.clone());
            for p in pairs() {
                let (k, v) = p?;
                params.entries.push((k.to_string(), v.to_string(), line));
                params.included.push(included.clone());
            }
        }
    }
    if groups.is_empty() {
        return Err(whole("no NodeName line: a cluster needs nodes".into()));
    }
    let order = NodeOrder::new(&groups);
    let mut partitions = Vec::with_capacity(parts.len());
    let mut over_time = Vec::new();
    let mut members = 0usize;
    for (src, line, name, s) in parts {
        let fail = |line: usize, field: Option<&str>, message: String| ConfError {
            file: src.to_string(),
            line,
            field: field.map(str::to_string),
            message,
        };
        let nodes = match s.nodes.as_deref().map(str::trim) {
            None | Some("") => Vec::new(),
            Some(all) if all.eq_ignore_ascii_case("ALL") => order.all(),
            Some(list) => {
                let names =
                    hostlist::parse(list).map_err(|e| fail(line, Some("Nodes"), e.to_string()))?;
                let names = nodesets::expand(names, &nodesets, &groups)
                    .map_err(|m| fail(line, Some("Nodes"), m))?;
                order.sort(&names).map_err(|n| {
                    fail(
                        line,
                        Some("Nodes"),
                        format!("partition {name} names node {n}, which no NodeName line defines"),
                    )
                })?
            }
        };
        members += nodes.len();
        if members > MAX_MEMBERSHIPS {
            return Err(fail(
                line,
                Some("Nodes"),
                format!("more than {MAX_MEMBERSHIPS} (partition, node) memberships"),
            ));
        }
        let default = s.default.unwrap_or(false);
        if default {
            // As Slurm: the last Default=YES partition is the default.
            for p in &mut partitions {
                let p: &mut Partition = p;
                p.default = false;
            }
        }
        if let Some(o) = s.over_time {
            over_time.push((name.clone(), o));
        }
        partitions.push(Partition {
            name,
            nodes,
            default,
            max_time: s.max_time.unwrap_or(None),
            default_time: s.default_time,
            max_nodes: s.max_nodes.unwrap_or(None),
            priority_job_factor: s.job_factor.unwrap_or(1),
            priority_tier: s.tier.unwrap_or(1),
            oversubscribe: s.oversubscribe.unwrap_or_default(),
            state: s.state.unwrap_or_default(),
            billing_weights: s.billing_weights.flatten(),
        });
    }
    drop(order);
    let cluster = Cluster { groups, partitions };
    cluster.validate().map_err(|e| whole(e.0))?;
    Ok(SlurmConf {
        cluster,
        params,
        over_time,
        ignored_records,
        ignored_partition_keys,
    })
}

#[cfg(test)]
mod tests;
