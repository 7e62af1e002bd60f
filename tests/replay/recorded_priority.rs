//! The ends' sides of the priority periods read from sacct's `Priority` column
//! (`schedlab::replay::prio_sides`, docs/slurm-runs.md "The ends' sides from sacct's
//! Priority"): on every committed run, the sides told against those the debug log times, and
//! the decisions without the debug log before and after.

use super::log_cycles::{logged, Read};
use super::Run;
use schedlab::replay::prio_sides::{read_sides, Told};
use schedlab::replay::{Figures, Replay};

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
    let runs = super::every_run();
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

/// Of `run`'s jobs with a recorded priority, those the model gives at their submission under
/// `spec`, on the recorded history.
fn agreeing(run: &Run, spec: &str) -> usize {
    let l = logged(run, Read::Nothing);
    let recorded = l.priorities.clone();
    let replay = Replay::new(&run.set, l).unwrap();
    let (mut policy, shared) = schedlab::policy::slurm::build_sharing(spec, &run.site).unwrap();
    let last = replay.starts.iter().max().copied().unwrap_or(0) + 1;
    replay.follow_to(last, policy.as_mut(), 1).unwrap();
    let st = shared.borrow();
    (recorded.iter().enumerate())
        .filter(|&(j, v)| *v == Some(st.submitted_priority(j)))
        .count()
}

/// The whole second of the run's own `calc_phase` (its spec starts `slurm[calc_phase=S`).
fn own_second(run: &Run) -> i64 {
    let phase = run.slurm.trim_start_matches("slurm[calc_phase=");
    let whole = phase.split(['.', ',', ']']).next().unwrap();
    whole.parse().unwrap()
}

/// Whether the recorded priorities tell the periods' second: per run, how many the model
/// gives at each whole `calc_phase` second, printed (`--nocapture`).
#[test]
#[ignore]
fn measure_the_periods_second() {
    let (mut unique, mut runs_n) = (0, 0);
    for run in super::every_run() {
        let second = own_second(&run);
        let counts: Vec<usize> = (0..60)
            .map(|s| agreeing(&run, &format!("slurm[calc_phase={s}]")))
            .collect();
        let best = *counts.iter().max().unwrap();
        let at_best: Vec<usize> = (0..60).filter(|&s| counts[s] == best).collect();
        let total = run.set.jobs.len();
        runs_n += 1;
        unique += usize::from(at_best == [second as usize]);
        println!(
            "{}: {} of {total} at the run's second {second}; best {best} at {:?}; min {}",
            run.name,
            counts[second as usize],
            at_best,
            counts.iter().min().unwrap()
        );
    }
    println!("the run's second alone best: {unique} of {runs_n}");
}

/// Whether the recorded priorities tell the half minute the limit checks leave open: per run
/// with an end by the checks, the checks' second `c` (`phases_from_log::check_phase`) and how
/// many recorded priorities the model gives at `calc_phase=c` and at `c + 30`, printed.
#[test]
#[ignore]
fn measure_the_half_minute() {
    let (mut right, mut wrong, mut tied) = (0, 0, 0);
    for run in super::every_run() {
        let second = own_second(&run);
        let phase = run.slurm.trim_start_matches("slurm[calc_phase=");
        let Some(clocks) = schedlab::slurm::phases_from_log::LogClocks::of(&run.set) else {
            continue;
        };
        let ends: Vec<i64> = clocks.limit_ends.iter().map(|e| e.0).collect();
        let Some(c) = schedlab::slurm::phases_from_log::check_phase(&ends) else {
            println!("{}: no end by the checks", run.name);
            continue;
        };
        let frac = if phase.split([',', ']']).next().unwrap().contains('.') {
            ".5"
        } else {
            ""
        };
        let a = agreeing(&run, &format!("slurm[calc_phase={c}{frac}]"));
        let b = agreeing(&run, &format!("slurm[calc_phase={}{frac}]", c + 30));
        let chosen = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(c),
            std::cmp::Ordering::Less => Some(c + 30),
            std::cmp::Ordering::Equal => None,
        };
        match chosen {
            Some(s) if s == second => right += 1,
            Some(_) => wrong += 1,
            None => tied += 1,
        }
        println!(
            "{}: checks' second {c}; at {c}: {a}, at {}: {b} of {}; the run's {second}",
            run.name,
            c + 30,
            run.set.jobs.len()
        );
    }
    println!("the half minute told: right {right}, wrong {wrong}, tied {tied}");
}

/// The spec that asks for the periods' phase read from the log.
const READ: &str = "slurm[calc_phase=read]";

