//! `schedlab replay` (src/replay/): decisions one step ahead. The committed real Slurm runs
//! (tests/data/slurm/) loaded at their phases, an oracle that starts exactly what the log
//! started (the recorded state must hold every recorded start: recall and precision 1 on every
//! committed run), and the figures of `slurm`, `easy` and `conservative` on them. Small logs
//! worked by hand: `replay/by_hand.rs`; each other idea in a file of `replay/`.

use schedlab::cluster::Alloc;
use schedlab::input::{InputOptions, JobSet};
use schedlab::policy::Policy;
use schedlab::replay::{instants, recorded, Figures, Replay};
use schedlab::sim::{Ctx, SimError};
use schedlab::swf::ReadOptions;
use std::path::Path;

mod accrue_runs;
mod assoclimits_runs;
mod beside_itself;
mod bf_sides;
mod billing_18;
mod by_hand;
mod end_sides;
mod fairshare_14;
mod further_runs;
mod gpu_15;
mod gpulong_runs;
mod limits_runs;
mod log_cycles;
mod log_phases;
mod loop_drift;
mod multipart_17;
mod new_workload;
mod qos_runs;
mod qoslimits_runs;
mod recorded_priority;
mod sides;
mod usage_runs;
mod whole;

fn read(name: &str, text: &str, cluster: String) -> JobSet {
    let input = InputOptions {
        cluster: Some(cluster),
        ..InputOptions::default()
    };
    schedlab::run::read_bytes(name, text.as_bytes(), &ReadOptions::default(), &input)
        .unwrap()
        .1
}

/// Starts exactly the jobs the log started at the instant, on their recorded nodes.
struct Oracle {
    jobs: Vec<usize>,
    allocs: Vec<Option<Alloc>>,
}

impl Policy for Oracle {
    fn spec(&self) -> String {
        "oracle".into()
    }

    fn schedule(&mut self, c: &mut Ctx<'_>) -> Result<(), SimError> {
        for &j in &self.jobs {
            if !c.waiting().contains(j) {
                continue;
            }
            match self.allocs[j].clone() {
                Some(a) => c.start_on(j, None, a, None)?,
                None => c.start_as(j, None, None, None)?,
            }
        }
        Ok(())
    }
}

struct Run {
    name: String,
    text: String,
    set: JobSet,
    site: schedlab::slurm::Site,
    /// The `slurm` spec with the run's `PriorityCalcPeriod` phase (`calc_phase`).
    slurm: String,
}

/// Where each run's priority periods fell, seconds after its first submission modulo the
/// minute: Slurm runs them from the controller's start, which sacct does not record. Read from
/// the run's `squeue.log` (docs/slurm-runs.md, "The phase of the periods"): the whole second is the
/// only one at which the model's priorities equal the logged ones (none do at any other:
/// a second off moves every age factor), and every run's time-limit kills fall on it or 30 s
/// after (Slurm checks limits every 30 s from the controller's start, `_slurmctld_background`).
/// The fraction says which side of the second's events the period fell: `.5` after the kills,
/// ends and passes of its second, none before them; the side at which the logged priorities
/// are reproduced (exactly, at every period, on fairshare-1/run1 and gpu-3/run1).
/// tiers-4's (both `53.5`): its kills fall 23 s past a multiple of 30 and its logged priorities
/// change between 47 and 54 s past the minute (`squeue.log`), so the second is 53; the side is
/// the one with the better figures (53: 87.8 / 91.9% and 81.1 / 85.9%), not measured from the
/// priorities as the six others'. `calc_early` gives a run's periods' sides one by one:
/// tiers-4's from their debug logs (scripts/slurm-period-sides.py), gpu-3/run2's measured from
/// its `squeue.log` (118 and 538 s early, 178, 238 and 298 s late; `sides.rs`, which checks
/// every run's sides here against those its squeue decides).
/// The controller's two other loops, measured as docs/slurm.md ("The loops' phases") says: the
/// main scheduler's full runs (`sched_phase`: the submissions' start delays, and on tiers-4 the
/// debug log's `Running job scheduler for full queue`, 79 of 80 at 3 s past a multiple of 10)
/// and the backfill thread's first cycles (`bf_phase`: each run's first backfill starts, and
/// on tiers-4 the log's `_attempt_backfill: beginning`). Neither moves a decision (a decision
/// is one fresh pass); with Slurm's limit checks in whole runs they took the whole runs within
/// the noise floor from 12 to 14 of the 24 figures, the mean wait apart from 10.3% to 7.0% on
/// average (tests/replay/whole.rs).
const PHASES: [(&str, &str); 8] = [
    ("fairshare-1/run1", "56,sched_phase=9,bf_phase=1"),
    ("fairshare-1/run2", "56.5,sched_phase=9,bf_phase=1"),
    ("smallbf-2/run1", "59.5,sched_phase=9,bf_phase=4"),
    ("smallbf-2/run2", "59.5,sched_phase=9,bf_phase=4"),
    ("gpu-3/run1", "58,sched_phase=8,bf_phase=2"),
    (
        "gpu-3/run2",
        "58.5,calc_early=(118,538),sched_phase=8,bf_phase=2",
    ),
    (
        "tiers-4/run1",
        "53.5,calc_early=(53,113,353,413,473,533,713,773),sched_phase=3,bf_phase=3",
    ),
    (
        "tiers-4/run2",
        "53.5,calc_early=(53,113,353,413,593,653),sched_phase=3,bf_phase=3",
    ),
];

