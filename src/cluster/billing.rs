//! A partition's `TRESBillingWeights` (slurm.conf), as Slurm 22.05 reads and applies them: the
//! weights per TRES (slurm_protocol_api.c `_tres_weight_item` and
//! `slurm_get_tres_weight_array`, 297-385) and a job's billing from the TRES it was allocated
//! (assoc_mgr.c `assoc_mgr_tres_weighted`, 6598-6656). docs/slurm.md, "Billing".
//!
//! - A weight is `TYPE=VALUE` or `TYPE/NAME=VALUE` (`GRES/gpu=4.0`), comma-separated; the type
//!   and name match Slurm's TRES without regard to case; a later weight of the same TRES wins.
//! - VALUE is a number (`strtod`), optionally followed by a unit whose first letter is one of
//!   `K M G T P` (any case; the rest is not read): the weight is divided by 1024 for each step
//!   the unit lies above the TRES's base unit, megabytes for `mem` (and burst buffers), none
//!   for the others (`get_convert_unit_val`): `Mem=0.25G` is 0.25 / 1024 per MB, `Mem=1M`
//!   and `Mem=1K` are 1 per MB, `CPU=1K` is 1 / 1024 per CPU (Slurm's divisor is an `int`:
//!   `T` and `P` on a TRES without a base unit wrap it to 0, and divide nothing).
//! - The TRES a job holds here: `cpu`, `mem` (MB), `node` and `gres/gpu` (every type). A
//!   weight on any other TRES Slurm knows (`energy`, `fs/disk`, `vmem`, `pages`, `billing`
//!   itself, a `license/…`, `bb/…`, another GRES or a typed `gres/gpu:TYPE`) is read and
//!   counts nothing ([`BillingWeights::unheld`]); a TRES type Slurm does not know is an error
//!   (slurmctld refuses it: "not a configured TRES type").
//! - Billing ([`BillingWeights::billable`]): the sum of each TRES times its weight, in Slurm's
//!   TRES order (cpu, mem, node, then the GRES); with `PriorityFlags=MAX_TRES` the largest of
//!   the node TRES' (cpu, mem, node, every GRES), at least 0, plus the others' sum.

use std::fmt;

/// The weights of one partition's `TRESBillingWeights`.
#[derive(Debug, Clone, Default)]
pub struct BillingWeights {
    /// As written (without the quotes).
    pub text: String,
    /// Per CPU.
    pub cpu: f64,
    /// Per MB of memory.
    pub mem_mb: f64,
    /// Per node.
    pub node: f64,
    /// Per GPU (`GRES/gpu`, untyped).
    pub gpu: f64,
    /// The weights on TRES the model holds none of (as written): read, counting nothing.
    pub unheld: Vec<String>,
}

/// Equal when they bill alike: the same weights on the TRES the model holds (bit for bit),
/// whatever the text and the weights that bill nothing.
impl PartialEq for BillingWeights {
    fn eq(&self, o: &Self) -> bool {
        self.held().map(f64::to_bits) == o.held().map(f64::to_bits)
    }
}
impl Eq for BillingWeights {}

impl serde::Serialize for BillingWeights {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl fmt::Display for BillingWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The TRES types Slurm always has besides those the model holds, and the prefixes of the
/// named ones (`gres/…`, `license/…`, `bb/…`) a site may configure.
const OTHER_TYPES: &[&str] = &["energy", "billing", "fs", "vmem", "pages"];
const NAMED_TYPES: &[&str] = &["gres", "license", "bb", "fs", "ic"];

/// A job's allocated TRES: CPUs, memory (MB), nodes, GPUs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tres {
    /// CPUs (Slurm's `total_cpus`).
    pub cpus: u64,
    /// Memory, MB, over every node.
    pub mem_mb: u64,
    /// Nodes.
    pub nodes: u64,
    /// GPUs over every node.
    pub gpus: u64,
}

impl BillingWeights {
    /// Reads a `TRESBillingWeights` value; an error names the weight at fault.
    pub fn parse(text: &str) -> Result<BillingWeights, String> {
        let text = text.trim();
        let mut w = BillingWeights {
            text: text.to_string(),
            ..BillingWeights::default()
        };
        for item in text.split(',').filter(|s| !s.is_empty()) {
            let Some((tres, value)) = item.split_once('=') else {
                return Err(format!("\"{item}\" is not TRES=WEIGHT"));
            };
            let value = value.trim();
            let (kind, name) = match tres.trim().split_once('/') {
                Some((k, n)) => (k.to_ascii_lowercase(), Some(n)),
                None => (tres.trim().to_ascii_lowercase(), None),
            };
            let base_mb = kind == "mem" || kind == "bb";
            let weight = number(value, base_mb).map_err(|m| format!("{tres}: {m}"))?;
            match (kind.as_str(), name) {
                ("cpu", None) => w.cpu = weight,
                ("mem", None) => w.mem_mb = weight,
                ("node", None) => w.node = weight,
                ("gres", Some(n)) if n.eq_ignore_ascii_case("gpu") => w.gpu = weight,
                (k, None) if OTHER_TYPES.contains(&k) => w.unheld.push(item.to_string()),
                (k, Some(n)) if NAMED_TYPES.contains(&k) && !n.is_empty() => {
                    w.unheld.push(item.to_string())
                }
                _ => {
                    return Err(format!(
                        "{tres}: not a TRES type (cpu, mem, node, gres/NAME, license/NAME, \
                         bb/NAME, energy, billing, fs/disk, vmem, pages)"
                    ))
                }
            }
        }
        Ok(w)
    }

