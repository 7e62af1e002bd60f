//! Slurm's own JSON (`sacct --json`) read as an sacct log: each job of its `jobs` array is a
//! job line with the same conventions ([`super`]), so that a JSON dump and a `--parsable2`
//! export of one run give the same jobs. Both layouts: Slurm 22.05's (plain numbers, `null`
//! for an unset one, `state.current` a text) and 23.02's and later (numbers as `{"set",
//! "infinite", "number"}`, `state.current` a list of 23.11 on): `value.rs`. The keys read:
//! `job.rs`; the mapping: `row.rs` and docs/workloads.md ("Slurm's JSON").
//!
//! Streamed: each job is read, turned into its row and dropped, its `steps` and every key the
//! reader does not use skipped as they are read, so that a dump of a million jobs never holds
//! its text (the rows alone: about the memory of a `--parsable2` export's).
//! A job that gives no job is reported by its place and job id (`jobs[4] (job 1234),
//! time.start: ...`); text that is not JSON, or not of sacct's shape, stops the read naming the
//! job where it broke, with serde's line and column.

mod job;
mod priority;
mod row;
mod value;

pub use priority::priorities;

use std::cell::RefCell;
use std::fmt;
use std::io::Read;

use foldhash::HashMap;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{finish, requeue::Requeues, Row, State};
use crate::swf::{Budget, ReadOptions, SwfError, Workload};

/// Is this (the start of a file, decompressed) Slurm's JSON? An object whose text names a
/// job's `job_id` (no Batsim key) with sacct's `meta` or a job's `submission` time.
pub fn looks_like(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let Some(first) = head.iter().position(|b| !b.is_ascii_whitespace()) else {
        return false;
    };
    if head[first] != b'{' {
        return false;
    }
    let has = |needle: &[u8]| head.windows(needle.len()).any(|w| w == needle);
    has(b"\"job_id\"") && (has(b"\"submission\"") || has(b"\"meta\""))
}

/// What the read keeps as it goes.
struct Reading<'o> {
    st: State<'o>,
    source: &'o str,
    budget: &'o Budget,
    /// About the bytes the rows keep (their own size and their texts').
    kept: u64,
    rows: Vec<Row<String>>,
    /// Job id -> its row, if its (last) record gave one.
    by_id: HashMap<String, Option<usize>>,
    requeues: Requeues,
    /// The place of the job being read (its index in `jobs`).
    place: usize,
    jobs: u64,
    /// A job says how Slurm started it (`flags`).
    flags: bool,
    /// The first error of a strict read, or a job that stops it.
    stop: Option<SwfError>,
    saw_jobs: bool,
    /// Within the `jobs` array.
    in_list: bool,
}

impl Reading<'_> {
    /// Where a job is, for a message: `jobs[4] (job 1234)`.
    fn at(&self, id: Option<&str>) -> String {
        match id {
            Some(id) => format!("jobs[{}] (job {id})", self.place),
            None => format!("jobs[{}]", self.place),
        }
    }

    fn job(&mut self, j: job::Job) -> Result<(), SwfError> {
        self.jobs += 1;
        self.flags |= j.flags.is_some();
        let id = row::job_id(&j).ok().map(|(id, _)| id);
        let parsed = row::row(self.place as u64 + 1, j);
        let Some(id) = id else {
            let (field, why, _) = parsed.err().unwrap_or_default();
            return self.issue(None, field, why, true);
        };
        let parsed = match self.by_id.get(&id) {
            // A job requeued (`--duplicates`): this record is its latest run.
            Some(&earlier) => self.requeues.again(&id, &mut self.rows, earlier, parsed),
            None => parsed.map(Some),
        };
        match parsed {
            Ok(None) => Ok(()),
            Ok(Some(r)) => {
                let texts = [&r.id, &r.user, &r.group, &r.partition, &r.account, &r.qos]
                    .into_iter()
                    .chain([&r.name, &r.node_list])
                    .map(|t| t.len() as u64)
                    .sum::<u64>();
                // The row, its texts, and its id again as a key of `by_id`.
                self.kept +=
                    std::mem::size_of::<Row<String>>() as u64 + texts + 2 * id.len() as u64 + 64;
                self.by_id.insert(id, Some(self.rows.len()));
                self.rows.push(r);
                let what = format!("its {} jobs read so far", self.rows.len());
                self.budget.check(self.source, self.kept, &what)
            }
            Err((field, why, bad)) => {
                let out = self.issue(Some(&id), field, why, bad);
                self.by_id.insert(id, None);
                out
            }
        }
    }

    /// A job that gives none: `bad` fails a strict read; a convention (never started) never.
    fn issue(
        &mut self,
        id: Option<&str>,
        field: Option<String>,
        why: String,
        bad: bool,
    ) -> Result<(), SwfError> {
        let at = self.at(id);
        let field = Some(match field {
            Some(f) => format!("{at}, {f}"),
            None => at,
        });
        self.st.line = 0;
        if bad {
            self.st.skip(field, why)
        } else {
            let opts = ReadOptions {
                strict: false,
                ..*self.st.opts
            };
            self.st.record(field, why, &opts)
        }
    }
}

