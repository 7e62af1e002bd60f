//! The loops' phases read from an sacct log itself, for a log with no controller debug log
//! (docs/slurm.md, "The loops' phases"). Slurm's loops start with the controller, before the
//! log, so their clocks are not recorded; two traces of them are:
//!
//! - **The backfill grid** (`bf_phase`): every start flagged `SchedBackfill` comes from a
//!   backfill cycle, and while jobs wait the cycles keep a grid `bf_interval` apart; the
//!   thread's sleeps drift later over a run and the grid moves after a quiet spell, so the
//!   grid the log opens on is that of its first backfill start ([`bf_phase`]).
//! - **The limit checks' grid**: `_slurmctld_background` (controller.c) ends a job past its
//!   limit every 30 s from its own start, so every job that ran its limit
//!   (+ `OverTimeLimit`) or more ended on that grid, or a second later where the loop's sleeps
//!   drifted ([`check_phase`]). The same loop sets `last_full_sched_time` to the same start,
//!   so its full runs every `sched_interval` fall on that second too ([`sched_phase`]).
//!
//! `calc_phase`: the priority periods' thread (`_decay_thread`) starts in the same second as
//! the checks, so their grid gives its whole second modulo 30; `PriorityCalcPeriod` is a
//! minute or more, and which half minute the checks do not say. A replay reads it from the
//! log's recorded priorities (`replay::prio_phase`) and gives it here
//! ([`LogClocks::with_calc_phase`]); without that it is not read. The side of the second (its
//! fraction) and `calc_early` are not read: the spec gives them.
//!
//! Each estimate is `None` when the log shows none of its evidence; the spec's own keys win.

use super::params::SlurmParams;
use crate::input::JobSet;
use crate::Time;

/// Slurm's limit checks' period, seconds (`PERIODIC_TIMEOUT`, slurmctld.h).
pub const CHECK_PERIOD: Time = 30;

/// What an sacct log shows of the controller's loops, in seconds of the trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogClocks {
    /// The starts flagged `SchedBackfill`, ascending.
    pub backfill_starts: Vec<Time>,
    /// (end, seconds run past the time limit) of every job that ran its limit or more,
    /// ascending by end.
    pub limit_ends: Vec<(Time, Time)>,
    /// The priority periods' `calc_phase` (its second, with `.5` for late in it) and what
    /// told it, when a replay read it from the recorded priorities
    /// ([`LogClocks::with_calc_phase`]).
    pub calc_phase: Option<(String, String)>,
    /// Why `calc_phase=read` read none, when a spec asked for it ([`LogClocks::with_calc_unread`]):
    /// the note says so, and the periods fall on 0.
    pub calc_unread: Option<String>,
}

impl LogClocks {
    /// The clocks of `jobs` when they are a Slurm log with recorded starts; `None` otherwise
    /// (or when the log shows neither a backfill start nor a job that ran its limit).
    pub fn of(jobs: &JobSet) -> Option<LogClocks> {
        if !jobs.slurm_log {
            return None;
        }
        let mut out = LogClocks::default();
        for (j, job) in jobs.jobs.iter().enumerate() {
            let Some(start) = job.trace_wait().map(|w| job.submit + w) else {
                continue;
            };
            if jobs.backfilled.get(j) == Some(&true) {
                out.backfill_starts.push(start);
            }
            if let Some(limit) = job.requested() {
                let past = job.trace_runtime - limit;
                if job.trace_runtime >= 0 && past >= 0 {
                    out.limit_ends.push((start + job.trace_runtime, past));
                }
            }
        }
        out.backfill_starts.sort_unstable();
        out.limit_ends.sort_unstable();
        let empty = out.backfill_starts.is_empty() && out.limit_ends.is_empty();
        (!empty).then_some(out)
    }

    /// With the priority periods' `calc_phase` read elsewhere (a replay's recorded
    /// priorities), `why` saying from what, for the note.
    pub fn with_calc_phase(mut self, phase: String, why: String) -> LogClocks {
        self.calc_phase = Some((phase, why));
        self
    }

    /// With why `calc_phase=read` read no phase (no recorded priority, no end by the limit
    /// checks, ...), for the note.
    pub fn with_calc_unread(mut self, why: String) -> LogClocks {
        self.calc_unread = Some(why);
        self
    }

    /// The limit checks' second modulo 30 under `p` (its `OverTimeLimit`), when a job ended
    /// by them.
    pub fn check_second(&self, p: &SlurmParams) -> Option<Time> {
        check_phase(&self.checked_ends(p))
    }

