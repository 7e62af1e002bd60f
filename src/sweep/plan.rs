//! A sweep as a list of points (policy × value × seed, numbered in that order), so that it can
//! run on several threads, or in shards on several machines whose partial results ([`Part`])
//! are merged into exactly the rows of the whole sweep.
//!
//! Shard `I/N` holds the points `k` with `k mod N = I - 1`: every shard gets a share of every
//! policy and value (similar run times), and the split depends only on the plan.

use super::content::first_difference;
pub use super::content::ContentHash;
use super::{with_key, Stat};
use crate::input::InputOptions;
use crate::metrics::{catalogue, MetricOptions};
use crate::quote::quote;
use crate::swf::ReadOptions;
use serde::{Deserialize, Serialize};

/// What a sweep runs: the same plan gives the same points on every machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The trace's name (its file name) and its number of jobs after the input options.
    pub trace: String,
    pub jobs: usize,
    pub read: ReadOptions,
    pub input: InputOptions,
    /// How the runs are measured (the bounded-slowdown bound, the EET options, ...).
    #[serde(default)]
    pub metrics: MetricOptions,
    /// Policy specs as given.
    pub policies: Vec<String>,
    /// The key varied (`None`: one value, the policies as given).
    pub key: Option<String>,
    /// Its values (one empty value without a key).
    pub values: Vec<String>,
    /// Seeds 1..=seeds per value.
    pub seeds: u64,
    /// A metric name of the catalogue (`metrics::catalogue`).
    pub metric: String,
    /// The trace file's content hash ([`ContentHash`]): a file of another content at the same
    /// path is another sweep.
    #[serde(default)]
    pub trace_hash: String,
    /// The content hashes of the slurm.conf and sshare files the `slurm` policy read (empty
    /// without them): another site is another sweep.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub site_hash: String,
    /// The schedlab version that ran the points ([`VERSION`]).
    #[serde(default)]
    pub version: String,
}

/// This build's version, as parts carry it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// One point of a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    pub policy: usize,
    pub value: usize,
    pub seed: u64,
}

/// Shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// The measured metric of one point, with the canonical spec the run reported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub point: usize,
    pub spec: String,
    /// The metric's bits (`f64::to_bits`): exact, NaN included.
    pub bits: u64,
    /// The metric for a reader (null when not finite); `bits` is what merging reads.
    pub value: Option<f64>,
}

impl Measured {
    pub fn new(point: usize, spec: String, x: f64) -> Measured {
        Measured {
            point,
            spec,
            bits: x.to_bits(),
            value: x.is_finite().then_some(x),
        }
    }

    pub fn x(&self) -> f64 {
        f64::from_bits(self.bits)
    }
}

/// Most runs (points) in one sweep.
pub const MAX_POINTS: usize = 1 << 24;

/// Format tag of a partial result file.
pub const PART_FORMAT: &str = "schedlab-sweep-part/1";

/// The points of one shard and their results (`schedlab sweep --shard I/N --out part.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    pub format: String,
    pub plan: Plan,
    pub shard: Shard,
    pub results: Vec<Measured>,
}

/// One printed row: a policy at a value, over the seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub policy: usize,
    pub value: usize,
    /// The canonical spec of the last seed's run.
    pub spec: String,
    pub stat: Stat,
}

impl Shard {
    /// `I/N` with 1 <= I <= N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("{}: write I/N with 1 <= I <= N, e.g. 2/8", quote(text));
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<usize>().map_err(|_| bad())?,
            n.trim().parse::<usize>().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The whole sweep as one shard.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    pub fn contains(&self, point: usize) -> bool {
        point % self.count == self.index - 1
    }
}

