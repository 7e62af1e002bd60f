//! A policy whose decisions come from outside the engine: the page's JavaScript policies
//! (`js:NAME`), called through the wasm facade. At every pass the decider sees what a real
//! scheduler knows ([`PassView`]: the time, the free processors, the waiting jobs in arrival
//! order, the running jobs with their planned ends) and returns the ids of the jobs to start
//! now, in order. Every returned value is checked here: a number that is not a job id, a job
//! that is not waiting (running, finished, not submitted yet, or returned twice) or does not
//! fit the free processors ends the run with an error naming the job and the time. On a
//! cluster, a returned job the free processors hold but no free nodes do (their cores, memory
//! or GPUs) waits for a later pass, with the jobs returned after it. Jobs start planned to end
//! after their estimate (the requested time by default), as with every built-in policy's
//! default.

use crate::sim::{Ctx, Jobs, Policy, SimError, Waiting};
use crate::Time;
use std::collections::HashMap;

/// One scheduling pass as an external policy sees it (job indices in arrival order; the
/// decider reads the jobs' public fields — id, user, procs, submit, requested, estimate — from
/// the job set it was given).
pub struct PassView<'v> {
    pub now: Time,
    pub procs: u32,
    pub free: u32,
    /// Waiting jobs in arrival order.
    pub waiting: &'v Waiting,
    /// Running jobs as `(job, start, planned end)`, earliest planned end first.
    pub running: &'v [(usize, Time, Time)],
    /// What changed in `waiting` since the previous pass (for deciders that keep their own
    /// copy of the queue, such as the page's, so that a pass costs the change, not the queue):
    /// the jobs the previous pass started, which left it ...
    pub left: &'v [usize],
    /// ... and the jobs that joined it since (submitted), in arrival order: the tail of
    /// `waiting`. External policies never preempt, so nothing else enters or leaves it.
    pub arrived: &'v [usize],
}

/// One job to start now: its trace id, and optionally the reason in the policy's own word (a
/// built-in word such as `backfilled` is checked as the built-in reason; without one the
/// engine's default: `head` when no earlier-arrived job is waiting, else `ahead`).
#[derive(Debug, Clone, PartialEq)]
pub struct Pick {
    pub id: f64,
    pub reason: Option<String>,
}

impl From<f64> for Pick {
    fn from(id: f64) -> Self {
        Pick { id, reason: None }
    }
}

impl From<(f64, &str)> for Pick {
    fn from((id, reason): (f64, &str)) -> Self {
        Pick {
            id,
            reason: Some(reason.to_string()),
        }
    }
}

/// What decides: the jobs to start now, in order, or an error message (an exception in the
/// user's code, a result that is not a list of job ids).
pub trait Decider {
    fn decide(&mut self, view: &PassView<'_>) -> Result<Vec<Pick>, String>;
}

impl<P: Into<Pick>, F: FnMut(&PassView<'_>) -> Result<Vec<P>, String>> Decider for F {
    fn decide(&mut self, view: &PassView<'_>) -> Result<Vec<Pick>, String> {
        self(view).map(|v| v.into_iter().map(Into::into).collect())
    }
}

/// How many elements of a decider's answer of `len` elements to read, for a trace of `jobs`
/// jobs: an answer longer than the trace cannot be a list of jobs to start (each job starts at
/// most once), and is refused before anything is allocated for it (a JavaScript array's length
/// may be 2^32 - 1 with no element set).
pub fn answer_len(len: u64, jobs: usize) -> Result<usize, String> {
    match usize::try_from(len) {
        Ok(n) if n <= jobs => Ok(n),
        _ => Err(format!(
            "schedule(view) returned an array of {len} elements: at most the trace's {jobs} jobs can start"
        )),
    }
}

/// The largest integer a double holds exactly.
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// A policy driven by a [`Decider`].
pub struct External<D: Decider> {
    name: String,
    decider: D,
    /// Job indices by trace id (ids may repeat in a trace).
    by_id: HashMap<i64, Vec<usize>>,
    running: Vec<(usize, Time, Time)>,
    /// Jobs started in the current pass (the next pass's `left`).
    started: Vec<usize>,
    /// The largest job index any pass has seen waiting (jobs above it arrived since).
    seen: Option<usize>,
    /// The jobs that joined the waiting list since the previous pass.
    arrived: Vec<usize>,
}

impl<D: Decider> External<D> {
    /// `name` is the policy's spec as results show it (`js:my-policy`).
    pub fn new(name: impl Into<String>, decider: D) -> Self {
        External {
            name: name.into(),
            decider,
            by_id: HashMap::new(),
            running: Vec::new(),
            started: Vec::new(),
            seen: None,
            arrived: Vec::new(),
        }
    }

