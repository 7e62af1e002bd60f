//! What an sacct log records of each job beyond what the input step keeps: the nodes it ran on
//! (`NodeList`, whose allocations the input step makes: `JobSet::recorded_nodes`), read again
//! from the log's text by the line each job came from. A job's `JobID`, `Account` and start by
//! backfill (`Flags`) are the input step's (`JobSet::log_id`, `JobSet::accounts`,
//! `JobSet::backfilled`). Beside the sacct log, a replay may be given the controller's debug log
//! (`DebugFlags=Backfill`): when the backfill thread began each cycle ([`backfill_cycles`]).

use crate::cluster::hostlist;
use crate::job::Job;
use crate::quote::quote;
use crate::workload::sacct::split::{self, Splitter};
use crate::Time;

/// Per job (by index): the nodes it ran on when the log names them.
#[derive(Debug, Clone, Default)]
pub struct Logged {
    /// The nodes of its recorded run (`NodeList`), when the log has that column.
    pub nodes: Vec<Option<Vec<String>>>,
    /// The seconds (the log's clock) in which Slurm's backfill thread began a cycle, ascending,
    /// when the controller's debug log is given ([`backfill_cycles`]); `None`: not given.
    pub cycles: Option<Vec<Time>>,
    /// The order of the events within a second, when the controller's debug log is given
    /// ([`super::log_order`]): a decision's cycle runs on the state as of its millisecond.
    pub order: Option<super::log_order::LogOrder>,
    /// The second of the decay thread's start (every priority period falls on it modulo
    /// `PriorityCalcPeriod`) and per job whether it ended after the period of its end's
    /// second, when the controller's debug log is given and tells ([`end_sides`]); `None`:
    /// not given.
    pub end_sides: Option<(Time, Vec<Option<bool>>)>,
    /// Per job: its recorded priority (`Priority`, the one Slurm gave it at its submission:
    /// the accounting's first record of a job sets it, later records leave it), when the log
    /// has that column and the field is a number, or a JSON dump's job its `priority`
    /// ([`super::prio_sides`]).
    pub priorities: Vec<Option<f64>>,
}

impl Logged {
    /// No nodes (a log that is not sacct output).
    pub fn empty(jobs: &[Job]) -> Logged {
        Logged {
            nodes: vec![None; jobs.len()],
            cycles: None,
            order: None,
            end_sides: None,
            priorities: vec![None; jobs.len()],
        }
    }

    /// With the backfill cycles of the controller's debug log ([`backfill_cycles`]).
    pub fn with_cycles(mut self, cycles: Vec<Time>) -> Logged {
        self.cycles = Some(cycles);
        self
    }

    /// With the order of the debug log's events within a second ([`super::log_order`]).
    pub fn with_order(mut self, order: super::log_order::LogOrder) -> Logged {
        self.order = Some(order);
        self
    }

    /// With the sides of the jobs' ends against the priority periods ([`end_sides`]).
    pub fn with_end_sides(mut self, sides: Option<(Time, Vec<Option<bool>>)>) -> Logged {
        self.end_sides = sides;
        self
    }

    /// Each job's recorded priority from the `sacct --json` text `text`
    /// ([`crate::workload::sacct::json::priorities`], by the job's place: its line); no nodes
    /// (the input step reads a JSON dump's `nodes` into `JobSet::recorded_nodes`).
    pub fn from_sacct_json(text: &str, jobs: &[Job]) -> Logged {
        let mut out = Logged::empty(jobs);
        let recorded = crate::workload::sacct::json::priorities(text);
        for (j, job) in jobs.iter().enumerate() {
            let place = (job.line as usize).checked_sub(1);
            out.priorities[j] = place.and_then(|p| recorded.get(p).copied().flatten());
        }
        out
    }

    /// Reads `NodeList` of each job's line of the sacct text `text` (from
    /// `file`); jobs whose line is not a job line keep no nodes.
    pub fn from_sacct(text: &str, file: &str, jobs: &[Job]) -> Result<Logged, String> {
        let mut out = Logged::empty(jobs);
        let lines: Vec<&str> = text.split('\n').collect();
        let Some((head_no, head)) = lines.iter().enumerate().find(|(_, l)| !l.trim().is_empty())
        else {
            return Ok(out);
        };
        let head = head.trim_start_matches('\u{feff}').trim_end_matches('\r');
        let delim = split::delimiter(head).unwrap_or('|');
        let names = Splitter::names(head, delim);
        let splitter = Splitter::new(delim, &names);
        let col = |want: &str| names.iter().position(|n| n.eq_ignore_ascii_case(want));
        let node_col = col("NodeList");
        let prio_col = col("Priority");
        for (j, job) in jobs.iter().enumerate() {
            let no = job.line as usize;
            if no <= head_no + 1 || no > lines.len() {
                continue;
            }
            // Cut as the reader cut it (a line it could not cut gave no job).
            let mut f: Vec<&str> = Vec::new();
            if splitter
                .split(lines[no - 1].trim_end_matches('\r'), &mut f)
                .is_err()
            {
                continue;
            }
            let prio = prio_col.and_then(|c| f.get(c)).map(|s| s.trim());
            out.priorities[j] = prio.and_then(|v| v.parse::<f64>().ok());
            if let Some(list) = node_col.and_then(|c| f.get(c)).map(|s| s.trim()) {
                if list.is_empty() || list.eq_ignore_ascii_case("None assigned") {
                    continue;
                }
                let names = hostlist::parse(list)
                    .map_err(|e| format!("{file}:{no}: NodeList: {}: {e}", quote(list)))?;
                out.nodes[j] = Some(names);
            }
        }
        Ok(out)
    }
}

