//! Allocators (resource selection policies of Guim, Rodero & Corbalan, section 4): which
//! processors a job gets, and for LessConsume-Threshold, when. Each one a small type over the
//! selection mechanism in [`super::blocks::select`]; without the node model every allocator is
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
use super::{KeyInfo, KeyValues, Params, SpecError};
use crate::sim::Ctx;

/// A resource selection policy. `h` is the caller's [`Horizon`]: what allocators derive from a
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
}

/// The `rsp` key.
pub const RSP: KeyInfo = KeyInfo {
    name: "rsp",
    default: "ff",
    values: "ff|lc|lct",
    help: "resource selection policy: first fit, LessConsume, LessConsume-Threshold",
    presets: &[],
};

/// The `t` key (the threshold of `rsp=lct`).
pub const T: KeyInfo = KeyInfo {
    name: "t",
    default: "1.15",
    values: "penalty factor >= 1",
    help: "threshold of rsp=lct: the largest penalty factor accepted",
    presets: &[],
};

/// The `thresholds` key (RUA's LessConsume-Threshold factors).
pub const THRESHOLDS: KeyInfo = KeyInfo {
    name: "thresholds",
    default: "1.15;1.2;1.25;1.5",
    values: "penalty factors >= 1, separated by ;",
    help: "the LessConsume-Threshold factors tried for each job",
    presets: &[],
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

/// Parses the `rsp` and `t` keys; returns the allocator and their canonical values.
pub fn parse(p: &Params) -> Result<(Box<dyn Allocator>, KeyValues<2>), SpecError> {
    let t = threshold(p, "t", p.raw("t"))?;
    let alloc: Box<dyn Allocator> = match p.choice("rsp")? {
        "lc" => Box::new(LessConsume),
        "lct" => Box::new(Threshold(t)),
        _ => Box::new(FirstFit),
    };
    Ok((
        alloc,
        [
            ("rsp", p.raw("rsp").to_string()),
            ("t", p.raw("t").trim().to_string()),
        ],
    ))
}

/// Parses the `thresholds` key: RUA's LessConsume-Threshold allocators, and the canonical value.
pub fn parse_thresholds(p: &Params) -> Result<(Vec<Threshold>, String), SpecError> {
    let raw = p.raw("thresholds");
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
    Ok((thresholds, text))
}
