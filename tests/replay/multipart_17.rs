//! multipart-17: jobs submitted to several partitions on a real Slurm. The `multipart`
//! configuration (tiers' three partitions over shared nodes, `short`'s `MaxTime=2`; 53 of the
//! 100 jobs submitted to two or three partitions, `sbatch -p short,batch`), seed 17, 100 jobs
//! over 300 s (`scripts/slurm-validate.sh -c multipart -s 17 -j 100 -w 300 -d`, run twice).
//! sacct names only the partition a started job ran in, so the runs are read from
//! `sacct-lists.txt` (`scripts/slurm-partition-lists.py`: each job's list as submitted, the
//! partition it ran in first); `sacct.txt` is the same log with every job pinned to the
//! partition it ran in, as the model read every log before it kept the lists (docs/slurm-runs.md,
//! "Jobs submitted to several partitions (multipart-17)").

use super::{load_run_from, Run};

/// Each run's phases from its own debug log: `scripts/slurm-period-sides.py RUN`
/// (`calc_phase`, `calc_early`, `calc_early_bf`), the main scheduler's first full runs (run1
/// 5.60, 15.85 s ...: `sched_phase=5`; run2 8.48, 18.51 s ...: `sched_phase=8`) and the backfill
/// thread's first cycles (run1 -0.09, 4.91 s ...: `bf_phase=4`; run2 3.15, 8.16 s ...:
/// `bf_phase=3`).
pub(super) const RUNS: [(&str, &str); 2] = [
    (
        "multipart-17/run1",
        "55.5,calc_early=(115,175,235,355,535,775,1075),sched_phase=5,bf_phase=4",
    ),
    (
        "multipart-17/run2",
        "58.5,calc_early=(58,238,298,418,478,658,718,898),calc_early_bf=(238,298,358,418,478,538,598,658,718,898),sched_phase=8,bf_phase=3",
    ),
];

fn runs(file: &str) -> Vec<Run> {
    RUNS.iter()
        .map(|(n, p)| load_run_from(n, file, p))
        .collect()
}

/// `slurm`'s decisions reached (recall, precision) with the lists, without the debug log and
/// with it, floored at 0.1%.
const DECISIONS_REACHED: [((f64, f64), (f64, f64)); 2] = [
    ((0.950, 0.959), (0.990, 0.990)),
    ((0.970, 0.889), (0.990, 0.980)),
];

/// Decisions one step ahead (recall / precision) with the lists: run1 95.0 / 96.0% without the
/// debug log, 99.0 / 99.0% with it; run2 97.0 / 89.0% and 99.0 / 98.0%. Pinned to the
/// partition each job ran in (`sacct.txt`: the model before it kept the lists, told where
/// Slurm started each job): run1 94.0 / 94.0% and 98.0 / 97.0%, run2 100 / 93.5% and 99.0 /
/// 100%. `easy` 36.0 / 17.9% and 44.0 / 22.9%, `conservative` 32.0 / 25.6% and 45.0 / 32.6%.
/// Checked: the figures reached ([`DECISIONS_REACHED`]) and a precision above both
/// baselines'.
#[test]
fn decisions_with_jobs_of_several_partitions() {
    super::gpulong_runs::decisions_reach(&runs("sacct-lists.txt"), &DECISIONS_REACHED);
}

/// `slurm`'s whole-run figures reached with the lists (mean wait apart, worst account apart,
/// largest wait CDF gap), each rounded up at 0.1%.
const WHOLE_REACHED: [[f64; 3]; 2] = [[0.104, 0.275, 0.090], [0.056, 0.188, 0.120]];

/// The whole runs beside their noise floor (run1 against run2: mean wait 291.4 / 241.0 s,
/// 19.0% apart, worst account 40% (chem), largest wait CDF gap 0.120). With the lists: run1
/// `slurm` 10.4%, 27% (chem), 0.090; `easy` 39.9%, 57%, 0.220; `conservative` 13.6%, 23%,
/// 0.140. run2: `slurm` 5.6%, 19% (chem), 0.120; `easy` 17.4%, 25%, 0.180; `conservative`
/// 4.1%, 33%, 0.140. Pinned (`sacct.txt`): `slurm` run1 5.8%, 9%, 0.070, run2 2.9%, 27%,
/// 0.100. Checked: the figures reached ([`WHOLE_REACHED`]), all 6 of `slurm`'s within the
/// floor, and its CDF gap below both baselines' on each run.
#[test]
fn whole_runs_with_jobs_of_several_partitions() {
    let runs = runs("sacct-lists.txt");
    let (within, figures) = super::new_workload::beside_the_floor("multipart-17", &runs);
    for ((run, f), reached) in runs.iter().zip(&figures).zip(&WHOLE_REACHED) {
        for k in 0..3 {
            assert!(f[0][k] <= reached[k] + 1e-9, "{}: {f:?}", run.name);
        }
        assert!(f[0][2] < f[1][2].min(f[2][2]), "{}: {f:?}", run.name);
    }
    assert_eq!(within, 6, "{within} of 6 within the noise floor");
}
