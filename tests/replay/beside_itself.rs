//! The whole run judged the way Slurm itself is: a real run of a workload, taken in turn as
//! the candidate, is held to the same noise floor the model is held to, so that "within the
//! floor" can be read beside what a second real run reaches.
//!
//! A real Slurm does not repeat itself, so a second real run is itself a draw: against the
//! median of the other runs' distances it is within about half the time, by the median's
//! definition. The model's count within the floor (further_runs.rs) means little alone; beside
//! a real run's count under the same floors it says whether the model lies further from a
//! recorded run than Slurm's own reruns do.
//!
//! Leave one out: for a recorded run R and a candidate C (another real run of the workload, or
//! the model of R), the floor is made of the distances from R to the runs that are neither R
//! nor the run left out for C, so both candidates face the same floors: a real candidate X is
//! judged against the runs other than R and X; the model is judged once for each X, against
//! the same runs. Workloads with three or four runs give one or two distances per floor; the
//! floor is their median (the mean of two) and their furthest.

use super::further_runs::{all_runs, figures, within, WORKLOADS};
use super::replay_of;

/// The candidates judged beside the real reruns: `slurm` at the run's phases, then the two
/// baselines.
const POLICIES: [&str; 3] = ["slurm", "easy", "conservative"];

/// Counts of figures within a floor, for real reruns and for each policy of [`POLICIES`].
#[derive(Default, Debug)]
struct Counts {
    /// Figures judged (3 a candidate and floor).
    judged: usize,
    /// Real candidates' figures within the median floor, within the furthest.
    real: [usize; 2],
    /// Each policy's, against the same floors.
    model: [[usize; 2]; 3],
    /// Sum of each figure over the judged pairs: real, each policy.
    real_sum: [f64; 3],
    model_sum: [[f64; 3]; 3],
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.judged += o.judged;
        for k in 0..2 {
            self.real[k] += o.real[k];
        }
        for f in 0..3 {
            self.real_sum[f] += o.real_sum[f];
        }
        for m in 0..3 {
            for k in 0..2 {
                self.model[m][k] += o.model[m][k];
            }
            for f in 0..3 {
                self.model_sum[m][f] += o.model_sum[m][f];
            }
        }
    }
}

/// The median and the furthest of each figure over `floor`'s distances.
fn floors(floor: &[[f64; 3]]) -> [[f64; 3]; 2] {
    let pick = |f: usize| {
        let mut v: Vec<f64> = floor.iter().map(|d| d[f]).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        (median, v[n - 1])
    };
    let [a, b, c] = [0, 1, 2].map(pick);
    [[a.0, b.0, c.0], [a.1, b.1, c.1]]
}

/// A hand-worked floor: distances (10%, 20%, 0.1) and (30%, 40%, 0.3) give the median floor
/// (20%, 30%, 0.2) and the furthest (30%, 40%, 0.3); a candidate at (25%, 30%, 0.35) is within
/// the median floor on the second figure only (30% ≤ 30%) and within the furthest on two.
#[test]
fn a_floor_of_two_distances() {
    let [mid, far] = floors(&[[0.1, 0.2, 0.1], [0.3, 0.4, 0.3]]);
    for (got, want) in mid.iter().zip([0.2, 0.3, 0.2]) {
        assert!((got - want).abs() < 1e-12, "{mid:?}");
    }
    assert_eq!(far, [0.3, 0.4, 0.3]);
    let c = [0.25, 0.3, 0.35];
    assert_eq!((within(c, mid), within(c, far)), (1, 2));
}

