//! Replays the trace's own start times (submit + recorded wait, field 3; `historic`): each job
//! starts at its recorded start, or as soon as it fits after it. The engine leaves out the jobs
//! without a recorded wait and shows this rule the recorded starts (`Ctx::recorded_start`).
//! A requeued job's earlier runs (sacct `--duplicates`, [`crate::input::JobSet::earlier_runs`]) are
//! replayed too: each starts at its recorded time (or as soon as it fits) and is preempted when
//! its recorded length has run, so that its work counts as lost and the Gantt draws it where it
//! draws restarts; the job's last run starts after them. An earlier run as long as the job's
//! last one or longer is left out (it would complete the job).
//!
//! On a cluster a due job starts on the nodes of its recorded run when the log names them (an
//! sacct log's `NodeList`) and they are free, else on the default node selection when it fits:
//! a log replayed on its own cluster keeps its recorded schedule node for node. One whose
//! recorded start finds no room (the trace ran on another machine, or jobs before it were
//! late) starts when it first fits after it, in recorded order, with the start reason
//! `replay-late` (counted among the run's start reasons). On one pool every start stays
//! `replay`.

use super::StartRule;
use crate::cluster::Alloc;
use crate::policy::queue::Queue;
use crate::sim::{Ctx, Happening, SimError};
use crate::Time;
use std::collections::{BTreeSet, HashMap};

/// The start reason of a job started on a cluster after its recorded start.
pub const LATE: &str = "replay-late";

/// The trace's own schedule: each job at its recorded start, or as soon as it fits after it.
#[derive(Default)]
pub struct Replay {
    /// Waiting jobs by (recorded start, job).
    ready: BTreeSet<(Time, usize)>,
    /// Earlier runs still to start, by (recorded start, job, seconds run).
    earlier: BTreeSet<(Time, usize, Time)>,
    /// Earlier runs running, by (end, job): preempted then.
    ends: BTreeSet<(Time, usize)>,
    /// Per job with earlier runs, how many have not ended yet (its last run waits for them).
    pending: HashMap<usize, usize>,
    /// Every earlier run the trace records, as (job, start, seconds run), by job.
    given: Vec<(usize, Time, Time)>,
    /// On a cluster, each job's allocation on its recorded nodes, by job (empty: none known).
    nodes: Vec<Option<Alloc>>,
}

impl Replay {
    /// Takes note of job `j`'s earlier runs as it is submitted.
    fn submitted(&mut self, c: &Ctx<'_>, j: usize) {
        let start = c.recorded_start(j).unwrap_or(c.job(j).submit);
        self.ready.insert((start, j));
        let from = self.given.partition_point(|r| r.0 < j);
        let mut n = 0;
        for &(_, at, run) in self.given[from..].iter().take_while(|r| r.0 == j) {
            self.earlier.insert((at, j, run));
            n += 1;
        }
        if n > 0 {
            self.pending.insert(j, n);
        }
    }
}

impl StartRule for Replay {
    fn replays_trace(&self) -> bool {
        true
    }

    fn recorded_earlier_runs(&mut self, runs: &[(usize, Time, Time)]) {
        self.given = runs.to_vec();
    }

    fn recorded_nodes(&mut self, allocs: &[Option<Alloc>]) {
        self.nodes = allocs.to_vec();
    }

    /// The queue is not read: the order of this rule is the recorded starts.
    fn pass(&mut self, c: &mut Ctx<'_>, _queue: &mut Queue<'_>) -> Result<(), SimError> {
        let submitted: Vec<usize> = c
            .happenings()
            .iter()
            .filter_map(|h| match *h {
                Happening::Submitted(j) => Some(j),
                _ => None,
            })
            .collect();
        for j in submitted {
            self.submitted(c, j);
        }
        let now = c.now();
        // Earlier runs whose recorded length has run end first (their processors come back).
        while let Some(&(end, j)) = self.ends.first().filter(|e| e.0 <= now) {
            self.ends.remove(&(end, j));
            c.preempt(j)?;
            if let Some(n) = self.pending.get_mut(&j) {
                *n -= 1;
                if *n == 0 {
                    self.pending.remove(&j);
                }
            }
        }
        // Then the earlier runs due, one at a time per job, each as soon as it fits.
        let due: Vec<(Time, usize, Time)> =
            self.earlier.range(..(now + 1, 0, 0)).copied().collect();
        for (t, j, run) in due {
            let running = self.ends.iter().any(|e| e.1 == j);
            if !running && c.fits(j) {
                c.start(j)?;
                self.earlier.remove(&(t, j, run));
                self.ends.insert((now.saturating_add(run), j));
            }
        }
        // Start every due job that fits, in recorded order; one that does not fit waits for room.
        let due: Vec<(Time, usize)> = self.ready.range(..(now + 1, 0)).copied().collect();
        for (t, j) in due {
            if c.free() == 0 {
                break;
            }
            if self.pending.contains_key(&j) {
                continue;
            }
            // On a cluster, the recorded nodes first when they are free.
            let recorded = self.nodes.get(j).and_then(Option::as_ref);
            let on = recorded.filter(|a| c.cluster().is_some_and(|cv| cv.takes(j, a)));
            if on.is_none() && !c.fits(j) {
                continue;
            }
            let reason = match t < now && c.cluster().is_some() {
                true => Some(c.reason_word(LATE)?),
                false => None,
            };
            match on {
                Some(a) => c.start_on(j, reason, a.clone(), None)?,
                None => c.start_as(j, reason, None, None)?,
            }
            self.ready.remove(&(t, j));
        }
        // Asked at every pass: a pass's wake-up replaces the earlier ones.
        let next = [
            self.ready.range((now + 1, 0)..).next().map(|r| r.0),
            self.earlier.range((now + 1, 0, 0)..).next().map(|r| r.0),
            self.ends.first().map(|e| e.0),
        ];
        if let Some(t) = next.into_iter().flatten().min() {
            c.wake_at(t);
        }
        Ok(())
    }
}
