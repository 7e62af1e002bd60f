//! The items of the compact form, one at a time: a node group and its fields, a partition and
//! its fields (the grammar is the parent module's). Each error says which field and why.

use crate::cluster::{
    hostlist, time, NodeGroup, NodeState, OverSubscribe, Partition, PartitionState, MAX_NODES,
    MAX_TAGS,
};
use crate::quote::{quote, quote_char};
use std::collections::BTreeMap;

pub(super) fn short(s: &str) -> String {
    if s.len() <= 60 {
        s.to_string()
    } else {
        let mut end = 57;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &s[..end])
    }
}

pub(super) fn uint<T: TryFrom<u64>>(field: &str, v: &str) -> Result<T, String> {
    if v.is_empty() || v.len() > 19 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{field}: expected a whole number, got {}",
            quote(v)
        ));
    }
    let n: u64 = v
        .parse()
        .map_err(|_| format!("{field}: {} is not a number", quote(v)))?;
    T::try_from(n).map_err(|_| format!("{field}: {v} is too large"))
}

pub(super) fn tags(field: &str, v: &str) -> Result<Vec<String>, String> {
    let list: Vec<String> = v.split(',').map(str::to_string).collect();
    if list.len() > MAX_TAGS {
        return Err(format!("{field}: more than {} names", MAX_TAGS));
    }
    for n in &list {
        hostlist::check_name(n).map_err(|e| format!("{field}: {}: {e}", quote(n)))?;
    }
    Ok(list)
}

pub(super) fn gpus(v: &str) -> Result<BTreeMap<String, u32>, String> {
    let mut m = BTreeMap::new();
    let items: Vec<&str> = v.split(',').collect();
    if items.len() > MAX_TAGS {
        return Err(format!("gpus: more than {} types", MAX_TAGS));
    }
    for item in items {
        let (t, n) = match item.split_once('=') {
            Some((t, n)) => {
                hostlist::check_name(t).map_err(|e| format!("gpus: type {}: {e}", quote(t)))?;
                (t, n)
            }
            None => ("", item),
        };
        let n: u32 = uint("gpus", n)?;
        if n == 0 {
            return Err(format!(
                "gpus: {}: a count of 0 (leave the type out)",
                quote(item)
            ));
        }
        if m.insert(t.to_string(), n).is_some() {
            return Err(format!("gpus: type {} twice", quote(t)));
        }
    }
    Ok(m)
}

/// A group's GPUs as the `g` field writes them: `4`, `a100=4,v100=2`.
pub(in crate::cluster) fn gpus_text(g: &NodeGroup) -> String {
    let list: Vec<String> = g
        .gpus
        .iter()
        .map(|(t, n)| {
            if t.is_empty() {
                n.to_string()
            } else {
                format!("{t}={n}")
            }
        })
        .collect();
    list.join(",")
}

/// Marks a field seen; a second one is an error.
pub(super) fn once(seen: &mut Vec<char>, key: char) -> Result<(), String> {
    if seen.contains(&key) {
        return Err(format!("field {} given twice", quote_char(key)));
    }
    seen.push(key);
    Ok(())
}

pub(super) fn group(item: &str, room: usize) -> Result<NodeGroup, String> {
    let mut fields = item.split(':');
    let list = fields.next().unwrap_or("");
    let names = hostlist::parse_with_limit(list, room).map_err(|e| {
        if e.reason.starts_with("more than") {
            format!("more than {MAX_NODES} nodes")
        } else {
            e.to_string()
        }
    })?;
    let mut g = NodeGroup::new(names, 1, 1);
    let mut seen = Vec::new();
    for f in fields {
        let Some(key) = f.chars().next() else {
            return Err("an empty field (two ':')".into());
        };
        once(&mut seen, key)?;
        group_field(&mut g, key, &f[1..]).map_err(|e| {
            e.unwrap_or_else(|| format!("unknown node group field {} (c, m, g, f, w, s)", quote(f)))
        })?;
    }
    Ok(g)
}

