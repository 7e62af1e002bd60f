//! fairshare-14: a workload never fitted to. The `fairshare` configuration (priority
//! dominated by fairshare, `PriorityWeightFairshare=100000`, skewed users) with a new seed and
//! twice fairshare-1's jobs (`scripts/slurm-validate.sh -c fairshare -s 14 -j 120 -w 360 -d`,
//! run twice), recorded in session 36 after every rule of the model was fixed; only its
//! phases were read, from its own debug logs, before the figures below were taken
//! (docs/slurm-runs.md, "fairshare-14: a new workload, never fitted to").

use super::log_cycles::{self, Read};
use super::new_workload::beside_the_floor;
use super::{load_run, Run};
use schedlab::replay::Replay;

/// Each run's phases from its own debug log: `scripts/slurm-period-sides.py RUN` (`calc_phase`,
/// `calc_early`, `calc_early_bf`), the main scheduler's first full runs (run1 7.33, 17.44 s
/// ...: `sched_phase=7`; run2 8.20, 18.30 s ...: `sched_phase=8`) and the backfill thread's
/// first cycles (run1 1.98, 6.99 s ...: `bf_phase=1`; run2 2.83, 7.83 s ...: `bf_phase=2`).
pub(super) const RUNS: [(&str, &str); 2] = [
    (
        "fairshare-14/run1",
        "57.5,calc_early=(57,117,237,297,357,417,537,597,717,837,897,1017,1077,1137,1197,1317,1437),calc_early_bf=(57,237,297,357,417,477,537,597,657,717,777,837,897,957,1017,1077,1137,1197,1257,1317,1377,1437),sched_phase=7,bf_phase=1",
    ),
    (
        "fairshare-14/run2",
        "58.5,calc_early=(58,118,178,238,298,418,478,598,838),calc_early_bf=(58,118,178,238,358,418,478,538,598,658,718,778,838,898,958,1018,1078,1138,1198),sched_phase=8,bf_phase=2",
    ),
];

fn runs() -> Vec<Run> {
    RUNS.iter().map(|(n, p)| load_run(n, p)).collect()
}

/// `slurm`'s decisions reached (recall, precision), floored at 0.1%: without the debug log,
/// and with it (`schedlab replay --debug-log`: its cycles, the order of its events within a
/// second and its ends' sides of the priority periods).
const DECISIONS_REACHED: [((f64, f64), (f64, f64)); 2] = [
    ((0.983, 0.848), (0.999, 0.991)),
    ((0.958, 0.920), (0.991, 0.999)),
];

/// Decisions one step ahead (recall / precision), measured before anything was fitted to
/// this workload. run1: 98.3 / 84.9% without the debug log (118 of Slurm's 120 starts; the
/// model makes 139), 100 / 99.2% with it; run2 95.8 / 92.0% and 99.2 / 100%. `easy` 47.5 /
/// 30.5% and 37.5 / 25.6%, `conservative` 44.2 / 36.3% and 37.5 / 32.1%. Issue 34's 90 / 90%
/// with the debug log on both runs, without it on run2 only: 20 of run1's 21 extra starts
/// come from Slurm's cycle run before a kill or an end of the same second (sacct's whole
/// seconds cannot order them; [`an_end_after_the_cycle_of_its_second`]), the other (job 17
/// at 187 s, with the log too) from the main scheduler Slurm queues after a job's own end
/// and the model runs at once (docs/slurm-runs.md, "fairshare-14: a new
/// workload, never fitted to"). Checked: the figures reached ([`DECISIONS_REACHED`]) and a
/// precision above both baselines'.
#[test]
fn decisions_on_a_fairshare_workload_never_seen() {
    super::gpulong_runs::decisions_reach(&runs(), &DECISIONS_REACHED);
}

/// How many of `slurm`'s 6 whole-run figures lie within the noise floor.
const WITHIN: usize = 5;

/// `slurm`'s whole-run figures reached (mean wait apart, worst account apart, largest wait
/// CDF gap), each rounded up at 0.1%.
const WHOLE_REACHED: [[f64; 3]; 2] = [[0.097, 0.257, 0.075], [0.078, 0.422, 0.051]];

