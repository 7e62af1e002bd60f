//! The order of the events within a second, from the controller's debug log: when each backfill
//! cycle began, each job ended and each job was submitted, to the millisecond. The sacct log
//! stamps ends and submissions with whole seconds; the debug log says which came before a
//! cycle of the same second and which after. A replay's decision given it
//! ([`log_order`], `schedlab replay --debug-log`) runs the policy's cycle on the state Slurm's
//! cycle had: an end or a submission logged after the cycle began is not yet seen by it
//! (`Replay::decide_at`).

use crate::Time;
use std::collections::HashMap;

/// A moment of the debug log: the second on the replay's clock and the milliseconds into it.
pub type Stamp = (Time, i64);

/// The debug log's cycles, ends and submissions with their milliseconds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogOrder {
    /// When each backfill cycle began (`_attempt_backfill: beginning`), ascending.
    pub cycles: Vec<Stamp>,
    /// Per job id as the log names it (`JobId=N`): when its nodes were freed. A job's own end
    /// (`_job_complete: JobId=N done`, its first such line); a job killed at its limit (`Time
    /// limit exhausted for JobId=N`) frees its nodes when their epilog completes, which the
    /// log shows by the main scheduler's run it calls at once (the first `Running job
    /// scheduler for default depth` after the kill), the kill's own line when none follows.
    pub ends: HashMap<String, Stamp>,
    /// Per job id: its submission (`_slurm_rpc_submit_batch_job: JobId=N`).
    pub submits: HashMap<String, Stamp>,
}

/// The cycles, ends and submissions of the debug log `text` (as
/// [`super::recorded::backfill_cycles`] reads it: stamped `[YYYY-MM-DDTHH:MM:SS.mmm]` in the
/// controller's local time, time 0 at the Unix second `clock`). A line without a readable
/// stamp is skipped.
pub fn log_order(text: &str, clock: Time) -> LogOrder {
    let mut out = LogOrder::default();
    // Jobs killed whose epilog has not completed yet.
    let mut killed: Vec<String> = Vec::new();
    for l in text.lines() {
        let Some(stamp) = stamp_of(l, clock) else {
            continue;
        };
        if l.contains("_attempt_backfill: beginning") {
            out.cycles.push(stamp);
        } else if let Some(id) =
            job_after(l, "_job_complete: JobId=").filter(|_| l.ends_with(" done"))
        {
            out.ends.entry(id).or_insert(stamp);
        } else if let Some(id) = job_after(l, "Time limit exhausted for JobId=") {
            if !out.ends.contains_key(&id) {
                out.ends.insert(id.clone(), stamp);
                killed.push(id);
            }
        } else if l.contains("Running job scheduler for default depth") {
            for id in killed.drain(..) {
                out.ends.insert(id, stamp);
            }
        } else if let Some(id) = job_after(l, "_slurm_rpc_submit_batch_job: JobId=") {
            out.submits.entry(id).or_insert(stamp);
        }
    }
    out.cycles.sort_unstable();
    out
}

/// The line's stamp: its second on the clock whose time 0 is `clock`, and its milliseconds.
fn stamp_of(line: &str, clock: Time) -> Option<Stamp> {
    let (t, ms) = super::recorded::stamp(line)?;
    Some((t - clock, ms?))
}

/// The job id right after `key` in `line`.
fn job_after(line: &str, key: &str) -> Option<String> {
    let rest = &line[line.find(key)? + key.len()..];
    let id: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!id.is_empty()).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand: time 0 is 2026-11-30T20:54:44; the cycle at 20:54:45.402 is (1, 402),
    /// job 7's end at 20:54:45.600 (1, 600) (its `WEXITSTATUS` line no end), job 9's kill at
    /// 20:54:46.010 frees its nodes at the main scheduler's run after its epilog, 20:54:46.040
    /// (2, 40) (not the full-queue run at .011, the background loop's), its later `done` not
    /// its end; job 8's submission at 20:54:44.123 (0, 123).
    #[test]
    fn the_logs_events_with_their_milliseconds() {
        let log = "[2026-11-30T20:54:44.123] _slurm_rpc_submit_batch_job: JobId=8 InitPrio=2156 usec=392\n\
                   [2026-11-30T20:54:45.402] sched/backfill: _attempt_backfill: beginning\n\
                   [2026-11-30T20:54:45.599] _job_complete: JobId=7 WEXITSTATUS 0\n\
                   [2026-11-30T20:54:45.600] _job_complete: JobId=7 done\n\
                   [2026-11-30T20:54:46.010] Time limit exhausted for JobId=9\n\
                   [2026-11-30T20:54:46.011] debug:  sched: Running job scheduler for full queue.\n\
                   [2026-11-30T20:54:46.040] debug:  sched: Running job scheduler for default depth.\n\
                   [2026-11-30T20:54:46.500] _job_complete: JobId=9 done\n";
        let clock = crate::workload::slurm_time::timestamp("2026-11-30T20:54:44")
            .unwrap()
            .unwrap();
        let o = log_order(log, clock);
        assert_eq!(o.cycles, vec![(1, 402)]);
        assert_eq!(o.ends.get("7"), Some(&(1, 600)));
        assert_eq!(o.ends.get("9"), Some(&(2, 40)));
        assert_eq!(o.ends.len(), 2);
        assert_eq!(o.submits.get("8"), Some(&(0, 123)));
        assert_eq!(o.submits.len(), 1);
    }
}
