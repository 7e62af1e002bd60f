//! What the Batsim reader takes from a JSON workload, read as a stream: `nb_res`, the jobs'
//! fields it uses and the profiles' `type`, `delay` and `ret`. Everything else (other keys, nested
//! arrays and objects where a value is expected) is skipped as it is read, never built: a
//! 121 KB gzip of unused nested objects built 4.8 GB of JSON values. What is kept is counted
//! against the input's [`Budget`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Number;

use crate::swf::{Budget, SwfError};

/// A JSON value where the reader expects a scalar: arrays and objects are skipped, only their
/// kind kept.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Scalar {
    Null,
    Bool(bool),
    Number(Number),
    Str(String),
    Array,
    Object,
}

impl Scalar {
    /// The value as a whole number from 0 up, when it is one.
    pub(super) fn as_u64(&self) -> Option<u64> {
        match self {
            Scalar::Number(n) => n.as_u64(),
            _ => None,
        }
    }
}

impl fmt::Display for Scalar {
    /// As JSON (an array or object as `[…]` / `{…}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Null => f.write_str("null"),
            Scalar::Bool(b) => write!(f, "{b}"),
            Scalar::Number(n) => write!(f, "{n}"),
            Scalar::Str(s) => write!(f, "{}", serde_json::Value::String(s.clone())),
            Scalar::Array => f.write_str("[…]"),
            Scalar::Object => f.write_str("{…}"),
        }
    }
}

