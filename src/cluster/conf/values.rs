//! The values of slurm.conf's node and partition lines: one line's keys read into a
//! [`NodeSpec`] or [`PartSpec`], each value checked with a message naming what is wrong.

use super::{known, IGNORED_NODE_KEYS, IGNORED_PARTITION_KEYS};
use crate::cluster::billing::BillingWeights;
use crate::cluster::{hostlist, time, NodeState, OverSubscribe, PartitionState, MAX_TAGS};
use crate::quote::quote;
use std::collections::BTreeMap;

/// One node line's values (every one optional: a DEFAULT line fills the gaps of later lines).
#[derive(Clone, Default)]
pub(super) struct NodeSpec {
    pub(super) cpus: Option<u32>,
    pub(super) boards: Option<u32>,
    pub(super) sockets_per_board: Option<u32>,
    pub(super) sockets: Option<u32>,
    pub(super) cores: Option<u32>,
    pub(super) threads: Option<u32>,
    pub(super) mem_mb: Option<u64>,
    pub(super) gpus: Option<BTreeMap<String, u32>>,
    pub(super) features: Option<Vec<String>>,
    pub(super) weight: Option<u32>,
    pub(super) state: Option<NodeState>,
}

impl NodeSpec {
    /// `self` with `over`'s values where it has them.
    pub(super) fn merged(&self, over: &NodeSpec) -> NodeSpec {
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
    pub(super) fn cpus(&self) -> Option<u32> {
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
pub(super) struct PartSpec {
    pub(super) nodes: Option<String>,
    pub(super) default: Option<bool>,
    pub(super) max_time: Option<Option<u32>>,
    pub(super) default_time: Option<Option<u32>>,
    pub(super) max_nodes: Option<Option<u32>>,
    pub(super) job_factor: Option<u32>,
    pub(super) tier: Option<u32>,
    pub(super) oversubscribe: Option<OverSubscribe>,
    pub(super) state: Option<PartitionState>,
    /// `OverTimeLimit`, minutes (`None`: `UNLIMITED`).
    pub(super) over_time: Option<Option<u32>>,
    /// `TRESBillingWeights` (`Some(None)`: written empty, none).
    pub(super) billing_weights: Option<Option<BillingWeights>>,
}

impl PartSpec {
    pub(super) fn merged(&self, o: &PartSpec) -> PartSpec {
        PartSpec {
            nodes: o.nodes.clone().or_else(|| self.nodes.clone()),
            default: o.default.or(self.default),
            max_time: o.max_time.or(self.max_time),
            default_time: o.default_time.or(self.default_time),
            max_nodes: o.max_nodes.or(self.max_nodes),
            job_factor: o.job_factor.or(self.job_factor),
            tier: o.tier.or(self.tier),
            oversubscribe: o.oversubscribe.or(self.oversubscribe),
            state: o.state.or(self.state),
            over_time: o.over_time.or(self.over_time),
            billing_weights: (o.billing_weights.clone()).or_else(|| self.billing_weights.clone()),
        }
    }
}

pub(super) fn uint<T: TryFrom<u64>>(v: &str) -> Result<T, String> {
    let t = v.trim();
    if t.is_empty() || t.len() > 19 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a whole number, got {}", quote(v)));
    }
    let n: u64 = t
        .parse()
        .map_err(|_| format!("{} is not a number", quote(v)))?;
    T::try_from(n).map_err(|_| format!("{v} is too large"))
}

pub(super) fn positive(v: &str) -> Result<u32, String> {
    match uint::<u32>(v)? {
        0 => Err("0: at least 1".into()),
        n => Ok(n),
    }
}

pub(super) fn yes_no(v: &str) -> Result<bool, String> {
    if v.eq_ignore_ascii_case("yes") {
        Ok(true)
    } else if v.eq_ignore_ascii_case("no") {
        Ok(false)
    } else {
        Err(format!("{}: YES or NO", quote(v)))
    }
}

/// A count of generic resources as Slurm 22.05 reads one (`gres.c` `_get_gres_cnt` for a node's
/// `Gres=`, `_is_valid_number` for a job's request, both through `suffix_mult`,
/// slurm_protocol_defs.c): digits, then a suffix in any case: none (x1), `k` or `kib` (x1024),
/// `kb` (x1000), `m`/`mib` (x1024^2), `mb` (x1000^2), `g`/`gib`, `gb`, `t`/`tib`, `tb`,
/// `p`/`pib`, `pb`. `gpu:2k` is 2048 GPUs; `2x` or `k` alone is not a count.
pub fn gres_count(v: &str) -> Result<u64, String> {
    let digits = v.bytes().take_while(u8::is_ascii_digit).count();
    let (num, suffix) = v.split_at(digits);
    let k = 1024u64;
    let mult = match suffix.to_ascii_lowercase().as_str() {
        "" => 1,
        "k" | "kib" => k,
        "kb" => 1000,
        "m" | "mib" => k.pow(2),
        "mb" => 1000u64.pow(2),
        "g" | "gib" => k.pow(3),
        "gb" => 1000u64.pow(3),
        "t" | "tib" => k.pow(4),
        "tb" => 1000u64.pow(4),
        "p" | "pib" => k.pow(5),
        "pb" => 1000u64.pow(5),
        _ => 0,
    };
    if num.is_empty() || mult == 0 {
        return Err(format!(
            "{}: not a count (digits, then none or k, m, g, t, p, as Slurm reads one)",
            quote(v)
        ));
    }
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("{}: too large", quote(v)))
}

/// `Gres=gpu:4,gpu:a100:2(S:0-1),mps:100`: the GPUs by type ("" untyped); other kinds are
/// checked and left aside.
pub(super) fn gres(v: &str) -> Result<BTreeMap<String, u32>, String> {
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
            Some(_) => return Err(format!("{}: unbalanced '('", quote(item))),
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
            _ => return Err(format!("{}: expected NAME[:TYPE][:COUNT]", quote(item))),
        };
        hostlist::check_name(name).map_err(|e| format!("{}: {e}", quote(item)))?;
        if !ty.is_empty() {
            hostlist::check_name(ty).map_err(|e| format!("{}: type: {e}", quote(item)))?;
        }
        if !name.eq_ignore_ascii_case("gpu") || count == 0 {
            continue;
        }
        let count = u32::try_from(count).map_err(|_| format!("{}: too many GPUs", quote(item)))?;
        let slot = gpus.entry(ty.to_string()).or_insert(0u32);
        *slot = slot
            .checked_add(count)
            .ok_or_else(|| format!("{}: too many GPUs", quote(item)))?;
        if gpus.len() > MAX_TAGS {
            return Err(format!("more than {MAX_TAGS} GPU types"));
        }
    }
    Ok(gpus)
}

