//! The ends' sides of the priority periods read from sacct's `Priority` column
//! (`schedlab::replay::prio_sides`, docs/slurm-runs.md "The ends' sides from sacct's
//! Priority"): on every committed run, the sides told against those the debug log times, and
//! the decisions without the debug log before and after.

use super::log_cycles::{logged, Read};
use super::{site_run, Run};
use schedlab::replay::prio_sides::{read_sides, Told};
use schedlab::replay::{Figures, Replay};

/// Every committed run (40), at its phases, with the files its directory holds.
pub(super) fn all_runs() -> Vec<Run> {
    let phases = (super::PHASES.iter().chain(&super::further_runs::FURTHER))
        .chain(&super::limits_runs::LIMITS)
        .chain(&super::qos_runs::QOS_RUNS)
        .chain(&super::qoslimits_runs::RUNS)
        .chain(&super::new_workload::QOSLIMITS_10)
        .chain(&super::assoclimits_runs::RUNS)
        .chain(&super::new_workload::NEW)
        .chain(&super::new_workload::SMALLBF_8)
        .chain(&super::usage_runs::RUNS)
        .chain(&super::gpulong_runs::RUNS)
        .chain(&super::fairshare_14::RUNS)
        .chain(&super::gpu_15::RUNS);
    phases.map(|&(name, phase)| site_run(name, phase)).collect()
}

/// The sides `run`'s recorded priorities tell, at its phases.
pub(super) fn told(run: &Run) -> Told {
    let replay = Replay::new(&run.set, logged(run, Read::Nothing)).unwrap();
    let build = || {
        schedlab::policy::slurm::build_sharing(&run.slurm, &run.site)
            .map_err(schedlab::run::Error::from)
    };
    read_sides(&replay, build).unwrap().unwrap()
}

/// `run`'s decisions without the debug log, with the ends' sides `sides` when given.
pub(super) fn figures_with(run: &Run, sides: Option<&Told>) -> Figures {
    let mut l = logged(run, Read::Nothing);
    if let Some(t) = sides {
        l = l.with_end_sides(Some((t.decay, t.sides.clone())));
    }
    let replay = Replay::new(&run.set, l).unwrap();
    let build = || {
        schedlab::policy::slurm::build_with_site(&run.slurm, &run.site)
            .map_err(schedlab::run::Error::from)
    };
    let (ds, _) = replay.decisions(build, 1).unwrap();
    Figures::of(&ds)
}

/// (told sides the debug log times alike, told sides it times otherwise, told sides it does
/// not time); `None` without a debug log.
fn against_log(run: &Run, t: &Told) -> Option<(usize, usize, usize)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(&run.name);
    if !dir.join("slurmctld.log.gz").exists() {
        return None;
    }
    let truth = logged(run, Read::Sides)
        .end_sides
        .map(|s| s.1)
        .unwrap_or_default();
    let mut out = (0, 0, 0);
    for (j, side) in t.sides.iter().enumerate() {
        match (side, truth.get(j).copied().flatten()) {
            (None, _) => {}
            (Some(a), Some(b)) if *a == b => out.0 += 1,
            (Some(_), Some(_)) => out.1 += 1,
            (Some(_), None) => out.2 += 1,
        }
    }
    Some(out)
}

/// The measurement on all 40 runs, printed (`--nocapture`).
#[test]
#[ignore]
fn measure_all_runs() {
    let runs = all_runs();
    assert_eq!(runs.len(), 40);
    let (mut before90, mut after90) = (0, 0);
    for run in &runs {
        let t = told(run);
        let (ends, n) = t.counts();
        let before = figures_with(run, None);
        let after = figures_with(run, Some(&t));
        let ok = |f: &Figures| f.recall() >= 0.9 - 1e-9 && f.precision() >= 0.9 - 1e-9;
        before90 += usize::from(ok(&before));
        after90 += usize::from(ok(&after));
        println!(
            "{}: ends on a period second {ends}, told {n}, against the debug log {:?}; \
             without the log {before} -> {after}",
            run.name,
            against_log(run, &t)
        );
    }
    println!(
        "at 90/90 without the log: {before90} -> {after90} of {}",
        runs.len()
    );
}
