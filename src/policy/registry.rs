//! The policy registry: the catalogue's entries, and any a program adds from outside the crate
//! ([`Registry::add`]), each turning a spec string into a configured policy.
#![warn(missing_docs)]

use super::keys::{KeyInfo, Params};
use super::{Policy, Spec, SpecError};
use serde::Serialize;

/// A policy as listed in the catalogue: its name, what it is, the keys it takes and how to
/// build it.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyInfo {
    /// Its name in spec strings.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// A few lines more (the full rules are in docs/policies.md).
    pub description: &'static str,
    /// Where it comes from (a paper, a system).
    pub source: &'static str,
    /// The keys it takes.
    pub keys: &'static [KeyInfo],
    /// The composition it names, when it is an alias (`fairshare-easy` =
    /// `easy[queue=fairshare]` planning with the input's estimate), for the reader.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias_of: Option<&'static str>,
    #[serde(skip)]
    pub(super) build: BuildFn,
}

/// Builds a configured policy from a spec's values.
pub type BuildFn = fn(&Params) -> Result<Box<dyn Policy>, SpecError>;

impl PolicyInfo {
    /// An entry for [`Registry::add`]: `build` reads the keys through [`Params`] and returns
    /// the policy (whose `spec()` is best [`Params::canonical`]).
    pub const fn new(
        name: &'static str,
        summary: &'static str,
        keys: &'static [KeyInfo],
        build: BuildFn,
    ) -> Self {
        Self {
            name,
            summary,
            description: "",
            source: "",
            keys,
            alias_of: None,
            build,
        }
    }
}

/// The policies a program can name: the catalogue, plus its own.
///
/// ```
/// use schedlab::policy::{PolicyInfo, Registry};
/// let mut registry = Registry::builtin();
/// registry.add(PolicyInfo::new("my-easy", "EASY under another name", &[], |_| {
///     schedlab::policy::build("easy")
/// }))
/// .unwrap();
/// assert!(registry.build("my-easy").is_ok());
/// assert!(registry.build("my-easy[x=1]").is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Registry {
    entries: Vec<PolicyInfo>,
}

impl Registry {
    /// The catalogue.
    pub fn builtin() -> Self {
        Self {
            entries: super::catalogue().to_vec(),
        }
    }

    /// Adds a policy; an error when its name is taken or not a spec name.
    pub fn add(&mut self, info: PolicyInfo) -> Result<(), SpecError> {
        let err = |reason: String| SpecError {
            spec: info.name.to_string(),
            reason,
        };
        let spec = Spec::parse(info.name)?;
        if spec.name != info.name || !spec.params.is_empty() {
            return Err(err("not a policy name".into()));
        }
        if self.entries.iter().any(|p| p.name == info.name) {
            return Err(err("a policy of that name exists".into()));
        }
        self.entries.push(info);
        Ok(())
    }

    /// Every entry, the catalogue's first.
    pub fn entries(&self) -> &[PolicyInfo] {
        &self.entries
    }

    /// Parses a spec string and builds the configured policy.
    pub fn build(&self, text: &str) -> Result<Box<dyn Policy>, SpecError> {
        build_from(&self.entries, text)
    }
}

/// Finds the spec's policy in `entries`, checks its keys and builds it.
pub(super) fn build_from(entries: &[PolicyInfo], text: &str) -> Result<Box<dyn Policy>, SpecError> {
    let (info, spec) = checked(entries, text)?;
    (info.build)(&Params::new(info.name, info.keys, &spec, text))
}

/// The spec parsed, with its policy's entry in `entries`; an error for an unknown policy or
/// key.
fn checked<'e>(entries: &'e [PolicyInfo], text: &str) -> Result<(&'e PolicyInfo, Spec), SpecError> {
    let spec = Spec::parse(text)?;
    let err = |reason: String| SpecError {
        spec: text.to_string(),
        reason,
    };
    let names = |it: &mut dyn Iterator<Item = &'static str>| it.collect::<Vec<_>>().join(", ");
    let info = entries
        .iter()
        .find(|p| p.name == spec.name)
        .ok_or_else(|| {
            let near = entries
                .iter()
                .find(|p| crate::spec::one_typo(&spec.name, p.name));
            err(format!(
                "unknown policy \"{}\"{}; valid: {}",
                spec.name,
                near.map_or(String::new(), |p| format!(
                    " (did you mean \"{}\"?)",
                    p.name
                )),
                names(&mut entries.iter().map(|p| p.name))
            ))
        })?;
    for (k, v) in &spec.params {
        if !info.keys.iter().any(|key| key.name == k) {
            let valid = if info.keys.is_empty() {
                "it takes no keys".to_string()
            } else {
                format!(
                    "valid keys: {}",
                    names(&mut info.keys.iter().map(|k| k.name))
                )
            };
            // A key of one of the values (`virtual[err=x]`) written beside it: say where it goes.
            let home = info.keys.iter().find_map(|key| {
                let value = nested_home(&key.values.text(), k)?;
                Some(format!(
                    " (\"{k}\" is a key of {}={value}: write {}={value}[{k}={v}])",
                    key.name, key.name
                ))
            });
            // A key of other policies (`easy[bf_window=60]`: slurm's): say whose.
            let home = home.or_else(|| {
                let owners: Vec<&str> = entries
                    .iter()
                    .filter(|p| p.keys.iter().any(|key| key.name == k))
                    .map(|p| p.name)
                    .collect();
                (!owners.is_empty()).then(|| format!(" (a key of {})", owners.join(", ")))
            });
            // A key one typo from a valid one, or the same but for case (`priorityweightage`).
            let low = k.to_ascii_lowercase();
            let near = (info.keys.iter())
                .find(|key| crate::spec::one_typo(&low, &key.name.to_ascii_lowercase()))
                .map_or(String::new(), |key| {
                    format!(" (did you mean \"{}\"?)", key.name)
                });
            return Err(err(format!(
                "unknown key \"{k}\" for {}{near}; {valid}{}",
                info.name,
                home.unwrap_or_default()
            )));
        }
    }
    Ok((info, spec))
}

/// The value among a key's listed `values` (`user|virtual[err=x]|rfactor[r=R,mode=M]`) whose
/// own keys include `key`: `virtual` for `err`, `rfactor` for `mode`; `None` when none has it.
fn nested_home(values: &str, key: &str) -> Option<String> {
    let mut depth = 0usize;
    let mut alternatives = vec![String::new()];
    for c in values.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '|' if depth == 0 => {
                alternatives.push(String::new());
                continue;
            }
            _ => {}
        }
        alternatives.last_mut()?.push(c);
    }
    alternatives.iter().find_map(|alt| {
        let (name, inner) = alt.trim().split_once('[')?;
        let inner = inner.strip_suffix(']')?;
        inner
            .split(',')
            .any(|kv| kv.split_once('=').map_or(kv, |(k, _)| k).trim() == key)
            .then(|| name.trim().to_string())
    })
}
