//! The decisions with the backfill cycles of the controller's debug log (`schedlab replay
//! --debug-log`, `Logged::cycles`): each decision's pass runs a cycle exactly when Slurm's
//! thread began one within the instant, so the figures measure what the cycle does, not when
//! the model's own clock runs it (docs/slurm.md "When a cycle runs", docs/slurm-runs.md "The
//! cycles of the debug log"); and each job that ended in the second of a priority period is
//! counted by it exactly when the log stamps its end after the period (`Logged::end_sides`,
//! docs/slurm.md "priority/multifactor").

use super::{load_run, Run, PHASES};
use schedlab::replay::recorded::{self, backfill_cycles_of, Logged};
use schedlab::replay::{Figures, Replay};
use std::path::{Path, PathBuf};

/// Per run with a debug log: (recall, precision) with the log's cycles and ends' sides,
/// floored at 0.1% (without them: the run's own test file). Issue 34's 90 / 90% on 29 of the
/// 32 committed runs (26 without the log): qos-6/run2 96.7 / 81.7 -> 100 / 98.4%,
/// smallbf-8/run2 80.8 / 100 -> 98.3 / 99.2% and smallbf-8/run1 78.3 / 88.7 -> 99.2 / 93.7%
/// reach it; qos-6/run3 96.7 / 89.2% (unchanged), tiers-4/run4 94.4 / 89.5 -> 96.7 / 88.8%
/// and qoslimits-10/run1 95.0 / 89.6% (unchanged) stay short. Precision falls where the
/// model's cycle, now run in the second of Slurm's, starts more than Slurm's did: Slurm's
/// cycle ran before an end or a kill of its second or of the instant's (the order within a
/// second, which sacct does not record, and the one pass a decision makes for an instant of
/// two seconds). The ends' sides of the periods (`recorded::end_sides`) moved two runs, with
/// the cycles alone: smallbf-8/run1 92.5 / 84.7 -> 99.2 / 93.7% (job 67's end before the
/// period at 599 s, job 77's after the one at 839 s: "smallbf-8: every miss traced to its
/// cause"), tiers-7/run2 97.5 / 90.7 -> 98.3 / 92.9% (job 89's end after the period at 477 s).
const CYCLES_REACHED: [(&str, (f64, f64)); 26] = [
    ("tiers-4/run1", (0.966, 0.988)),
    ("tiers-4/run2", (0.933, 0.933)),
    ("fairshare-1/run3", (0.983, 0.951)),
    ("smallbf-2/run3", (0.983, 0.967)),
    ("gpu-3/run3", (0.999, 0.983)),
    ("tiers-4/run3", (0.999, 0.978)),
    ("fairshare-1/run4", (0.933, 0.903)),
    ("smallbf-2/run4", (0.966, 0.950)),
    ("gpu-3/run4", (0.999, 0.999)),
    ("tiers-4/run4", (0.966, 0.887)),
    ("limits-5/run3", (0.999, 0.999)),
    ("limits-5/run1", (0.983, 0.983)),
    ("limits-5/run2", (0.983, 0.999)),
    ("qos-6/run1", (0.933, 0.933)),
    ("qos-6/run2", (0.999, 0.983)),
    ("qos-6/run3", (0.966, 0.892)),
    ("qoslimits-9/run1", (0.930, 0.920)),
    ("qoslimits-9/run2", (0.960, 0.932)),
    ("qoslimits-10/run1", (0.950, 0.896)),
    ("qoslimits-10/run2", (0.999, 0.980)),
    ("assoclimits-11/run1", (0.980, 0.980)),
    ("assoclimits-11/run2", (0.980, 0.980)),
    ("tiers-7/run1", (0.983, 0.951)),
    ("tiers-7/run2", (0.983, 0.929)),
    ("smallbf-8/run1", (0.991, 0.937)),
    ("smallbf-8/run2", (0.983, 0.991)),
];

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(name)
}

/// Every committed run with a debug log, at its phases, with the files its directory holds
/// (`qos.txt`, `assoc.txt`).
fn logged_runs() -> Vec<Run> {
    let phases = (PHASES.iter().chain(&super::further_runs::FURTHER))
        .chain(&super::limits_runs::LIMITS)
        .chain(&super::qos_runs::QOS_RUNS)
        .chain(&super::qoslimits_runs::RUNS)
        .chain(&super::new_workload::QOSLIMITS_10)
        .chain(&super::assoclimits_runs::RUNS)
        .chain(&super::new_workload::NEW)
        .chain(&super::new_workload::SMALLBF_8);
    phases
        .filter(|(name, _)| dir(name).join("slurmctld.log.gz").exists())
        .map(|&(name, phase)| {
            if dir(name).join("qos.txt").exists() {
                super::qos_runs::qos_run(name, phase)
            } else if dir(name).join("assoc.txt").exists() {
                super::assoclimits_runs::assoc_run(name, phase)
            } else {
                load_run(name, phase)
            }
        })
        .collect()
}