pub(super) fn features(v: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for f in v.split(',').filter(|f| !f.is_empty()) {
        hostlist::check_name(f).map_err(|e| format!("{}: {e}", quote(f)))?;
        if !out.iter().any(|x| x == f) {
            out.push(f.to_string());
        }
    }
    if out.len() > MAX_TAGS {
        return Err(format!("more than {MAX_TAGS} features"));
    }
    Ok(out)
}

pub(super) fn oversubscribe(v: &str) -> Result<OverSubscribe, String> {
    let (mode, n) = match v.split_once(':') {
        Some((m, n)) => (m, Some(positive(n)?)),
        None => (v, None),
    };
    match mode.to_ascii_uppercase().as_str() {
        "EXCLUSIVE" if n.is_none() => Ok(OverSubscribe::Exclusive),
        "NO" if n.is_none() => Ok(OverSubscribe::No),
        "YES" => Ok(OverSubscribe::Yes(n.unwrap_or(4))),
        "FORCE" => Ok(OverSubscribe::Force(n.unwrap_or(4))),
        _ => Err(format!("{}: EXCLUSIVE, NO, YES[:N] or FORCE[:N]", quote(v))),
    }
}

/// The node-line keys read (besides `NodeName`), as slurm.conf.5 writes them.
const NODE_KEYS: &[&str] = &[
    "CPUs",
    "Procs",
    "Boards",
    "SocketsPerBoard",
    "Sockets",
    "CoresPerSocket",
    "ThreadsPerCore",
    "RealMemory",
    "Gres",
    "Feature",
    "Features",
    "AvailableFeatures",
    "Weight",
    "State",
];

