//! The association limits runs (tests/data/slurm/assoclimits-11/): limits set with `sacctmgr`
//! on accounts and users, enforced (`AccountingStorageEnforce=associations,limits`): account
//! phys GrpTRES=cpu=16, chem GrpJobs=3, bio GrpTRES=node=3,gres/gpu=2, eng MaxJobs=1
//! MaxTRES=cpu=8 MaxWall=3 (inherited by frank's association); alice MaxJobs=2 (both her
//! associations), bob MaxJobs=1, carol GrpTRES=cpu=12,mem=16000
//! (`scripts/slurm-validate.sh -c assoclimits -s 11 -j 100 -w 300 -d`, run twice, recorded
//! after the limits were modelled from Slurm's source). The `slurm` policy reads the limits
//! from the run's `assoc.txt` (docs/slurm.md "Association limits"; docs/slurm-runs.md
//! "Association limits against a real Slurm").

use super::qoslimits_runs::{
    decisions_beside_the_model_without, whole_runs_beside_the_model_without,
};
use super::site_run;
use super::Run;

/// Each run's phases from its own debug log: `scripts/slurm-period-sides.py RUN`
/// (`calc_phase`, `calc_early`, `calc_early_bf`); the main scheduler's full runs (run1 1.73,
/// 11.77 s ...: `sched_phase=1`; run2 2.87, 12.92 s ...: `sched_phase=2`), the backfill
/// thread's cycles (run1 1.40, 6.40 s ...: `bf_phase=1`; run2 2.51, 7.51 s ...: `bf_phase=2`).
pub(super) const RUNS: [(&str, &str); 2] = [
    (
        "assoclimits-11/run1",
        "51.5,calc_early=(51,531,771),calc_early_bf=(51,531,771,891,951,1011,1071),sched_phase=1,bf_phase=1",
    ),
    ("assoclimits-11/run2", RUN2),
];

const RUN2: &str = "52.5,calc_early_bf=(652,712,892,952),sched_phase=2,bf_phase=2";

fn runs() -> Vec<Run> {
    RUNS.iter().map(|(n, p)| site_run(n, p)).collect()
}

/// The run's site without its assoc file (the model before the association limits: main's
/// schedule).
fn without_limits(site: &mut schedlab::slurm::Site) {
    site.assoc = None;
}

/// `slurm`'s decisions reached (recall, precision).
const DECISIONS_REACHED: [(f64, f64); 2] = [(0.94, 0.979), (0.96, 0.97)];

/// Decisions one step ahead (recall / precision): run1 94.0 / 97.9% with the limits, 36.0 /
/// 27.5% without (the model before them); run2 96.0 / 97.0%, 32.0 / 28.6% without (92.0 /
/// 97.9% and 93.0 / 96.9% before the nodes a node limit counts were weighed first,
/// `prefer.rs`); `easy`
/// 40.0 / 13.5% and 41.0 / 13.7%, `conservative` 40.0 / 15.3% and 41.0 / 15.5%: issue 34's
/// 90% of both on each run. Counting a job's nodes whole against bio's `GrpTRES=node=3`
/// (before `_get_unique_job_node_cnt` was modelled) gave run1 82.0 / 92.1%. Checked: the
/// figures reached ([`DECISIONS_REACHED`]), a precision above both baselines', and a recall
/// and precision above the model's without the limits.
#[test]
fn decisions_on_the_assoc_limits_runs() {
    let runs = runs();
    let figures = decisions_beside_the_model_without(&runs, &DECISIONS_REACHED, without_limits);
    for (run, (slurm, bare)) in runs.iter().zip(figures) {
        assert!(bare.recall() < slurm.recall(), "{}", run.name);
    }
}

/// `slurm`'s whole-run figures reached (mean wait apart, worst account apart, largest wait
/// CDF gap), each rounded up.
const WHOLE_REACHED: [(f64, f64, f64); 2] = [(0.040, 0.089, 0.061), (0.058, 0.30, 0.101)];

/// How many of `slurm`'s 6 whole-run figures lie within the noise floor (3 before a job held by
/// another limit than its recorded one was a change: run2's worst account 24% -> 29%).
const WITHIN: usize = 2;

/// The whole runs beside their noise floor (run1 against run2: mean wait 0.9% apart, worst
/// account 25% (bio), largest wait CDF gap 0.060), with `easy` and `conservative` as
/// baselines. run1: `slurm` 4.0%, 9% (chem), 0.060 (3.5%, 8%, 0.060 before the backfill
/// thread's changes were the main scheduler's and the cycle's own, docs/slurm.md "When a cycle
/// runs"; without the limits 38.1%, 72% (chem), 0.200); `easy` 66.3%, 125%, 0.240;
/// `conservative` 36.2%, 153%, 0.190. run2: `slurm` 2.9%, 24% (bio), 0.100 (5.5%, 29%, 0.100
/// before; without 37.2%, 50% (phys), 0.170); `easy` 72.3%, 127%, 0.290; `conservative` 38.4%,
/// 148%, 0.200. Within the floor: 3 of `slurm`'s 6 figures (run1's worst account and CDF gap,
/// run2's worst account), none without the limits. Checked: the figures reached
/// ([`WHOLE_REACHED`]), a CDF gap below both baselines', and [`WITHIN`] figures within.
#[test]
fn whole_assoc_limits_runs_beside_the_noise_floor() {
    let within = whole_runs_beside_the_model_without(
        "assoclimits-11",
        &runs(),
        &WHOLE_REACHED,
        without_limits,
    );
    assert!(within >= WITHIN, "{within} of 6 within the noise floor");
}

/// The runs' assoc file as sacctmgr printed it: eng's Max limits inherited by frank's row,
/// the Grp limits on the accounts alone.
#[test]
fn the_assoc_file_holds_the_limits_set() {
    let run = site_run(RUNS[0].0, RUNS[0].1);
    let (table, _) = run.site.assoc.as_ref().unwrap();
    let frank = table.find("eng", Some("frank")).unwrap();
    assert_eq!(table.rows[frank].limits.max_jobs, Some(1));
    assert_eq!(table.rows[frank].limits.max_wall, Some(180));
    assert_eq!(table.rows[frank].limits.grp_jobs, None);
    let chem = table.find("chem", None).unwrap();
    assert_eq!(table.rows[chem].limits.grp_jobs, Some(3));
    assert_eq!(table.rows.iter().filter(|a| !a.limits.is_none()).count(), 9);
}
