//! CSV writers.

use crate::input::JobSet;
use crate::metrics::eet::{self, EetOptions, Expected};
use crate::metrics::{per_job, MetricOptions};
use crate::sim::{FinalState, RunEnd, Schedule};
use std::io::Write;

/// The trace's name without folders and `.gz` / `.swf` suffixes, as Batsim's `workload_name`.
pub fn workload_name(trace: &str) -> String {
    let base = trace.rsplit(['/', '\\']).next().unwrap_or(trace);
    let base = base.strip_suffix(".gz").unwrap_or(base);
    base.strip_suffix(".swf").unwrap_or(base).to_string()
}

/// Writes one row per job that ran, in arrival order. Columns: Batsim's `job_id,
/// workload_name, submission_time, requested_number_of_resources, requested_time, success,
/// final_state, starting_time, execution_time, finish_time, waiting_time, turnaround_time,
/// stretch, allocated_resources` (`success` and `final_state` tell the job's [`FinalState`]:
/// completed, failed, cancelled or killed at its requested time), then `user_id, backfilled, preemptions, wasted_time, eet,
/// tardiness`: the expected end time and `max(0, finish_time - eet)` of the user-aware metrics
/// (Tóth & Klusáček), here with the default EET options (equal shares, CPU only); then
/// `start_reason` (the word of [`crate::sim::StartReason`]), `first_reservation` (the first
/// planned start a policy gave the job; empty when none) and `waited_for` (the id of the
/// running job whose planned end that reservation was; empty when none). On a cluster, then
/// `nodes` (a Slurm hostlist: `n[1-2,5]`), `cpus`, `mem_mb` and `gpus`: the job's totals (an
/// exclusive job holds its nodes' memory and GPUs whole). Last, when the trace names its users
/// (an sacct log), `user`: the name of `user_id` (added at the end only then, so that the
/// columns of a trace without names, and every column's position, stay as they were). Then,
/// for an sacct log, `log_job_id`: the job's `JobID` in it (`1234_5`, `1234+0`), by which an
/// admin finds the job in sacct (`job_id` numbers the jobs 1, 2, ... in submit order).
pub fn jobs_csv<W: Write>(out: W, set: &JobSet, s: &Schedule) -> csv::Result<()> {
    let expected = eet::expected_end_times(set, &EetOptions::default()).ok();
    jobs_csv_eet(out, set, s, expected.as_ref())
}

/// [`jobs_csv`] with the `eet` and `tardiness` columns from the expected end times `expected`
/// (`None` leaves them empty), e.g. [`crate::run::Trace::expected`].
pub fn jobs_csv_eet<W: Write>(
    out: W,
    set: &JobSet,
    s: &Schedule,
    expected: Option<&Expected>,
) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    let head = [
        "job_id",
        "workload_name",
        "submission_time",
        "requested_number_of_resources",
        "requested_time",
        "success",
        "final_state",
        "starting_time",
        "execution_time",
        "finish_time",
        "waiting_time",
        "turnaround_time",
        "stretch",
        "allocated_resources",
        "user_id",
        "backfilled",
        "preemptions",
        "wasted_time",
        "eet",
        "tardiness",
        "start_reason",
        "first_reservation",
        "waited_for",
    ];
    let cluster = set.placement.as_deref().filter(|_| !s.allocs.is_empty());
    let mut head: Vec<&str> = head.to_vec();
    if cluster.is_some() {
        head.extend(["nodes", "cpus", "mem_mb", "gpus"]);
    }
    let named = set.names.has_users();
    if named {
        head.push("user");
    }
    let logged = !set.log_ids.is_empty();
    if logged {
        head.push("log_job_id");
    }
    w.write_record(&head)?;
    let name = workload_name(&set.name);
    let opts = MetricOptions::default();
    for (j, job) in set.jobs.iter().enumerate() {
        let rec = &s.jobs[j];
        let Some(m) = per_job(set, s, j, &opts) else {
            continue;
        };
        let Some(state) = FinalState::of(job, rec) else {
            continue;
        };
        let e = expected.map(|x| eet::job_eet(x, s, j));
        let mut row = vec![
            job.id.to_string(),
            name.clone(),
            job.submit.to_string(),
            job.procs.to_string(),
            job.requested().unwrap_or(-1).to_string(),
            u8::from(state.success()).to_string(),
            state.batsim().to_string(),
            rec.start.to_string(),
            (rec.end - rec.start).to_string(),
            rec.end.to_string(),
            m.wait.to_string(),
            m.response.to_string(),
            m.stretch.to_string(),
            rec.procs.to_string(),
            job.user.to_string(),
            u8::from(rec.backfilled).to_string(),
            rec.preemptions.to_string(),
            s.wasted(j).to_string(),
            e.map_or(String::new(), |e| e.eet.to_string()),
            e.and_then(|e| e.tardiness)
                .map_or(String::new(), |t| t.to_string()),
            s.reason_word(j).to_string(),
            rec.first_reservation()
                .filter(|&t| t != crate::Time::MAX)
                .map_or(String::new(), |t| t.to_string()),
            rec.waited_for()
                .map_or(String::new(), |k| set.jobs[k].id.to_string()),
        ];
        if let Some(p) = cluster {
            let a = &s.allocs[j];
            let names: Vec<String> = a
                .iter()
                .map(|x| p.layout.nodes[x.node as usize].name.clone())
                .collect();
            row.extend([
                crate::cluster::hostlist::format_ordered(&names),
                a.iter().map(|x| u64::from(x.cpus)).sum::<u64>().to_string(),
                a.iter().map(|x| x.mem_mb).sum::<u64>().to_string(),
                a.iter().map(|x| u64::from(x.gpus)).sum::<u64>().to_string(),
            ]);
        }
        if named {
            row.push(set.names.user(job.user));
        }
        if logged {
            row.push(set.log_ids[j].clone());
        }
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}

