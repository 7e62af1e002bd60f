//! The comparison table printed by `schedlab run`: rows = metrics, columns = policies.

use schedlab::metrics::penalty::Penalty;
use schedlab::metrics::{Classic, Fairness, UserAware};
use schedlab::run::{RunResult, Trace};
use std::fmt::Write;
use std::time::Duration;

/// Which way is better for a row, to mark the best value with `*`.
#[derive(Clone, Copy, PartialEq)]
enum Better {
    Lower,
    Higher,
    None,
}

type Row = (&'static str, Better, fn(&Classic) -> f64, u8);

/// The resource-sharing rows (node model only; over the measured window).
type PenaltyRow = (&'static str, Better, fn(&Penalty) -> f64, u8);

const PENALTY_ROWS: &[PenaltyRow] = &[
    ("[nodes] jobs measured", Better::None, |p| p.jobs as f64, 0),
    (
        "[nodes] mean penalized %",
        Better::Lower,
        |p| p.penalized_pct.mean,
        2,
    ),
    (
        "[nodes] p95 penalized %",
        Better::Lower,
        |p| p.penalized_pct.p95,
        2,
    ),
    (
        "[nodes] killed (penalty)",
        Better::Lower,
        |p| p.killed_by_penalty as f64,
        0,
    ),
    (
        "[nodes] killed (all)",
        Better::Lower,
        |p| p.killed as f64,
        0,
    ),
    ("[nodes] mean bsld", Better::Lower, |p| p.bsld.mean, 2),
    ("[nodes] p95 bsld", Better::Lower, |p| p.bsld.p95, 2),
    ("[nodes] mean wait (s)", Better::Lower, |p| p.wait.mean, 1),
    ("[nodes] p95 wait (s)", Better::Lower, |p| p.wait.p95, 1),
];

const ROWS: &[Row] = &[
    ("jobs", Better::None, |c| c.counts.jobs as f64, 0),
    ("mean wait (s)", Better::Lower, |c| c.wait.mean, 1),
    ("median wait (s)", Better::Lower, |c| c.wait.median, 1),
    ("p95 wait (s)", Better::Lower, |c| c.wait.p95, 1),
    ("max wait (s)", Better::Lower, |c| c.wait.max, 0),
    ("mean response (s)", Better::Lower, |c| c.response.mean, 1),
    ("mean bsld (MBS)", Better::Lower, |c| c.mbs, 2),
    ("weighted bsld (MWBS)", Better::Lower, |c| c.mwbs, 2),
    ("median bsld", Better::Lower, |c| c.bsld.median, 2),
    ("p95 bsld", Better::Lower, |c| c.bsld.p95, 2),
    ("max bsld", Better::Lower, |c| c.bsld.max, 1),
    (
        "mean width-normalized sld",
        Better::Lower,
        |c| c.wsld.mean,
        3,
    ),
    ("mean stretch", Better::Lower, |c| c.stretch.mean, 2),
    ("utilization", Better::Higher, |c| c.utilization, 4),
    ("load (submit span)", Better::None, |c| c.load, 4),
    ("makespan (s)", Better::Lower, |c| c.makespan as f64, 0),
    ("killed", Better::None, |c| c.counts.killed as f64, 0),
    (
        "backfilled",
        Better::None,
        |c| c.counts.backfilled as f64,
        0,
    ),
    ("blocked", Better::None, |c| c.counts.blocked as f64, 0),
    ("preempted", Better::None, |c| c.counts.preempted as f64, 0),
];

/// User-aware rows (Tóth & Klusáček): violated EETs, VEET_u and WT_u quartiles across users.
type EetRow = (&'static str, Better, fn(&UserAware) -> f64, u8);

const EET_ROWS: &[EetRow] = &[
    (
        "violated EETs (%)",
        Better::Lower,
        |e| e.violated_percent,
        2,
    ),
    ("VEET_u q1 (%)", Better::Lower, |e| e.veet.q1, 1),
    ("VEET_u median (%)", Better::Lower, |e| e.veet.median, 1),
    ("VEET_u q3 (%)", Better::Lower, |e| e.veet.q3, 1),
    ("VEET_u max (%)", Better::Lower, |e| e.veet.max, 1),
    ("WT_u median (cpu-s)", Better::Lower, |e| e.wt.median, 0),
    ("WT_u q3 (cpu-s)", Better::Lower, |e| e.wt.q3, 0),
    ("WT_u max (cpu-s)", Better::Lower, |e| e.wt.max, 0),
];

/// Fairness rows (the PV-EASY paper): strict-fairness delay, reservation violations, waste.
type FairRow = (&'static str, Better, fn(&Fairness) -> f64, u8);

const FAIR_ROWS: &[FairRow] = &[
    (
        "delayed by later jobs",
        Better::Lower,
        |f| f.strict.delayed as f64,
        0,
    ),
    ("mean delay (s)", Better::Lower, |f| f.strict.mean_delay, 0),
    (
        "reservation violations",
        Better::Lower,
        |f| f.violations.count as f64,
        0,
    ),
    (
        "wasted load (%)",
        Better::Lower,
        |f| f.preemption.wasted_load_pct,
        2,
    ),
    ("blocked big MBS", Better::Lower, |f| f.blocked.big_mbs, 2),
    (
        "blocked small MBS",
        Better::Lower,
        |f| f.blocked.small_mbs,
        2,
    ),
];

/// One line of the table, the best value marked with `*`.
fn row(out: &mut String, name: &str, better: Better, values: &[f64], decimals: u8, width: usize) {
    let best = match better {
        Better::Lower => values.iter().copied().reduce(f64::min),
        Better::Higher => values.iter().copied().reduce(f64::max),
        Better::None => None,
    };
    let _ = write!(out, "{name:<22}");
    for &v in values {
        let mark = if values.len() > 1 && best == Some(v) {
            "*"
        } else {
            " "
        };
        let cell = format!("{v:.prec$}{mark}", prec = usize::from(decimals));
        let _ = write!(out, "{cell:>width$}");
    }
    out.push('\n');
}

pub fn comparison(trace: &Trace, results: &[(RunResult, Duration)]) -> String {
    let j = &trace.jobs;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "trace {}: {} jobs simulated, {} skipped, machine {} processors ({})",
        j.name,
        j.jobs.len(),
        j.skipped_count(),
        j.procs,
        j.procs_source
    );
    let seed = results.first().map_or(0, |(r, _)| r.schedule.seed);
    let _ = writeln!(out, "seed {seed}; * marks the best value\n");
    let width = results
        .iter()
        .map(|(r, _)| r.spec.len())
        .max()
        .unwrap_or(0)
        .max(12)
        + 2;
    let _ = write!(out, "{:<22}", "metric");
    for (r, _) in results {
        let _ = write!(out, "{:>width$}", r.spec);
    }
    out.push('\n');
    for &(name, better, get, decimals) in ROWS {
        let values: Vec<f64> = results.iter().map(|(r, _)| get(&r.classic)).collect();
        row(&mut out, name, better, &values, decimals, width);
    }
    for &(name, better, get, decimals) in EET_ROWS {
        let values: Vec<f64> = results.iter().map(|(r, _)| get(&r.eet)).collect();
        row(&mut out, name, better, &values, decimals, width);
    }
    for &(name, better, get, decimals) in FAIR_ROWS {
        let values: Vec<f64> = results.iter().map(|(r, _)| get(&r.fairness)).collect();
        row(&mut out, name, better, &values, decimals, width);
    }
    if results.iter().all(|(r, _)| r.penalty.is_some()) && !results.is_empty() {
        for &(name, better, get, decimals) in PENALTY_ROWS {
            let values: Vec<f64> = results
                .iter()
                .filter_map(|(r, _)| r.penalty.as_ref().map(get))
                .collect();
            row(&mut out, name, better, &values, decimals, width);
        }
    }
    let _ = write!(out, "{:<22}", "simulation (ms)");
    for (_, took) in results {
        let cell = format!("{:.1} ", took.as_secs_f64() * 1e3);
        let _ = write!(out, "{cell:>width$}");
    }
    out.push('\n');
    out
}
