//! The limits runs (tests/data/slurm/limits-5/run1, run2): the parameters the first eight runs
//! never set, against a real Slurm: the classic fairshare formula (`PriorityFlags=NO_FAIR_TREE`,
//! weights Fairshare 20000, Age 5000, JobSize 1000), `bf_max_job_test=10`, `bf_max_job_user=3`
//! and `default_queue_depth=5`, with the controller's debug log (docs/slurm.md, "The limits
//! runs").

use super::{load_run, replay_of, Run};
use schedlab::Time;

/// Each run's phases, measured from its debug log as the third runs' are
/// (`scripts/slurm-period-sides.py` for `calc_phase` and `calc_early`; the main scheduler's
/// full runs, `Running job scheduler for full queue`, at 7.51, 17.52, 27.55 s ... on run1 and
/// 7.13, 17.21 s ... on run2: `sched_phase=7`; the backfill cycles, `_attempt_backfill:
/// beginning`, at 2.23, 7.23 s ... on run1 and 1.79, 6.80 s ... on run2: `bf_phase` 2 and 1).
pub(super) const LIMITS: [(&str, &str); 2] = [
    (
        "limits-5/run1",
        "57.5,calc_early=(57,177,237,477,537),calc_early_bf=537,sched_phase=7,bf_phase=2",
    ),
    (
        "limits-5/run2",
        "57.5,calc_early=(57,117,177,237,297,357,417,477,597,657),sched_phase=7,bf_phase=1",
    ),
];

pub(super) fn limits_runs() -> Vec<Run> {
    LIMITS.iter().map(|(name, p)| load_run(name, p)).collect()
}

/// Every pending priority `squeue.log` holds (a sample every ~10 s) equals the model's at that
/// time, the history followed to the sample: 693 of 693 on run1, 650 of 650 on run2, with the
/// classic formula as Slurm's code computes it (an account under root takes its normalized
/// usage as its effective usage; the accounts' effective usage taken at the start of each
/// period, before its new usage; a user's when the job list reaches its first waiting job,
/// from the usage added so far: docs/slurm-runs.md, "The limits runs").
#[test]
fn every_logged_priority_is_the_models() {
    for run in limits_runs() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/slurm")
            .join(&run.name);
        let text = std::fs::read_to_string(dir.join("squeue.log")).unwrap();
        let replay = replay_of(&run);
        let mut samples: Vec<(Time, Vec<(usize, f64)>)> = Vec::new();
        for line in text.lines() {
            let f: Vec<&str> = line.split('|').collect();
            let t = f[0].parse::<Time>().unwrap() - run.site.clock;
            if samples.last().is_none_or(|s| s.0 != t) {
                samples.push((t, Vec::new()));
            }
            if f[3] == "PENDING" {
                let j = (0..run.set.jobs.len())
                    .position(|j| run.set.log_id(j) == f[1])
                    .unwrap();
                samples
                    .last_mut()
                    .unwrap()
                    .1
                    .push((j, f[4].parse().unwrap()));
            }
        }
        let (mut all, mut equal) = (0, 0);
        for (t, jobs) in samples.iter().filter(|s| !s.1.is_empty()) {
            let (mut policy, shared) =
                schedlab::policy::slurm::build_sharing(&run.slurm, &run.site).unwrap();
            replay.follow_to(*t, policy.as_mut(), 1).unwrap();
            let st = shared.borrow();
            all += jobs.len();
            equal += jobs.iter().filter(|&&(j, v)| st.priority(j) == v).count();
        }
        println!("{:<18} logged priorities equal: {equal} of {all}", run.name);
        assert!(all > 600, "{}: {all}", run.name);
        assert_eq!(equal, all, "{}", run.name);
    }
}

/// Decisions one step ahead (recall / precision of `slurm` at each run's phases): run1 96.7 /
/// 96.7%, run2 98.3 / 96.7% (before the classic formula as Slurm's code computes it: 68.3 /
/// 74.5% and 46.7 / 82.4%); `easy` 61.7 / 29.1% and 66.7 / 29.2%, `conservative` 60.0 /
/// 29.0% and 65.0 / 31.0%. Checked: issue 34's target, 90% of both, and a precision above
/// both baselines'.
#[test]
fn decisions_on_the_limits_runs() {
    for run in limits_runs() {
        let [slurm, easy, cons] = super::decision_figures(&run);
        assert!(slurm.recall() >= 0.9, "{}: {slurm}", run.name);
        assert!(slurm.precision() >= 0.9, "{}: {slurm}", run.name);
        assert!(
            slurm.precision() > easy.precision().max(cons.precision()),
            "{}",
            run.name
        );
    }
}