impl Plan {
    /// Checks the metric, the seeds and that every policy takes the key; gives the spec of every
    /// (policy, value), `specs[policy][value]`.
    pub fn specs(&self) -> Result<Vec<Vec<String>>, String> {
        catalogue::lookup(&self.metric).map_err(|e| format!("--metric: {e}"))?;
        if self.seeds == 0 {
            return Err("--seeds must be at least 1".into());
        }
        if self.values.is_empty() || self.policies.is_empty() {
            return Err("a sweep needs at least one policy and one value".into());
        }
        self.check_size()?;
        self.policies
            .iter()
            .map(|p| {
                self.values
                    .iter()
                    .map(|v| match &self.key {
                        Some(k) => with_key(p, k, v).map_err(|e| format!("--vary {k}: {e}")),
                        None => Ok(p.clone()),
                    })
                    .collect()
            })
            .collect()
    }

    /// Refuses a plan of more than [`MAX_POINTS`] points (a sweep keeps a slot per point: `--seeds
    /// 18446744073709551615` asked for 8 GB and aborted).
    pub fn check_size(&self) -> Result<(), String> {
        let points = u64::try_from(self.policies.len() * self.values.len())
            .ok()
            .and_then(|pv| pv.checked_mul(self.seeds));
        match points {
            Some(n) if n <= MAX_POINTS as u64 => Ok(()),
            _ => Err(format!(
                "{} policies x {} values x {} seeds: more than {MAX_POINTS} runs in one sweep",
                self.policies.len(),
                self.values.len(),
                self.seeds
            )),
        }
    }

