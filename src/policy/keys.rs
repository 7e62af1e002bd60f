//! Policy keys: each key a policy takes (`easy[queue=sjf]`) is declared once, as a [`KeyInfo`]
//! constant beside the part that reads it, with its default, its values and its help; a policy
//! lists the keys it takes in the catalogue. [`Params`] reads a spec's values through those
//! declarations and records the canonical value of each key it read, so a policy's canonical
//! spec follows from what it parsed: no list of values to keep in step by hand.
#![warn(missing_docs)]

use super::{Spec, SpecError};
use serde::{Serialize, Serializer};
use std::borrow::Cow;
use std::cell::RefCell;

/// One key of a policy.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct KeyInfo {
    /// Its name in spec strings.
    pub name: &'static str,
    /// Its value when the spec does not give one.
    pub default: &'static str,
    /// Allowed values (`fcfs|sjf`) or a description of the range.
    #[serde(serialize_with = "values_text")]
    pub values: Values,
    /// One line on what it does (the details are in docs/policies.md).
    pub help: &'static str,
    /// Stored values with what they stand for (the `queue` key's priority expressions).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub presets: &'static [crate::expr::Preset],
    /// Values besides the listed ones that the tests and `scripts/compare-schedules.sh` try
    /// (`schedlab policies --samples`).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub examples: &'static [&'static str],
}

/// The key lists of policies that share keys, joined in a constant:
/// `keys![order::ORDER_KEYS, [PREDICTOR]]` is a `&'static [KeyInfo]`.
#[macro_export]
#[doc(hidden)]
macro_rules! keys {
    ($($part:expr),* $(,)?) => {{
        const N: usize = 0 $(+ $part.len())*;
        const JOINED: [$crate::policy::KeyInfo; N] = {
            let mut out = [$crate::policy::KeyInfo::BLANK; N];
            let mut i = 0;
            $(
                let part = $part;
                let mut k = 0;
                while k < part.len() {
                    out[i] = part[k];
                    i += 1;
                    k += 1;
                }
            )*
            out
        };
        &JOINED
    }};
}

impl KeyInfo {
    /// A key with no name (fills arrays before they are written).
    pub const BLANK: KeyInfo = KeyInfo {
        name: "",
        default: "",
        values: Values::Text(""),
        help: "",
        presets: &[],
        examples: &[],
    };
}

/// The values a key takes.
#[derive(Debug, Clone, Copy)]
pub enum Values {
    /// Listed `a|b|c` (a choice) or described in words.
    Text(&'static str),
    /// Listed `a|b|c` by a function (the `queue` key's values: its table's names,
    /// [`crate::policy::order::QUEUE_VALUES`], then the stored priority expressions).
    Listed(fn() -> String),
}

impl Values {
    /// The values as the catalogue shows them.
    pub fn text(&self) -> Cow<'static, str> {
        match self {
            Values::Text(t) => Cow::Borrowed(t),
            Values::Listed(list) => Cow::Owned(list()),
        }
    }
}

impl std::fmt::Display for Values {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

fn values_text<S: Serializer>(v: &Values, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.text())
}

/// Validated access to a spec's values, with the defaults of the keys the policy declares.
/// Every value read is recorded in its canonical form ([`Params::canonical`]).
pub struct Params<'a> {
    /// The policy's name and the keys it declares.
    policy: &'a str,
    keys: &'a [KeyInfo],
    spec: &'a Spec,
    text: &'a str,
    read: RefCell<Vec<(&'static str, String)>>,
}

impl<'a> Params<'a> {
    pub(super) fn new(policy: &'a str, keys: &'a [KeyInfo], spec: &'a Spec, text: &'a str) -> Self {
        Self {
            policy,
            keys,
            spec,
            text,
            read: RefCell::new(Vec::new()),
        }
    }

    /// The declaration of key `name` of this policy: an error, never a panic, for a key the
    /// policy does not declare (a mistake in the policy's own code).
    fn key(&self, name: &str) -> Result<&'a KeyInfo, SpecError> {
        self.keys.iter().find(|k| k.name == name).ok_or_else(|| {
            self.error(format!(
                "policy {} reads a key it does not declare: {name}",
                self.policy
            ))
        })
    }

    /// The value of `name` as written, or its default.
    pub fn raw(&self, name: &str) -> Result<&str, SpecError> {
        let key = self.key(name)?;
        Ok(self.spec.get(name).unwrap_or(key.default))
    }

    /// Whether the spec gives key `name` (at whatever value).
    pub fn gives(&self, name: &str) -> bool {
        self.spec.get(name).is_some()
    }

    /// An error about this spec.
    pub fn error(&self, reason: String) -> SpecError {
        SpecError {
            spec: self.text.to_string(),
            reason,
        }
    }

    /// Records the canonical value of key `name` (what [`Params::canonical`] writes).
    pub fn record(&self, name: &'static str, canonical: String) {
        let mut read = self.read.borrow_mut();
        match read.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = canonical,
            None => read.push((name, canonical)),
        }
    }

    /// The value of a key whose values are listed as `a|b|c` in the code; recorded as
    /// written.
    pub fn choice(&self, name: &'static str) -> Result<&'static str, SpecError> {
        let key = self.key(name)?;
        let v = self.raw(name)?;
        let Values::Text(values) = key.values else {
            return Err(self.error(format!("{name}: its values are not listed in the code")));
        };
        let found = values.split('|').find(|c| *c == v).ok_or_else(|| {
            self.error(format!(
                "{name}={v} is not valid; valid values: {}",
                values.replace('|', ", ")
            ))
        })?;
        self.record(name, found.to_string());
        Ok(found)
    }

    /// A number of key `name` that `valid` accepts (`what` says which numbers, for the error);
    /// recorded in Rust's shortest form (`86400`, `0.001`).
    pub fn number(
        &self,
        name: &'static str,
        valid: impl Fn(f64) -> bool,
        what: &str,
    ) -> Result<f64, SpecError> {
        let raw = self.raw(name)?;
        match raw.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && valid(v) => {
                self.record(name, format!("{v}"));
                Ok(v)
            }
            _ => Err(self.error(format!("{name}={raw} is not valid; valid values: {what}"))),
        }
    }

    /// The canonical spec: the name, then the keys read whose value differs from the default,
    /// in the order the policy declares them. A key the spec gives that the policy did not
    /// read is an error (the policy would silently ignore it).
    pub fn canonical(&self) -> Result<String, SpecError> {
        self.canonical_keeping(&[])
    }

    /// [`Params::canonical`], also keeping the keys named in `given` at their default value: a
    /// policy whose keys have another source (the `slurm` policy's slurm.conf) keeps the ones
    /// the user set to the default, which override that source
    /// (`slurm[PriorityWeightFairshare=0]` beside a slurm.conf that sets 10000).
    pub fn canonical_keeping(&self, given: &[&str]) -> Result<String, SpecError> {
        let read = self.read.borrow();
        for (k, _) in &self.spec.params {
            if !read.iter().any(|(n, _)| n == k) {
                return Err(self.error(format!(
                    "{k} does not apply to this configuration of {}",
                    self.policy
                )));
            }
        }
        let params = self
            .keys
            .iter()
            .filter_map(|k| {
                let (_, v) = read.iter().find(|(n, _)| *n == k.name)?;
                let keep = v != k.default || given.contains(&k.name);
                keep.then(|| (k.name.to_string(), v.clone()))
            })
            .collect();
        Ok(Spec {
            name: self.policy.to_string(),
            params,
        }
        .to_string())
    }
}
