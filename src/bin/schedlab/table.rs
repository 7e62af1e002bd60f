//! The comparison table printed by `schedlab run`: rows = the metrics catalogue
//! (`schedlab::metrics::catalogue`, the node-model rows only when every run has the node model,
//! the cluster rows and a line of capacities only on a cluster), columns = policies.

use schedlab::metrics::catalogue::{Better, Family, SHORT_WIDTH};
use schedlab::metrics::METRICS;
use schedlab::run::{RunResult, Trace};
use std::fmt::Write;
use std::time::Duration;

/// One line of the table, the best value marked with `*`.
fn row(out: &mut String, name: &str, better: Better, values: &[f64], decimals: u8, width: usize) {
    // Runs without the figure (NaN) take no part.
    let known = values.iter().copied().filter(|v| !v.is_nan());
    let best = match better {
        Better::Lower => known.reduce(f64::min),
        Better::Higher => known.reduce(f64::max),
        Better::None => None,
    };
    let _ = write!(out, "{name:<SHORT_WIDTH$}");
    for &v in values {
        let mark = if values.len() > 1 && best == Some(v) {
            "*"
        } else {
            " "
        };
        // A figure the run does not have (a guarantee figure of a run that promises nothing).
        let cell = if v.is_nan() {
            "- ".to_string()
        } else {
            format!("{v:.prec$}{mark}", prec = usize::from(decimals))
        };
        let _ = write!(out, "{cell:>width$}");
    }
    out.push('\n');
}

///
/// `typed`: each run's spec as the user wrote it, which labels a column whose whole spec is long.
pub fn comparison(trace: &Trace, results: &[(RunResult, Duration)], typed: &[&str]) -> String {
    let j = &trace.jobs;
    let mut out = String::new();
    // On a cluster, the jobs that can never run there are left out of every run: counted as
    // skipped here too, as the table's `jobs` and `skipped` rows count them.
    let (skipped, never) = j.skipped_split();
    let _ = writeln!(
        out,
        "trace {}: {} simulated, {skipped} skipped{}, machine {} processors ({})",
        j.name,
        schedlab::plural::count(j.simulated_count(), "job"),
        never.map_or(String::new(), |n| format!(" ({n})")),
        j.procs,
        j.procs_source
    );
    let cluster = results.iter().find_map(|(r, _)| r.cluster.as_ref());
    if let Some(c) = cluster {
        let memory = if c.memory_counted {
            format!("{} GB of memory", c.mem_mb / 1024)
        } else {
            "memory not counted".into()
        };
        let _ = writeln!(
            out,
            "cluster: {} cores, {memory}, {} GPUs on its usable nodes",
            c.cores, c.gpus
        );
    }
    let seed = results.first().map_or(0, |(r, _)| r.schedule.seed);
    let _ = writeln!(out, "seed {seed}; * marks the best value\n");
    let specs = results.iter().map(|(r, _)| r.spec.as_str());
    let (labels, notes) = labels(specs.zip(typed.iter().copied()));
    let width = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(12)
        + 2;
    let _ = write!(out, "{:<SHORT_WIDTH$}", "metric");
    for label in &labels {
        let _ = write!(out, "{label:>width$}");
    }
    out.push('\n');
    let nodes = !results.is_empty() && results.iter().all(|(r, _)| r.penalty.is_some());
    // Guarantee accuracy only when a run promised every job a start (conservative).
    let promised = results.iter().any(|(r, _)| r.fairness.guarantee.applies());
    // A run that simulated no job (historic on a trace without waits) has no figures: shown as
    // "-", never starred best (its zeros were).
    let jobs = METRICS.iter().find(|m| m.name == "jobs");
    let empty: Vec<bool> = results
        .iter()
        .map(|(r, _)| jobs.and_then(|m| r.metric(m)) == Some(0.0))
        .collect();
    for m in METRICS {
        if (m.family == Family::Penalty && !nodes)
            || (m.family == Family::Guarantee && !promised)
            || (m.family == Family::Cluster && cluster.is_none())
        {
            continue;
        }
        let counts = matches!(m.name, "jobs" | "skipped");
        let values: Vec<f64> = results
            .iter()
            .zip(&empty)
            .map(|((r, _), &empty)| match empty && !counts {
                true => f64::NAN,
                false => r.metric(m).unwrap_or(f64::NAN),
            })
            .collect();
        row(&mut out, m.short, m.better, &values, m.digits, width);
    }
    let _ = write!(out, "{:<SHORT_WIDTH$}", "simulation (ms)");
    for (_, took) in results {
        let cell = format!("{:.1} ", took.as_secs_f64() * 1e3);
        let _ = write!(out, "{cell:>width$}");
    }
    out.push('\n');
    out.push_str(&notes);
    out
}

/// Specs longer than this are shown as the user wrote them (or by their name) with a number,
/// and in full under the table.
pub const LONGEST_LABEL: usize = 40;

/// The columns' labels from each run's (whole spec, spec as written), and the lines that give
/// in full the specs they shorten: `slurm` with a slurm.conf's parameters runs to hundreds of
/// characters, which would widen every column.
pub fn labels<'a>(specs: impl Iterator<Item = (&'a str, &'a str)>) -> (Vec<String>, String) {
    let mut notes = String::new();
    let mut n = 0;
    let short = |s: &str| s.chars().count() <= LONGEST_LABEL;
    let labels = specs
        .map(|(spec, typed)| {
            if short(spec) {
                return spec.to_string();
            }
            n += 1;
            let _ = writeln!(notes, "({n}) {spec}");
            match short(typed) {
                true => format!("{typed} ({n})"),
                false => format!("{}[…] ({n})", spec.split('[').next().unwrap_or(spec)),
            }
        })
        .collect();
    (labels, notes)
}

#[cfg(test)]
mod tests {
    use super::labels;

    #[test]
    fn long_specs_are_numbered_and_given_in_full_under_the_table() {
        let long = format!("slurm[{}]", "PriorityWeightAge=5000,".repeat(3));
        let typed_long = format!("slurm[bf_window=60,{}]", "bf_interval=5,".repeat(3));
        let runs = [
            ("easy", "easy"),
            (long.as_str(), "slurm"),
            ("fcfs", "fcfs"),
            (long.as_str(), "slurm[bf_window=60]"),
            (long.as_str(), typed_long.as_str()),
        ];
        let (got, notes) = labels(runs.into_iter());
        let want = [
            "easy",
            "slurm (1)",
            "fcfs",
            "slurm[bf_window=60] (2)",
            "slurm[…] (3)",
        ];
        assert_eq!(got, want);
        assert_eq!(notes, format!("(1) {long}\n(2) {long}\n(3) {long}\n"));
        // A spec of 40 characters or fewer is its own label, as written by the engine.
        let spec = "easy[queue=expr(wait*procs)]";
        let (got, notes) = labels([(spec, "easy[queue=expr( wait*procs )]")].into_iter());
        assert_eq!((got, notes), (vec![spec.to_string()], String::new()));
    }
}