    /// The ends a limit check made under `p`: of the jobs that ran their limit plus
    /// `OverTimeLimit` or more (`UNLIMITED`: none).
    fn checked_ends(&self, p: &SlurmParams) -> Vec<Time> {
        let over = p.over_time_limit.unwrap_or(Time::MAX);
        (self.limit_ends.iter())
            .filter(|&&(_, past)| past >= over)
            .map(|&(end, _)| end)
            .collect()
    }

    /// The phases these clocks give under the parameters `p` (its `bf_interval`,
    /// `sched_interval`, `OverTimeLimit`), as (key, value) pairs of the spec, in the keys'
    /// order.
    pub fn phases(&self, p: &SlurmParams) -> Vec<(&'static str, String)> {
        let check = check_phase(&self.checked_ends(p));
        let mut out = Vec::new();
        if let Some(b) = bf_phase(&self.backfill_starts, p.bf_interval) {
            out.push(("bf_phase", b.to_string()));
        }
        if let Some((phase, _)) = &self.calc_phase {
            out.insert(0, ("calc_phase", phase.clone()));
        }
        if let Some(c) = check {
            out.push(("sched_phase", sched_phase(c, p.sched_interval).to_string()));
        }
        out
    }
}

impl LogClocks {
    /// One line for a person: the phases read under `p` (the site's parameters; a spec's
    /// own phases win) and the evidence, and what the checks say of `calc_phase` when it is
    /// not read.
    pub fn note(&self, p: &SlurmParams) -> String {
        let mut said = Vec::new();
        for (k, v) in self.phases(p) {
            let why = match k {
                "calc_phase" => (self.calc_phase.as_ref()).map_or(String::new(), |c| c.1.clone()),
                "bf_phase" => format!(
                    "the first of its {} SchedBackfill starts",
                    self.backfill_starts.len()
                ),
                _ => "the grid of its jobs ended by the limit checks".to_string(),
            };
            said.push(format!("{k}={v} ({why})"));
        }
        let mut s = match said.is_empty() {
            true => "the log shows no backfill start nor a job ended at its limit".to_string(),
            false => said.join(", "),
        };
        if let (Some(c), None) = (check_phase(&self.checked_ends(p)), &self.calc_phase) {
            s.push_str(&format!(
                "; calc_phase is not read: the checks put its whole second at {c} + 30k \
                 (e.g. calc_phase={c} or {} with PriorityCalcPeriod=1)",
                c + CHECK_PERIOD
            ));
        }
        if let Some(why) = &self.calc_unread {
            s.push_str(&format!(
                "; calc_phase=read read none ({why}): the periods fall on 0"
            ));
        }
        format!("sacct log: the loops' phases a spec does not give are read from it: {s}")
    }
}

/// The backfill grid the log opens on: its first backfill start's second modulo `interval`
/// (`bf_phase`); `None` without a backfill start. Later starts may lie on later grids (the
/// thread's drift, a new grid after a quiet spell): the model finds those itself.
pub fn bf_phase(starts: &[Time], interval: Time) -> Option<Time> {
    let first = starts.iter().min()?;
    Some(first.rem_euclid(interval.max(1)))
}

/// The limit checks' second modulo 30 the log opens on: that of the first end (of jobs that
/// ran their limit) whose second modulo 30 a later such end shares, else of the first end;
/// `None` without one. A lone end may be a job that ended by itself past its limit; the
/// loop's drift moves the grid later over a run, never earlier, so the first shared grid is
/// the loop's own.
pub fn check_phase(ends: &[Time]) -> Option<Time> {
    let mut ends = ends.to_vec();
    ends.sort_unstable();
    let grid = |t: &Time| t.rem_euclid(CHECK_PERIOD);
    let shared = (0..ends.len()).find(|&i| ends[i + 1..].iter().any(|t| grid(t) == grid(&ends[i])));
    ends.get(shared.unwrap_or(0)).map(grid)
}

/// The full runs' phase (`sched_phase`) from the checks' second `check`: the same loop starts
/// both clocks, so the full runs fall on `check + k * interval` (exactly when `interval`
/// divides 30 s; otherwise one of the phases the checks allow).
pub fn sched_phase(check: Time, interval: Time) -> Time {
    check.rem_euclid(interval.max(1))
}

#[cfg(test)]
mod tests;
