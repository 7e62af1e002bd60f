//! The decisions with the backfill cycles of the controller's debug log (`schedlab replay
//! --debug-log`, `Logged::cycles`): each decision's pass runs a cycle exactly when Slurm's
//! thread began one within the instant, so the figures measure what the cycle does, not when
//! the model's own clock runs it (docs/slurm.md "When a cycle runs", docs/slurm-runs.md "The
//! cycles of the debug log"); and each job that ended in the second of a priority period is
//! counted by it exactly when the log stamps its end after the period (`Logged::end_sides`,
//! docs/slurm.md "priority/multifactor").

use super::{load_run, Run};
use schedlab::replay::log_order::log_order;
use schedlab::replay::recorded::{self, Logged};
use schedlab::replay::{Figures, Replay};
use std::path::{Path, PathBuf};

/// Per run with a debug log: (recall, precision) with all it tells (`schedlab replay
/// --debug-log`: the cycles' seconds, the order of its events within a second and the ends'
/// sides of the priority periods), floored at 0.1% (without them: the run's own test file).
/// Issue 34's 90 / 90% on all 34 of these runs (gpulong-13, fairshare-14 and gpu-15 with all the
/// debug log tells: 99.7 / 99.3%, 98.3 / 99.3%, 100 / 99.2%, 99.2 / 100% and 100 / 100% twice).
/// With the cycles' seconds alone 30 (smallbf-8/run1 92.5 / 84.7%, qos-6/run3 96.7 / 89.2%,
/// tiers-4/run4 96.7 / 88.8%, qoslimits-10/run1 95.0 / 89.6% short); the order brings qos-6/run3
/// to 100 / 98.4%, tiers-4/run4 to 98.9 / 97.8%, qoslimits-10/run1 to 99.0 / 100% (100 / 100%
/// since each second's late submissions move once, `replay/order.rs`: job 76 at 183 s)
/// (docs/slurm-runs.md, "The order within a second from the debug log"); the ends' sides bring
/// smallbf-8/run1 (92.5 / 89.5% with the order) to 99.2 / 99.2% (job 67's end before the
/// period at 599 s, job 77's after the one at 839 s: "smallbf-8: every miss traced to its
/// cause") and tiers-7/run2 from 99.2 / 98.3% to 99.2 / 99.2% (job 89's end after the period
/// at 477 s). usage-12/run1: 96.0 / 92.3% without, 97.0 / 91.5% with the cycles' seconds alone,
/// 99.0 / 97.1% with all (98.0 / 97.0% before the late submissions moved once: job 69 at 164 s).
const CYCLES_REACHED: [(&str, (f64, f64)); 34] = [
    ("tiers-4/run1", (0.988, 0.988)),
    ("tiers-4/run2", (0.955, 0.977)),
    ("fairshare-1/run3", (0.983, 0.999)),
    ("smallbf-2/run3", (0.983, 0.999)),
    ("gpu-3/run3", (0.999, 0.999)),
    ("tiers-4/run3", (0.999, 0.989)),
    ("fairshare-1/run4", (0.966, 0.983)),
    ("smallbf-2/run4", (0.999, 0.983)),
    ("gpu-3/run4", (0.999, 0.999)),
    ("tiers-4/run4", (0.988, 0.978)),
    ("limits-5/run3", (0.999, 0.999)),
    ("limits-5/run1", (0.999, 0.999)),
    ("limits-5/run2", (0.983, 0.999)),
    ("qos-6/run1", (0.933, 0.982)),
    ("qos-6/run2", (0.999, 0.999)),
    ("qos-6/run3", (0.999, 0.983)),
    ("qoslimits-9/run1", (0.980, 0.980)),
    ("qoslimits-9/run2", (0.980, 0.980)),
    ("qoslimits-10/run1", (0.999, 0.999)),
    ("qoslimits-10/run2", (0.999, 0.990)),
    ("assoclimits-11/run1", (0.999, 0.990)),
    ("assoclimits-11/run2", (0.980, 0.980)),
    ("tiers-7/run1", (0.991, 0.975)),
    ("tiers-7/run2", (0.991, 0.991)),
    ("smallbf-8/run1", (0.991, 0.991)),
    ("smallbf-8/run2", (0.991, 0.999)),
    ("usage-12/run1", (0.990, 0.970)),
    ("usage-12/run2", (0.999, 0.990)),
    ("gpulong-13/run1", (0.996, 0.993)),
    ("gpulong-13/run2", (0.983, 0.993)),
    ("fairshare-14/run1", (0.999, 0.991)),
    ("fairshare-14/run2", (0.991, 0.999)),
    ("gpu-15/run1", (0.999, 0.999)),
    ("gpu-15/run2", (0.999, 0.999)),
];

fn dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(name)
}

