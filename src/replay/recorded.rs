//! What an sacct log records of each job beyond what the input step keeps: the nodes it ran on
//! (`NodeList`, whose allocations the input step makes: `JobSet::recorded_nodes`), read again
//! from the log's text by the line each job came from. A job's `JobID`, `Account` and start by
//! backfill (`Flags`) are the input step's (`JobSet::log_id`, `JobSet::accounts`,
//! `JobSet::backfilled`).

use crate::cluster::hostlist;
use crate::job::Job;
use crate::workload::sacct::split::{self, Splitter};

/// Per job (by index): the nodes it ran on when the log names them.
#[derive(Debug, Clone, Default)]
pub struct Logged {
    /// The nodes of its recorded run (`NodeList`), when the log has that column.
    pub nodes: Vec<Option<Vec<String>>>,
}

impl Logged {
    /// No nodes (a log that is not sacct output).
    pub fn empty(jobs: &[Job]) -> Logged {
        Logged {
            nodes: vec![None; jobs.len()],
        }
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