/// Sets field `key` of a node group to `v` (the compact form's text; also the page's table
/// cells, `table.rs`); `Err(None)`: no such field.
pub(in crate::cluster) fn group_field(
    g: &mut NodeGroup,
    key: char,
    v: &str,
) -> Result<(), Option<String>> {
    match key {
        'c' => {
            g.cpus = uint("c (CPUs)", v)?;
            if g.cpus == 0 {
                return Err(Some("c (CPUs): 0; a node has at least 1".into()));
            }
        }
        'm' => g.mem_mb = uint("m (memory MB)", v)?,
        'g' => g.gpus = gpus(v)?,
        'f' => g.features = tags("f (features)", v)?,
        'w' => g.weight = uint("w (weight)", v)?,
        's' => {
            g.state = NodeState::from_word(v)
                .ok_or_else(|| format!("s (state): {}, valid: {}", quote(v), NodeState::valid()))?
        }
        _ => return Err(None),
    }
    Ok(())
}

/// A partition with its node list as written (None: ALL).
pub(super) fn partition(item: &str) -> Result<(Partition, Option<Vec<String>>), String> {
    let rest = &item[2..];
    let mut fields = rest.split(':');
    let name = fields.next().unwrap_or("");
    hostlist::check_name(name).map_err(|e| format!("partition name {}: {e}", quote(name)))?;
    let Some(list) = fields.next() else {
        return Err(format!(
            "partition {name}: no node list (p=NAME:HOSTLIST, ALL, or nothing)"
        ));
    };
    let nodes = match list {
        "ALL" => None,
        "" => Some(Vec::new()),
        l => Some(hostlist::parse(l).map_err(|e| format!("partition {name}: {e}"))?),
    };
    let mut p = Partition::new(name, Vec::new());
    let mut seen = Vec::new();
    for f in fields {
        if f == "default" {
            once(&mut seen, 'd')?;
            p.default = true;
            continue;
        }
        let Some(key) = f.chars().next() else {
            return Err(format!("partition {name}: an empty field (two ':')"));
        };
        once(&mut seen, key).map_err(|e| format!("partition {name}: {e}"))?;
        partition_field(&mut p, key, &f[1..]).map_err(|e| {
            let e = e.unwrap_or_else(|| {
                format!(
                    "unknown partition field {} (default, t, l, x, j, r, b, o, s)",
                    quote(f)
                )
            });
            format!("partition {name}: {e}")
        })?;
    }
    Ok((p, nodes))
}

/// Sets field `key` of a partition to `v` (as [`group_field`]); `Err(None)`: no such field.
pub(in crate::cluster) fn partition_field(
    p: &mut Partition,
    key: char,
    v: &str,
) -> Result<(), Option<String>> {
    match key {
        't' => p.max_time = time::parse_minutes(v)?,
        'l' => p.default_time = Some(time::parse_minutes(v)?),
        'x' => p.max_nodes = Some(uint("x (MaxNodes)", v)?),
        'j' => p.priority_job_factor = uint("j (PriorityJobFactor)", v)?,
        'r' => p.priority_tier = uint("r (PriorityTier)", v)?,
        'b' => {
            p.billing_weights = Some(
                super::super::billing::BillingWeights::from_compact(v)
                    .map_err(|e| format!("b (TRESBillingWeights): {e}"))?,
            )
        }
        'o' => p.oversubscribe = oversubscribe(v)?,
        's' => {
            p.state = PartitionState::from_word(v).ok_or_else(|| {
                format!(
                    "s (state): {}, valid: {}",
                    quote(v),
                    PartitionState::valid()
                )
            })?
        }
        _ => return Err(None),
    }
    Ok(())
}

pub(super) fn oversubscribe(v: &str) -> Result<OverSubscribe, String> {
    match v {
        "exclusive" => Ok(OverSubscribe::Exclusive),
        "no" => Ok(OverSubscribe::No),
        _ if v.starts_with("yes") => Ok(OverSubscribe::Yes(count(&v[3..])?)),
        _ if v.starts_with("force") => Ok(OverSubscribe::Force(count(&v[5..])?)),
        _ => Err(format!(
            "o (OverSubscribe): {}, valid: exclusive, no, yesN, forceN",
            quote(v)
        )),
    }
}

pub(super) fn count(v: &str) -> Result<u32, String> {
    let n: u32 = uint("o (OverSubscribe)", v)?;
    if n == 0 {
        return Err("o (OverSubscribe): a job count of 0".into());
    }
    Ok(n)
}
