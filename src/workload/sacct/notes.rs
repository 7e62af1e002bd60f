//! Warnings of the whole file about what an sacct log's jobs ask.

use super::{Row, Text};
use crate::swf::words::Words;
use crate::swf::{LineIssue, Severity, Workload};

/// `field` names sacct's field; a JSON dump's is named by its key (`time.limit`).
fn warn(w: &mut Workload, field: &str, reason: String) {
    let field = match (w.words, field) {
        (Words::SlurmJson, "Timelimit") => "time.limit",
        (Words::SlurmJson, "Eligible") => "time.eligible",
        (Words::SlurmJson, "Partition") => "partition",
        _ => field,
    };
    w.issues.push(LineIssue {
        line: 0,
        field: Some(field.into()),
        reason,
        severity: Severity::Warning,
    });
    w.issue_count += 1;
}

/// Tells, as a warning of the whole file, of the jobs submitted to several partitions
/// (`Partition` a list: `short,batch`): the list is kept ([`Workload::partition_lists`]), and
/// on a cluster such a job may start in any of its partitions the cluster has, as Slurm 22.05
/// starts it in whichever can start it first (`build_job_queue` queues it once per partition,
/// job_scheduler.c); off a cluster, or when the cluster lacks its first, it runs in that one.
pub(super) fn several_partitions<S: Text>(rows: &[Row<S>], w: &mut Workload) {
    let mut several = rows.iter().filter(|r| r.partition.contains(','));
    let Some(first) = several.next() else {
        return;
    };
    let n = 1 + several.count();
    let reason = format!(
        "{} submitted to several partitions (first: job {} in {}): on a cluster each may start \
         in any of its partitions the cluster has (tried by PriorityTier, then in the list's \
         order), as Slurm starts such a job in \
         whichever of its partitions can start it first; off a cluster, or on one without \
         the first of its list, it runs in that one (the cluster's default if absent)",
        crate::plural::count(n, "job"),
        first.id,
        first.partition
    );
    warn(w, "Partition", reason);
}

/// Tells of the jobs whose `Timelimit` is `Partition_Limit` (sacct prints it for a job whose
/// time limit is unset, `NO_VAL`: sacct/print.c:1859): Slurm gives such a job, when it starts
/// it, its partition's `DefaultTime`, else its `MaxTime` (node_scheduler.c:2667-2674 of
/// 22.05.8; slurm.conf.5 `DefaultTime`). The log names neither: the input step reads them from
/// the cluster when one is given (`input::partition_time`); without one the job has no
/// requested time, as before.
pub(super) fn partition_limit<S: Text>(rows: &[Row<S>], w: &mut Workload) {
    let mut given = rows.iter().filter(|r| r.partition_limit);
    let Some(first) = given.next() else {
        return;
    };
    let n = 1 + given.count();
    let reason = format!(
        "{} {} Partition_Limit (first: job {}, {}): Slurm gives such a job its partition's \
         DefaultTime, else its MaxTime, which a slurm.conf names (--slurm-conf or --cluster \
         FILE; the page's Cluster panel); without one, {} no requested time: planned with \
         {} runtime, never killed at a limit",
        crate::plural::count(n, "job"),
        if n == 1 { "gives" } else { "give" },
        first.id,
        w.words.place(first.line),
        if n == 1 { "it has" } else { "they have" },
        if n == 1 { "its" } else { "their" },
    );
    warn(w, "Timelimit", reason);
}

/// Tells of the jobs that became eligible after their submission (`Eligible` later than
/// `Submit`, at most their start: a dependency, `--begin`, a hold): each is read as submitted
/// when it became eligible (`row`), so no policy starts it before Slurm could have and its
/// wait counts from there, as Slurm's `Planned` does. Said, since a dependency on a job that
/// ends elsewhere in another schedule is not modelled.
pub(super) fn deferred<S: Text>(rows: &[Row<S>], w: &mut Workload) {
    let mut later = rows.iter().filter(|r| r.deferred > 0);
    let Some(first) = later.next() else {
        return;
    };
    let n = 1 + later.count();
    let reason = format!(
        "{} became eligible after {} submission (first: job {}, {} s after; a dependency, \
         --begin or a hold): {} read as submitted then, {} wait counted from there as \
         Slurm's Planned does; a dependency is not moved by another schedule",
        crate::plural::count(n, "job"),
        if n == 1 { "its" } else { "their" },
        first.id,
        first.deferred,
        if n == 1 { "it is" } else { "each is" },
        if n == 1 { "its" } else { "their" },
    );
    warn(w, "Eligible", reason);
}
