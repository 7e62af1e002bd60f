//! Records turned into jobs as the reader hands them over ([`RawJobs`]), so that a trace's
//! records (176 bytes each) are never all held at once: a record becomes a *raw job* at once
//! (the job's 112 bytes, some fields still holding the record's values), and
//! [`super::prepare_raw`] then applies the input rules in place.
//!
//! A raw job holds the record's values in the job's fields: `submit` = field 2 (not yet moved
//! to the origin), `trace_runtime` = field 4, `trace_wait` = field 3, `runtime` = the
//! processor count (field 5, else field 8, not yet clamped), `estimate` = field 9 as read,
//! `bandwidth` = the node model's field when it names one (NaN when the job has no value in
//! it), `id`, `line`, `user`, `status` and the memories as in the job. `procs`, `requested`,
//! `estimate_unknown` and `killed` are set by the input rules. `req` is the record's request,
//! its partition numbered in the trace's partitions ([`Partitions`]).

use super::{InputOptions, Job};
use crate::job::Request;
use crate::swf::{RecordSink, SwfRecord};
use foldhash::HashMap;

/// Raw jobs per block while the count is unknown (7 MiB of jobs); blocks start small and
/// double up to this, so that a small trace takes little.
const BLOCK_JOBS: usize = 1 << 16;
const FIRST_BLOCK_JOBS: usize = 256;

/// The raw jobs of a trace being read: in blocks while their count is unknown (a growing
/// vector would hold its old and new room at once while it moves, half of it unused), in one
/// vector when the reader told beforehand how many records there are at most.
pub struct RawJobs {
    /// The node model's bandwidth field (1-based SWF field; 19 and up are extra columns).
    field: Option<u32>,
    full: Vec<Vec<Job>>,
    cur: Vec<Job>,
    /// The partitions met (field 16, each >= 0), in order of first appearance.
    pub(super) partitions: Partitions,
}

/// The partitions of a trace's records: field 16 values numbered 1, 2, ... in order of first
/// appearance in the file ([`crate::job::Request::partition`]); a value < 0 is none (0).
#[derive(Default)]
pub(super) struct Partitions {
    /// Field 16 values, partition `k` being `values[k - 1]`.
    pub(super) values: Vec<i64>,
    index: HashMap<i64, u16>,
    /// The last value met and its number (most traces repeat one partition).
    last: Option<(i64, u16)>,
    /// Jobs whose partition came after the 65,535th: counted as given none.
    pub(super) beyond: u64,
}

impl Partitions {
    fn number(&mut self, value: i64) -> u16 {
        if value < 0 {
            return 0;
        }
        if let Some((v, k)) = self.last {
            if v == value {
                return k;
            }
        }
        let k = match self.index.get(&value) {
            Some(&k) => k,
            None if self.values.len() < usize::from(u16::MAX) => {
                self.values.push(value);
                let k = self.values.len() as u16;
                self.index.insert(value, k);
                k
            }
            None => {
                self.beyond += 1;
                return 0;
            }
        };
        self.last = Some((value, k));
        k
    }

    /// The partitions' names: field 16 value `v` is `names[v - 1]` when the workload names it
    /// (sacct, Batsim), else the number as text (SWF).
    pub(super) fn names(&self, names: &[String]) -> Vec<String> {
        self.values
            .iter()
            .map(|&v| {
                usize::try_from(v - 1)
                    .ok()
                    .and_then(|i| names.get(i))
                    .cloned()
                    .unwrap_or_else(|| v.to_string())
            })
            .collect()
    }
}

impl RawJobs {
    /// Raw jobs for the input options `opts` (which field holds the memory bandwidth).
    pub fn new(opts: &InputOptions) -> RawJobs {
        RawJobs {
            field: opts.nodes.as_ref().and_then(|m| m.field),
            full: Vec::new(),
            cur: Vec::new(),
            partitions: Partitions::default(),
        }
    }

    /// The raw jobs of records kept in a workload.
    pub fn of_records(records: &[SwfRecord], opts: &InputOptions) -> RawJobs {
        let mut raw = RawJobs::new(opts);
        raw.cur.reserve_exact(records.len());
        for r in records {
            let job = raw_job(r, raw.field, &mut raw.partitions);
            raw.cur.push(job);
        }
        raw
    }

    pub fn len(&self) -> usize {
        self.full.iter().map(Vec::len).sum::<usize>() + self.cur.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every raw job in file order, in one vector of exactly their number (each block is
    /// freed as soon as it is moved).
    pub(super) fn into_vec(self) -> (Vec<Job>, Partitions) {
        let len = self.len();
        let partitions = self.partitions;
        if self.full.is_empty() {
            return (self.cur, partitions);
        }
        let mut all = Vec::with_capacity(len);
        for block in self.full {
            all.extend(block);
        }
        all.extend(self.cur);
        (all, partitions)
    }
}

impl RecordSink for RawJobs {
    fn push(&mut self, record: SwfRecord) {
        if self.cur.len() == self.cur.capacity() {
            let next = (self.cur.capacity() * 2).clamp(FIRST_BLOCK_JOBS, BLOCK_JOBS);
            let block = std::mem::replace(&mut self.cur, Vec::with_capacity(next));
            if !block.is_empty() {
                self.full.push(block);
            }
        }
        let job = raw_job(&record, self.field, &mut self.partitions);
        self.cur.push(job);
    }

    fn records_hint(&mut self, count: &dyn Fn() -> usize) {
        if self.is_empty() {
            self.cur.reserve_exact(count());
        }
    }
}

/// The raw job of a record (see the module's documentation).
fn raw_job(r: &SwfRecord, field: Option<u32>, partitions: &mut Partitions) -> Job {
    let mut job = Job {
        id: r.job_number,
        line: r.line,
        submit: r.submit_time,
        runtime: record_procs(r),
        trace_runtime: r.run_time,
        estimate: r.requested_time,
        user: r.user_id,
        status: r.status,
        used_memory: r.used_memory,
        requested_memory: crate::swf::kb_per_processor(r),
        bandwidth: field.map_or(0.0, |f| field_value(r, f).unwrap_or(f64::NAN)),
        req: Request {
            partition: partitions.number(r.partition),
            ..r.req
        },
        ..Job::default()
    };
    job.set_trace_wait(Some(r.wait_time));
    job
}

/// Processors of a record: field 5, else field 8.
fn record_procs(r: &SwfRecord) -> i64 {
    if r.allocated_processors > 0 {
        r.allocated_processors
    } else {
        r.requested_processors
    }
}

/// The numeric value of SWF field `f` (1-based; 19 and up are extra columns), if any.
fn field_value(r: &SwfRecord, f: u32) -> Option<f64> {
    let v = match f {
        1 => r.job_number as f64,
        2 => r.submit_time as f64,
        3 => r.wait_time as f64,
        4 => r.run_time as f64,
        5 => r.allocated_processors as f64,
        6 => r.average_cpu_time,
        7 => r.used_memory,
        8 => r.requested_processors as f64,
        9 => r.requested_time as f64,
        10 => r.requested_memory,
        11 => r.status as f64,
        12 => r.user_id as f64,
        13 => r.group_id as f64,
        14 => r.executable as f64,
        15 => r.queue as f64,
        16 => r.partition as f64,
        17 => r.preceding_job as f64,
        18 => r.think_time as f64,
        _ => r
            .extra
            .get((f as usize).checked_sub(19)?)?
            .parse::<f64>()
            .ok()?,
    };
    v.is_finite().then_some(v)
}
