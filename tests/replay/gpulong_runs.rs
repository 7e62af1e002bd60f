//! gpulong-13: the `gpu` configuration under a sustained load
//! (`scripts/slurm-validate.sh -c gpu -s 3 -j 300 -w 3000 -d`, run twice): 300 jobs arriving
//! over 2,588 s, up to 77 waiting at once, the queue empty after 3,801 s (run1) and 3,891 s
//! (run2), where every other committed run is 60-120 jobs over a few hundred seconds. Most
//! of the time every waiting job's age factor is at its cap (`PriorityMaxAge` 10 minutes),
//! so the order is fairshare's, and the accounts' Fair Tree levels come close to one another
//! (run1's `sshare-end.txt`: LevelFS bio 0.80, eng 0.91, chem 0.95, phys 1.19): a minute of
//! one large job's usage counted or not reorders the accounts (docs/slurm-runs.md,
//! "gpulong-13: a sustained load").

use super::log_cycles;
use super::new_workload::beside_the_floor;
use super::{load_run, Run};
use schedlab::replay::recorded;

/// Each run's phases from its own debug log: `scripts/slurm-period-sides.py RUN`
/// (`calc_phase`, `calc_early`, `calc_early_bf`); the main scheduler's first full runs (run1
/// 6.10, 16.12 s ...: `sched_phase=6`; run2 5.53, 15.55 s ...: `sched_phase=5`) and the
/// backfill thread's first cycles (0.80, 5.80 s ...; 0.25, 5.25 s ...: `bf_phase=0`). Both
/// loops drift later over a long run (run1's full runs at 3.1-3.9 s past a multiple of 10
/// from 1,600 s on, its cycles 0.8 -> 4.8 s past a multiple of 5 by the end), which the
/// fixed phases do not follow: only the whole runs read them.
pub(super) const RUNS: [(&str, &str); 2] = [
    (
        "gpulong-13/run1",
        "56.5,calc_early=(56,116,176,236,296,356,416,476,536,656),calc_early_bf=(56,116,176,236,296,356,416,476,596,656,716,776,836,896,956),sched_phase=6,bf_phase=0",
    ),
    (
        "gpulong-13/run2",
        "55.5,calc_early=(55,175,295,475,775,1615,1795,2155),calc_early_bf=(55,175,715,775,835,895,955,1015,1075,1135,1615,1795,2155),sched_phase=5,bf_phase=0",
    ),
];

fn runs() -> Vec<Run> {
    RUNS.iter().map(|(n, p)| load_run(n, p)).collect()
}

/// `slurm`'s decisions reached (recall, precision), floored at 0.1%: without the debug log,
/// and with it (`schedlab replay --debug-log`: its backfill cycles and its ends' sides of the
/// priority periods).
const DECISIONS_REACHED: [((f64, f64), (f64, f64)); 2] = [
    ((0.873, 0.861), (0.996, 0.993)),
    ((0.956, 0.976), (0.983, 0.993)),
];

/// Decisions one step ahead (recall / precision). run1: 87.3 / 86.2% without the debug
/// log, 99.7 / 99.3% with it (89.0 / 86.4% with its cycles alone, 99.0 / 97.1% with its
/// cycles and ends' sides, without the order of its events within a second: job 265 (carol, chem, 32
/// cores) ended at 2876.101 s, after the period at 2876.082 s, which counted its last 60 s;
/// taken before it, chem's usage is 1,920 processor-seconds short and Fair Tree ranks bio
/// above it, every bio job 2,500 below Slurm's priority from 2,879 s to 3,600 s); run2 95.7
/// / 97.6% and 98.3 / 99.3% (97.3 / 97.7% without the order). `easy` 35.7 / 16.6% and 36.3 / 15.6%, `conservative` 35.0 /
/// 19.7% and 35.7 / 16.6%. Issue 34's 90 / 90% on both runs with the debug log, on run2
/// without it. Checked: the figures reached ([`DECISIONS_REACHED`]) and a precision above
/// both baselines'.
#[test]
fn decisions_under_a_sustained_load() {
    decisions_reach(&runs(), &DECISIONS_REACHED);
}

/// A (recall, precision) pair reached.
pub(super) type Reached = (f64, f64);

