//! Sample specs read from the catalogue: every policy at its defaults and every value of every
//! key at least once (the listed values and each key's examples). The property tests and
//! `scripts/compare-schedules.sh` (through `schedlab policies --samples`) run them, so a new
//! policy, key or queue value is covered the day it is declared.

use super::{canonical, catalogue, KeyInfo};

/// The values tried for `key`: its listed values (`a|b|c`, names only: a list of patterns such
/// as the predictor's `virtual[err=x]` is not) other than the default, then its examples
/// other than the default.
fn values(key: &KeyInfo) -> Vec<String> {
    let text = key.values.text();
    let name = |v: &str| v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let listed = (text.contains('|') && text.split('|').all(name)).then(|| text.split('|'));
    listed
        .into_iter()
        .flatten()
        .chain(key.examples.iter().copied())
        .filter(|v| *v != key.default)
        .map(str::to_string)
        .collect()
}

/// Every policy at its defaults, then one spec per value of each key: the value alone when
/// that builds, else with the first value of another key that makes it build (`weight` needs
/// a queue order that takes it); canonical, without repeats.
pub fn sample_specs() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |spec: String| {
        if !out.contains(&spec) {
            out.push(spec);
        }
    };
    for p in catalogue() {
        push(p.name.to_string());
        for key in p.keys {
            for v in values(key) {
                let alone = canonical(&format!("{}[{}={v}]", p.name, key.name));
                let found = alone.ok().or_else(|| {
                    p.keys
                        .iter()
                        .filter(|other| other.name != key.name)
                        .flat_map(|other| values(other).into_iter().map(move |w| (other.name, w)))
                        .find_map(|(other, w)| {
                            canonical(&format!("{}[{other}={w},{}={v}]", p.name, key.name)).ok()
                        })
                });
                if let Some(spec) = found {
                    push(spec);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of every key is in a sample (a value no combination builds would be a
    /// value nobody can use).
    #[test]
    fn every_value_is_sampled() {
        let samples = sample_specs();
        for p in catalogue() {
            assert!(samples.contains(&p.name.to_string()), "{}", p.name);
            for key in p.keys {
                for v in values(key) {
                    let kv = format!("{}={v}", key.name);
                    assert!(
                        samples
                            .iter()
                            .any(|s| s.starts_with(&format!("{}[", p.name)) && s.contains(&kv)),
                        "{}[{}={v}] in no sample: {samples:?}",
                        p.name,
                        key.name
                    );
                }
            }
        }
    }
}
