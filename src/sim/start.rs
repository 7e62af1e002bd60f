//! Starting a job: the start decisions a policy makes through [`Ctx`] ([`Ctx::start`],
//! [`Ctx::start_with`], [`Ctx::start_as`], [`Ctx::start_on`]), the check of the start reason
//! it states, and the engine's bookkeeping of a start. On one pool of processors a start takes
//! the processors alone (one branch on the cluster, nothing of it touched); on a cluster it
//! takes nodes, by the default selection or as the policy gives them.
#![warn(missing_docs)]

use super::ctx::{new_state_id, Ev};
use super::procset::ProcSet;
use super::reason::{check_word, StartReason, MAX_WORDS};
use super::{Ctx, SimError};
use crate::cluster::Alloc;
use crate::quote::quote;
use crate::Time;

impl Ctx<'_> {
    /// Starts waiting job `j` now on the lowest free processors, planned to end after its
    /// estimate; the reason recorded is the default of [`Ctx::start_with`].
    pub fn start(&mut self, j: usize) -> Result<(), SimError> {
        self.start_with(j, None, None)
    }

    /// Starts waiting job `j` now, optionally on given processors and with a planned end. The
    /// reason recorded is the default for a policy that states none: [`StartReason::Head`]
    /// when no earlier-arrived job is waiting, else [`StartReason::Ahead`] (use
    /// [`Ctx::start_as`] to state it).
    pub fn start_with(
        &mut self,
        j: usize,
        on: Option<ProcSet>,
        planned_end: Option<Time>,
    ) -> Result<(), SimError> {
        self.start_as(j, None, on, planned_end)
    }

    /// The start reason for the policy's own word (a custom rule's): a built-in word gives the
    /// built-in reason. Words are 1 to 24 lowercase letters, digits or `-`; one simulation may
    /// use up to 200 distinct ones.
    pub fn reason_word(&mut self, word: &str) -> Result<StartReason, SimError> {
        if let Some(r) = StartReason::built_in(word) {
            return Ok(r);
        }
        if let Some(i) = self.words.iter().position(|w| w == word) {
            return Ok(StartReason::Word(i as u8));
        }
        check_word(word).map_err(|e| self.invalid(e))?;
        if self.words.len() >= MAX_WORDS {
            return Err(self.invalid(format!(
                "start reason {}: a policy may use at most {MAX_WORDS} words",
                quote(word)
            )));
        }
        self.words.push(word.to_string());
        Ok(StartReason::Word((self.words.len() - 1) as u8))
    }

    /// The reason the engine records for job `j` starting now, from the one the policy stated
    /// (`None`: the default of [`Ctx::start_with`]); `others` is true when another job is still
    /// waiting after this start, `earlier` when an earlier-arrived one is. A job that was
    /// preempted is `restarted`, a replaying policy's job `replay` (or the policy's own word); a claim the state
    /// contradicts is an invalid decision. Inlined in every start: the stated reason is then
    /// usually a constant and the check folds away.
    #[inline(always)]
    fn checked_reason(
        &self,
        j: usize,
        stated: Option<StartReason>,
        others: bool,
        earlier: bool,
    ) -> Result<StartReason, SimError> {
        if self.replay {
            // A replay's own word (on a cluster: a start later than the recorded one) is kept.
            return Ok(match stated {
                Some(w @ StartReason::Word(_)) => w,
                _ => StartReason::Replay,
            });
        }
        if self.records[j].preemptions > 0 {
            return Ok(StartReason::Restarted);
        }
        let r = stated.unwrap_or(if earlier {
            StartReason::Ahead
        } else {
            StartReason::Head
        });
        let wrong = match r {
            StartReason::Backfilled | StartReason::Extra | StartReason::Venture => {
                (!others).then_some("no other job is waiting")
            }
            StartReason::Ahead => (!earlier).then_some("no earlier-arrived job is waiting"),
            StartReason::Reserved => self.records[j]
                .first_reservation()
                .is_none()
                .then_some("it holds no reservation"),
            StartReason::Replay => Some("the policy does not replay the trace"),
            StartReason::Restarted => Some("it was never preempted"),
            StartReason::None => Some("a start needs a reason"),
            StartReason::Head | StartReason::Word(_) => None,
        };
        match wrong {
            Some(why) => Err(self.wrong_reason(j, r, why)),
            None => Ok(r),
        }
    }

    /// The error of job `j` started as `r`, which the state contradicts (`why`).
    #[cold]
    #[inline(never)]
    fn wrong_reason(&self, j: usize, r: StartReason, why: &str) -> SimError {
        let id = self.jobs[j].id;
        self.invalid(format!(
            "job {id} started as '{}', but {why}",
            r.word(&self.words)
        ))
    }

    /// Whether an earlier-arrived job waits ahead of waiting job `j`, and its checked start
    /// reason, or why it cannot start.
    #[inline(always)]
    fn startable(
        &self,
        j: usize,
        reason: Option<StartReason>,
    ) -> Result<(bool, StartReason), SimError> {
        if !self.waiting.contains(j) {
            return Err(self.invalid(format!("job index {j} is not waiting")));
        }
        let ahead = self.waiting.first() != Some(j);
        let reason = self.checked_reason(j, reason, self.waiting.len() > 1, ahead)?;
        Ok((ahead, reason))
    }

    /// Starts waiting job `j` now for the stated reason (see [`StartReason`]; `None`: the
    /// default of [`Ctx::start_with`]), optionally on given processors and with a planned end.
    pub fn start_as(
        &mut self,
        j: usize,
        reason: Option<StartReason>,
        on: Option<ProcSet>,
        planned_end: Option<Time>,
    ) -> Result<(), SimError> {
        let (ahead, reason) = self.startable(j, reason)?;
        let job = &self.jobs[j];
        let procs = match (on, self.cluster.as_mut()) {
            (Some(_), Some(_)) => {
                return Err(self.invalid(format!(
                    "job {}: on a cluster a policy gives nodes (Ctx::start_on), not processors",
                    job.id
                )))
            }
            (None, Some(cl)) => {
                let Some(set) = cl.take_selected(j, &mut self.free) else {
                    return Err(self.invalid(format!(
                        "job {} does not fit the cluster's free resources now",
                        job.id
                    )));
                };
                set
            }
            (Some(set), None) => {
                if set.len() != job.procs || !self.free.contains_set(&set) {
                    return Err(self.invalid(format!(
                        "job {} needs {} processors; {set} is not a free set of that size",
                        job.id, job.procs
                    )));
                }
                self.free.remove(&set);
                set
            }
            (None, None) => {
                if job.procs > self.free_count {
                    return Err(self.invalid(format!(
                        "job {} needs {} processors, {} free",
                        job.id, job.procs, self.free_count
                    )));
                }
                self.free.take_lowest(job.procs)
            }
        };
        self.begin(j, ahead, reason, procs, planned_end);
        Ok(())
    }

    /// Starts waiting job `j` now on the cluster's nodes as `alloc` gives them (checked: the
    /// nodes usable in its partition, the cores, GPUs and memory it asks, all free), for the
    /// stated reason and with a planned end as [`Ctx::start_as`].
    pub fn start_on(
        &mut self,
        j: usize,
        reason: Option<StartReason>,
        alloc: Alloc,
        planned_end: Option<Time>,
    ) -> Result<(), SimError> {
        let (ahead, reason) = self.startable(j, reason)?;
        let id = self.jobs[j].id;
        let Some(cl) = self.cluster.as_mut() else {
            return Err(self.invalid(format!(
                "job {id}: nodes given, but the simulation runs on no cluster"
            )));
        };
        if let Some(why) = cl.invalid(j, &alloc) {
            return Err(self.invalid(format!("job {id}: {why}")));
        }
        let set = cl.take(j, &alloc, &mut self.free);
        self.begin(j, ahead, reason, set, planned_end);
        Ok(())
    }

    /// Job `j` (`ahead`: an earlier-arrived job waits) starts now on `procs`, already taken from the
    /// free ones.
    #[inline(always)]
    fn begin(
        &mut self,
        j: usize,
        ahead: bool,
        reason: StartReason,
        procs: ProcSet,
        planned_end: Option<Time>,
    ) {
        let job = &self.jobs[j];
        self.free_count -= job.procs;
        self.waiting.remove(j);
        let now = self.now;
        let planned = planned_end.unwrap_or(now + job.estimate).max(now);
        let backfilled = ahead;
        self.attempt[j] += 1;
        let attempt = self.attempt[j];
        self.planned[j] = planned;
        self.running.insert((planned, j));
        if let Some(nodes) = self.nodes.as_mut() {
            let mut moved = std::mem::take(&mut self.moved);
            nodes.start(j, job, &procs, now, &mut moved);
            self.reschedule(&mut moved);
            self.moved = moved;
        } else {
            let end = match self.checks {
                Some(ch) => ch.end(job, now),
                None => now + job.runtime,
            };
            self.push(end, Ev::Finish { job: j, attempt });
            if planned < end {
                self.push(planned, Ev::Expire { job: j, attempt });
            }
        }
        let rec = &mut self.records[j];
        rec.start = now;
        rec.procs = procs;
        rec.backfilled = backfilled;
        rec.reason = reason;
        self.state = new_state_id();
    }
}