    /// The waiting job with trace id `id`, or why none is.
    fn waiting_job(&self, c: &Ctx<'_>, value: f64) -> Result<usize, String> {
        if !value.is_finite() || value.fract() != 0.0 || value.abs() > MAX_EXACT {
            let shown = if value.is_finite() && value.abs() >= 1e16 {
                format!("{value:e}")
            } else {
                format!("{value}")
            };
            return Err(format!("returned {shown}, which is not a job id"));
        }
        let id = value as i64;
        let Some(candidates) = self.by_id.get(&id) else {
            return Err(format!("returned {id}: the trace has no job {id}"));
        };
        // Waiting: in the engine's waiting list (sorted by index) and not started by this pass
        // (a started job has left it already); a binary search, so a pass costs no scan of it.
        if let Some(&j) = candidates.iter().find(|&&j| c.waiting().contains(j)) {
            return Ok(j);
        }
        let j = candidates[0];
        let why = if candidates.iter().any(|k| self.started.contains(k)) {
            "it was already started in this pass (returned twice)"
        } else if c.job(j).submit > c.now() {
            "it has not been submitted yet"
        } else if self.running.iter().any(|r| candidates.contains(&r.0)) {
            "it is running"
        } else {
            "it has finished"
        };
        Err(format!("returned job {id}, which is not waiting: {why}"))
    }
}

impl<D: Decider> Policy for External<D> {
    fn spec(&self) -> String {
        self.name.clone()
    }

    fn prepare(&mut self, jobs: Jobs<'_>, _procs: u32) -> Vec<(usize, String)> {
        self.by_id.clear();
        for (j, job) in jobs.iter().enumerate() {
            self.by_id.entry(job.id).or_default().push(j);
        }
        self.started.clear();
        self.seen = None;
        Vec::new()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        self.running.clear();
        self.running
            .extend(c.running().map(|(end, j)| (j, c.start_of(j), end)));
        let waiting = c.waiting();
        self.arrived.clear();
        self.arrived
            .extend(waiting.from(self.seen.map_or(0, |seen| seen + 1)));
        if let Some(&last) = self.arrived.last() {
            self.seen = Some(last);
        }
        let left = std::mem::take(&mut self.started);
        let view = PassView {
            now: c.now(),
            procs: c.procs(),
            free: c.free(),
            waiting,
            running: &self.running,
            left: &left,
            arrived: &self.arrived,
        };
        let fail = |reason: String| SimError::Failed {
            policy: self.name.clone(),
            time: c.now(),
            reason,
        };
        let picks = self.decider.decide(&view).map_err(fail)?;
        let invalid = |c: &Ctx<'_>, reason: String| SimError::Invalid {
            policy: self.name.clone(),
            time: c.now(),
            reason,
        };
        // What was free when the policy was called (`view.free`): the jobs it returned
        // before a job that does not fit took the difference, which the error says.
        let free_at_call = c.free();
        for pick in picks {
            let j = self
                .waiting_job(c, pick.id)
                .map_err(|reason| invalid(c, reason))?;
            let job = c.job(j);
            // On a cluster the view's free processors are not its nodes: a job they hold may
            // still find no node with its cores, memory or GPUs free. It waits, and so do the
            // jobs returned after it (the list is an order: none overtakes it, as none overtakes
            // the built-in fcfs's head); the next pass offers them again. Before, the run ended
            // on an error saying that its processors were free.
            if job.procs <= c.free() && c.cluster().is_some() && !c.fits(j) {
                break;
            }
            if !c.fits(j) {
                // The jobs of this pass started before it.
                let earlier = match self.started.len() {
                    0 => String::new(),
                    k => format!(
                        " once the {} it returned before it started (view.free was {free_at_call}: \
                         each job started takes its processors from it)",
                        crate::plural::count(k, "job")
                    ),
                };
                return Err(invalid(
                    c,
                    format!(
                        "returned job {}, which needs {} processors: {} free{earlier}",
                        job.id,
                        job.procs,
                        c.free()
                    ),
                ));
            }
            self.started.push(j);
            let why = match pick.reason.as_deref() {
                Some(word) => Some(c.reason_word(word)?),
                None => None,
            };
            c.start_as(j, why, None, None)?;
        }
        Ok(())
    }
}
