//! The usage runs (tests/data/slurm/usage-12/): QOS `UsageFactor` and the minutes limits,
//! enforced (`AccountingStorageEnforce=associations,limits,qos`): QOS normal (UsageFactor 1),
//! double (2), half (0.5, MaxTRESMins=cpu=64); account chem GrpTRESRunMins=cpu=100, eng
//! MaxTRESMins=cpu=24 (inherited by frank's association), user erin GrpTRESMins=cpu=50;
//! fairshare 10000, age 1000, no QOS weight
//! (`scripts/slurm-validate.sh -c usage -s 12 -j 100 -w 300 -d`, run twice, recorded after
//! the rules were written from Slurm's source and before the model was run on them). The
//! `slurm` policy reads the run's `qos.txt` and `assoc.txt` (docs/slurm.md "QOS UsageFactor",
//! "Minutes limits").

use super::qoslimits_runs::{
    decisions_beside_the_model_without, whole_runs_beside_the_model_without,
};
use super::site_run;
use super::Run;

/// Each run's phases from its own debug log: `scripts/slurm-period-sides.py RUN`
/// (`calc_phase`, `calc_early`, `calc_early_bf`); the main scheduler's full runs (run1 4.42,
/// 14.48 s ...: `sched_phase=4`; run2 3.97, 13.04 s ...: `sched_phase=3`), the backfill
/// thread's cycles (run1 4.08, 9.08 s ...: `bf_phase=4`; run2 3.58, 8.58 s ...: `bf_phase=3`).
pub(super) const RUNS: [(&str, &str); 2] = [
    (
        "usage-12/run1",
        "54.5,calc_early=(54,174,234),calc_early_bf=(294,354,414,474,534,594,654,714,774,834,894,954,1014,1074),sched_phase=4,bf_phase=4",
    ),
    (
        "usage-12/run2",
        "53.5,calc_early=(113,353,473,893),calc_early_bf=(353,473,893),sched_phase=3,bf_phase=3",
    ),
];

fn runs() -> Vec<Run> {
    RUNS.iter().map(|(n, p)| site_run(n, p)).collect()
}

/// The run's site without the new rules' inputs: every `UsageFactor` 1 and no minutes limit
/// (the model before them: main's schedule, the files read as before).
fn without_usage_rules(site: &mut schedlab::slurm::Site) {
    if let Some((t, _)) = site.qos.as_mut() {
        t.usage_factors.clear();
        for (_, l) in &mut t.limits {
            l.grp_tres_mins = [None; 4];
            l.grp_tres_run_mins = [None; 4];
            l.max_tres_mins = [None; 4];
        }
        t.limits.retain(|(_, l)| !l.is_none());
    }
    if let Some((t, _)) = site.assoc.as_mut() {
        for a in &mut t.rows {
            a.limits.grp_tres_mins = [None; 4];
            a.limits.grp_tres_run_mins = [None; 4];
            a.limits.max_tres_mins = [None; 4];
        }
    }
}

/// `slurm`'s decisions reached (recall, precision).
const DECISIONS_REACHED: [(f64, f64); 2] = [(0.96, 0.923), (1.0, 0.99)];

/// Decisions one step ahead (recall / precision): run1 96.0 / 92.3% with the new rules, 56.0 /
/// 50.9% without (every UsageFactor 1, no minutes limit: the model before them); run2 100.0 /
/// 99.0%, 54.0 / 55.7% without; `easy` 43.0 / 24.3% and 46.0 / 27.5%, `conservative` 40.0 /
/// 29.4% and 42.0 / 35.9%: issue 34's 90% of both on each run. Checked: the figures reached
/// ([`DECISIONS_REACHED`]), a precision above both baselines', and a recall above the
/// model's without the rules.
#[test]
fn decisions_on_the_usage_runs() {
    let runs = runs();
    let figures =
        decisions_beside_the_model_without(&runs, &DECISIONS_REACHED, without_usage_rules);
    for (run, (slurm, bare)) in runs.iter().zip(figures) {
        assert!(bare.recall() < slurm.recall(), "{}", run.name);
    }
}

/// `slurm`'s whole-run figures reached (mean wait apart, worst account apart, largest wait
/// CDF gap), each rounded up.
const WHOLE_REACHED: [(f64, f64, f64); 2] = [(0.106, 0.19, 0.081), (0.095, 0.89, 0.091)];

/// How many of `slurm`'s 6 whole-run figures lie within the noise floor.
const WITHIN: usize = 6;

/// The whole runs beside their noise floor (run1 against run2: mean wait 15.9% apart, worst
/// account 91% (eng), largest wait CDF gap 0.090), with `easy` and `conservative` as
/// baselines. run1: `slurm` 7.5%, 56% (eng), 0.090 (without the new rules 16.3%, 59% (eng),
/// 0.120); `easy` 29.2%, 59%, 0.120; `conservative` 8.5%, 91%, 0.200. run2: `slurm` 8.4%, 54%
/// (eng), 0.070 (without 28.1%, 55% (eng), 0.140); `easy` 8.7%, 66%, 0.180; `conservative`
/// 17.9%, 122%, 0.220. Within the floor: all 6 of `slurm`'s figures, 2 of 6 without the
/// rules (the worst accounts). Checked: the figures reached ([`WHOLE_REACHED`]), a CDF gap
/// below both baselines', and [`WITHIN`] figures within.
#[test]
fn whole_usage_runs_beside_the_noise_floor() {
    let within = whole_runs_beside_the_model_without(
        "usage-12",
        &runs(),
        &WHOLE_REACHED,
        without_usage_rules,
    );
    assert!(within >= WITHIN, "{within} of 6 within the noise floor");
}

/// The runs' files as sacctmgr printed them: the UsageFactors, half's MaxTRESMins, chem's
/// GrpTRESRunMins, eng's MaxTRESMins inherited by frank's row, erin's GrpTRESMins.
#[test]
fn the_files_hold_the_usage_factors_and_limits_set() {
    let run = site_run(RUNS[0].0, RUNS[0].1);
    let (qos, _) = run.site.qos.as_ref().unwrap();
    assert_eq!(
        (
            qos.usage_factor("normal"),
            qos.usage_factor("double"),
            qos.usage_factor("half")
        ),
        (1.0, 2.0, 0.5)
    );
    assert_eq!(qos.limits_of("half").unwrap().max_tres_mins[0], Some(64));
    let (t, _) = run.site.assoc.as_ref().unwrap();
    let l = |a: &str, u: Option<&str>| t.rows[t.find(a, u).unwrap()].limits;
    assert_eq!(l("chem", None).grp_tres_run_mins[0], Some(100));
    assert_eq!(l("eng", Some("frank")).max_tres_mins[0], Some(24));
    assert_eq!(l("bio", Some("erin")).grp_tres_mins[0], Some(50));
}
