//! Sweeps: one metric of policies over the values of one key and several seeds, summarised as
//! mean / min / max per value. The CLI (`schedlab sweep`) and the page (`web`) share this; the
//! metrics are the catalogue's (`metrics::catalogue`), by name;
//! `plan.rs` numbers a sweep's points, splits them into shards and merges partial results.

mod content;
pub mod plan;

use crate::metrics::catalogue;
use crate::policy::{self, Spec};
use crate::quote::quote;
use crate::run::RunResult;
use serde::Serialize;

/// Most values a sequence `a,b,...,z` may expand to.
pub const MAX_VALUES: usize = 10_000;

/// Metric `name` (a [`crate::metrics::catalogue`] name) of run `r`, or an error naming the
/// valid metrics; NaN for a node-model metric of a run without the node model.
pub fn metric(r: &RunResult, name: &str) -> Result<f64, String> {
    let m = catalogue::lookup(name)?;
    Ok(r.metric(m).unwrap_or(f64::NAN))
}

/// `0,0.1,...,1` -> 0, 0.1, ..., 1 (arithmetic, from the two first values to the last); a list
/// without `...` is taken as it is. Commas inside brackets or parentheses belong to a value, as
/// in a spec (`queue=expr(max(wait,1)),saf` is two values). Errors say what to write instead.
pub fn expand(values: &str) -> Result<Vec<String>, String> {
    let parts: Vec<&str> = crate::spec::split_top(values)?
        .into_iter()
        .map(str::trim)
        .collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(format!(
            "{}: an empty value (write v1,v2,... or a,b,...,z)",
            quote(values)
        ));
    }
    let Some(dots) = parts.iter().position(|p| *p == "...") else {
        return Ok(parts.iter().map(|s| s.to_string()).collect());
    };
    let num = |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("{} is not a number", quote(s)))
    };
    if dots != 2 || parts.len() != 4 {
        return Err("write a sequence as a,b,...,z".into());
    }
    let (a, b, z) = (num(parts[0])?, num(parts[1])?, num(parts[3])?);
    let step = b - a;
    if !(step > 0.0 && z >= a) || (z - a) / step >= MAX_VALUES as f64 {
        return Err(format!(
            "a,b,...,z needs a < b <= z and at most {MAX_VALUES} values"
        ));
    }
    let n = ((z - a) / step + 1e-9).floor() as usize;
    Ok((0..=n)
        .map(|i| {
            let x = a + step * i as f64;
            format!("{}", (x * 1e9).round() / 1e9)
        })
        .collect())
}

/// `KEY=v1,v2,...` (or `KEY=a,b,...,z`) -> the key and its values.
pub fn parse_vary(text: &str) -> Result<(String, Vec<String>), String> {
    let (k, vals) = text
        .split_once('=')
        .ok_or("write KEY=v1,v2,... or KEY=a,b,...,z")?;
    let k = k.trim();
    if k.is_empty() {
        return Err("the key is empty: write KEY=v1,v2,...".into());
    }
    Ok((k.to_string(), expand(vals)?))
}

/// Sets `key=value` on the policy when it has that key, else inside its predictor.
pub fn with_key(spec: &str, key: &str, value: &str) -> Result<String, String> {
    let mut s = Spec::parse(spec).map_err(|e| e.to_string())?;
    let info = policy::catalogue().iter().find(|p| p.name == s.name);
    let own = info.is_some_and(|p| p.keys.iter().any(|k| k.name == key));
    // What a key the policy lacks is told against: the policy's own keys.
    let lacks = || {
        let keys: Vec<&str> = info.map_or(Vec::new(), |p| p.keys.iter().map(|k| k.name).collect());
        format!(
            "{} has no key {key} (its keys: {})",
            s.name,
            keys.join(", ")
        )
    };
    let set = |s: &mut Spec, k: &str, v: String| match s.params.iter_mut().find(|(pk, _)| pk == k) {
        Some(p) => p.1 = v,
        None => s.params.push((k.to_string(), v)),
    };
    if own {
        set(&mut s, key, value.to_string());
    } else if let Some(pred) = s.get("predictor") {
        let mut inner = Spec::parse(pred).map_err(|e| e.to_string())?;
        set(&mut inner, key, value.to_string());
        let lacks = lacks();
        set(&mut s, "predictor", inner.to_string());
        // A key neither of the policy nor of its predictor: both said at once (the predictor's
        // "unknown key" alone read as if the policy had been looked at, and came only once the
        // first point ran).
        if let Err(e) = policy::canonical(&s.to_string()) {
            if e.reason.starts_with("unknown key") {
                return Err(format!("{lacks}, nor has its predictor: {}", e.reason));
            }
        }
    } else {
        return Err(format!(
            "{}, and its spec sets no predictor to set it in",
            lacks()
        ));
    }
    Ok(s.to_string())
}

/// Mean, min and max of one metric over the seeds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stat {
    pub mean: f64,
    pub min: f64,
    pub max: f64,
}

/// Numbers per [`Stat`] in the flat form the page exchanges: `[mean, min, max]`.
pub const STAT_FIELDS: usize = 3;

impl Stat {
    /// The summary of `xs` (NaN everywhere when empty).
    pub fn of(xs: &[f64]) -> Stat {
        if xs.is_empty() {
            return Stat {
                mean: f64::NAN,
                min: f64::NAN,
                max: f64::NAN,
            };
        }
        Stat {
            mean: xs.iter().sum::<f64>() / xs.len() as f64,
            min: xs.iter().copied().fold(f64::INFINITY, f64::min),
            max: xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_expand_and_keys_land_where_they_belong() {
        assert_eq!(expand("0,0.1,...,0.3").unwrap(), ["0", "0.1", "0.2", "0.3"]);
        assert_eq!(expand("1,2").unwrap(), ["1", "2"]);
        assert!(expand("0,...,1").is_err());
        assert!(expand("1,,2").is_err());
        assert!(expand("0,1,...,1e9").is_err());
        assert_eq!(
            parse_vary("err=0,0.5,...,1").unwrap(),
            (
                "err".to_string(),
                vec!["0".into(), "0.5".into(), "1".into()]
            )
        );
        assert!(parse_vary("=1,2").is_err() && parse_vary("err").is_err());
        assert_eq!(
            with_key("pv-easy[predictor=virtual]", "err", "0.3").unwrap(),
            "pv-easy[predictor=virtual[err=0.3]]"
        );
        assert_eq!(with_key("pv-easy", "vb", "off").unwrap(), "pv-easy[vb=off]");
        assert!(with_key("fcfs", "err", "1").is_err());
        // A key of neither the policy nor its predictor names both key lists, before any run.
        assert_eq!(
            with_key("pv-easy[predictor=virtual]", "foo", "1").unwrap_err(),
            "pv-easy has no key foo (its keys: predictor, slp, vb), nor has its predictor: \
             unknown key \"foo\" for predictor virtual; valid keys: err"
        );
        assert_eq!(
            with_key("fcfs", "order", "sjf").unwrap_err(),
            "fcfs has no key order (its keys: queue, weight, halflife, predictor), and its spec \
             sets no predictor to set it in"
        );
        // A bad value of a predictor's key is left to the run's own message.
        assert!(with_key("pv-easy[predictor=virtual]", "err", "abc").is_ok());
        let s = Stat::of(&[1.0, 2.0, 6.0]);
        assert_eq!((s.mean, s.min, s.max), (3.0, 1.0, 6.0));
    }
}
