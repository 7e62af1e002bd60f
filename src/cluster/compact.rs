//! The compact form of a cluster, for share links (`cluster=`): versioned, URL-safe (letters,
//! digits and `- _ . , : = / [ ]`, all of which the page's links keep readable), bounded, and
//! round-tripping through [`Cluster`]. The grammar (docs/cluster-model.md):
//!
//! ```text
//! cluster   = "1" ( "/" item )+             version 1, then node groups and partitions
//! item      = group | partition
//! group     = HOSTLIST ( ":" gfield )*
//! gfield    = "c" UINT                       CPUs per node (default 1)
//!           | "m" UINT                       memory per node, MB (default 1, as Slurm)
//!           | "g" gpu ( "," gpu )*           GPUs per node: N (untyped) or TYPE=N
//!           | "f" NAME ( "," NAME )*         features
//!           | "w" UINT                       weight (default 1)
//!           | "s" NODESTATE                  idle, down, drain, ... (default unknown)
//! partition = "p=" NAME ":" ( HOSTLIST | "ALL" | "" ) ( ":" pfield )*
//! pfield    = "default"                      the default partition
//!           | "t" TIME                       MaxTime: minutes, or D-HH (default unlimited)
//!           | "l" TIME                       DefaultTime, a job's limit when it gives none:
//!                                            minutes, D-HH or unlimited (default unset: MaxTime)
//!           | "x" UINT                       MaxNodes (default unlimited)
//!           | "j" UINT                       PriorityJobFactor (default 1)
//!           | "r" UINT                       PriorityTier (default 1)
//!           | "o" ( "exclusive" | "no" | "yes" UINT | "force" UINT )   OverSubscribe (default no)
//!           | "s" PARTSTATE                  up, down, drain, inactive (default up)
//! ```
//!
//! Fields come in any order, each at most once; [`Cluster::to_compact`] writes them in the order
//! above, `c` and `m` always, the others only when they differ from the default, and `ALL` for a
//! partition over every node.

use super::{hostlist, Cluster, NodeOrder, NodeState, OverSubscribe, PartitionState};
use super::{MAX_GROUPS, MAX_NODES, MAX_PARTITIONS};
use crate::quote::quote_char;
use std::fmt::Write as _;

/// The version this build writes and reads.
pub const VERSION: &str = "1";
/// A compact form has at most this many bytes.
pub const MAX_LEN: usize = 1 << 20;

/// The GPU preset ([`Cluster::gpu_preset`]).
pub const GPU_PRESET: &str =
    "1/gpu[01-16]:c64:m512000:ga100=4:fa100,ib/p=gpu:ALL:default:t2880/p=debug:gpu[01-02]:t60:r2";
/// The mixed preset ([`Cluster::mixed_preset`]).
pub const MIXED_PRESET: &str =
    "1/cn[001-128]:c128:m256000:fcpu/bm[01-04]:c128:m2048000:fbigmem:w10\
/gn[01-08]:c64:m512000:ga100=4:fgpu:w20/p=batch:cn[001-128],bm[01-04]:default:t2880\
/p=bigmem:bm[01-04]:t2880/p=gpu:gn[01-08]:t2880/p=debug:cn[001-004]:t30:x2:r2";

/// A malformed compact form: what is wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("compact cluster: {0}")]
pub struct CompactError(pub String);

mod items;

pub(super) use items::{gpus_text, group_field, partition_field};
use items::{group, partition, short};

