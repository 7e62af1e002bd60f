//! gpu-15: a workload never fitted to. The `gpu` configuration (most jobs ask for GPUs, 8 on
//! the cluster, `PriorityWeightTRES` on GRES/gpu) with a new seed and 150 jobs over 420 s
//! (`scripts/slurm-validate.sh -c gpu -s 15 -j 150 -w 420 -d`, run twice), recorded with no
//! rule of the model changed for it; only its phases were read, from its own debug logs,
//! before the figures below were taken (docs/slurm-runs.md, "gpu-15: a new workload,
//! never fitted to").

use super::fairshare_14::decision_at;
use super::log_cycles::Read;
use super::{load_run, Run};

/// Each run's phases from its own debug log: `scripts/slurm-period-sides.py RUN` (`calc_phase`,
/// `calc_early`, `calc_early_bf`), the main scheduler's first full runs (run1 8.44, 18.50 s
/// ...: `sched_phase=8`; run2 9.73, 19.74 s ...: `sched_phase=9`) and the backfill thread's
/// first cycles (run1 3.07, 8.07 s ...: `bf_phase=3`; run2 4.45, 9.45 s ...: `bf_phase=4`).
pub(super) const RUNS: [(&str, &str); 2] = [
    (
        "gpu-15/run1",
        "58.5,calc_early=(118,238,298,478,658,718,838,898,958,1438),calc_early_bf=(358,418,478,538,598,658,718,778,838,898,958,1438),sched_phase=8,bf_phase=3",
    ),
    (
        "gpu-15/run2",
        "59.5,calc_early=(59,119,179,599,659,1139,1199),calc_early_bf=(359,419,479,539,599,659,1139,1199,1739),sched_phase=9,bf_phase=4",
    ),
];

fn runs() -> Vec<Run> {
    RUNS.iter().map(|(n, p)| load_run(n, p)).collect()
}

/// `slurm`'s decisions reached (recall, precision), floored at 0.1%: without the debug log,
/// and with it (`schedlab replay --debug-log`: its cycles, the order of its events within a
/// second and its ends' sides of the priority periods).
const DECISIONS_REACHED: [((f64, f64), (f64, f64)); 2] =
    [((0.840, 0.851), (1.0, 1.0)), ((0.800, 0.851), (1.0, 1.0))];

/// Decisions one step ahead (recall / precision), measured before anything was fitted to
/// this workload. run1: 84.0 / 85.1% without the debug log (126 of Slurm's 150 starts; the
/// model makes 148), 100 / 100% with it; run2 80.0 / 85.1% (120 of 150; 141) and 100 / 100%.
/// `easy` 27.3 / 9.5% and 25.3 / 8.6%, `conservative` 26.0 / 10.7% and 28.0 / 11.1%. Issue
/// 34's 90 / 90% with the debug log on both runs, without it on neither: 86 of the 97 rows
/// missed come from three jobs' own ends on the other side of a priority period than the
/// model's (sacct's whole seconds cannot place them; [`an_end_before_the_period_of_its_second`]),
/// 4 from an end both after the period and after the cycle of its second (run1 538 s), the
/// other 7 from the order within a second ([`a_kill_after_the_cycle_of_its_second`]) and the
/// backfill thread's drift ([`a_cycle_drifted_into_the_next_second`]). Checked: the figures
/// reached ([`DECISIONS_REACHED`]) and a precision above both baselines'.
#[test]
fn decisions_on_a_gpu_workload_never_seen() {
    super::gpulong_runs::decisions_reach(&runs(), &DECISIONS_REACHED);
}

/// How many of `slurm`'s 6 whole-run figures lie within the noise floor.
const WITHIN: usize = 1;

/// `slurm`'s whole-run figures reached (mean wait apart, worst account apart, largest wait
/// CDF gap), each rounded up at 0.1%.
const WHOLE_REACHED: [[f64; 3]; 2] = [[0.016, 0.328, 0.080], [0.078, 0.383, 0.114]];

