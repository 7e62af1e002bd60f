//! Jobs requeued (`sacct --duplicates`, the export the docs give): a job's records come in
//! the order of its runs, the last one is its outcome and the earlier runs are wasted work.
//! The job keeps the first record's submit time (Slurm resets `Submit` at each requeue), so
//! its wait counts the time lost. The earlier runs' processor-seconds are counted in a header
//! note, and the runs themselves kept ([`crate::swf::Workload::requeued`]) for the replay
//! (`historic`), which runs each one and preempts it at its recorded end, so that the Gantt
//! and the runs CSV show it where they show restarts. (The first record was kept and the
//! completed rerun skipped as "already read".)

use foldhash::HashSet;

use super::{Bad, Row, Text};
use crate::swf::SwfHeader;

/// The requeues seen in a file.
#[derive(Default)]
pub(super) struct Requeues {
    /// Jobs with more than one record.
    jobs: u64,
    /// Records before each job's last.
    runs: u64,
    /// Processor-seconds of the earlier runs.
    wasted: i128,
    /// Rows whose job's last record gave no job (it has not ended, or is a bad line).
    dropped: HashSet<usize>,
    ids: HashSet<String>,
}

impl Requeues {
    /// A later record (`later`) of a job whose earlier record gave the row `earlier` (an index
    /// of `rows`), or none. Gives the row to add (when the earlier record gave none), and
    /// passes on why the later record gives no job.
    pub(super) fn again<S: Text>(
        &mut self,
        id: &str,
        rows: &mut [Row<S>],
        earlier: Option<usize>,
        later: Result<Row<S>, Bad>,
    ) -> Result<Option<Row<S>>, Bad> {
        self.runs += 1;
        if !self.ids.contains(id) {
            self.ids.insert(id.to_owned());
            self.jobs += 1;
        }
        let Some(i) = earlier else {
            return later.map(Some);
        };
        let Some(first) = rows.get_mut(i) else {
            return later.map(Some);
        };
        if !self.dropped.contains(&i) {
            self.wasted += i128::from(first.cpus) * i128::from(first.run);
            // Kept for the replay, which draws it as a preempted run.
            first.earlier.push((first.start, first.run));
        }
        match later {
            Ok(mut r) => {
                r.submit = r.submit.min(first.submit);
                r.line = first.line.min(r.line);
                r.earlier = std::mem::take(&mut first.earlier);
                self.dropped.remove(&i);
                *first = r;
                Ok(None)
            }
            Err(why) => {
                self.dropped.insert(i);
                Err(why)
            }
        }
    }

    /// The rows of jobs whose last record gave a job.
    pub(super) fn kept<S: Text>(&self, rows: Vec<Row<S>>) -> Vec<Row<S>> {
        if self.dropped.is_empty() {
            return rows;
        }
        rows.into_iter()
            .enumerate()
            .filter(|(i, _)| !self.dropped.contains(i))
            .map(|(_, r)| r)
            .collect()
    }

    /// The header note, when a job was requeued.
    pub(super) fn note(&self, header: &mut SwfHeader) {
        if self.runs == 0 {
            return;
        }
        let _ = header.add_comment(&format!(
            "; Note: {} requeued jobs (several records of one JobID): each job's last record is its outcome, \
             its submit time the first record's; the {} earlier runs are wasted work: {} processor-seconds",
            self.jobs, self.runs, self.wasted
        ));
    }
}
