//! The time limit of the jobs an sacct log records with `Timelimit=Partition_Limit` (no limit
//! of their own, [`Workload::partition_limit`](crate::swf::Workload)): on a cluster, each gets
//! its partition's `DefaultTime`, else its `MaxTime`, as Slurm sets it when it starts the job
//! (node_scheduler.c:2667-2674 of 22.05.8; slurm.conf.5, `DefaultTime`). Without a cluster, or
//! in a partition with neither (or `UNLIMITED`), the job keeps no requested time.

use crate::cluster::Layout;
use crate::job::Job;
use crate::swf::Workload;

/// Sets the requested time (a raw job's `estimate`, SWF field 9) of the raw jobs of
/// `workload`'s `partition_limit` lines from their partition (`names`: the trace's partition names, a job's partition `k` being
/// `names[k - 1]`; one the cluster lacks, or none, is the cluster's default partition, where
/// the job runs). Returns what it did, for the warnings.
pub(super) fn apply(
    jobs: &mut [Job],
    workload: &Workload,
    names: &[String],
    layout: Option<&Layout>,
) -> Option<String> {
    let lines = &workload.partition_limit;
    let layout = layout.filter(|_| !lines.is_empty())?;
    let lines: foldhash::HashSet<u64> = lines.iter().copied().collect();
    let (mut by_default, mut by_max, mut none) = (0u64, 0u64, 0u64);
    for job in jobs.iter_mut().filter(|j| lines.contains(&j.line)) {
        let part = match job.req.partition {
            0 => layout.default_part,
            k => names
                .get(usize::from(k) - 1)
                .and_then(|n| layout.part_index(n))
                .unwrap_or(layout.default_part),
        };
        let p = &layout.parts[part];
        match p.default_time {
            Some(Some(t)) => {
                job.estimate = t;
                by_default += 1;
            }
            Some(None) => none += 1,
            None => match p.max_time {
                Some(t) => {
                    job.estimate = t;
                    by_max += 1;
                }
                None => none += 1,
            },
        }
    }
    let one = |n: u64, single: &str, several: &str| {
        format!("{n} {}", if n == 1 { single } else { several })
    };
    let mut said = Vec::new();
    if by_default > 0 {
        said.push(one(
            by_default,
            "gets its partition's DefaultTime",
            "get their partition's DefaultTime",
        ));
    }
    if by_max > 0 {
        said.push(one(
            by_max,
            "gets its partition's MaxTime",
            "get their partition's MaxTime",
        ));
    }
    if none > 0 {
        said.push(one(
            none,
            "keeps no requested time (its partition's DefaultTime and MaxTime are unset or UNLIMITED)",
            "keep no requested time (their partition's DefaultTime and MaxTime are unset or UNLIMITED)",
        ));
    }
    let total = by_default + by_max + none;
    Some(format!(
        "Timelimit: {} {} Partition_Limit; as Slurm does when it starts such a job, {}",
        crate::plural::count(total, "job"),
        if total == 1 { "gives" } else { "give" },
        said.join(", ")
    ))
}