/// The whole runs beside the one-pair noise floor (run1 against run2: mean wait 116.0 / 107.3
/// s, 7.8% apart; worst account bio 18 / 4 s, 127%; CDF gap 0.150): `slurm` on run1 6.2%,
/// 174% (bio: 18 s against the model's 1 s, 2 jobs), 0.183; on run2 2.1%, 15%, 0.050 (before
/// the classic formula: 10.8%, 148%, 0.233 and 17.3%, 188%, 0.250). Printed; checked: within
/// the floor on at least 4 of the 6 figures (4 now).
#[test]
fn whole_limits_runs_beside_the_noise_floor() {
    let runs = limits_runs();
    let replays: Vec<_> = runs.iter().map(replay_of).collect();
    let waits: Vec<_> = replays.iter().map(|r| r.recorded_waits()).collect();
    let floor = waits[0].distance(&waits[1]);
    println!("limits-5 noise floor {floor}");
    let floor = [floor.mean_apart(), floor.worst_account(), floor.cdf_gap];
    let mut within = 0;
    for (k, run) in runs.iter().enumerate() {
        let mut p = schedlab::policy::slurm::build_with_site(&run.slurm, &run.site).unwrap();
        let sim = replays[k].simulated_waits(p.as_mut(), 1).unwrap();
        let d = waits[k].distance(&sim);
        println!("{:<18} slurm {d}", run.name);
        let model = [d.mean_apart(), d.worst_account(), d.cdf_gap];
        within += model
            .iter()
            .zip(floor)
            .filter(|(m, f)| **m <= *f + 1e-9)
            .count();
    }
    println!("limits-5: within the one-pair noise floor {within} of 6");
    assert!(within >= 4, "{within} of 6");
}

/// `bf_node_space_size` (a key, and read from a slurm.conf's `SchedulerParameters`): the
/// records a cycle's map of the nodes holds at most, by default `bf_max_job_test`. On run1
/// (`bf_max_job_test=10`) the key at 10, or at `bf_max_job_test`, gives the default's
/// decisions and whole run to the job; a map of 4 records ends cycles after two reservations
/// at most, so jobs Slurm backfilled wait: recall falls (96.7 -> 86.7%) and the whole run's
/// mean wait rises (109.1 -> 141.7 s). A slurm.conf naming `bf_node_space_size=4` gives the
/// key's schedule.
#[test]
fn the_node_space_size_is_a_key() {
    let base = &limits_runs()[0];
    let with = |extra: &str, site: &schedlab::slurm::Site| {
        let spec = match extra {
            "" => base.slurm.clone(),
            _ => format!("{},{extra}]", base.slurm.trim_end_matches(']')),
        };
        let replay = replay_of(base);
        let build = || schedlab::policy::slurm::build_with_site(&spec, site);
        let (ds, _) = replay
            .decisions(|| build().map_err(schedlab::run::Error::from), 1)
            .unwrap();
        let mut p = build().unwrap();
        let waits = replay.simulated_waits(p.as_mut(), 1).unwrap();
        (schedlab::replay::Figures::of(&ds), waits)
    };
    let (default, default_waits) = with("", &base.site);
    for same in [
        "bf_node_space_size=10",
        "bf_node_space_size=bf_max_job_test",
    ] {
        let (f, w) = with(same, &base.site);
        assert_eq!(f.recall(), default.recall(), "{same}");
        assert_eq!(f.precision(), default.precision(), "{same}");
        assert_eq!(w, default_waits, "{same}");
    }
    let (small, small_waits) = with("bf_node_space_size=4", &base.site);
    assert!(small.recall() < default.recall(), "{small} / {default}");
    let mean = |w: &schedlab::replay::whole::Waits| w.mean();
    assert!(mean(&small_waits) > mean(&default_waits) + 10.0);
    // The same from the slurm.conf's SchedulerParameters.
    let mut site = base.site.clone();
    site.conf.push(("bf_node_space_size", "4".into()));
    let (by_conf, conf_waits) = with("", &site);
    assert_eq!(by_conf.recall(), small.recall());
    assert_eq!(conf_waits, small_waits);
}
