//! Slurm's `slurm.conf`, read as Slurm reads it: `NodeName=` and `PartitionName=` lines (with
//! their `DEFAULT` lines) make the [`Cluster`]; every other `Key=Value` is kept in [`Params`] for
//! the parts that read scheduler parameters. Keys are case-insensitive, `#` starts a comment
//! (`\#` is a `#`), a trailing `\` continues a line, values may be double-quoted. An `Include`
//! line is an error (not supported). Every error names the file, the line and the field.

use super::{
    check_node_name, hostlist, time, Cluster, NodeGroup, NodeOrder, NodeState, OverSubscribe,
    Partition, PartitionState, MAX_GROUPS, MAX_MEMBERSHIPS, MAX_NODES, MAX_PARTITIONS, MAX_TAGS,
};
use std::collections::{BTreeMap, HashMap};
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
    /// Lines of records that describe no resource here (`DownNodes=`, `NodeSet=`,
    /// `FrontendName=`, `SwitchName=`), by line number: read and left aside.
    pub ignored_records: Vec<(usize, String)>,
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
    "DefaultTime",
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
    "OverTimeLimit",
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
    "TRESBillingWeights",
];

/// Record types whose lines are read and left aside.
pub const IGNORED_RECORDS: &[&str] = &["DownNodes", "FrontendName", "NodeSet", "SwitchName"];

fn known(list: &[&str], key: &str) -> bool {
    list.iter().any(|k| k.eq_ignore_ascii_case(key))
}

/// The logical lines: (first physical line, text without comment), continuations joined.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        if !open {
            start = i + 1;
        }
        let mut content = String::with_capacity(raw.len());
        let mut chars = raw.chars().peekable();
        let mut comment = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&'#') => {
                    content.push('#');
                    chars.next();
                }
                '#' => {
                    comment = true;
                    break;
                }
                _ => content.push(c),
            }
        }
        let trimmed = content.trim_end();
        if !comment && trimmed.ends_with('\\') {
            cur.push_str(&trimmed[..trimmed.len() - 1]);
            cur.push(' ');
            open = true;
            continue;
        }
        cur.push_str(&content);
        out.push((start, std::mem::take(&mut cur)));
        open = false;
    }
    if open {
        out.push((start, cur));
    }
    out
}

/// Splits a line into tokens at white space outside double quotes (quotes removed).
fn tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err("a '\"' without its closing '\"'".into());
    }
    if any {
        out.push(cur);
    }
    Ok(out)
}

/// One node line's values (every one optional: a DEFAULT line fills the gaps of later lines).
#[derive(Clone, Default)]
struct NodeSpec {
    cpus: Option<u32>,
    boards: Option<u32>,
    sockets_per_board: Option<u32>,
    sockets: Option<u32>,
    cores: Option<u32>,
    threads: Option<u32>,
    mem_mb: Option<u64>,
    gpus: Option<BTreeMap<String, u32>>,
    features: Option<Vec<String>>,
    weight: Option<u32>,
    state: Option<NodeState>,
}

impl NodeSpec {
    /// `self` with `over`'s values where it has them.
    fn merged(&self, over: &NodeSpec) -> NodeSpec {
        NodeSpec {
            cpus: over.cpus.or(self.cpus),
            boards: over.boards.or(self.boards),
            sockets_per_board: over.sockets_per_board.or(self.sockets_per_board),
            sockets: over.sockets.or(self.sockets),
            cores: over.cores.or(self.cores),
            threads: over.threads.or(self.threads),
            mem_mb: over.mem_mb.or(self.mem_mb),
            gpus: over.gpus.clone().or_else(|| self.gpus.clone()),
            features: over.features.clone().or_else(|| self.features.clone()),
            weight: over.weight.or(self.weight),
            state: over.state.or(self.state),
        }
    }

    /// CPUs as Slurm derives them: `CPUs`, else sockets x cores per socket x threads per core
    /// (sockets: `Sockets`, else `Boards` x `SocketsPerBoard`; each 1 by default).
    fn cpus(&self) -> Option<u32> {
        if let Some(c) = self.cpus {
            return Some(c);
        }
        let sockets = match self.sockets {
            Some(s) => s,
            None => self
                .boards
                .unwrap_or(1)
                .checked_mul(self.sockets_per_board.unwrap_or(1))?,
        };
        sockets
            .checked_mul(self.cores.unwrap_or(1))?
            .checked_mul(self.threads.unwrap_or(1))
    }
}