/// Every workload with at least three real runs (six workloads, 22 runs): each real run
/// judged against each other run of its workload, beside the model judged against the same
/// floors. Printed: per workload and in all, the counts within the median and the furthest
/// floor, and the mean of each figure, for real reruns and for the model.
/// Measured (all six workloads, 180 figures, 60 pairs of a recorded run and a candidate):
/// within the median floor, real reruns 101, the model 108; within the furthest, 117 and 130;
/// mean figures apart, real reruns 9.6%, 51%, 0.117, the model 7.3%, 49%, 0.112. By workload
/// the model lies further than the reruns on gpu-3 (14 and 18 of 36 within, against 23 and
/// 25: its worst account, 72% apart on average against 40%, where one job of four moves an
/// account's mean) and qos-6 (8 of 18 against 9). The baselines show the yardstick tells
/// policies apart: `easy` 16 and 25 within (35.5%, 89%, 0.294 apart on average),
/// `conservative` 21 and 30 (27.0%, 94%, 0.231).
/// Checked: the floors are real (a run is never its own floor); over all workloads `slurm`
/// is within each floor at least as often as a real rerun, and lies no further on average on
/// each figure (issue 34's "no further from the recorded run than a second real run"), while
/// each baseline is within less often than a rerun; and `slurm`'s counts are no lower than
/// [`REACHED`] (raise them when the model improves).
#[test]
fn the_model_beside_slurm_against_itself() {
    let mut all = Counts::default();
    for workload in WORKLOADS {
        let runs = all_runs(workload);
        assert!(runs.len() >= 3, "{workload}");
        let replays: Vec<_> = runs.iter().map(replay_of).collect();
        let waits: Vec<_> = replays.iter().map(|r| r.recorded_waits()).collect();
        let mut c = Counts::default();
        for (r, run) in runs.iter().enumerate() {
            let models = [run.slurm.as_str(), "easy", "conservative"].map(|spec| {
                let mut p = schedlab::policy::slurm::build_with_site(spec, &run.site).unwrap();
                let sim = replays[r].simulated_waits(p.as_mut(), 1).unwrap();
                figures(&waits[r].distance(&sim))
            });
            for x in (0..runs.len()).filter(|&x| x != r) {
                let floor: Vec<[f64; 3]> = (0..runs.len())
                    .filter(|&o| o != r && o != x)
                    .map(|o| figures(&waits[r].distance(&waits[o])))
                    .collect();
                assert!(floor.iter().all(|d| d[2] > 0.0), "{}", run.name);
                let real = figures(&waits[r].distance(&waits[x]));
                for (k, f) in floors(&floor).into_iter().enumerate() {
                    c.real[k] += within(real, f);
                    for (m, model) in models.iter().enumerate() {
                        c.model[m][k] += within(*model, f);
                    }
                }
                for f in 0..3 {
                    c.real_sum[f] += real[f];
                    for (m, model) in models.iter().enumerate() {
                        c.model_sum[m][f] += model[f];
                    }
                }
                c.judged += 3;
            }
        }
        report(workload, &c);
        all.add(&c);
    }
    report("all", &all);
    for (k, reached) in REACHED.into_iter().enumerate() {
        assert!(all.model[0][k] >= all.real[k], "{all:?}");
        assert!(all.model[0][k] >= reached, "{all:?}");
    }
    for f in 0..3 {
        assert!(all.model_sum[0][f] <= all.real_sum[f], "{all:?}");
    }
    for baseline in &all.model[1..] {
        assert!(
            baseline[0] < all.real[0] && baseline[1] < all.real[1],
            "{all:?}"
        );
    }
}

fn report(name: &str, c: &Counts) {
    let pairs = (c.judged / 3) as f64;
    let mean = |s: [f64; 3]| {
        format!(
            "{:.1}%, {:.0}%, {:.3}",
            s[0] / pairs * 100.0,
            s[1] / pairs * 100.0,
            s[2] / pairs
        )
    };
    println!(
        "{name:<12} {:<13} within median / furthest of {}: {:>3} / {:>3}; mean figures {}",
        "real reruns",
        c.judged,
        c.real[0],
        c.real[1],
        mean(c.real_sum)
    );
    for (m, policy) in POLICIES.iter().enumerate() {
        println!(
            "{name:<12} {policy:<13} within median / furthest of {}: {:>3} / {:>3}; mean figures {}",
            c.judged,
            c.model[m][0],
            c.model[m][1],
            mean(c.model_sum[m])
        );
    }
}

/// The model's counts within the median and the furthest floor, all workloads (raise them when
/// the model improves).
const REACHED: [usize; 2] = [108, 139];
