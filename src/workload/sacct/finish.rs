//! The jobs read, told of and numbered: the last step of the sacct and JSON readers.

use super::{notes, number, requeue, Row, Text};
use crate::swf::Workload;

/// The jobs read (`rows`, each job's last record), told of and numbered into `w`: what the
/// sacct and JSON readers share. `flags_column`: the log says how Slurm started its jobs.
pub(super) fn finish<S: Text>(
    rows: Vec<Row<S>>,
    requeues: &requeue::Requeues,
    mut w: Workload,
    source: &str,
    flags_column: bool,
) -> Workload {
    notes::several_partitions(&rows, &mut w);
    notes::partition_limit(&rows, &mut w);
    notes::deferred(&rows, &mut w);
    number::number(rows, &mut w, source, flags_column);
    requeues.note(&mut w.header);
    // Issues in line order (steps were checked after the jobs).
    w.issues.sort_by_key(|i| i.line);
    w
}
