//! Scheduling policies: each one a trait object that decides; the engine applies its decisions.
//!
//! Policies are named by spec strings (`easy[order=sjf]`), parsed strictly by [`build`]; the
//! catalogue ([`catalogue`]) lists every policy with its keys, defaults and source, and is what
//! the CLI's `policies` command and the page's policy picker show.

pub mod alloc;
pub mod blocks;
mod catalogue;
mod compose;
pub mod estimate;
pub mod external;
pub mod order;
pub mod plan;
pub mod queue;
pub mod rule;

pub use crate::sim::Policy;
pub use crate::spec::{Spec, SpecError};
pub use compose::Composed;
pub use external::{Decider, External, PassView, Pick};
use serde::Serialize;

/// Canonical `(key, value)` pairs a part parsed, for [`Params::canonical`].
pub type KeyValues<const N: usize> = [(&'static str, String); N];

/// One key of a policy.
#[derive(Debug, Clone, Serialize)]
pub struct KeyInfo {
    pub name: &'static str,
    pub default: &'static str,
    /// Allowed values (`fcfs|sjf`) or a description of the range.
    pub values: &'static str,
    pub help: &'static str,
    /// Stored values with what they stand for (the `queue` key's priority expressions).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub presets: &'static [crate::expr::Preset],
}

/// A policy as listed in the catalogue.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub source: &'static str,
    pub keys: &'static [KeyInfo],
    /// The composition it names, when it is an alias (`fairshare-easy` =
    /// `easy[queue=fairshare]` planning with the input's estimate), for the reader.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias_of: Option<&'static str>,
    #[serde(skip)]
    build: fn(&Params) -> Result<Box<dyn Policy>, SpecError>,
}

/// Every policy schedlab knows.
pub fn catalogue() -> &'static [PolicyInfo] {
    catalogue::CATALOGUE
}

/// Parses a spec string and builds the configured policy.
pub fn build(text: &str) -> Result<Box<dyn Policy>, SpecError> {
    let spec = Spec::parse(text)?;
    let info = catalogue()
        .iter()
        .find(|p| p.name == spec.name)
        .ok_or_else(|| SpecError {
            spec: text.to_string(),
            reason: format!(
                "unknown policy \"{}\"; valid: {}",
                spec.name,
                catalogue()
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })?;
    for (k, _) in &spec.params {
        if !info.keys.iter().any(|key| key.name == k) {
            let valid = if info.keys.is_empty() {
                "it takes no keys".to_string()
            } else {
                format!(
                    "valid keys: {}",
                    info.keys
                        .iter()
                        .map(|k| k.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return Err(SpecError {
                spec: text.to_string(),
                reason: format!("unknown key \"{k}\" for {}; {valid}", info.name),
            });
        }
    }
    (info.build)(&Params {
        info,
        spec: &spec,
        text,
    })
}

/// Checks a spec string and returns its canonical form (non-default keys in catalogue order).
pub fn canonical(text: &str) -> Result<String, SpecError> {
    build(text).map(|p| p.spec())
}

/// Validated access to a spec's parameters, with the catalogue's defaults.
pub struct Params<'a> {
    info: &'static PolicyInfo,
    spec: &'a Spec,
    text: &'a str,
}

impl Params<'_> {
    fn key(&self, name: &str) -> &'static KeyInfo {
        self.info
            .keys
            .iter()
            .find(|k| k.name == name)
            .expect("policy code asks only for its own keys")
    }

    /// The value of `name`, or its default.
    pub fn raw(&self, name: &str) -> &str {
        self.spec.get(name).unwrap_or(self.key(name).default)
    }

    pub fn error(&self, reason: String) -> SpecError {
        SpecError {
            spec: self.text.to_string(),
            reason,
        }
    }

    /// The value of a key whose allowed values are listed as `a|b|c`.
    pub fn choice(&self, name: &str) -> Result<&'static str, SpecError> {
        let key = self.key(name);
        let v = self.raw(name);
        key.values.split('|').find(|c| *c == v).ok_or_else(|| {
            self.error(format!(
                "{name}={v} is not valid; valid values: {}",
                key.values.replace('|', ", ")
            ))
        })
    }

    /// The canonical spec: the name plus the keys whose value differs from the default.
    pub fn canonical(&self, values: &[(&str, String)]) -> String {
        let set: Vec<(String, String)> = self
            .info
            .keys
            .iter()
            .filter_map(|k| {
                let v = values.iter().find(|(n, _)| *n == k.name)?;
                (v.1 != k.default).then(|| (k.name.to_string(), v.1.clone()))
            })
            .collect();
        Spec {
            name: self.info.name.to_string(),
            params: set,
        }
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_list_what_is_valid() {
        let e = build("nope").err().unwrap().to_string();
        assert!(
            e.contains("unknown policy \"nope\"")
                && e.contains("easy")
                && e.contains("conservative"),
            "{e}"
        );
        let e = build("easy[speed=3]").err().unwrap().to_string();
        assert!(
            e.contains("unknown key \"speed\"")
                && e.contains("valid keys: queue, weight, halflife, order"),
            "{e}"
        );
        let e = build("easy[order=ljf]").err().unwrap().to_string();
        assert!(
            e.contains("order=ljf is not valid") && e.contains("fcfs, sjf"),
            "{e}"
        );
        let e = build("historic[order=sjf]").err().unwrap().to_string();
        assert!(e.contains("takes no keys"), "{e}");
    }

    #[test]
    fn canonical_drops_defaults() {
        assert_eq!(canonical("easy[order=fcfs]").unwrap(), "easy");
        assert_eq!(canonical("easy[ order = sjf ]").unwrap(), "easy[order=sjf]");
        for p in catalogue() {
            assert_eq!(canonical(p.name).unwrap(), p.name);
        }
    }
}