fn committed_runs() -> Vec<Run> {
    let mut out = Vec::new();
    for config in ["fairshare-1", "smallbf-2", "gpu-3", "tiers-4"] {
        for run in ["run1", "run2"] {
            let name = format!("{config}/{run}");
            let phase = PHASES.iter().find(|p| p.0 == name).unwrap().1;
            out.push(load_run(&name, phase));
        }
    }
    out
}

/// The run `tests/data/slurm/NAME` (`fairshare-1/run1`), replayed at `calc_phase=PHASE`.
fn load_run(name: &str, phase: &str) -> Run {
    load_run_from(name, "sacct.txt", phase)
}

/// [`load_run`] of the run's log `file` (multipart-17's `sacct-lists.txt`: its jobs'
/// partition lists, which sacct does not keep for a started job).
fn load_run_from(name: &str, file: &str, phase: &str) -> Run {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(name);
    let conf = schedlab::cluster::conf::read_path(&dir.join("slurm.conf")).unwrap();
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let sshare = std::fs::read_to_string(dir.join("sshare-start.txt")).unwrap();
    let (w, set) = schedlab::run::read_bytes(
        "sacct.txt",
        text.as_bytes(),
        &ReadOptions::default(),
        &InputOptions {
            cluster: Some(conf.cluster.to_compact()),
            ..InputOptions::default()
        },
    )
    .unwrap();
    let site = schedlab::slurm::Site::default()
        .with_conf(&conf)
        .with_sshare(&sshare, "sshare-start.txt")
        .unwrap()
        .with_user_names(w.header.lines.iter().map(String::as_str))
        .with_accounts(set.accounts.clone())
        .with_clock(schedlab::slurm::clock_of(&w.header, set.origin));
    Run {
        name: name.into(),
        text,
        set,
        site,
        slurm: format!("slurm[calc_phase={phase}]"),
    }
}

/// [`load_run`] with the site files its directory holds, as `schedlab replay --qos qos.txt
/// --assoc assoc.txt` reads them: `qos.txt` (the QOS priorities and limits), `assoc.txt` (the
/// association limits), and each job's QOS from the log. The one setup of the runs with site
/// files (qos_runs.rs, qoslimits_runs.rs, assoclimits_runs.rs, usage_runs.rs, log_cycles.rs).
fn site_run(name: &str, phase: &str) -> Run {
    let mut run = load_run(name, phase);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(name);
    let read = |file: &str| std::fs::read_to_string(dir.join(file)).ok();
    let mut site = (run.site.clone()).with_job_qos(run.set.qos_names.clone(), run.set.qos.clone());
    if let Some(qos) = read("qos.txt") {
        site = site.with_qos(&qos, "qos.txt").unwrap();
    }
    if let Some(assoc) = read("assoc.txt") {
        site = site.with_assoc(&assoc, "assoc.txt").unwrap();
    }
    run.site = site;
    run
}