/// One partition line's values.
#[derive(Clone, Default)]
struct PartSpec {
    nodes: Option<String>,
    default: Option<bool>,
    max_time: Option<Option<u32>>,
    max_nodes: Option<Option<u32>>,
    job_factor: Option<u32>,
    tier: Option<u32>,
    oversubscribe: Option<OverSubscribe>,
    state: Option<PartitionState>,
}

impl PartSpec {
    fn merged(&self, o: &PartSpec) -> PartSpec {
        PartSpec {
            nodes: o.nodes.clone().or_else(|| self.nodes.clone()),
            default: o.default.or(self.default),
            max_time: o.max_time.or(self.max_time),
            max_nodes: o.max_nodes.or(self.max_nodes),
            job_factor: o.job_factor.or(self.job_factor),
            tier: o.tier.or(self.tier),
            oversubscribe: o.oversubscribe.or(self.oversubscribe),
            state: o.state.or(self.state),
        }
    }
}

fn uint<T: TryFrom<u64>>(v: &str) -> Result<T, String> {
    let t = v.trim();
    if t.is_empty() || t.len() > 19 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a whole number, got {v:?}"));
    }
    let n: u64 = t.parse().map_err(|_| format!("{v:?} is not a number"))?;
    T::try_from(n).map_err(|_| format!("{v} is too large"))
}

fn positive(v: &str) -> Result<u32, String> {
    match uint::<u32>(v)? {
        0 => Err("0: at least 1".into()),
        n => Ok(n),
    }
}

fn yes_no(v: &str) -> Result<bool, String> {
    if v.eq_ignore_ascii_case("yes") {
        Ok(true)
    } else if v.eq_ignore_ascii_case("no") {
        Ok(false)
    } else {
        Err(format!("{v:?}: YES or NO"))
    }
}

/// A count of generic resources: digits with an optional K, M, G suffix (x1024 each).
fn gres_count(v: &str) -> Result<u64, String> {
    let (digits, mult) = match v.char_indices().last() {
        Some((i, c)) if c.eq_ignore_ascii_case(&'k') => (&v[..i], 1u64 << 10),
        Some((i, c)) if c.eq_ignore_ascii_case(&'m') => (&v[..i], 1 << 20),
        Some((i, c)) if c.eq_ignore_ascii_case(&'g') => (&v[..i], 1 << 30),
        _ => (v, 1),
    };
    uint::<u64>(digits)?
        .checked_mul(mult)
        .ok_or_else(|| format!("{v}: too large"))
}

/// `Gres=gpu:4,gpu:a100:2(S:0-1),mps:100`: the GPUs by type ("" untyped); other kinds are
/// checked and left aside.
fn gres(v: &str) -> Result<BTreeMap<String, u32>, String> {
    let mut gpus = BTreeMap::new();
    if v.eq_ignore_ascii_case("(null)") || v.is_empty() {
        return Ok(gpus);
    }
    // Split at the commas outside parentheses (socket bindings may hold commas).
    let mut items = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in v.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&v[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&v[start..]);
    for item in items {
        let spec = match item.find('(') {
            Some(i) if item.ends_with(')') => &item[..i],
            Some(_) => return Err(format!("{item:?}: unbalanced '('")),
            None => item,
        };
        let parts: Vec<&str> = spec.split(':').collect();
        let (name, ty, count) = match parts.as_slice() {
            [n] => (*n, "", 1),
            [n, x] if x.bytes().next().is_some_and(|b| b.is_ascii_digit()) => {
                (*n, "", gres_count(x)?)
            }
            [n, t] => (*n, *t, 1),
            [n, t, x] => (*n, *t, gres_count(x)?),
            _ => return Err(format!("{item:?}: expected NAME[:TYPE][:COUNT]")),
        };
        hostlist::check_name(name).map_err(|e| format!("{item:?}: {e}"))?;
        if !ty.is_empty() {
            hostlist::check_name(ty).map_err(|e| format!("{item:?}: type: {e}"))?;
        }
        if !name.eq_ignore_ascii_case("gpu") || count == 0 {
            continue;
        }
        let count = u32::try_from(count).map_err(|_| format!("{item:?}: too many GPUs"))?;
        let slot = gpus.entry(ty.to_string()).or_insert(0u32);
        *slot = slot
            .checked_add(count)
            .ok_or_else(|| format!("{item:?}: too many GPUs"))?;
        if gpus.len() > MAX_TAGS {
            return Err(format!("more than {MAX_TAGS} GPU types"));
        }
    }
    Ok(gpus)
}

