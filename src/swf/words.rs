//! How a report names a job and the field it is about, in the words of the file it came from:
//! an SWF trace (or an sacct log, read as SWF records) by the line of its record and the SWF
//! field (`line 12 (job 5)`, `field 2 (submit_time)`); a Batsim workload, which has no lines,
//! by the job's place in its `jobs` array and Batsim's key (`jobs[11] (job 5)`, `subtime`).
//! The input rules' reasons for skipping a job and the reports that list them (the CLI's
//! stderr, the page's facts) all ask here.

use serde::{Deserialize, Serialize};

/// The words of a trace's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Words {
    /// A record is a line of the file, its fields SWF's 18 (an sacct log's jobs too).
    #[default]
    Swf,
    /// A record is a job of a Batsim workload's `jobs` array: its record's `line` is its place
    /// in that array, from 1 (`jobs[line - 1]`).
    Batsim,
    /// A record is a job of Slurm's JSON (`sacct --json`): its record's `line` is its place
    /// in the `jobs` array, from 1 (`jobs[line - 1]`); its fields are Slurm's keys.
    SlurmJson,
}

/// A field of a job that an input rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The submit time (SWF field 2, Batsim `subtime`).
    Submit,
    /// The recorded wait (field 3; a Batsim workload schedlab wrote: `swf_wait`).
    Wait,
    /// The runtime (field 4; Batsim: the `delay` of the job's `profile`).
    Run,
    /// The processors (field 5; Batsim `res`).
    Procs,
    /// The processors when field 5 has none: fields 5 and 8 (Batsim `res`).
    AnyProcs,
    /// The requested time (field 9; Batsim `walltime`).
    Requested,
    /// The status (field 11; a Batsim workload schedlab wrote: `swf_status`).
    Status,
    /// The partition (field 16; Batsim, schedlab's key `partition`).
    Partition,
}

impl Words {
    /// The field as a report names it: `field 2 (submit_time)`, or Batsim's `subtime`.
    pub fn field(self, f: Field) -> &'static str {
        match self {
            Words::Swf => match f {
                Field::Submit => "field 2 (submit_time)",
                Field::Wait => "field 3 (wait_time)",
                Field::Run => "field 4 (run_time)",
                Field::Procs => "field 5 (allocated_processors)",
                Field::AnyProcs => "fields 5 and 8 (processors)",
                Field::Requested => "field 9 (requested_time)",
                Field::Status => "field 11 (status)",
                Field::Partition => "field 16 (partition)",
            },
            Words::Batsim => match f {
                Field::Submit => "subtime",
                Field::Wait => "swf_wait",
                Field::Run => "profile (its delay)",
                Field::Procs | Field::AnyProcs => "res",
                Field::Requested => "walltime",
                Field::Status => "swf_status",
                Field::Partition => "partition",
            },
            Words::SlurmJson => match f {
                Field::Submit => "time.submission",
                Field::Wait => "time.start",
                Field::Run => "time.elapsed",
                Field::Procs | Field::AnyProcs => "tres.allocated (cpu)",
                Field::Requested => "time.limit",
                Field::Status => "state.current",
                Field::Partition => "partition",
            },
        }
    }

    /// The job of job number `id` whose record is at `line`: `line 12 (job 5)`, or a Batsim
    /// workload's `jobs[11] (job 5)`; `job 5` when its place is not known (line 0).
    pub fn job(self, line: u64, id: i64) -> String {
        match (self, line) {
            (_, 0) => format!("job {id}"),
            (Words::Swf, line) => format!("line {line} (job {id})"),
            (Words::Batsim | Words::SlurmJson, line) => format!("jobs[{}] (job {id})", line - 1),
        }
    }

    /// Where a record was read from, alone: `line 12`, or a Batsim workload's `jobs[11]`.
    pub fn place(self, line: u64) -> String {
        match self {
            Words::Swf => format!("line {line}"),
            Words::Batsim | Words::SlurmJson => format!("jobs[{}]", line.saturating_sub(1)),
        }
    }

    /// What the reader skips `n` of: `line`, `lines`, or a Batsim workload's `job`, `jobs`.
    pub fn records(self, n: u64) -> &'static str {
        match (self, n) {
            (Words::Swf, 1) => "line",
            (Words::Swf, _) => "lines",
            (Words::Batsim | Words::SlurmJson, 1) => "job",
            (Words::Batsim | Words::SlurmJson, _) => "jobs",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batsim_job_is_named_by_its_place_and_batsims_keys() {
        assert_eq!(Words::Swf.job(12, 5), "line 12 (job 5)");
        assert_eq!(Words::Batsim.job(12, 5), "jobs[11] (job 5)");
        assert_eq!(Words::Batsim.job(0, 5), "job 5");
        assert_eq!(Words::Batsim.place(1), "jobs[0]");
        assert_eq!(Words::Swf.field(Field::Submit), "field 2 (submit_time)");
        assert_eq!(Words::Batsim.field(Field::Submit), "subtime");
        assert_eq!(Words::Batsim.field(Field::Requested), "walltime");
        assert_eq!(Words::Batsim.field(Field::Procs), "res");
    }
}