/// Every committed run with a debug log, at its phases, with the files its directory holds
/// (`qos.txt`, `assoc.txt`).
fn logged_runs() -> Vec<Run> {
    (super::every_run().into_iter())
        .filter(|r| dir(&r.name).join("slurmctld.log.gz").exists())
        .collect()
}

/// What a replay reads of the debug log.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Read {
    Nothing,
    /// The seconds of its cycles only.
    Cycles,
    /// Its cycles and the order of the events within a second.
    Order,
    /// The ends' sides of the priority periods only.
    Sides,
    /// All of it: the cycles, the order and the ends' sides (`schedlab replay --debug-log`).
    All,
}

/// `run`'s sacct log with what its debug log tells, as `read` says.
pub(super) fn logged(run: &Run, read: Read) -> Logged {
    let mut logged = Logged::from_sacct(&run.text, "sacct.txt", &run.set.jobs).unwrap();
    if read == Read::Nothing {
        return logged;
    }
    let bytes = std::fs::read(dir(&run.name).join("slurmctld.log.gz")).unwrap();
    let text = recorded::debug_log_text(&bytes).unwrap();
    let clock = run.site.clock;
    if matches!(read, Read::Cycles | Read::Order | Read::All) {
        logged = logged.with_cycles(recorded::backfill_cycles(&text, clock));
    }
    if matches!(read, Read::Order | Read::All) {
        logged = logged.with_order(log_order(&text, clock));
    }
    if matches!(read, Read::Sides | Read::All) {
        let ends = recorded::recorded_ends(&run.set.jobs);
        let ids = run.set.log_id_list();
        let sides = recorded::end_sides(&text, clock, &ids, &ends);
        assert!(sides.is_some(), "{}", run.name);
        logged = logged.with_end_sides(sides);
    }
    logged
}

/// `slurm`'s decisions on `run`, reading `read` of the debug log.
fn decisions(run: &Run, read: Read) -> Vec<schedlab::replay::Decision> {
    let replay = Replay::new(&run.set, logged(run, read)).unwrap();
    let build = || schedlab::policy::slurm::build_with_site(&run.slurm, &run.site);
    let (ds, reselected) = replay
        .decisions(|| build().map_err(schedlab::run::Error::from), 1)
        .unwrap();
    assert_eq!(reselected, 0, "{}", run.name);
    ds
}

/// [`decisions`]' figures.
pub(super) fn figures(run: &Run, read: Read) -> Figures {
    Figures::of(&decisions(run, read))
}

/// The runs with a debug log, without it and with all it tells (its cycles, the order of its
/// events within a second and the ends' sides of the priority periods, as `schedlab replay
/// --debug-log`), printed (`--nocapture`); checked: every recorded start counted once, and the
/// figures with the log at least [`CYCLES_REACHED`].
#[test]
fn decisions_with_the_debug_logs_cycles() {
    let runs = logged_runs();
    assert_eq!(runs.len(), CYCLES_REACHED.len());
    for run in &runs {
        let plain = figures(run, Read::Nothing);
        let with = figures(run, Read::All);
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
    let text = recorded::debug_log_text(&bytes).unwrap();
    let cycles = recorded::backfill_cycles(&text, run.site.clock);
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

/// Worked by hand on tiers-4/run4 at 149 s (the instant of seconds 148 and 149): Slurm's cycle
/// began at 148.850 s and started 44 and 50; job 5 ended at 148.893 s, after it, and the main
/// scheduler started 49 at 149.893 s (`scripts/slurm-cycle-seconds.py`). With the cycles'
/// seconds alone the decision's one pass, at 149, has job 5's nodes free for its cycle, which
/// starts 36 there too; with the log's order the cycle runs at 148 with job 5 still running
/// (its end after the cycle) and the main scheduler's pass at 149 after it: 44, 49 and 50,
/// Slurm's.
#[test]
fn an_end_after_the_cycle_of_its_second_is_not_seen_by_it() {
    let run = load_run("tiers-4/run4", phase_of("tiers-4/run4"));
    let ds = |read: Read| -> Vec<i64> {
        let d = decisions(&run, read);
        let d = d.iter().find(|d| d.time == 149).unwrap();
        assert_eq!(ids(&run, &d.recorded), [44, 49, 50]);
        ids(&run, &d.model)
    };
    assert_eq!(ds(Read::Cycles), [36, 44, 49, 50]);
    assert_eq!(ds(Read::Order), [44, 49, 50]);
}

/// The jobs `js` by their ids.
fn ids(run: &Run, js: &[usize]) -> Vec<i64> {
    js.iter().map(|&j| run.set.jobs[j].id).collect()
}

/// The phases of `name` in the tests' tables.
fn phase_of(name: &str) -> &'static str {
    super::further_runs::FURTHER
        .iter()
        .find(|r| r.0 == name)
        .unwrap()
        .1
}