/// Decisions from the sacct log alone, as `schedlab replay` gives them with no phase in the
/// spec: the loops' phases read from the log (`bf_phase`, `sched_phase`), `calc_phase` at 0
/// (before) or read from the recorded priorities with the ends' sides (after); printed.
#[test]
#[ignore]
fn measure_from_sacct_alone() {
    let (mut before90, mut after90, mut seconds) = (0, 0, 0);
    let runs = super::every_run();
    for run in &runs {
        let clocks = schedlab::slurm::phases_from_log::LogClocks::of(&run.set);
        let site = run.site.clone().with_log_clocks(clocks);
        let replay = Replay::new(&run.set, logged(run, Read::Nothing)).unwrap();
        let figures_at = |site: &schedlab::slurm::Site, spec: &str, sides: Option<&Told>| {
            let mut l = logged(run, Read::Nothing);
            if let Some(t) = sides {
                l = l.with_end_sides(Some((t.decay, t.sides.clone())));
            }
            let replay = Replay::new(&run.set, l).unwrap();
            let build = || {
                schedlab::policy::slurm::build_with_site(spec, site)
                    .map_err(schedlab::run::Error::from)
            };
            Figures::of(&replay.decisions(build, 1).unwrap().0)
        };
        let before = figures_at(&site, "slurm", None);
        let (read_site, read) =
            schedlab::replay::prio_phase::site_with_read_phase(&replay, READ, site).unwrap();
        let build = || {
            schedlab::policy::slurm::build_sharing(READ, &read_site)
                .map_err(schedlab::run::Error::from)
        };
        let told = read_sides(&replay, build).unwrap().unwrap();
        let after = figures_at(&read_site, READ, Some(&told));
        let ok = |f: &Figures| f.recall() >= 0.9 - 1e-9 && f.precision() >= 0.9 - 1e-9;
        before90 += usize::from(ok(&before));
        after90 += usize::from(ok(&after));
        let phase = run.slurm.trim_start_matches("slurm[calc_phase=");
        let given: i64 = phase
            .split(['.', ',', ']'])
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let second = read.as_ref().and_then(|r| r.second);
        seconds += usize::from(second.map(|s| s.0) == Some(given));
        println!(
            "{}: calc_phase read {second:?} (the run's {given}), sides told {}; {before} -> {after}",
            run.name,
            told.counts().1
        );
    }
    println!(
        "read second = the run's: {seconds} of {}; at 90/90: {before90} -> {after90}",
        runs.len()
    );
}

/// gpu-15/run1, worked from its debug log (`gpu_15.rs`, `an_end_before_the_period_of_its_second`):
/// jobs 19 and 23 ended at 118.123 and 118.124 s, before the period at 118.377 s. The
/// recorded priorities of the jobs submitted from 119 to 177 s tell it for job 19 (bio's usage
/// without its last minute gives them; with it, not), the side the debug log times; at 445 s
/// the decision is then Slurm's (46, 52 and 128), where without it the model starts chem's 13
/// and 98.
#[test]
fn gpu_15_run1_an_end_before_its_period_told_by_the_priorities() {
    let (name, phase) = super::gpu_15::RUNS[0];
    let run = super::site_run(name, phase);
    let t = told(&run);
    let told_ids: Vec<(i64, Option<bool>)> = (0..run.set.jobs.len())
        .filter(|&j| t.sides[j].is_some())
        .map(|j| (run.set.jobs[j].id, t.sides[j]))
        .collect();
    assert_eq!(told_ids, [(19, Some(false))], "{:?}", t.periods);
    let at118 = t.periods.iter().find(|p| p.second == 118).unwrap();
    assert_eq!((at118.ends, at118.told, at118.compared), (2, 1, 26));
    assert_eq!(against_log(&run, &t), Some((1, 0, 0)));
    let decide = |sides: Option<&Told>| {
        let mut l = logged(&run, Read::Nothing);
        if let Some(t) = sides {
            l = l.with_end_sides(Some((t.decay, t.sides.clone())));
        }
        let replay = Replay::new(&run.set, l).unwrap();
        let inst = (schedlab::replay::instants(&replay.starts).into_iter())
            .find(|i| i.time == 445)
            .unwrap();
        let mut p = schedlab::policy::slurm::build_with_site(&run.slurm, &run.site).unwrap();
        let (d, _) = replay.decide_at(&inst, p.as_mut(), 1).unwrap();
        let ids = |js: &[usize]| -> Vec<i64> { js.iter().map(|&j| run.set.jobs[j].id).collect() };
        (ids(&d.recorded), ids(&d.model))
    };
    assert_eq!(decide(None), (vec![46, 52, 128], vec![13, 98]));
    assert_eq!(decide(Some(&t)), (vec![46, 52, 128], vec![46, 52, 128]));
}