/// Each run's `slurm` decisions, without the debug log and with all it tells, reach its
/// (recall, precision) pair, and its precision without the log is above `easy`'s and
/// `conservative`'s.
pub(super) fn decisions_reach(runs: &[Run], reached: &[(Reached, Reached)]) {
    for (run, &(plain, logged)) in runs.iter().zip(reached) {
        let [slurm, easy, cons] = super::decision_figures(run);
        let with = log_cycles::figures(run, log_cycles::Read::All);
        println!("{:<18} {} with the debug log {with}", run.name, run.slurm);
        for (f, (recall, precision)) in [(slurm, plain), (with, logged)] {
            assert!(f.recall() >= recall - 1e-9, "{}: {f}", run.name);
            assert!(f.precision() >= precision - 1e-9, "{}: {f}", run.name);
        }
        assert!(slurm.precision() > easy.precision().max(cons.precision()));
    }
}

/// How many of `slurm`'s 6 whole-run figures lie within the noise floor.
const WITHIN: usize = 1;

/// `slurm`'s whole-run figures reached (mean wait apart, worst account apart, largest wait
/// CDF gap), each rounded up.
const WHOLE_REACHED: [[f64; 3]; 2] = [[0.102, 0.21, 0.057], [0.024, 0.06, 0.051]];

/// The whole runs beside their noise floor (run1 against run2: mean wait 433.0 / 430.9 s,
/// 0.5% apart, worst account 16% (chem), largest wait CDF gap 0.043: over 300 jobs a real
/// Slurm's figures come close to its own). run1: `slurm` 10.1%, 21% (chem), 0.057 (2.6%, 29%,
/// 0.053 before the backfill thread's "something changed" rule, docs/slurm.md "When a cycle
/// runs": its grid moves after a quiet spell, and the run parts from there); `easy`
/// 20.0%, 57%, 0.183; `conservative` 36.9%, 72%, 0.180. run2: `slurm` 2.3%, 5% (eng), 0.050;
/// `easy` 54.0%, 90%, 0.203; `conservative` 40.4%, 72%, 0.170. Within the floor: 1 of
/// `slurm`'s 6 figures (run2's worst account), none of the baselines'. Checked: the figures
/// reached ([`WHOLE_REACHED`]), each of `slurm`'s below both baselines', and [`WITHIN`].
#[test]
fn whole_runs_under_a_sustained_load() {
    whole_runs_reach("gpulong-13", &runs(), &WHOLE_REACHED, WITHIN);
}

/// The whole runs of `name`'s runs beside their noise floor: each of `slurm`'s figures at most
/// its run's `reached` and below both baselines', and at least `at_least` of them within the
/// floor.
pub(super) fn whole_runs_reach(name: &str, runs: &[Run], reached: &[[f64; 3]], at_least: usize) {
    let (within, figures) = beside_the_floor(name, runs);
    for ((run, f), reached) in runs.iter().zip(&figures).zip(reached) {
        for k in 0..3 {
            assert!(f[0][k] <= reached[k] + 1e-9, "{}: {f:?}", run.name);
            assert!(f[0][k] < f[1][k].min(f[2][k]), "{}: {f:?}", run.name);
        }
    }
    assert!(
        within >= at_least,
        "{name}: {within} of 6 within the noise floor"
    );
}

/// run1's debug log, read as `schedlab replay --debug-log` reads it: the decay thread read
/// the time at 01:01:37.082, 3.918 s before the first submission (second -4: periods at
/// 56.082 s modulo 60); job 265 ended at 2876.101 s and job 276 at 3356.720 s, each after
/// its second's period (both ended by themselves: the model, without the log, ends them
/// before a period late in its second); jobs 72 and 69 ended at 1256.065 and 1316.069 s,
/// before theirs.
#[test]
fn run1s_ends_against_its_periods() {
    let run = load_run(RUNS[0].0, RUNS[0].1);
    let logged = log_cycles::logged(&run, log_cycles::Read::Sides);
    let (decay, sides) = logged.end_sides.unwrap();
    assert_eq!(decay, -4);
    let ends = recorded::recorded_ends(&run.set.jobs);
    let ids = run.set.log_id_list();
    let side = |id: &str| {
        let j = ids.iter().position(|x| x == id).unwrap();
        (ends[j], sides[j])
    };
    assert_eq!(side("265"), (2876, Some(true)));
    assert_eq!(side("276"), (3356, Some(true)));
    assert_eq!(side("72"), (1256, Some(false)));
    assert_eq!(side("69"), (1316, Some(false)));
}