/// Reads `sacct --json` from `text` (plain: the caller decompresses). `source` names it in
/// every message; what the jobs keep is held to `budget` (the input's size, or what was read
/// of it: [`Budget::counting`]), so that a small gzip of repeated jobs is refused.
pub fn read_stream<R: Read>(
    source: &str,
    text: R,
    opts: &ReadOptions,
    budget: &Budget,
) -> Result<Workload, SwfError> {
    let reading = RefCell::new(Reading {
        st: State::new(source, opts),
        source,
        budget,
        kept: 0,
        rows: Vec::new(),
        by_id: HashMap::default(),
        requeues: Requeues::default(),
        place: 0,
        jobs: 0,
        flags: false,
        stop: None,
        saw_jobs: false,
        in_list: false,
    });
    let no_jobs = |detail: String| SwfError::NoJobs {
        file: source.to_owned(),
        detail,
    };
    let mut de = serde_json::Deserializer::from_reader(std::io::BufReader::new(text));
    let read = de.deserialize_map(Top(&reading)).and_then(|()| de.end());
    let mut r = reading.into_inner();
    if let Some(e) = r.stop.take() {
        return Err(e);
    }
    if let Err(e) = read {
        let at = if r.in_list {
            format!("at jobs[{}]: ", r.place)
        } else {
            String::new()
        };
        let what = if e.is_io() {
            "could not be read"
        } else {
            "not sacct's JSON"
        };
        return Err(no_jobs(format!("{what}: {at}{e}")));
    }
    if !r.saw_jobs {
        return Err(no_jobs(
            "Slurm's JSON without a \"jobs\" array (sacct --json names its jobs so)".into(),
        ));
    }
    let rows = r.requeues.kept(r.rows);
    if rows.is_empty() {
        let detail = match (r.jobs, r.st.w.issues.first()) {
            (0, _) => "the \"jobs\" array is empty".to_string(),
            (n, Some(i)) => format!("none of the {n} jobs gave a job; first: {i}"),
            (n, None) => format!("none of the {n} jobs gave a job"),
        };
        return Err(no_jobs(detail));
    }
    let mut w = r.st.w;
    w.words = crate::swf::words::Words::SlurmJson;
    Ok(finish(rows, &r.requeues, w, source, r.flags))
}

/// The top-level object: `jobs` read job by job, the rest (`meta`, `errors`, ...) skipped.
struct Top<'r, 'o>(&'r RefCell<Reading<'o>>);

impl<'de> Visitor<'de> for Top<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object with a \"jobs\" array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "jobs" {
                self.0.borrow_mut().saw_jobs = true;
                map.next_value_seed(Jobs(self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// The `jobs` array, each job handed to [`Reading::job`] as it is read.
struct Jobs<'r, 'o>(&'r RefCell<Reading<'o>>);

impl<'de> DeserializeSeed<'de> for Jobs<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Jobs<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of jobs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.borrow_mut().in_list = true;
        loop {
            let job = seq.next_element::<job::Job>()?;
            let Some(job) = job else {
                self.0.borrow_mut().in_list = false;
                return Ok(());
            };
            let mut r = self.0.borrow_mut();
            if let Err(e) = r.job(job) {
                r.stop = Some(e);
                return Err(serde::de::Error::custom("stopped"));
            }
            r.place += 1;
        }
    }
}