fn features(v: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for f in v.split(',').filter(|f| !f.is_empty()) {
        hostlist::check_name(f).map_err(|e| format!("{f:?}: {e}"))?;
        if !out.iter().any(|x| x == f) {
            out.push(f.to_string());
        }
    }
    if out.len() > MAX_TAGS {
        return Err(format!("more than {MAX_TAGS} features"));
    }
    Ok(out)
}

fn oversubscribe(v: &str) -> Result<OverSubscribe, String> {
    let (mode, n) = match v.split_once(':') {
        Some((m, n)) => (m, Some(positive(n)?)),
        None => (v, None),
    };
    match mode.to_ascii_uppercase().as_str() {
        "EXCLUSIVE" if n.is_none() => Ok(OverSubscribe::Exclusive),
        "NO" if n.is_none() => Ok(OverSubscribe::No),
        "YES" => Ok(OverSubscribe::Yes(n.unwrap_or(4))),
        "FORCE" => Ok(OverSubscribe::Force(n.unwrap_or(4))),
        _ => Err(format!("{v:?}: EXCLUSIVE, NO, YES[:N] or FORCE[:N]")),
    }
}

fn node_key(s: &mut NodeSpec, key: &str, v: &str) -> Result<(), String> {
    match key.to_ascii_lowercase().as_str() {
        "cpus" | "procs" => s.cpus = Some(positive(v)?),
        "boards" => s.boards = Some(positive(v)?),
        "socketsperboard" => s.sockets_per_board = Some(positive(v)?),
        "sockets" => s.sockets = Some(positive(v)?),
        "corespersocket" => s.cores = Some(positive(v)?),
        "threadspercore" => s.threads = Some(positive(v)?),
        "realmemory" => s.mem_mb = Some(uint(v)?),
        "gres" => s.gpus = Some(gres(v)?),
        "feature" | "features" | "availablefeatures" => s.features = Some(features(v)?),
        "weight" => s.weight = Some(uint(v)?),
        "state" => {
            s.state = Some(
                NodeState::from_word(v)
                    .ok_or_else(|| format!("{v:?}: valid: {}", NodeState::valid()))?,
            )
        }
        _ if known(IGNORED_NODE_KEYS, key) => {}
        _ => return Err("not a NodeName key (a typo?); docs/cluster-model.md lists them".into()),
    }
    Ok(())
}

fn part_key(s: &mut PartSpec, key: &str, v: &str) -> Result<(), String> {
    let unlimited =
        |v: &str| v.eq_ignore_ascii_case("unlimited") || v.eq_ignore_ascii_case("infinite");
    match key.to_ascii_lowercase().as_str() {
        "nodes" => s.nodes = Some(v.to_string()),
        "default" => s.default = Some(yes_no(v)?),
        "maxtime" => s.max_time = Some(time::parse_minutes(v)?),
        "maxnodes" => s.max_nodes = Some(if unlimited(v) { None } else { Some(uint(v)?) }),
        "priorityjobfactor" => s.job_factor = Some(uint(v)?),
        "prioritytier" => s.tier = Some(uint(v)?),
        // The old key: both at once.
        "priority" => {
            let n = uint(v)?;
            s.job_factor = Some(n);
            s.tier = Some(n);
        }
        "oversubscribe" | "shared" => s.oversubscribe = Some(oversubscribe(v)?),
        "state" => {
            s.state = Some(
                PartitionState::from_word(v)
                    .ok_or_else(|| format!("{v:?}: valid: {}", PartitionState::valid()))?,
            )
        }
        _ if known(IGNORED_PARTITION_KEYS, key) => {}
        _ => {
            return Err(
                "not a PartitionName key (a typo?); docs/cluster-model.md lists them".into(),
            )
        }
    }
    Ok(())
}

/// Reads a slurm.conf file (`file` names it in errors).
pub fn read_path(path: &Path) -> Result<SlurmConf, ConfError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| ConfError {
        file: file.clone(),
        line: 0,
        field: None,
        message: e.to_string(),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| ConfError {
        file: file.clone(),
        line: 0,
        field: None,
        message: format!("not UTF-8 text ({e})"),
    })?;
    parse_str(&text, &file)
}

