//! What an sacct log records of each job beyond what the input step keeps: the nodes it ran on
//! (`NodeList`, whose allocations the input step makes: `JobSet::recorded_nodes`), read again
//! from the log's text by the line each job came from. A job's `JobID`, `Account` and start by
//! backfill (`Flags`) are the input step's (`JobSet::log_id`, `JobSet::accounts`,
//! `JobSet::backfilled`). Beside the sacct log, a replay may be given the controller's debug log
//! (`DebugFlags=Backfill`): when the backfill thread began each cycle ([`backfill_cycles`]).

use crate::cluster::hostlist;
use crate::job::Job;
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
}

impl Logged {
    /// No nodes (a log that is not sacct output).
    pub fn empty(jobs: &[Job]) -> Logged {
        Logged {
            nodes: vec![None; jobs.len()],
            cycles: None,
            order: None,
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
            if let Some(list) = node_col.and_then(|c| f.get(c)).map(|s| s.trim()) {
                if list.is_empty() || list.eq_ignore_ascii_case("None assigned") {
                    continue;
                }
                let names = hostlist::parse(list)
                    .map_err(|e| format!("{file}:{no}: NodeList: {list:?}: {e}"))?;
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
        let Some(stamp) = l.strip_prefix('[') else {
            continue;
        };
        let Some(Ok(Some(t))) = stamp.get(..19).map(crate::workload::slurm_time::timestamp) else {
            continue;
        };
        let ms = stamp
            .get(19..)
            .and_then(|r| r.strip_prefix('.'))
            .and_then(|r| r.split(']').next())
            .and_then(|f| f.get(..3))
            .and_then(|f| f.parse::<i64>().ok());
        if ms.is_some_and(|ms| ms < TICK_MS) {
            out.push(t - clock - 1);
        }
        out.push(t - clock);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A tick of the kernel's coarse clock, which `time(NULL)` reads, in milliseconds.
pub const TICK_MS: i64 = 4;

/// [`backfill_cycles`] of a debug log's bytes, as written or gzipped (`slurmctld.log.gz`).
pub fn backfill_cycles_of(bytes: &[u8], clock: Time) -> Result<Vec<Time>, String> {
    Ok(backfill_cycles(&log_text(bytes)?, clock))
}

/// The text of a debug log's bytes, as written or gzipped.
pub(super) fn log_text(bytes: &[u8]) -> Result<String, String> {
    Ok(if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut flate2::bufread::MultiGzDecoder::new(bytes), &mut s)
            .map_err(|e| e.to_string())?;
        s
    } else {
        String::from_utf8_lossy(bytes).into_owned()
    })
}

#[cfg(test)]
mod tests {
    use super::backfill_cycles;

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
}
