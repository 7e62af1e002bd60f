//! Allocators (resource selection policies of Guim, Rodero & Corbalan, section 4): which
//! processors a job gets, and for LessConsume-Threshold, when. Each one a small type over the
//! selection mechanism in `blocks::select`; without the node model every allocator is
//! first fit with factor 1.
//!
//! To add an allocator: a file here with a type implementing [`Allocator`], a value of the
//! `rsp` key in [`RSP`] and [`parse`].

mod first_fit;
mod less_consume;
mod threshold;

pub use first_fit::FirstFit;
pub use less_consume::LessConsume;
pub use threshold::Threshold;

use super::blocks::later::Horizon;
use super::blocks::select::Alloc;
use super::{KeyInfo, Params, SpecError, Values};
use crate::sim::Ctx;

/// A resource selection policy. `h` is the caller's `Horizon`: what allocators derive from a
/// machine state (its free nodes, its later states), kept while the state lasts and shared by
/// every allocation asked for on it.
pub trait Allocator {
    /// The allocation of job `j` if it starts now (for LessConsume-Threshold: only when its
    /// search would not pick a later start), else `None`.
    fn now(&self, c: &Ctx<'_>, j: usize, h: &mut Horizon) -> Option<Alloc>;
    /// The allocation the blocked head of the queue gets: a start now, or for an allocator
    /// that searches later starts, the start it found.
    fn head(&self, c: &Ctx<'_>, j: usize, h: &mut Horizon) -> Option<Alloc> {
        self.now(c, j, h)
    }
    /// On a cluster (no node model): true for an allocator that takes nodes best fit
    /// ([`crate::cluster::Free::select_packed`]: LessConsume and LessConsume-Threshold), false
    /// for one that takes them in Slurm's order (first fit).
    fn packs_on_clusters(&self) -> bool {
        false
    }
}

/// The `rsp` key.
pub const RSP: KeyInfo = KeyInfo {
    name: "rsp",
    default: "ff",
    values: Values::Text("ff|lc|lct"),
    help: "resource selection policy: first fit, LessConsume, LessConsume-Threshold",
    presets: &[],
    examples: &[],
};

/// The `t` key (the threshold of `rsp=lct`).
pub const T: KeyInfo = KeyInfo {
    name: "t",
    default: "1.15",
    values: Values::Text("penalty factor >= 1"),
    help: "threshold of rsp=lct: the largest penalty factor accepted",
    presets: &[],
    examples: &["1.25"],
};

/// The `thresholds` key (RUA's LessConsume-Threshold factors).
pub const THRESHOLDS: KeyInfo = KeyInfo {
    name: "thresholds",
    default: "1.15;1.2;1.25;1.5",
    values: Values::Text("penalty factors >= 1, separated by ;"),
    help: "the LessConsume-Threshold factors tried for each job",
    presets: &[],
    examples: &["1.1;1.3"],
};

/// A threshold value: a penalty factor >= 1.
pub fn threshold(p: &Params, key: &str, v: &str) -> Result<f64, SpecError> {
    match v.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && (1.0..=1e6).contains(&t) => Ok(t),
        _ => Err(p.error(format!(
            "{key}={v} is not valid; a penalty factor >= 1 (e.g. 1.15)"
        ))),
    }
}

/// Reads the `rsp` and `t` keys: the allocator.
pub fn parse(p: &Params) -> Result<Box<dyn Allocator>, SpecError> {
    let raw_t = p.raw("t")?;
    let t = threshold(p, "t", raw_t)?;
    p.record("t", raw_t.trim().to_string());
    Ok(match p.choice("rsp")? {
        "lc" => Box::new(LessConsume),
        "lct" => Box::new(Threshold(t)),
        _ => Box::new(FirstFit),
    })
}

/// Reads the `thresholds` key: RUA's LessConsume-Threshold allocators.
pub fn parse_thresholds(p: &Params) -> Result<Vec<Threshold>, SpecError> {
    let raw = p.raw("thresholds")?;
    let mut thresholds = Vec::new();
    for v in raw.split(';') {
        thresholds.push(Threshold(threshold(p, "thresholds", v)?));
    }
    if thresholds.len() > 16 {
        return Err(p.error("thresholds: at most 16 values".to_string()));
    }
    let text = thresholds
        .iter()
        .map(|t| t.0.to_string())
        .collect::<Vec<_>>()
        .join(";");
    p.record("thresholds", text);
    Ok(thresholds)
}