/// The whole runs beside their noise floor (run1 against run2: mean wait 270.6 / 222.5 s,
/// 19.5% apart, worst account 36% (chem), largest wait CDF gap 0.092: a wide floor, the two
/// real runs' queues emptied 1,462 and 1,261 s after the first submission). run1: `slurm`
/// 9.6%, 26% (bio), 0.075; `easy` 31.5%, 47%, 0.133; `conservative` 1.4%, 87% (bio), 0.250.
/// run2: `slurm` 7.7%, 42% (bio), 0.050; `easy` 19.4%, 75%, 0.100; `conservative` 13.8%, 104%,
/// 0.142. 5 of `slurm`'s 6 figures within the floor (run2's worst account is not); of the
/// baselines' 12, 3 (both mean waits of `conservative`, run2's of `easy`). Measured before
/// anything was fitted to this workload: 13.8%, 28%, 0.067 and 9.3%, 33%, 0.075, all 6 within;
/// the backfill cycle due with no job waiting kept in its own second (docs/slurm-runs.md, the
/// falls traced) moved them. Checked: the figures reached ([`WHOLE_REACHED`]), [`WITHIN`], and
/// `slurm`'s worst account and CDF gap below both baselines' on each run (its mean wait is
/// not: `conservative`'s is 1.4% off on run1).
#[test]
fn whole_runs_of_a_fairshare_workload_never_seen() {
    let (within, figures) = beside_the_floor("fairshare-14", &runs());
    for ((name, _), (f, reached)) in RUNS.iter().zip(figures.iter().zip(WHOLE_REACHED)) {
        for k in 0..3 {
            assert!(f[0][k] <= reached[k] + 1e-9, "{name}: {f:?}");
        }
        for k in 1..3 {
            assert!(f[0][k] < f[1][k].min(f[2][k]), "{name}: {f:?}");
        }
    }
    assert!(within >= WITHIN, "{within} of 6 within the noise floor");
}

/// The jobs of `run`'s decision at `time`, by their ids: (recorded, the model's), the replay
/// reading `read` of the debug log.
pub(super) fn decision_at(run: &Run, read: Read, time: i64) -> (Vec<i64>, Vec<i64>) {
    let replay = Replay::new(&run.set, log_cycles::logged(run, read)).unwrap();
    let inst = schedlab::replay::instants(&replay.starts)
        .into_iter()
        .find(|i| i.time == time)
        .unwrap();
    let mut p = schedlab::policy::slurm::build_with_site(&run.slurm, &run.site).unwrap();
    let (d, _) = replay.decide_at(&inst, p.as_mut(), 1).unwrap();
    let ids = |js: &[usize]| -> Vec<i64> { js.iter().map(|&j| run.set.jobs[j].id).collect() };
    (ids(&d.recorded), ids(&d.model))
}

/// Worked from run1's debug log at 147 s: Slurm's backfill cycle began at 147.076 s and
/// started none; job 16 was killed at its limit at 147.745 s, and the main scheduler's pass
/// right after started 25, 26 and 27 (`scripts/slurm-cycle-seconds.py`). Sacct stamps the
/// kill with the whole second, so a replay without the log's order has job 16's nodes free
/// for its cycle, which starts more; with the order its cycle runs with job 16 still
/// running and the pass after the kill starts Slurm's three.
#[test]
fn an_end_after_the_cycle_of_its_second() {
    let run = load_run(RUNS[0].0, RUNS[0].1);
    let (recorded, without) = decision_at(&run, Read::Nothing, 147);
    assert_eq!(recorded, [25, 26, 27]);
    assert!(without.len() > 3 && recorded.iter().all(|j| without.contains(j)));
    assert_eq!(decision_at(&run, Read::Order, 147).1, recorded);
}

/// Worked from run2's debug log: the decay thread's periods fall at .110 of their second
/// (`_read_last_decay_ran`), and job 92 (alice, phys) ended by itself at 778.751 s, after the
/// period at 778.110 s, which so counted its last minute (as job 119's end at 538.511 s after
/// the period at 538.110 s; `scripts/slurm-end-sides.py`); the model without the log ends both
/// before their periods. At 933 s Slurm started 53 and 110; the model with the ends' sides
/// starts those two, without them other jobs.
#[test]
fn an_end_after_the_period_of_its_second() {
    let run = load_run(RUNS[1].0, RUNS[1].1);
    let (recorded, without) = decision_at(&run, Read::Nothing, 933);
    assert_eq!(recorded, [53, 110]);
    assert_ne!(without, recorded);
    assert_eq!(decision_at(&run, Read::Sides, 933).1, recorded);
}
