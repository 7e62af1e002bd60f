//! `schedlab sweep`: one metric of policies over a range of values of one key and several
//! seeds: mean / min / max per value per policy.

use crate::InputArgs;
use clap::Args;
use schedlab::metrics::{eet, ClassicOptions};
use schedlab::policy::Spec;
use schedlab::run::{self, RunResult};
use std::path::PathBuf;

#[derive(Args)]
pub struct SweepArgs {
    /// SWF trace, plain or gzip.
    trace: PathBuf,
    /// Policy spec (repeatable), e.g. 'pv-easy[predictor=virtual]'.
    #[arg(long = "policy", short = 'p', required = true)]
    policies: Vec<String>,
    /// KEY=v1,v2,...: the values of one key, set on the policy, or else inside its predictor
    /// (err=0,0.1,...,1 expands an arithmetic sequence).
    #[arg(long)]
    vary: Option<String>,
    /// Seeds 1..=N per value.
    #[arg(long, default_value_t = 1)]
    seeds: u64,
    /// mbs, mwbs, wait, utilization, delayed, violations, preempted, wasted-load, blocked-big-mbs
    /// or blocked-small-mbs.
    #[arg(long, default_value = "mbs")]
    metric: String,
    #[command(flatten)]
    input: InputArgs,
}

const METRICS: &str = "mbs, mwbs, wait, utilization, delayed, violations, preempted, wasted-load, blocked-big-mbs, blocked-small-mbs";

fn metric(r: &RunResult, name: &str) -> Option<f64> {
    let (c, f) = (&r.classic, &r.fairness);
    Some(match name {
        "mbs" => c.mbs,
        "mwbs" => c.mwbs,
        "wait" => c.wait.mean,
        "utilization" => c.utilization,
        "delayed" => f.strict.delayed as f64,
        "violations" => f.violations.count as f64,
        "preempted" => f.preemption.preempted as f64,
        "wasted-load" => f.preemption.wasted_load_pct,
        "blocked-big-mbs" => f.blocked.big_mbs,
        "blocked-small-mbs" => f.blocked.small_mbs,
        _ => return None,
    })
}

/// `0,0.1,...,1` -> 0, 0.1, ..., 1 (arithmetic, from the two first values to the last).
fn expand(values: &str) -> Result<Vec<String>, String> {
    let parts: Vec<&str> = values.split(',').map(str::trim).collect();
    let Some(dots) = parts.iter().position(|p| *p == "...") else {
        return Ok(parts.iter().map(|s| s.to_string()).collect());
    };
    let num = |s: &str| {
        s.parse::<f64>()
            .map_err(|_| format!("--vary: {s:?} is not a number"))
    };
    if dots != 2 || parts.len() != 4 {
        return Err("--vary: write a sequence as a,b,...,z".into());
    }
    let (a, b, z) = (num(parts[0])?, num(parts[1])?, num(parts[3])?);
    let step = b - a;
    if !(step > 0.0 && z >= a) || (z - a) / step > 10_000.0 {
        return Err("--vary: a,b,...,z needs a < b <= z and at most 10000 values".into());
    }
    let n = ((z - a) / step + 1e-9).floor() as usize;
    Ok((0..=n)
        .map(|i| {
            let x = a + step * i as f64;
            format!("{}", (x * 1e9).round() / 1e9)
        })
        .collect())
}

/// Sets `key=value` on the policy when it has that key, else inside its predictor.
fn with_key(spec: &str, key: &str, value: &str) -> Result<String, String> {
    let mut s = Spec::parse(spec).map_err(|e| e.to_string())?;
    let own = schedlab::policy::catalogue()
        .iter()
        .find(|p| p.name == s.name)
        .is_some_and(|p| p.keys.iter().any(|k| k.name == key));
    let set = |s: &mut Spec, k: &str, v: String| match s.params.iter_mut().find(|(pk, _)| pk == k) {
        Some(p) => p.1 = v,
        None => s.params.push((k.to_string(), v)),
    };
    if own {
        set(&mut s, key, value.to_string());
    } else if let Some(pred) = s.get("predictor") {
        let mut inner = Spec::parse(pred).map_err(|e| e.to_string())?;
        set(&mut inner, key, value.to_string());
        set(&mut s, "predictor", inner.to_string());
    } else {
        return Err(format!(
            "--vary {key}: {spec} has no key {key} and no predictor"
        ));
    }
    Ok(s.to_string())
}

pub fn run(args: &SweepArgs) -> Result<(), Box<dyn std::error::Error>> {
    let (read, input) = args.input.options();
    let trace = run::load_path(&args.trace, &read, &input)?;
    if args.seeds == 0 {
        return Err("--seeds must be at least 1".into());
    }
    if args.metric.is_empty() || !METRICS.split(", ").any(|m| m == args.metric) {
        return Err(format!("--metric {}: valid: {METRICS}", args.metric).into());
    }
    let (key, values) = match &args.vary {
        Some(v) => {
            let (k, vals) = v.split_once('=').ok_or("--vary: write KEY=v1,v2,...")?;
            (Some(k.trim().to_string()), expand(vals)?)
        }
        None => (None, vec![String::new()]),
    };
    let expected = eet::expected_end_times(&trace.jobs, &eet::EetOptions::default())?;
    let opts = ClassicOptions::default();
    println!(
        "{:<48} {:>10} {:>12} {:>12} {:>12}",
        "policy",
        key.as_deref().unwrap_or("-"),
        format!("mean {}", args.metric),
        "min",
        "max"
    );
    for policy in &args.policies {
        for value in &values {
            let spec = match &key {
                Some(k) => with_key(policy, k, value)?,
                None => policy.clone(),
            };
            let mut xs = Vec::new();
            let mut canonical = spec.clone();
            for seed in 1..=args.seeds {
                let r =
                    run::run_policy_expecting(&trace.jobs, &spec, seed, &opts, &expected, None)?;
                canonical = r.spec.clone();
                let x = metric(&r, &args.metric)
                    .ok_or_else(|| format!("--metric {}: valid: {METRICS}", args.metric))?;
                xs.push(x);
            }
            let mean = xs.iter().sum::<f64>() / xs.len() as f64;
            let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            println!(
                "{canonical:<48} {:>10} {mean:>12.4} {min:>12.4} {max:>12.4}",
                if value.is_empty() { "-" } else { value }
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_expand_and_keys_land_where_they_belong() {
        assert_eq!(expand("0,0.1,...,0.3").unwrap(), ["0", "0.1", "0.2", "0.3"]);
        assert_eq!(expand("1,2").unwrap(), ["1", "2"]);
        assert!(expand("0,...,1").is_err());
        assert_eq!(
            with_key("pv-easy[predictor=virtual]", "err", "0.3").unwrap(),
            "pv-easy[predictor=virtual[err=0.3]]"
        );
        assert_eq!(with_key("pv-easy", "vb", "off").unwrap(), "pv-easy[vb=off]");
        assert!(with_key("fcfs", "err", "1").is_err());
    }
}