/// Reads slurm.conf text; `file` names it in errors.
pub fn parse_str(text: &str, file: &str) -> Result<SlurmConf, ConfError> {
    let fail = |line: usize, field: Option<&str>, message: String| ConfError {
        file: file.to_string(),
        line,
        field: field.map(str::to_string),
        message,
    };
    let mut params = Params::default();
    let mut ignored_records = Vec::new();
    let mut groups: Vec<NodeGroup> = Vec::new();
    let mut node_line: HashMap<String, usize> = HashMap::new();
    let mut node_default = NodeSpec::default();
    let mut part_default = PartSpec::default();
    // (line, name, spec as merged with the defaults of its time)
    let mut parts: Vec<(usize, String, PartSpec)> = Vec::new();
    for (line, text) in logical_lines(text) {
        let toks = tokens(&text).map_err(|m| fail(line, None, m))?;
        let Some(first) = toks.first() else { continue };
        let Some((key, value)) = first.split_once('=') else {
            if first.eq_ignore_ascii_case("include") {
                return Err(fail(
                    line,
                    Some("Include"),
                    "Include lines are not supported: put the included file's lines in this one"
                        .into(),
                ));
            }
            return Err(fail(
                line,
                None,
                format!("expected Key=Value, got {first:?}"),
            ));
        };
        let pairs = || {
            toks[1..].iter().map(|t| {
                t.split_once('=')
                    .ok_or_else(|| fail(line, None, format!("expected Key=Value, got {t:?}")))
            })
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
                if let Some(l) = node_line.insert(n.clone(), line) {
                    return Err(fail(
                        line,
                        Some(key),
                        format!("node {n} is already defined on line {l}"),
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
            }
            if value.eq_ignore_ascii_case("DEFAULT") {
                part_default = part_default.merged(&spec);
                continue;
            }
            hostlist::check_name(value)
                .map_err(|m| fail(line, Some(key), format!("{value:?}: {m}")))?;
            if let Some((l, _, _)) = parts.iter().find(|(_, n, _)| n == value) {
                return Err(fail(
                    line,
                    Some(key),
                    format!("partition {value} is already defined on line {l}"),
                ));
            }
            if parts.len() >= MAX_PARTITIONS {
                return Err(fail(
                    line,
                    Some(key),
                    format!("more than {MAX_PARTITIONS} partitions"),
                ));
            }
            parts.push((line, value.to_string(), part_default.merged(&spec)));
        } else if known(IGNORED_RECORDS, key) {
            ignored_records.push((line, key.to_string()));
        } else {
            params
                .entries
                .push((key.to_string(), value.to_string(), line));
            for p in pairs() {
                let (k, v) = p?;
                params.entries.push((k.to_string(), v.to_string(), line));
            }
        }
    }
    if groups.is_empty() {
        return Err(fail(
            0,
            None,
            "no NodeName line: a cluster needs nodes".into(),
        ));
    }
    let order = NodeOrder::new(&groups);
    let mut partitions = Vec::with_capacity(parts.len());
    let mut members = 0usize;
    for (line, name, s) in parts {
        let nodes = match s.nodes.as_deref().map(str::trim) {
            None | Some("") => Vec::new(),
            Some(all) if all.eq_ignore_ascii_case("ALL") => order.all(),
            Some(list) => {
                let names =
                    hostlist::parse(list).map_err(|e| fail(line, Some("Nodes"), e.to_string()))?;
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
        partitions.push(Partition {
            name,
            nodes,
            default,
            max_time: s.max_time.unwrap_or(None),
            max_nodes: s.max_nodes.unwrap_or(None),
            priority_job_factor: s.job_factor.unwrap_or(1),
            priority_tier: s.tier.unwrap_or(1),
            oversubscribe: s.oversubscribe.unwrap_or_default(),
            state: s.state.unwrap_or_default(),
        });
    }
    drop(order);
    let cluster = Cluster { groups, partitions };
    cluster.validate().map_err(|e| fail(0, None, e.0))?;
    Ok(SlurmConf {
        cluster,
        params,
        ignored_records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn conf(text: &str) -> SlurmConf {
        parse_str(text, "t.conf").unwrap_or_else(|e| panic!("{e}"))
    }

    fn error(text: &str) -> String {
        parse_str(text, "t.conf").unwrap_err().to_string()
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
            ("NodeName=n1 State=SLEEPY", "t.conf:1: State:"),
            (
                "Include /etc/slurm/nodes.conf\nNodeName=n1",
                "t.conf:1: Include: Include lines are not supported",
            ),
            ("ClusterName", "t.conf:1: expected Key=Value"),
            ("NodeName=n1 CPUs", "t.conf:1: expected Key=Value"),
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
}