impl Cluster {
    /// Reads the compact form (see the module's grammar); every error says what and where.
    pub fn from_compact(text: &str) -> Result<Cluster, CompactError> {
        let err = |m: String| CompactError(m);
        if text.len() > MAX_LEN {
            return Err(err(format!("longer than {MAX_LEN} bytes")));
        }
        if let Some((i, c)) = text
            .char_indices()
            .find(|&(_, c)| !(hostlist::is_name_char(c) || ",:=/[]".contains(c)))
        {
            return Err(err(format!(
                "{} at byte {i}: a compact form holds letters, digits and - _ . , : = / [ ] only",
                quote_char(c)
            )));
        }
        let mut items = text.split('/');
        match items.next() {
            Some(VERSION) => {}
            Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(err(format!(
                    "version {v}: this build reads version {VERSION}"
                )))
            }
            _ => {
                return Err(err(format!(
                    "a compact form starts with its version: {VERSION}/..."
                )))
            }
        }
        let mut groups = Vec::new();
        let mut parts = Vec::new();
        let mut nodes = 0usize;
        for (k, item) in items.enumerate() {
            let at = |m: String| err(format!("item {} ({}): {m}", k + 1, short(item)));
            if item.starts_with("p=") {
                if parts.len() >= MAX_PARTITIONS {
                    return Err(at(format!("more than {MAX_PARTITIONS} partitions")));
                }
                parts.push(partition(item).map_err(at)?);
            } else {
                if groups.len() >= MAX_GROUPS {
                    return Err(at(format!("more than {MAX_GROUPS} node groups")));
                }
                let g = group(item, MAX_NODES - nodes).map_err(at)?;
                nodes += g.names.len();
                groups.push(g);
            }
        }
        if groups.is_empty() {
            return Err(err("no node group".into()));
        }
        let order = NodeOrder::new(&groups);
        let mut partitions = Vec::with_capacity(parts.len());
        let mut members = 0usize;
        for (mut p, list) in parts {
            p.nodes = match list {
                None => order.all(),
                Some(l) => order.sort(&l).map_err(|n| {
                    err(format!(
                        "partition {} names node {n}, which no node group defines",
                        p.name
                    ))
                })?,
            };
            members += p.nodes.len();
            if members > super::MAX_MEMBERSHIPS {
                return Err(err(format!(
                    "more than {} (partition, node) memberships",
                    super::MAX_MEMBERSHIPS
                )));
            }
            partitions.push(p);
        }
        drop(order);
        let c = Cluster { groups, partitions };
        c.validate().map_err(|e| err(e.0))?;
        Ok(c)
    }

    /// Writes the compact form; `Cluster::from_compact(&c.to_compact()) == c` for a valid `c`.
    pub fn to_compact(&self) -> String {
        let mut s = String::from(VERSION);
        for g in &self.groups {
            let _ = write!(
                s,
                "/{}:c{}:m{}",
                hostlist::format_ordered(&g.names),
                g.cpus,
                g.mem_mb
            );
            if !g.gpus.is_empty() {
                let _ = write!(s, ":g{}", gpus_text(g));
            }
            if !g.features.is_empty() {
                let _ = write!(s, ":f{}", g.features.join(","));
            }
            if g.weight != 1 {
                let _ = write!(s, ":w{}", g.weight);
            }
            if g.state != NodeState::Unknown {
                let _ = write!(s, ":s{}", g.state.word());
            }
        }
        let total = self.total_nodes() as usize;
        for p in &self.partitions {
            let list = if p.nodes.len() == total {
                "ALL".to_string()
            } else {
                hostlist::format_ordered(&p.nodes)
            };
            let _ = write!(s, "/p={}:{list}", p.name);
            if p.default {
                s.push_str(":default");
            }
            if let Some(t) = p.max_time {
                let _ = write!(s, ":t{t}");
            }
            match p.default_time {
                None => {}
                Some(Some(t)) => {
                    let _ = write!(s, ":l{t}");
                }
                Some(None) => s.push_str(":lunlimited"),
            }
            if let Some(n) = p.max_nodes {
                let _ = write!(s, ":x{n}");
            }
            if p.priority_job_factor != 1 {
                let _ = write!(s, ":j{}", p.priority_job_factor);
            }
            if p.priority_tier != 1 {
                let _ = write!(s, ":r{}", p.priority_tier);
            }
            if let Some(w) = &p.billing_weights {
                let _ = write!(s, ":b{}", w.compact());
            }
            match p.oversubscribe {
                OverSubscribe::No => {}
                OverSubscribe::Exclusive => s.push_str(":oexclusive"),
                OverSubscribe::Yes(n) => {
                    let _ = write!(s, ":oyes{n}");
                }
                OverSubscribe::Force(n) => {
                    let _ = write!(s, ":oforce{n}");
                }
            }
            if p.state != PartitionState::Up {
                let _ = write!(s, ":s{}", p.state.word());
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{NodeGroup, Partition};
    use proptest::prelude::*;

    #[test]
    fn presets_are_canonical() {
        for (name, text) in Cluster::PRESETS {
            let c = Cluster::from_compact(text).unwrap();
            assert_eq!(&c.to_compact(), text, "{name}");
        }
        let pool = Cluster::single_pool(430);
        assert_eq!(pool.to_compact(), "1/pool:c430:m0/p=pool:ALL:default");
        assert_eq!(Cluster::from_compact(&pool.to_compact()).unwrap(), pool);
    }

    #[test]
    fn example_of_the_docs() {
        let c = Cluster::from_compact(
            "1/n[1-16]:c32:m256000:g4:w1/gpu[01-04]:c64:m512000:ga100=4,v100=2:fib,nvme/p=batch:n[1-16]:default:t1-00/p=gpu:gpu[01-04]:t2880:oexclusive:r2:sdown",
        )
        .unwrap();
        assert_eq!(c.total_nodes(), 20);
        assert_eq!(c.total_gpus(), 16 * 4 + 4 * 6);
        assert_eq!(c.groups[1].gpus["v100"], 2);
        assert_eq!(c.groups[0].gpus[""], 4);
        assert_eq!(c.partitions[0].max_time, Some(1440));
        assert_eq!(c.partitions[1].oversubscribe, OverSubscribe::Exclusive);
        assert_eq!(c.partitions[1].state, PartitionState::Down);
        assert_eq!(
            c.to_compact(),
            "1/n[1-16]:c32:m256000:g4/gpu[01-04]:c64:m512000:ga100=4,v100=2:fib,nvme/p=batch:n[1-16]:default:t1440/p=gpu:gpu[01-04]:t2880:r2:oexclusive:sdown"
        );
    }

    #[test]
    fn rejects_with_a_message() {
        let cases = [
            ("", "starts with its version"),
            ("n[1-2]:c4", "starts with its version"),
            ("2/n1", "version 2"),
            ("1", "no node group"),
            ("1/n1:c4;p=x", "';' at byte 7"),
            ("1/n1:c4 ", "' '"),
            ("1/n1:c0", "at least 1"),
            ("1/n1:cx", "expected a whole number"),
            ("1/n1:c4:c5", "twice"),
            ("1/n1:z4", "unknown node group field"),
            ("1/n1:ga100=0", "count of 0"),
            ("1/n1:g4,4", "twice"),
            ("1/n1/n1", "node n1 defined twice"),
            ("1/n[1-100001]", "more than 100000 nodes"),
            ("1/n[1-60000]/m[1-60000]", "more than 100000 nodes"),
            ("1/n1/p=x:n2", "partition x names node n2"),
            ("1/n1/p=x", "no node list"),
            ("1/n1/p=x:n1:tfoo", "not a time"),
            ("1/n1/p=x:n1:omaybe", "OverSubscribe"),
            (
                "1/n1/p=x:n1:default/p=y:n1:default",
                "more than one default",
            ),
            ("1/n1/p=x:n1/p=x:n1", "defined twice"),
            ("1/n1:c99999999999", "too large"),
            ("1/n1:s", "state"),
        ];
        for (text, want) in cases {
            let e = Cluster::from_compact(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        let long = format!("1/{}", "n1,".repeat(MAX_LEN));
        assert!(Cluster::from_compact(&long)
            .unwrap_err()
            .0
            .contains("longer than"));
    }

    fn cluster() -> impl Strategy<Value = Cluster> {
        let group = (
            1u32..200,
            1u32..5,
            0u64..1_000_000,
            prop::collection::btree_map(
                prop::sample::select(vec!["", "a100", "v100"]),
                1u32..9,
                0..3,
            ),
            prop::collection::vec(prop::sample::select(vec!["ib", "bigmem", "x.y"]), 0..3),
            1u32..100,
            prop::sample::select(NodeState::WORDS.iter().map(|w| w.0).collect::<Vec<_>>()),
        );
        (
            prop::collection::vec(group, 1..5),
            prop::collection::vec(
                (
                    any::<bool>(),
                    0usize..3,
                    proptest::option::of(0u32..5000),
                    0u32..4,
                ),
                0..4,
            ),
        )
            .prop_map(|(gs, ps)| {
                let mut groups = Vec::new();
                let mut next = 1u32;
                for (k, (start, count, mem, gpus, features, weight, state)) in
                    gs.into_iter().enumerate()
                {
                    let names = (0..count)
                        .map(|i| format!("g{k}n{:02}", start + i + next))
                        .collect();
                    next += count;
                    let mut g = NodeGroup::new(names, start, mem);
                    g.gpus = gpus.into_iter().map(|(t, n)| (t.to_string(), n)).collect();
                    g.features = features.into_iter().map(String::from).collect();
                    g.weight = weight;
                    g.state = state;
                    groups.push(g);
                }
                let order = NodeOrder::new(&groups);
                let all = order.all();
                let mut partitions = Vec::new();
                for (k, (default, pick, time, over)) in ps.into_iter().enumerate() {
                    let nodes: Vec<String> = all
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| pick == 0 || i % (pick + 1) == 0)
                        .map(|(_, n)| n.clone())
                        .collect();
                    let mut p = Partition::new(&format!("p{k}"), nodes);
                    p.default = default && k == 0;
                    p.max_time = time;
                    p.max_nodes = if over == 1 { Some(3) } else { None };
                    p.priority_tier = over + 1;
                    p.oversubscribe = [
                        OverSubscribe::No,
                        OverSubscribe::Exclusive,
                        OverSubscribe::Yes(4),
                        OverSubscribe::Force(2),
                    ][over as usize];
                    partitions.push(p);
                }
                drop(order);
                Cluster { groups, partitions }
            })
    }

    proptest! {
        #[test]
        fn round_trips(c in cluster()) {
            c.validate().unwrap();
            let text = c.to_compact();
            let back = Cluster::from_compact(&text).unwrap();
            prop_assert_eq!(&back, &c);
            prop_assert_eq!(back.to_compact(), text);
        }

        #[test]
        fn any_text_reads_or_errs(s in "1/[n0-9\\[\\],:=/cmgfwsptxjrodeALL-]{0,40}") {
            if let Ok(c) = Cluster::from_compact(&s) {
                prop_assert_eq!(Cluster::from_compact(&c.to_compact()).unwrap(), c);
            }
        }
    }
}
