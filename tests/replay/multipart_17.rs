//! multipart-17: jobs submitted to several partitions on a real Slurm. The `multipart`
//! configuration (tiers' three partitions over shared nodes, `short`'s `MaxTime=2`; 53 of the
//! 100 jobs submitted to two or three partitions, `sbatch -p short,batch`), seed 17, 100 jobs
//! over 300 s (`scripts/slurm-validate.sh -c multipart -s 17 -j 100 -w 300 -d`, run twice).
//! sacct names only the partition a started job ran in, so the runs are read from
//! `sacct-lists.txt` (`scripts/slurm-partition-lists.py`: each job's list as submitted, the
//! partition it ran in first); `sacct.txt` is the same log with every job pinned to the
//! partition it ran in, as the model read every log before it kept the lists (docs/slurm-runs.md,
//! "Jobs submitted to several partitions (multipart-17)").

use super::log_cycles::{self, Read};
use super::{decision_figures, load_run_from, Run};

/// Each run's phases from its own debug log: `scripts/slurm-period-sides.py RUN`
/// (`calc_phase`, `calc_early`), the main scheduler's first full runs (run1 5.60, 15.85 s ...:
/// `sched_phase=5`) and the backfill thread's first cycles (run1 -0.09, 4.91 s ...:
/// `bf_phase=4`).
pub(super) const RUNS: [(&str, &str); 1] = [(
    "multipart-17/run1",
    "55.5,calc_early=(115,175,235,355,535,775,1075),sched_phase=5,bf_phase=4",
)];

fn runs(file: &str) -> Vec<Run> {
    RUNS.iter()
        .map(|(n, p)| load_run_from(n, file, p))
        .collect()
}

/// `slurm`'s decisions reached (recall, precision) with the lists, without the debug log and
/// with it, floored at 0.1%.
const DECISIONS_REACHED: [((f64, f64), (f64, f64)); 1] = [((0.950, 0.959), (0.990, 0.990))];

/// Decisions one step ahead (recall / precision). run1 with the lists: 95.0 / 95.96% without
/// the debug log, 99.0 / 99.0% with it; pinned to the partition each job ran in (`sacct.txt`,
/// the model before it kept the lists, which so knew where Slurm would start each job): 94.0 /
/// 94.0% and 98.0 / 97.0%. `easy` 36.0 / 17.9%, `conservative` 32.0 / 25.6%. Checked: the
/// figures reached ([`DECISIONS_REACHED`]), each at least the pinned model's, and a precision
/// above both baselines'.
#[test]
fn decisions_with_jobs_of_several_partitions() {
    let pinned = runs("sacct.txt");
    for (run, (plain, logged)) in runs("sacct-lists.txt").iter().zip(DECISIONS_REACHED) {
        let [slurm, easy, cons] = decision_figures(run);
        let with = log_cycles::figures(run, Read::All);
        println!("{:<18} with the debug log {with}", run.name);
        for (f, (recall, precision)) in [(&slurm, plain), (&with, logged)] {
            assert!(f.recall() >= recall - 1e-9, "{}: {f}", run.name);
            assert!(f.precision() >= precision - 1e-9, "{}: {f}", run.name);
        }
        assert!(slurm.precision() > easy.precision().max(cons.precision()));
        let old = pinned.iter().find(|r| r.name == run.name).unwrap();
        let [old_slurm, _, _] = decision_figures(old);
        let old_with = log_cycles::figures(old, Read::All);
        for (new, old) in [(&slurm, &old_slurm), (&with, &old_with)] {
            assert!(
                new.recall() >= old.recall() - 1e-9,
                "{}: {new} {old}",
                run.name
            );
            assert!(
                new.precision() >= old.precision() - 1e-9,
                "{}: {new} {old}",
                run.name
            );
        }
    }
}