/// The partition-line keys read (besides `PartitionName`), as slurm.conf.5 writes them.
const PARTITION_KEYS: &[&str] = &[
    "Nodes",
    "Default",
    "MaxTime",
    "DefaultTime",
    "MaxNodes",
    "PriorityJobFactor",
    "PriorityTier",
    "Priority",
    "OverSubscribe",
    "Shared",
    "OverTimeLimit",
    "State",
    "TRESBillingWeights",
];

/// The error of an unknown key on a `line` line: the key it is one typo from, when one is
/// (`DefaultTme`: "did you mean DefaultTime?"), else where the keys are listed.
fn not_a_key(line: &str, key: &str, read: &[&str], ignored: &[&str]) -> String {
    let low = key.to_ascii_lowercase();
    match (read.iter().chain(ignored))
        .find(|k| crate::spec::one_typo(&low, &k.to_ascii_lowercase()))
    {
        Some(k) => format!("not a {line} key; did you mean {k}?"),
        None => format!("not a {line} key (a typo?); docs/cluster-model.md lists them"),
    }
}

pub(super) fn node_key(s: &mut NodeSpec, key: &str, v: &str) -> Result<(), String> {
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
                    .ok_or_else(|| format!("{}: valid: {}", quote(v), NodeState::valid()))?,
            )
        }
        _ if known(IGNORED_NODE_KEYS, key) => {}
        _ => return Err(not_a_key("NodeName", key, NODE_KEYS, IGNORED_NODE_KEYS)),
    }
    Ok(())
}

pub(super) fn part_key(s: &mut PartSpec, key: &str, v: &str) -> Result<(), String> {
    let unlimited =
        |v: &str| v.eq_ignore_ascii_case("unlimited") || v.eq_ignore_ascii_case("infinite");
    match key.to_ascii_lowercase().as_str() {
        "nodes" => s.nodes = Some(v.to_string()),
        "default" => s.default = Some(yes_no(v)?),
        "maxtime" => s.max_time = Some(time::parse_minutes(v)?),
        "defaulttime" => s.default_time = Some(time::parse_minutes(v)?),
        "maxnodes" => s.max_nodes = Some(if unlimited(v) { None } else { Some(uint(v)?) }),
        // Slurm's is a uint16 (`S_P_UINT16`, read_config.c).
        "priorityjobfactor" => s.job_factor = Some(uint::<u16>(v)?.into()),
        "prioritytier" => s.tier = Some(uint(v)?),
        // The old key: both at once.
        "priority" => {
            let n = uint(v)?;
            s.job_factor = Some(n);
            s.tier = Some(n);
        }
        "oversubscribe" | "shared" => s.oversubscribe = Some(oversubscribe(v)?),
        // Slurm clears a partition's weights given an empty value (`set_partition_billing_weights`).
        "tresbillingweights" => {
            s.billing_weights = Some(
                (!v.trim().is_empty())
                    .then(|| BillingWeights::parse(v))
                    .transpose()?,
            )
        }
        "overtimelimit" => s.over_time = Some(if unlimited(v) { None } else { Some(uint(v)?) }),
        "state" => {
            s.state = Some(
                PartitionState::from_word(v)
                    .ok_or_else(|| format!("{}: valid: {}", quote(v), PartitionState::valid()))?,
            )
        }
        _ if known(IGNORED_PARTITION_KEYS, key) => {}
        _ => {
            return Err(not_a_key(
                "PartitionName",
                key,
                PARTITION_KEYS,
                IGNORED_PARTITION_KEYS,
            ))
        }
    }
    Ok(())
}