    /// The weights of cpu, mem (per MB), node and gres/gpu.
    fn held(&self) -> [f64; 4] {
        [self.cpu, self.mem_mb, self.node, self.gpu]
    }

    /// The compact form's value (`cpu=1,mem=0.000244140625,gpu=4`: the weights that bill, per
    /// CPU, MB, node and GPU, exactly; empty when none does).
    pub fn compact(&self) -> String {
        let names = ["cpu", "mem", "node", "gpu"];
        (names.iter().zip(self.held()))
            .filter(|&(_, w)| w != 0.0)
            .map(|(n, w)| format!("{n}={w}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Reads [`BillingWeights::compact`]'s form; its text is Slurm's spelling of the same.
    pub fn from_compact(v: &str) -> Result<BillingWeights, String> {
        let mut w = BillingWeights::default();
        let mut text = Vec::new();
        for item in v.split(',').filter(|s| !s.is_empty()) {
            let (k, x) = item
                .split_once('=')
                .ok_or_else(|| format!("\"{item}\" is not NAME=WEIGHT"))?;
            let x: f64 = (x.parse().ok())
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("{k}: \"{x}\" is not a number"))?;
            let (slot, name) = match k {
                "cpu" => (&mut w.cpu, "CPU"),
                "mem" => (&mut w.mem_mb, "Mem"),
                "node" => (&mut w.node, "Node"),
                "gpu" => (&mut w.gpu, "GRES/gpu"),
                _ => return Err(format!("{k}: not cpu, mem, node or gpu")),
            };
            *slot = x;
            text.push(format!("{name}={x}"));
        }
        w.text = text.join(",");
        Ok(w)
    }

    /// The billing of a job allocated `t` (`assoc_mgr_tres_weighted`): the weighted sum, or
    /// with `max_tres` (`PriorityFlags=MAX_TRES`) the largest weighted node TRES, at least 0
    /// (the others, global TRES, are none here).
    pub fn billable(&self, t: Tres, max_tres: bool) -> f64 {
        // Slurm's TRES order: cpu, mem, (energy), node, (billing, fs/disk, vmem, pages), GRES.
        let values = [
            t.cpus as f64 * self.cpu,
            t.mem_mb as f64 * self.mem_mb,
            t.nodes as f64 * self.node,
            t.gpus as f64 * self.gpu,
        ];
        if max_tres {
            // `MAX(to_bill_node, v)` from 0.0, then `+ to_bill_global` (0.0).
            values.iter().fold(0.0, |m, &v| if m > v { m } else { v })
        } else {
            values.iter().fold(0.0, |s, &v| s + v)
        }
    }
}

/// The billing sacct records (`AllocTRES`'s `billing=N`): the job's billing cut to a whole
/// number (job_mgr.c 9606: the `double` stored in a `uint64_t` array); a negative one 0.
pub fn recorded(billing: f64) -> u64 {
    billing.max(0.0) as u64
}

/// A weight's value: a number and an optional unit (`get_convert_unit_val` from megabytes
/// when `base_mb`, else from none).
fn number(v: &str, base_mb: bool) -> Result<f64, String> {
    let end = v
        .char_indices()
        .find(|&(i, c)| {
            !(c.is_ascii_digit()
                || c == '.'
                || ((c == '+' || c == '-') && (i == 0 || v[..i].ends_with(['e', 'E'])))
                || ((c == 'e' || c == 'E')
                    && v[i + 1..]
                        .starts_with(|d: char| d.is_ascii_digit() || d == '-' || d == '+')))
        })
        .map_or(v.len(), |(i, _)| i);
    let x: f64 = (v[..end].parse().ok())
        .filter(|x: &f64| x.is_finite())
        .ok_or_else(|| format!("\"{v}\" is not a number"))?;
    let Some(unit) = v[end..].chars().next() else {
        return Ok(x);
    };
    let step = match "KMGTP".find(unit.to_ascii_uppercase()) {
        Some(k) => k as i32 + 1,
        None => {
            return Err(format!(
                "\"{v}\": the unit is K, M, G, T or P (Slurm's base unit for mem is MB)"
            ))
        }
    };
    // Slurm's divisor is an `int`, 1024 multiplied once per step: four steps or more (a `T`
    // or `P` on a TRES without a base unit) wrap it to 0, and a divisor of 0 divides nothing.
    let base = if base_mb { 2 } else { 0 };
    let divisor = (base..step).fold(0i32, |d, _| match d {
        0 => 1024,
        d => d.wrapping_mul(1024),
    });
    Ok(if divisor > 0 {
        x / f64::from(divisor)
    } else {
        x
    })
}

#[cfg(test)]
mod tests;