/// The visits of a scalar (null, boolean, number, string) in a visitor of something else:
/// each gives `$value` (of type `$t`).
macro_rules! scalars_give {
    ($t:ty, $value:expr) => {
        fn visit_unit<E>(self) -> Result<$t, E> {
            Ok($value)
        }
        fn visit_bool<E>(self, _: bool) -> Result<$t, E> {
            Ok($value)
        }
        fn visit_i64<E>(self, _: i64) -> Result<$t, E> {
            Ok($value)
        }
        fn visit_u64<E>(self, _: u64) -> Result<$t, E> {
            Ok($value)
        }
        fn visit_f64<E>(self, _: f64) -> Result<$t, E> {
            Ok($value)
        }
        fn visit_str<E>(self, _: &str) -> Result<$t, E> {
            Ok($value)
        }
    };
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Scalar, E> {
        Ok(Scalar::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Scalar, E> {
        Ok(Scalar::Number(n.into()))
    }
    fn visit_f64<E>(self, x: f64) -> Result<Scalar, E> {
        Ok(Number::from_f64(x).map_or(Scalar::Null, Scalar::Number))
    }
    fn visit_str<E>(self, s: &str) -> Result<Scalar, E> {
        Ok(Scalar::Str(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Scalar, E> {
        Ok(Scalar::Str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Array)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Object)
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

/// The keys of an object whose values the reader uses (`None`: the key is absent; a value
/// that is not an object has none).
#[derive(Debug, Default)]
pub(super) struct Fields {
    pub(super) object: bool,
    values: Vec<(&'static str, Scalar)>,
}

impl Fields {
    /// The value of `key` (the last one when the key repeats, as JSON readers do).
    pub(super) fn get(&self, key: &str) -> Option<&Scalar> {
        self.values
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    fn bytes(&self) -> u64 {
        let strings: usize = self
            .values
            .iter()
            .map(|(_, v)| match v {
                Scalar::Str(s) => s.len(),
                _ => 0,
            })
            .sum();
        (std::mem::size_of::<Fields>()
            + self.values.len() * std::mem::size_of::<(&str, Scalar)>()
            + strings) as u64
    }
}

/// Reads an object keeping the values of `keys`.
struct FieldsVisitor(&'static [&'static str]);

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut out = Fields {
            object: true,
            values: Vec::new(),
        };
        while let Some(key) = map.next_key::<String>()? {
            match self.0.iter().find(|k| **k == key) {
                Some(k) => out.values.push((k, map.next_value()?)),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(out)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Fields, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Fields::default())
    }
    scalars_give!(Fields, Fields::default());
}

/// The job fields the reader uses.
pub(super) const JOB_KEYS: &[&str] = &[
    "id",
    "subtime",
    "walltime",
    "wall_time",
    "res",
    "profile",
    "user_id",
    "user",
    "swf_requested_procs",
    "swf_status",
    "swf_wait",
    "swf_group",
    "nodes",
    "gpus",
    "mem_per_node_mb",
    "exclusive",
    "partition",
    // Not Batsim's: Slurm's JSON (`sacct --json`) names its jobs so, told apart by it.
    "job_id",
];
const PROFILE_KEYS: &[&str] = &["type", "delay", "ret"];

/// What the reader takes from a workload.
#[derive(Debug, Default)]
pub(super) struct Doc {
    /// The root is an object.
    pub(super) object: bool,
    pub(super) nb_res: Option<Scalar>,
    /// `None` when there is no `jobs` array.
    pub(super) jobs: Option<Vec<Fields>>,
    pub(super) profiles: HashMap<String, Fields>,
    /// `swf_header`: the SWF header's lines, written by schedlab ([`super::batsim_swf`]).
    pub(super) swf_header: Vec<String>,
}

impl Doc {
    /// Why this is no Batsim workload but Slurm's own JSON (`sacct --json`), whose `jobs`
    /// array holds jobs with a `job_id` and no `id` (each was refused as missing its id, as if
    /// the file were a broken Batsim workload); `None` when it is not that.
    pub(super) fn slurm_json(&self) -> Option<String> {
        let first = self.jobs.as_ref()?.first()?;
        (first.get("id").is_none() && first.get("job_id").is_some()).then(|| {
            format!(
                "jobs[0] has a job_id and no id, as Slurm's own JSON (sacct --json) has, but \
                 the start of the file names neither sacct's \"meta\" nor a job's \
                 time.submission, by which it is read as one: neither a Batsim workload nor \
                 sacct's JSON; sacct --json's output is read as it is, or export with \
                 --parsable2: sacct --allusers --duplicates --parsable2 --format {}",
                super::sacct::EXPORT_FIELDS
            )
        })
    }
}

/// Reads a [`Doc`], counting what it keeps against `budget`: the first excess is kept in
/// `over` (and ends the read).
struct DocSeed<'a> {
    source: &'a str,
    budget: &'a Budget,
    kept: RefCell<u64>,
    over: RefCell<Option<SwfError>>,
}

impl DocSeed<'_> {
    fn keep<E: serde::de::Error>(&self, bytes: u64, what: &dyn Fn() -> String) -> Result<(), E> {
        let mut kept = self.kept.borrow_mut();
        *kept += bytes;
        if *kept <= crate::swf::budget::FREE_BYTES {
            return Ok(());
        }
        match self.budget.check(self.source, *kept, &what()) {
            Ok(()) => Ok(()),
            Err(e) => {
                *self.over.borrow_mut() = Some(e);
                Err(E::custom("too large"))
            }
        }
    }
}

impl<'de> Visitor<'de> for &DocSeed<'_> {
    type Value = Doc;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Doc, A::Error> {
        let mut doc = Doc {
            object: true,
            ..Doc::default()
        };
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "nb_res" => doc.nb_res = Some(map.next_value()?),
                "jobs" => doc.jobs = map.next_value_seed(JobsSeed(self))?,
                "profiles" => doc.profiles = map.next_value_seed(ProfilesSeed(self))?,
                "swf_header" => {
                    let lines: Vec<Scalar> = map.next_value()?;
                    for line in lines {
                        if let Scalar::Str(l) = line {
                            self.keep(l.len() as u64 + 24, &|| "its swf_header".to_owned())?;
                            doc.swf_header.push(l);
                        }
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(doc)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Doc, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Doc::default())
    }
    scalars_give!(Doc, Doc::default());
}

/// The `jobs` array (`None` when it is not an array).
struct JobsSeed<'s, 'a>(&'s DocSeed<'a>);

impl<'de> DeserializeSeed<'de> for JobsSeed<'_, '_> {
    type Value = Option<Vec<Fields>>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        match d.deserialize_any(ListVisitor(self.0))? {
            Listed::Jobs(jobs) => Ok(Some(jobs)),
            _ => Ok(None),
        }
    }
}

/// The `profiles` object (empty when it is not an object).
struct ProfilesSeed<'s, 'a>(&'s DocSeed<'a>);

impl<'de> DeserializeSeed<'de> for ProfilesSeed<'_, '_> {
    type Value = HashMap<String, Fields>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        match d.deserialize_any(ListVisitor(self.0))? {
            Listed::Profiles(p) => Ok(p),
            _ => Ok(HashMap::new()),
        }
    }
}

enum Listed {
    Jobs(Vec<Fields>),
    Profiles(HashMap<String, Fields>),
    Other,
}

/// An array read as jobs, an object as profiles, anything else skipped.
struct ListVisitor<'s, 'a>(&'s DocSeed<'a>);

impl<'de> Visitor<'de> for ListVisitor<'_, '_> {
    type Value = Listed;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Listed, A::Error> {
        let mut jobs = Vec::new();
        while let Some(job) = seq.next_element_seed(FieldsSeed(JOB_KEYS))? {
            let n = jobs.len() + 1;
            self.0
                .keep(job.bytes(), &|| format!("{n} jobs read from it"))?;
            jobs.push(job);
        }
        Ok(Listed::Jobs(jobs))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Listed, A::Error> {
        let mut profiles = HashMap::new();
        while let Some(name) = map.next_key::<String>()? {
            let p = map.next_value_seed(FieldsSeed(PROFILE_KEYS))?;
            let n = profiles.len() + 1;
            let bytes = p.bytes() + name.len() as u64;
            self.0
                .keep(bytes, &|| format!("{n} profiles read from it"))?;
            profiles.insert(name, p);
        }
        Ok(Listed::Profiles(profiles))
    }
    scalars_give!(Listed, Listed::Other);
}

struct FieldsSeed(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldsSeed {
    type Value = Fields;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Fields, D::Error> {
        d.deserialize_any(FieldsVisitor(self.0))
    }
}

/// Reads the document from JSON text, keeping no more than `budget` allows. `Err(Ok(e))`: the
/// budget's error; `Err(Err(e))`: the JSON's.
pub(super) fn read<R: std::io::Read>(
    source: &str,
    text: R,
    budget: &Budget,
) -> Result<Doc, Result<SwfError, serde_json::Error>> {
    let seed = DocSeed {
        source,
        budget,
        kept: RefCell::new(0),
        over: RefCell::new(None),
    };
    let mut de = serde_json::Deserializer::from_reader(text);
    let doc = de
        .deserialize_any(&seed)
        .and_then(|doc| de.end().map(|()| doc));
    match (doc, seed.over.into_inner()) {
        (_, Some(e)) => Err(Ok(e)),
        (Ok(doc), None) => Ok(doc),
        (Err(e), None) => Err(Err(e)),
    }
}
