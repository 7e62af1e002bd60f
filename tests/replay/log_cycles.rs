//! The decisions with the backfill cycles of the controller's debug log (`schedlab replay
//! --debug-log`, `Logged::cycles`): each decision's pass runs a cycle exactly when Slurm's
//! thread began one within the instant, so the figures measure what the cycle does, not when
//! the model's own clock runs it (docs/slurm.md "When a cycle runs", docs/slurm-runs.md "The
//! cycles of the debug log").

use super::{load_run, Run, PHASES};
use schedlab::replay::recorded::{backfill_cycles_of, Logged};
use schedlab::replay::{Figures, Replay};
use std::path::{Path, PathBuf};

/// Per run with a debug log: (recall, precision) with the log's cycles, floored at 0.1%
/// (without them: the run's own test file). Issue 34's 90 / 90% on 28 of the 32 committed
/// runs (26 before): qos-6/run2 96.7 / 81.7 -> 100 / 98.4% and smallbf-8/run2 80.8 / 100 ->
/// 98.3 / 99.2% reach it; smallbf-8/run1 78.3 / 88.7 -> 92.5 / 84.7%, qos-6/run3 96.7 / 89.2%
/// (unchanged), tiers-4/run4 94.4 / 89.5 -> 96.7 / 88.8% and qoslimits-10/run1 95.0 / 89.6%
/// (unchanged) stay short. Precision falls where the model's cycle, now run in the second
/// of Slurm's, starts more than Slurm's did: Slurm's cycle ran before an end or a kill of its
/// second or of the instant's (the order within a second, which sacct does not record, and
/// the one pass a decision makes for an instant of two seconds), or, on smallbf-8/run1,
/// with the priorities of the other side of a period (job 67's end, "smallbf-8: every miss
/// traced to its cause").
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
    ("tiers-7/run2", (0.975, 0.906)),
    ("smallbf-8/run1", (0.925, 0.847)),
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
        .map(|&(name, phase)| super::site_run(name, phase))
        .collect()
}

/// `slurm`'s decisions on `run`, with the debug log's cycles or without.
fn figures(run: &Run, cycles: bool) -> Figures {
    let mut logged = Logged::from_sacct(&run.text, "sacct.txt", &run.set.jobs).unwrap();
    if cycles {
        let bytes = std::fs::read(dir(&run.name).join("slurmctld.log.gz")).unwrap();
        logged = logged.with_cycles(backfill_cycles_of(&bytes, run.site.clock).unwrap());
    }
    let replay = Replay::new(&run.set, logged).unwrap();
    let build = || schedlab::policy::slurm::build_with_site(&run.slurm, &run.site);
    let (ds, reselected) = replay
        .decisions(|| build().map_err(schedlab::run::Error::from), 1)
        .unwrap();
    assert_eq!(reselected, 0, "{}", run.name);
    Figures::of(&ds)
}

/// The 26 runs with a debug log, without and with its cycles, printed (`--nocapture`);
/// checked: every recorded start counted once, and the figures with the cycles at least
/// [`CYCLES_REACHED`].
#[test]
fn decisions_with_the_debug_logs_cycles() {
    let runs = logged_runs();
    assert_eq!(runs.len(), CYCLES_REACHED.len());
    for run in &runs {
        let plain = figures(run, false);
        let with = figures(run, true);
        println!("{}: without the log's cycles {plain}", run.name);
        println!("{}: with them               {with}", run.name);
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