/// The seconds in which Slurm's backfill thread began a cycle, from the controller's debug log
/// `text` (`DebugFlags=Backfill`: each cycle logs `_attempt_backfill: beginning`, stamped
/// `[YYYY-MM-DDTHH:MM:SS.mmm]`), on the clock whose time 0 is the Unix second `clock` (the sacct
/// log's first submission, `slurm::clock_of`; both logs stamp the controller's local time, read
/// alike), ascending, each second once. A line without a readable stamp is skipped.
///
/// The cycle's own second is the one `time(NULL)` gave it just after that line
/// (`_attempt_backfill`'s `now`, each start's `start_time`), and `time` reads the kernel's
/// coarse clock, set once a tick (4 ms at Debian's 250 Hz), while the stamp reads the fine one:
/// a cycle stamped in the first [`TICK_MS`] of a second may have read the second before, and
/// counts for both. (In the 26 committed debug logs, of the 1267 jobs backfill started, the 4
/// whose cycle is stamped 1 to 3 ms into a second have the second before as their sacct
/// `Start`; one stamped 3 ms in, and every other, its own.)
pub fn backfill_cycles(text: &str, clock: Time) -> Vec<Time> {
    let mut out: Vec<Time> = Vec::new();
    for l in text.lines() {
        if !l.contains("_attempt_backfill: beginning") {
            continue;
        }
        let Some((t, ms)) = stamp(l) else {
            continue;
        };
        if ms.is_some_and(|ms| ms < TICK_MS) {
            out.push(t - clock - 1);
        }
        out.push(t - clock);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A debug log line's stamp `[YYYY-MM-DDTHH:MM:SS.mmm]`: its Unix second and its
/// milliseconds (`None` when the stamp has none).
pub(super) fn stamp(line: &str) -> Option<(Time, Option<i64>)> {
    let stamp = line.strip_prefix('[')?;
    let Some(Ok(Some(t))) = stamp.get(..19).map(crate::workload::slurm_time::timestamp) else {
        return None;
    };
    let ms = stamp
        .get(19..)
        .and_then(|r| r.strip_prefix('.'))
        .and_then(|r| r.split(']').next())
        .and_then(|f| f.get(..3))
        .and_then(|f| f.parse::<i64>().ok());
    Some((t, ms))
}

/// The second (the log's clock) of the decay thread's start, from the controller's debug log
/// `text` (time 0 the Unix second `clock`), and per job (`ids`: each job's `JobID` as the
/// logs name it; `ends`: its recorded end, the log's clock) whether it ended after the
/// fraction of its second at which the thread runs its periods: `Some(true)` after,
/// `Some(false)` before, `None` when the log does not tell (no stamped end in that second, or
/// the same millisecond). `None` without the thread's start. Only the ends in the second of
/// a period (the start's second modulo `PriorityCalcPeriod`) have a period to be on a side of:
/// the policy, which knows the period, reads those.
///
/// The decay thread (priority_multifactor.c `_decay_thread`) reads the time of day once, just
/// before it logs `_read_last_decay_ran`, and wakes every `PriorityCalcPeriod` from it to the
/// microsecond (`abs.tv_sec += priority_calc_period`), so every period falls at that line's
/// fraction of its second; its walk of the jobs (`fair_tree_decay`, `decay_apply_new_usage`)
/// skips a job already finished or completing. A job ends when the controller logs its end:
/// `Time limit exhausted for JobId=N` for one killed at its limit (it is completing from
/// then), else its first `_job_complete: JobId=N` line. Sacct records the end's whole second
/// only; whether the period of that second counted the job is here.
pub fn end_sides(
    text: &str,
    clock: Time,
    ids: &[String],
    ends: &[Time],
) -> Option<(Time, Vec<Option<bool>>)> {
    let mut decay: Option<(Time, i64)> = None;
    let mut killed: std::collections::HashMap<&str, (Time, i64)> = Default::default();
    let mut done: std::collections::HashMap<&str, (Time, i64)> = Default::default();
    for l in text.lines() {
        let (job, into) = if let Some(p) = l.find("Time limit exhausted for JobId=") {
            (&l[p + 31..], &mut killed)
        } else if let Some(p) = l.find("_job_complete: JobId=") {
            (&l[p + 21..], &mut done)
        } else {
            if decay.is_none() && l.contains("_read_last_decay_ran") {
                decay = stamp(l).and_then(|(t, ms)| Some((t - clock, ms?)));
            }
            continue;
        };
        let id = job
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap_or("");
        if let Some((t, Some(ms))) = stamp(l) {
            into.entry(id).or_insert((t - clock, ms));
        }
    }
    let (second, decay) = decay?;
    let sides = (ids.iter().zip(ends))
        .map(|(id, &end)| {
            let &(t, ms) = killed.get(id.as_str()).or_else(|| done.get(id.as_str()))?;
            (t == end && ms != decay).then_some(ms > decay)
        })
        .collect();
    Some((second, sides))
}

/// Each job's recorded end (its submission + recorded wait + recorded run time; its submission
/// when it has no recorded start), the ends [`end_sides`] reads the log's sides of.
pub fn recorded_ends(jobs: &[Job]) -> Vec<Time> {
    (jobs.iter())
        .map(|j| j.submit + j.trace_wait().map_or(0, |w| w + j.trace_runtime.max(0)))
        .collect()
}

/// A tick of the kernel's coarse clock, which `time(NULL)` reads, in milliseconds.
pub const TICK_MS: i64 = 4;

/// A debug log's text from its bytes, as written or gzipped (`slurmctld.log.gz`).
pub fn debug_log_text(bytes: &[u8]) -> Result<String, String> {
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut flate2::bufread::MultiGzDecoder::new(bytes), &mut s)
            .map_err(|e| e.to_string())?;
        s
    } else {
        String::from_utf8_lossy(bytes).into_owned()
    };
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::{backfill_cycles, end_sides};

    /// Worked by hand: time 0 is 2026-11-30T20:54:44 (Unix 1796072084); the cycles begun at
    /// 20:54:40.402 and 20:54:45.402 fall in seconds -4 and 1 (the fraction dropped, as sacct
    /// drops it); one at 20:54:51.003, within a tick of its second, in 7 and maybe 6 (its
    /// `time(NULL)`); one at 20:54:56.004 in 12 only; a line of another kind, and one without
    /// a stamp, count for nothing.
    #[test]
    fn cycles_are_the_seconds_of_the_logs_beginnings() {
        let log = "[2026-11-30T20:54:40.402] sched/backfill: _attempt_backfill: beginning\n\
                   [2026-11-30T20:54:40.402] sched/backfill: _attempt_backfill: no jobs to backfill\n\
                   [2026-11-30T20:54:45.402] sched/backfill: _attempt_backfill: beginning\n\
                   [2026-11-30T20:54:51.003] sched/backfill: _attempt_backfill: beginning\n\
                   [2026-11-30T20:54:56.004] sched/backfill: _attempt_backfill: beginning\n\
                   sched/backfill: _attempt_backfill: beginning\n";
        let clock = crate::workload::slurm_time::timestamp("2026-11-30T20:54:44")
            .unwrap()
            .unwrap();
        assert_eq!(clock, 1_796_072_084);
        assert_eq!(backfill_cycles(log, clock), vec![-4, 1, 6, 7, 12]);
    }

    /// Worked by hand: time 0 is 2026-12-01T01:01:41 (Unix 1796086901); the decay thread read
    /// the time at 01:01:37.082 (second -4; periods at .082 of their second). Job 7 ended by itself at
    /// 01:49:37.101 (second 2876, after .082: `Some(true)`); job 8 at 01:49:37.050 (before);
    /// job 9 was killed at 01:50:07.300 (its kill, not its later `_job_complete`, counts:
    /// after); job 10's end is in another second than its recorded one (`None`); job 11 ended
    /// at the period's own millisecond (`None`); job 12 is not in the log.
    #[test]
    fn an_ends_side_is_its_stamp_against_the_decay_threads_fraction() {
        let log =
            "[2026-12-01T01:01:37.082] priority/multifactor: _read_last_decay_ran: No last decay\n\
                   [2026-12-01T01:49:37.050] _job_complete: JobId=8 WEXITSTATUS 0\n\
                   [2026-12-01T01:49:37.050] _job_complete: JobId=8 done\n\
                   [2026-12-01T01:49:37.101] _job_complete: JobId=7 WEXITSTATUS 0\n\
                   [2026-12-01T01:50:07.000] _job_complete: JobId=10 done\n\
                   [2026-12-01T01:50:07.082] _job_complete: JobId=11 done\n\
                   [2026-12-01T01:50:07.300] Time limit exhausted for JobId=9\n\
                   [2026-12-01T01:50:07.310] _job_complete: JobId=9 done\n";
        let clock = 1_796_086_901;
        let ids: Vec<String> = (7..=12).map(|i: i32| i.to_string()).collect();
        let ends = [2876, 2876, 2906, 2907, 2906, 2906];
        let (second, sides) = end_sides(log, clock, &ids, &ends).unwrap();
        assert_eq!(second, -4);
        assert_eq!(
            sides,
            [Some(true), Some(false), Some(true), None, None, None]
        );
        let no_decay = log.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert_eq!(end_sides(&no_decay, clock, &ids, &ends), None);
    }
}