/// Every committed run (40), at its phases (each table's), with the files its directory holds
/// (`qos.txt`, `assoc.txt`).
fn every_run() -> Vec<Run> {
    let phases = (PHASES.iter().chain(&further_runs::FURTHER))
        .chain(&limits_runs::LIMITS)
        .chain(&qos_runs::QOS_RUNS)
        .chain(&qoslimits_runs::RUNS)
        .chain(&new_workload::QOSLIMITS_10)
        .chain(&assoclimits_runs::RUNS)
        .chain(&new_workload::NEW)
        .chain(&new_workload::SMALLBF_8)
        .chain(&usage_runs::RUNS)
        .chain(&gpulong_runs::RUNS)
        .chain(&fairshare_14::RUNS)
        .chain(&gpu_15::RUNS);
    phases.map(|&(name, phase)| site_run(name, phase)).collect()
}

fn replay_of(r: &Run) -> Replay<'_> {
    let logged = recorded::Logged::from_sacct(&r.text, "sacct.txt", &r.set.jobs).unwrap();
    Replay::new(&r.set, logged).unwrap()
}

#[test]
fn the_recorded_state_holds_every_recorded_start() {
    for run in committed_runs() {
        let logged = recorded::Logged::from_sacct(&run.text, "sacct.txt", &run.set.jobs).unwrap();
        assert!(logged.nodes.iter().all(Option::is_some), "{}", run.name);
        // Where the input step placed each job's recorded nodes (where `historic` starts it).
        let allocs: Vec<Option<Alloc>> = run.set.recorded_nodes.clone();
        assert_eq!(allocs.len(), run.set.jobs.len(), "{}", run.name);
        let replay = Replay::new(&run.set, logged).unwrap();
        let mut ds = Vec::new();
        for inst in instants(&replay.starts) {
            let mut oracle = Oracle {
                jobs: inst.recorded.clone(),
                allocs: allocs.clone(),
            };
            let (d, reselected) = replay
                .decide_at(&inst, &mut oracle, 1)
                .unwrap_or_else(|e| panic!("{} at {}: {e}", run.name, inst.time));
            assert_eq!(reselected, 0, "{}", run.name);
            ds.push(d);
        }
        let f = Figures::of(&ds);
        let n = run.set.jobs.len();
        assert_eq!((f.recorded, f.model, f.both), (n, n, n), "{}", run.name);
    }
}