    /// Number of points: policies × values × seeds.
    pub fn len(&self) -> usize {
        self.policies.len() * self.values.len() * self.seeds as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Point number `k` (< [`Plan::len`]).
    pub fn point(&self, k: usize) -> Point {
        let seeds = self.seeds as usize;
        let per_policy = self.values.len() * seeds;
        Point {
            policy: k / per_policy,
            value: k % per_policy / seeds,
            seed: (k % seeds) as u64 + 1,
        }
    }

    /// The point numbers of `shard`, in order.
    pub fn shard_points(&self, shard: Shard) -> Vec<usize> {
        (0..self.len()).filter(|&k| shard.contains(k)).collect()
    }

    /// Row `r` (policy-major, as printed) from the results of its seeds, in seed order.
    pub fn row(&self, r: usize, seeds: &[Measured]) -> Row {
        let xs: Vec<f64> = seeds.iter().map(Measured::x).collect();
        Row {
            policy: r / self.values.len(),
            value: r % self.values.len(),
            spec: seeds.last().map(|m| m.spec.clone()).unwrap_or_default(),
            stat: Stat::of(&xs),
        }
    }

    /// Every row from every point's result (`results[k]` is point `k`'s).
    pub fn rows(&self, results: &[Measured]) -> Vec<Row> {
        results
            .chunks(self.seeds as usize)
            .enumerate()
            .map(|(r, seeds)| self.row(r, seeds))
            .collect()
    }
}

/// Merges partial results: they must share one plan and one shard count, and cover every point
/// exactly once. Gives the plan and every point's result in point order.
pub fn merge(parts: Vec<(String, Part)>) -> Result<(Plan, Vec<Measured>), String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("no partial results to merge".into());
    };
    let (plan, count) = (first.plan.clone(), first.shard.count);
    plan.check_size()
        .map_err(|e| format!("{first_name}: {e}"))?;
    // The canonical spec of every (policy, value): what each point's run reports.
    let specs: Vec<Vec<String>> = plan
        .specs()
        .map_err(|e| format!("{first_name}: {e}"))?
        .into_iter()
        .map(|row| {
            row.into_iter()
                .map(|s| crate::policy::canonical(&s).unwrap_or(s))
                .collect()
        })
        .collect();
    // Every shard is a part: no more shards than parts (`1/18446744073709551615` asked for a
    // slot per shard).
    if count > parts.len() {
        let given: Vec<usize> = parts.iter().map(|(_, p)| p.shard.index).collect();
        let missing = (1..=count).find(|i| !given.contains(i)).unwrap_or(count);
        return Err(format!(
            "shard {missing}/{count} is missing (a merge of {count} shards needs {count} parts, {} given)",
            parts.len()
        ));
    }
    let mut slots: Vec<Option<Measured>> = vec![None; plan.len()];
    let mut seen = vec![None::<&str>; count];
    for (name, part) in &parts {
        if part.format != PART_FORMAT {
            return Err(format!(
                "{name}: format {}, expected {}",
                quote(&part.format),
                quote(PART_FORMAT)
            ));
        }
        if part.plan != plan {
            let json = |p: &Plan| serde_json::to_value(p).unwrap_or_default();
            let (field, here, there) = first_difference("", &json(&part.plan), &json(&plan))
                .unwrap_or_else(|| ("plan".into(), "?".into(), "?".into()));
            return Err(format!(
                "{name}: another sweep than {first_name}: {field} is {here} here, {there} there"
            ));
        }
        let s = part.shard;
        if s.count != count || s.index == 0 || s.index > count {
            return Err(format!(
                "{name}: shard {}/{} in a merge of {count} shards ({first_name})",
                s.index, s.count
            ));
        }
        if let Some(other) = seen[s.index - 1].replace(name) {
            return Err(format!("{name}: shard {}/{count} is also {other}", s.index));
        }
        for m in &part.results {
            let ok = m.point < plan.len() && s.contains(m.point);
            if !ok {
                return Err(format!(
                    "{name}: point {} does not belong to shard {}/{count}",
                    m.point, s.index
                ));
            }
            // The number a reader sees is the one merged (within the last digit that JSON
            // numbers keep); the spec is the point's.
            let x = m.x();
            let agree = match m.value {
                Some(v) => x.is_finite() && (v - x).abs() <= x.abs() * 1e-12,
                None => !x.is_finite(),
            };
            if !agree {
                return Err(format!(
                    "{name}: point {}: bits {} (= {x}) but value {:?}",
                    m.point, m.bits, m.value
                ));
            }
            let p = plan.point(m.point);
            let want = &specs[p.policy][p.value];
            if m.spec != *want {
                return Err(format!(
                    "{name}: point {}: spec {}, but the plan's point is {}",
                    m.point,
                    quote(&m.spec),
                    quote(want)
                ));
            }
            if slots[m.point].replace(m.clone()).is_some() {
                return Err(format!("{name}: point {} appears twice", m.point));
            }
        }
    }
    if let Some(i) = seen.iter().position(Option::is_none) {
        return Err(format!("shard {}/{count} is missing", i + 1));
    }
    let results: Option<Vec<Measured>> = slots.into_iter().collect();
    let results = results.ok_or_else(|| {
        "a partial result lacks some of its shard's points (an interrupted run?)".to_string()
    })?;
    Ok((plan, results))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(policies: usize, values: usize, seeds: u64) -> Plan {
        Plan {
            trace: "t.swf".into(),
            jobs: 3,
            read: ReadOptions::default(),
            input: InputOptions::default(),
            metrics: MetricOptions::default(),
            policies: [
                "pv-easy[predictor=virtual]",
                "conservative[predictor=virtual]",
            ][..policies]
                .iter()
                .map(|p| p.to_string())
                .collect(),
            key: Some("err".into()),
            values: (0..values).map(|i| format!("0.{i}")).collect(),
            seeds,
            metric: "mbs".into(),
            trace_hash: content_hash(b"t"),
            site_hash: String::new(),
            version: VERSION.into(),
        }
    }

    fn content_hash(bytes: &[u8]) -> String {
        let mut h = ContentHash::default();
        h.update(bytes);
        h.hex()
    }

    /// A part of `shard` whose point `k` measured `k / 10`, with the spec its run reports.
    fn part(p: &Plan, shard: Shard) -> Part {
        let specs = p.specs().unwrap();
        let results = p
            .shard_points(shard)
            .into_iter()
            .map(|k| {
                let pt = p.point(k);
                let spec = crate::policy::canonical(&specs[pt.policy][pt.value]).unwrap();
                Measured::new(k, spec, k as f64 * 0.1)
            })
            .collect();
        Part {
            format: PART_FORMAT.into(),
            plan: p.clone(),
            shard,
            results,
        }
    }

    #[test]
    fn points_are_policy_value_seed_and_shards_partition_them() {
        let p = plan(2, 3, 2);
        assert_eq!(p.len(), 12);
        assert_eq!(
            p.point(7),
            Point {
                policy: 1,
                value: 0,
                seed: 2
            }
        );
        assert_eq!(p.shard_points(Shard::parse("2/5").unwrap()), [1, 6, 11]);
        for n in 1..=5 {
            let mut all: Vec<usize> = (1..=n)
                .flat_map(|i| p.shard_points(Shard { index: i, count: n }))
                .collect();
            all.sort();
            assert_eq!(all, (0..12).collect::<Vec<_>>());
        }
        assert!(Shard::parse("0/3").is_err() && Shard::parse("4/3").is_err());
        assert!(Shard::parse("3").is_err() && Shard::parse("a/b").is_err());
    }

    #[test]
    fn merging_checks_the_shards() {
        let p = plan(1, 2, 3);
        let s = |i| Shard { index: i, count: 2 };
        let whole = part(&p, Shard::WHOLE).results;
        let (_, merged) = merge(vec![
            ("b".into(), part(&p, s(2))),
            ("a".into(), part(&p, s(1))),
        ])
        .unwrap();
        assert_eq!(merged, whole);
        let err = merge(vec![("a".into(), part(&p, s(1)))]).unwrap_err();
        assert!(err.contains("shard 2/2 is missing"), "{err}");
        let err = merge(vec![
            ("a".into(), part(&p, s(1))),
            ("b".into(), part(&p, s(1))),
        ])
        .unwrap_err();
        assert!(err.contains("b: shard 1/2 is also a"), "{err}");
        let mut other = part(&p, s(2));
        other.plan.seeds = 4;
        let err = merge(vec![("a".into(), part(&p, s(1))), ("b".into(), other)]).unwrap_err();
        assert!(
            err.contains("b: another sweep than a: seeds is 4 here, 3 there"),
            "{err}"
        );
        // Content, not names: the trace's hash, the version, a nested option, a result.
        let mut other = part(&p, s(2));
        other.plan.trace_hash = content_hash(b"u");
        let err = merge(vec![("a".into(), part(&p, s(1))), ("b".into(), other)]).unwrap_err();
        assert!(
            err.contains("b: another sweep than a: trace_hash is \""),
            "{err}"
        );
        let mut other = part(&p, s(2));
        other.plan.version = "0.0.0".into();
        let err = merge(vec![("a".into(), part(&p, s(1))), ("b".into(), other)]).unwrap_err();
        assert!(
            err.contains(&format!("version is \"0.0.0\" here, \"{VERSION}\" there")),
            "{err}"
        );
        let mut other = part(&p, s(2));
        other.plan.input.kill = false;
        let err = merge(vec![("a".into(), part(&p, s(1))), ("b".into(), other)]).unwrap_err();
        assert!(
            err.contains("input.kill is false here, true there"),
            "{err}"
        );
        let mut other = part(&p, s(2));
        other.results[0].bits = 7.5f64.to_bits();
        let err = merge(vec![("a".into(), part(&p, s(1))), ("b".into(), other)]).unwrap_err();
        assert!(
            err.contains("b: point 1: bits") && err.contains("(= 7.5) but value Some(0.1)"),
            "{err}"
        );
        let mut other = part(&p, s(2));
        other.results[0].spec = "fcfs".into();
        let err = merge(vec![("a".into(), part(&p, s(1))), ("b".into(), other)]).unwrap_err();
        assert!(
            err.contains("b: point 1: spec \"fcfs\", but the plan's point is"),
            "{err}"
        );
        let mut short = part(&p, s(2));
        short.results.pop();
        let err = merge(vec![("a".into(), part(&p, s(1))), ("b".into(), short)]).unwrap_err();
        assert!(err.contains("lacks some"), "{err}");
        let rows = p.rows(&merged);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].value, 1);
        let spec = crate::policy::canonical(&p.specs().unwrap()[0][1]).unwrap();
        assert_eq!(rows[1].spec, spec);
        assert!((rows[1].stat.mean - 0.4).abs() < 1e-12);
    }
}