/// `run`'s sacct log with what its debug log tells (`schedlab replay --debug-log`): the
/// backfill cycles (`cycles`) and the ends' sides of the priority periods (`sides`).
pub(super) fn logged(run: &Run, cycles: bool, sides: bool) -> Logged {
    let mut logged = Logged::from_sacct(&run.text, "sacct.txt", &run.set.jobs).unwrap();
    if cycles || sides {
        let bytes = std::fs::read(dir(&run.name).join("slurmctld.log.gz")).unwrap();
        let text = recorded::debug_log_text(&bytes).unwrap();
        if cycles {
            logged = logged.with_cycles(recorded::backfill_cycles(&text, run.site.clock));
        }
        if sides {
            let ends = recorded::recorded_ends(&run.set.jobs);
            let ids = run.set.log_id_list();
            let sides = recorded::end_sides(&text, run.site.clock, &ids, &ends);
            assert!(sides.is_some(), "{}", run.name);
            logged = logged.with_end_sides(sides);
        }
    }
    logged
}

/// `slurm`'s decisions on `run`, with the debug log's cycles and ends' sides or without.
pub(super) fn figures(run: &Run, cycles: bool, sides: bool) -> Figures {
    let logged = logged(run, cycles, sides);
    let replay = Replay::new(&run.set, logged).unwrap();
    let build = || schedlab::policy::slurm::build_with_site(&run.slurm, &run.site);
    let (ds, reselected) = replay
        .decisions(|| build().map_err(schedlab::run::Error::from), 1)
        .unwrap();
    assert_eq!(reselected, 0, "{}", run.name);
    Figures::of(&ds)
}

/// The 26 runs with a debug log, without it and with its cycles and ends' sides (as `schedlab
/// replay --debug-log`), printed (`--nocapture`); checked: every recorded start counted once,
/// and the figures with the log at least [`CYCLES_REACHED`].
#[test]
fn decisions_with_the_debug_logs_cycles() {
    let runs = logged_runs();
    assert_eq!(runs.len(), CYCLES_REACHED.len());
    for run in &runs {
        let plain = figures(run, false, false);
        let with = figures(run, true, true);
        println!("{}: without the debug log {plain}", run.name);
        println!("{}: with it               {with}", run.name);
        assert_eq!(with.recorded, run.set.jobs.len(), "{}", run.name);
        let (recall, precision) = CYCLES_REACHED.iter().find(|r| r.0 == run.name).unwrap().1;
        assert!(with.recall() >= recall, "{}: {with}", run.name);
        assert!(with.precision() >= precision, "{}: {with}", run.name);
    }
}

/// Worked by hand on smallbf-8/run1 at 479 s: Slurm's cycle at 479.31 s, after job 53's end at
/// 479.09 s, started 57, 59, 60, 61, 66, 67 and 85 (`scripts/slurm-cycle-seconds.py`; its
/// cycle before, at 474.31 s, started none). Without the log's cycles the model's clock, set
/// by the history's, has no cycle at 479 and the pass starts 66 and 67 alone; with them the
/// pass runs the cycle and starts all seven.
#[test]
fn a_logged_cycle_runs_in_the_decision_of_its_second() {
    let run = load_run("smallbf-8/run1", super::new_workload::SMALLBF_8[0].1);
    let bytes = std::fs::read(dir(&run.name).join("slurmctld.log.gz")).unwrap();
    let cycles = backfill_cycles_of(&bytes, run.site.clock).unwrap();
    assert!(cycles.contains(&479) && !cycles.contains(&478) && !cycles.contains(&480));
    let at = |with: bool| {
        let mut logged = Logged::from_sacct(&run.text, "sacct.txt", &run.set.jobs).unwrap();
        if with {
            logged = logged.with_cycles(cycles.clone());
        }
        let replay = Replay::new(&run.set, logged).unwrap();
        let inst = schedlab::replay::instants(&replay.starts)
            .into_iter()
            .find(|i| i.time == 479)
            .unwrap();
        let mut p = schedlab::policy::slurm::build_with_site(&run.slurm, &run.site).unwrap();
        let (d, _) = replay.decide_at(&inst, p.as_mut(), 1).unwrap();
        let ids = |js: &[usize]| -> Vec<i64> { js.iter().map(|&j| run.set.jobs[j].id).collect() };
        (ids(&d.recorded), ids(&d.model))
    };
    let (recorded, without) = at(false);
    assert_eq!(recorded, [57, 59, 60, 61, 66, 67, 85]);
    assert_eq!(without, [66, 67]);
    assert_eq!(at(true).1, recorded);
}