/// On a cluster, writes one row per job that ran and node it ran on: `job_id, node, cpus,
/// mem_mb, gpus` (its last attempt's allocation; an exclusive job holds the node's memory and
/// GPUs whole). Without a cluster, only the header.
pub fn alloc_csv<W: Write>(out: W, set: &JobSet, s: &Schedule) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(["job_id", "node", "cpus", "mem_mb", "gpus"])?;
    if let Some(p) = set.placement.as_deref() {
        for (j, a) in s.allocs.iter().enumerate() {
            if !s.jobs[j].ran() {
                continue;
            }
            for x in a.iter() {
                w.write_record([
                    set.jobs[j].id.to_string(),
                    p.layout.nodes[x.node as usize].name.clone(),
                    x.cpus.to_string(),
                    x.mem_mb.to_string(),
                    x.gpus.to_string(),
                ])?;
            }
        }
    }
    w.flush()?;
    Ok(())
}

/// Writes one row per execution attempt: `job_id, attempt, start, end, processors,
/// allocated_resources, outcome` (outcome: `preempted`, or for the final run the word of its
/// [`FinalState`]: `completed`, `failed`, `cancelled` or `killed`).
pub fn runs_csv<W: Write>(out: W, set: &JobSet, s: &Schedule) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "job_id",
        "attempt",
        "start",
        "end",
        "processors",
        "allocated_resources",
        "outcome",
    ])?;
    let mut attempts = vec![0u32; set.jobs.len()];
    for r in s.runs() {
        attempts[r.job] += 1;
        let outcome = match r.end_kind {
            RunEnd::Preempted => "preempted",
            RunEnd::Completed | RunEnd::Killed => {
                FinalState::of(&set.jobs[r.job], &s.jobs[r.job]).map_or("killed", FinalState::word)
            }
        };
        w.write_record([
            set.jobs[r.job].id.to_string(),
            attempts[r.job].to_string(),
            r.start.to_string(),
            r.end.to_string(),
            r.procs.len().to_string(),
            r.procs.to_string(),
            outcome.to_string(),
        ])?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod log_id_tests {
    use crate::input::InputOptions;
    use crate::swf::ReadOptions;

    /// The jobs CSV of `fcfs` on the trace `text`, as rows of fields.
    fn csv_rows(name: &str, text: &str) -> Vec<Vec<String>> {
        let (_, set) = crate::run::read_bytes(
            name,
            text.as_bytes(),
            &ReadOptions::default(),
            &InputOptions::default(),
        )
        .unwrap();
        let s = crate::run::simulate(&set, "fcfs", 1, None).unwrap();
        let mut out = Vec::new();
        super::jobs_csv(&mut out, &set, &s).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| l.split(',').map(str::to_owned).collect())
            .collect()
    }

    #[test]
    fn an_sacct_log_gives_each_job_its_job_id() {
        // Submitted in the order 1001_2 (08:00), 1002+0 (08:01), 77 (08:02): numbered 1, 2, 3.
        let text = "JobID|Submit|Start|End|AllocCPUS|State\n\
            77|2026-01-05T08:02:00|2026-01-05T08:02:00|2026-01-05T08:03:00|1|COMPLETED\n\
            1001_2|2026-01-05T08:00:00|2026-01-05T08:00:00|2026-01-05T08:01:00|1|COMPLETED\n\
            1002+0|2026-01-05T08:01:00|2026-01-05T08:01:00|2026-01-05T08:02:00|1|COMPLETED\n";
        let rows = csv_rows("log.sacct", text);
        assert_eq!(rows[0].last().unwrap(), "log_job_id");
        let ids: Vec<(&str, &str)> = rows[1..]
            .iter()
            .map(|r| (r[0].as_str(), r.last().unwrap().as_str()))
            .collect();
        assert_eq!(ids, [("1", "1001_2"), ("2", "1002+0"), ("3", "77")]);
        // An SWF trace has no such column.
        let rows = csv_rows("t.swf", "1 0 0 60 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n");
        assert!(!rows[0].iter().any(|c| c == "log_job_id"));
    }
}