/// `slurm`'s recall and precision reached per run, at the run's phase (docs/slurm-runs.md,
/// "Replay"). The precisions of fairshare-1 and gpu-3 came with the backfill cycles timed as
/// Slurm's `backfill_agent` does (before: 93.5, 83.6, 93.8 and 85.7%); smallbf-2's recalls
/// dropped with it (95.0 and 80.0% before), where Slurm's cycles drift off their grid.
/// smallbf-2/run2's rose from 76.7 / 80.7% with its periods late in their second (`59.5`:
/// its passes at 59, 119 and 179 s used the priorities before the period). The reservation
/// overlap check rounded as Slurm's (`_test_resv_overlap`) raised fairshare-1/run1's
/// precision from 96.7%, gpu-3/run1's from 95.2% and gpu-3/run2's from 80.0 / 87.3%.
/// Running jobs planned to end at start + limit also once past it, as Slurm's `end_time`
/// (`slurm_end`, rule/slurm.rs), raised smallbf-2/run1's precision from 88.9 to 96.6%.
/// tiers-4 (three partitions, PriorityTier, docs/slurm-runs.md "Partitions against a real Slurm"):
/// with one tier, one partition factor and a main scheduler that stopped at the first job
/// not fitting, 54.4 / 62.8% and 52.2 / 67.1%; with Slurm's partition rules 86.7 / 90.7% and
/// 73.3 / 86.8% (recall short of the 90% target on both, precision on run2).
/// Slurm's will-run groups (a running job on none of the job's nodes is passed over and never
/// ends a group, `_will_run_test`; seen in tiers-4's and smallbf-2/run3's debug logs): recall
/// fairshare-1 96.7 -> 100 and 93.3 -> 95.0%, smallbf-2 93.3 -> 96.7 and 85.0 -> 90.0%,
/// tiers-4 86.7 -> 93.3 and 73.3 -> 81.1%; precision tiers-4 90.7 -> 94.4 and 86.8 -> 88.0%,
/// but gpu-3 98.4 -> 96.8 and 90.9 -> 89.3% (one start each). A GPU job's cores counted as
/// cons_tres counts them (its tasks' on each usable node, `gres_select_filter_sock_core`;
/// seen in gpu-3/run3's debug log) gave them back: gpu-3 96.8 -> 98.4 and 89.3 -> 90.9%.
/// gpu-3/run2's periods at the sides its `squeue.log` measures (`calc_early=(118,538)`,
/// `sides.rs`): 83.3 / 90.9 -> 100 / 96.8%.
const REACHED: [(&str, (f64, f64)); 8] = [
    ("fairshare-1/run1", (1.0, 0.98)),
    ("fairshare-1/run2", (0.95, 0.95)),
    ("smallbf-2/run1", (0.96, 0.96)),
    ("smallbf-2/run2", (0.90, 0.94)),
    ("gpu-3/run1", (1.0, 0.98)),
    ("gpu-3/run2", (1.0, 0.96)),
    ("tiers-4/run1", (0.96, 0.98)),
    ("tiers-4/run2", (0.93, 0.93)),
];

/// The figures of `slurm` (at the run's phase), `easy` and `conservative` on every committed
/// run, printed (run with `--nocapture`); docs/slurm.md ("Replay") gives them. Checked: every
/// recorded start is counted once; `slurm`'s recall and precision at least those reached
/// ([`REACHED`]: 90.0-100% recall, 93.3-98.9% precision), and its precision above EASY's and
/// conservative's. Issue 34's target, 90% of both on every run, is met on all eight runs. The
/// tiers-4 runs are replayed with each period's side of its second as their debug logs time it
/// (`calc_early`, `scripts/slurm-period-sides.py`): run1 93.3 / 94.4 -> 96.7 / 98.9%, run2
/// 81.1 / 88.0 -> 93.3 / 93.3%; gpu-3/run2 with the sides its `squeue.log` measures
/// (`sides.rs`): 83.3 / 90.9 -> 100 / 96.8%.
#[test]
fn figures_on_the_committed_real_runs() {
    for run in committed_runs() {
        let [slurm, easy, cons] = decision_figures(&run);
        let (recall, precision) = REACHED.iter().find(|r| r.0 == run.name).unwrap().1;
        assert!(slurm.recall() >= recall, "{}: {slurm}", run.name);
        assert!(slurm.precision() >= precision, "{}: {slurm}", run.name);
        assert!(
            slurm.precision() > easy.precision().max(cons.precision()),
            "{}",
            run.name
        );
    }
}

/// The decisions one step ahead of `slurm` (at the run's phases), `easy` and `conservative` on
/// `run`, printed; checked: every recorded start is counted once, none on nodes its record
/// could not take.
fn decision_figures(run: &Run) -> [Figures; 3] {
    let replay = replay_of(run);
    [run.slurm.as_str(), "easy", "conservative"].map(|spec| {
        let build = || schedlab::policy::slurm::build_with_site(spec, &run.site);
        let (ds, reselected) = replay
            .decisions(|| build().map_err(schedlab::run::Error::from), 1)
            .unwrap();
        let f = Figures::of(&ds);
        println!("{:<18} {spec:<13} {f}", run.name);
        assert_eq!(reselected, 0, "{}", run.name);
        assert_eq!(f.recorded, run.set.jobs.len(), "{}", run.name);
        f
    })
}