/// The whole runs beside their noise floor (run1 against run2: mean wait 614.1 / 579.7 s,
/// 5.8% apart, worst account 20% (eng, 10 jobs), largest wait CDF gap 0.067). run1: `slurm`
/// 1.6%, 33% (eng), 0.080; `easy` 60.5%, 78%, 0.347; `conservative` 48.2%, 58%, 0.293. run2:
/// `slurm` 7.7%, 38% (eng), 0.113; `easy` 62.1%, 84%, 0.320; `conservative` 40.1%, 60%, 0.247.
/// 1 of `slurm`'s 6 figures within the floor (run1's mean wait), none of the baselines' 12.
/// Checked: the figures reached ([`WHOLE_REACHED`]), [`WITHIN`], and each of `slurm`'s figures
/// below both baselines' on each run.
#[test]
fn whole_runs_of_a_gpu_workload_never_seen() {
    super::gpulong_runs::whole_runs_reach("gpu-15", &runs(), &WHOLE_REACHED, WITHIN);
}

/// Worked from run1's debug log: the decay thread's periods fall at .377 of their second
/// (`_read_last_decay_ran`), and jobs 19 (alice, bio) and 23 (erin, bio) ended by themselves
/// at 118.123 and 118.124 s, before the period at 118.377 s, which so did not count their
/// last minute (`scripts/slurm-end-sides.py`). 118 is a `calc_early` second (the background
/// loop's first work in it came after .377), so the model without the log puts the period
/// before every end of that second and counts it: bio's usage is higher in the model, and at
/// 445 s Slurm started bio's 46, 52 and 128 where the model starts chem's 13 and 98. The same
/// two ends move 13 of run1's 16 missed instants (445 to 1377 s).
#[test]
fn an_end_before_the_period_of_its_second() {
    let run = load_run(RUNS[0].0, RUNS[0].1);
    let (recorded, without) = decision_at(&run, Read::Nothing, 445);
    assert_eq!(recorded, [46, 52, 128]);
    assert_eq!(without, [13, 98]);
    assert_eq!(decision_at(&run, Read::Sides, 445).1, recorded);
}

/// Worked from run2's debug log at 119 s: Slurm's backfill cycle began at 119.506 s and
/// started job 40; jobs 12 and 33 were killed at their limits at 119.909 s
/// (`scripts/slurm-cycle-seconds.py`). Sacct stamps the kills with the whole second, so a
/// replay without the log's order has their nodes free for the cycle, which starts 44, 48
/// and 53 too; with the order the cycle runs with both still running and starts 40 alone.
#[test]
fn a_kill_after_the_cycle_of_its_second() {
    let run = load_run(RUNS[1].0, RUNS[1].1);
    let (recorded, without) = decision_at(&run, Read::Nothing, 119);
    assert_eq!(recorded, [40]);
    assert_eq!(without, [40, 44, 48, 53]);
    assert_eq!(decision_at(&run, Read::Order, 119).1, recorded);
}

/// Worked from run1's debug log at 854 s: the backfill thread's cycles began at 3.07, 8.07 s
/// ... and had drifted a second later by then (849.057, 854.064 s); job 18 ended at 853.543
/// s, and the cycle at 854.064 s started 132 and 134 on its nodes. The model's grid
/// (`bf_phase=3`) runs its cycle at 853, before that end, and its decision at 854 starts 132
/// alone; with the log's cycles the cycle runs in 854 and starts both.
#[test]
fn a_cycle_drifted_into_the_next_second() {
    let run = load_run(RUNS[0].0, RUNS[0].1);
    let (recorded, without) = decision_at(&run, Read::Nothing, 854);
    assert_eq!(recorded, [132, 134]);
    assert_eq!(without, [132]);
    assert_eq!(decision_at(&run, Read::Cycles, 854).1, recorded);
}
