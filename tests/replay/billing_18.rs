//! billing-18: fairshare usage charged by `TRESBillingWeights`. The `billing` configuration
//! (priority dominated by fairshare, 100000 against age's 1000; users skewed as `fairshare`'s;
//! half the jobs or more ask for GPUs; partition `batch` with
//! `TRESBillingWeights="CPU=1.0,Mem=0.25G,GRES/gpu=4.0"`), seed 18, 80 jobs over 300 s
//! (`scripts/slurm-validate.sh -c billing -s 18 -j 80 -w 300 -d`, run twice), recorded after
//! the billing was written from Slurm's source (docs/slurm.md, "Billing"; docs/slurm-runs.md,
//! "billing-18: usage charged by TRES weights").

use super::{load_run, Run};
use schedlab::cluster::billing::recorded;
use schedlab::cluster::PackedAlloc;
use schedlab::slurm::billing;
use std::collections::HashMap;

/// Each run's phases from its own debug log: `scripts/slurm-period-sides.py RUN` (`calc_phase`,
/// `calc_early`, `calc_early_bf`), the main scheduler's first full runs (run1 9.45, 19.47 s
/// ...: `sched_phase=9`; run2 9.23, 19.25 s ...: `sched_phase=9`) and the backfill thread's
/// first cycles (run1 4.16, 9.17 s ...: `bf_phase=4`; run2 3.88, 8.88 s ...: `bf_phase=3`).
pub(super) const RUNS: [(&str, &str); 2] = [
    (
        "billing-18/run1",
        "58.5,calc_early=(58,238,298,478,538,658,718),calc_early_bf=(238,298,478,538,658,718),sched_phase=9,bf_phase=4",
    ),
    (
        "billing-18/run2",
        "57.5,calc_early=(57,117,357,417,597,657,717,957),calc_early_bf=(297,357,417,597,657,717,957),sched_phase=9,bf_phase=3",
    ),
];

fn runs() -> Vec<Run> {
    RUNS.iter().map(|(n, p)| load_run(n, p)).collect()
}

/// Per sacct job id: its `AllocTRES`'s `billing=N`.
fn sacct_billing(run: &Run) -> HashMap<i64, u64> {
    let mut lines = run.text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('|').collect();
    let (id, tres) = (
        head.iter().position(|&h| h == "JobID").unwrap(),
        head.iter().position(|&h| h == "AllocTRES").unwrap(),
    );
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let b = (f[tres].split(','))
                .find_map(|kv| kv.strip_prefix("billing="))
                .unwrap();
            (f[id].parse().unwrap(), b.parse().unwrap())
        })
        .collect()
}

/// Every job's billing in the model, from the allocation sacct records (its nodes, CPUs,
/// memory and GPUs, as the input step places it) and the partition's weights as the model
/// reads them from slurm.conf (through the compact form, as a replay reads the cluster), cut
/// to a whole number as Slurm stores it: equal to sacct's `billing=` for every job of both
/// runs. And the model's own whole run: the billing of each job's simulated allocation is the
/// same (each job gets what it asks). By hand, run1's job 2 (carol, 1 node, 2 CPUs, 4000 MB,
/// 2 GPUs): 2 + 4000 · 0.25 / 1024 + 2 · 4 = 10.9765625, recorded 10 (sacct: `billing=10`).
#[test]
fn model_billing_equals_saccts_for_every_job() {
    for run in runs() {
        let layout = &run.set.placement.as_ref().unwrap().layout;
        let w = layout.parts[0].billing.as_ref().unwrap();
        assert_eq!((w.cpu, w.mem_mb, w.gpu), (1.0, 0.25 / 1024.0, 4.0));
        let recorded_billing = sacct_billing(&run);
        let of = |alloc: &PackedAlloc| billing::weighted(layout, 0, alloc, false).unwrap();
        let mut off_cpus = 0;
        for (j, job) in run.set.jobs.iter().enumerate() {
            let alloc = PackedAlloc::new(run.set.recorded_nodes[j].as_ref().unwrap());
            let b = of(&alloc);
            assert_eq!(
                recorded(b),
                recorded_billing[&job.id],
                "{} job {}: model {b}",
                run.name,
                job.id
            );
            if recorded(b) != u64::from(job.procs) {
                off_cpus += 1;
            }
        }
        // Most jobs' billing is not their CPUs: the weights matter.
        assert!(
            off_cpus * 2 > run.set.jobs.len(),
            "{}: {off_cpus}",
            run.name
        );
        let replay = super::replay_of(&run);
        let mut slurm = schedlab::policy::slurm::build_with_site(&run.slurm, &run.site).unwrap();
        let s = replay.simulate(slurm.as_mut(), 1).unwrap();
        for (j, job) in run.set.jobs.iter().enumerate() {
            let recorded_alloc = PackedAlloc::new(run.set.recorded_nodes[j].as_ref().unwrap());
            assert_eq!(
                of(&s.allocs[j]),
                of(&recorded_alloc),
                "{} job {}",
                run.name,
                job.id
            );
        }
    }
    let run = &runs()[0];
    let j = run.set.jobs.iter().position(|j| j.id == 2).unwrap();
    let alloc = PackedAlloc::new(run.set.recorded_nodes[j].as_ref().unwrap());
    let t = billing::alloc_tres(&run.set.placement.as_ref().unwrap().layout, &alloc);
    assert_eq!((t.cpus, t.mem_mb, t.nodes, t.gpus), (2, 4000, 1, 2));
    let b = billing::weighted(
        &run.set.placement.as_ref().unwrap().layout,
        0,
        &alloc,
        false,
    );
    assert_eq!(b, Some(10.9765625));
}

/// The model's fairshare usage at the end of `run` (its multifactor periods, at the run's
/// phase, over the recorded starts and ends, each job charged `charge(job index)`), as each
/// user association's share of the total, by `account/user`.
fn model_usage_shares(run: &Run, charge: impl Fn(usize) -> f64) -> HashMap<String, f64> {
    use schedlab::slurm::priority::{JobInfo, Multifactor};
    use schedlab::slurm::{params::SlurmParams, sshare, tree::Tree, Size};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(&run.name);
    let start = std::fs::read_to_string(dir.join("sshare-start.txt")).unwrap();
    let tree = Tree::from_sshare(&sshare::parse(&start, "sshare-start.txt").unwrap(), "s").unwrap();
    let mut p = SlurmParams::default();
    for (k, v) in [
        ("PriorityWeightFairshare", "100000"),
        ("PriorityCalcPeriod", "1"),
        ("PriorityDecayHalfLife", "0-0:10"),
        ("calc_phase", run.slurm.split(['=', ',']).nth(1).unwrap()),
    ] {
        p.set(k, v).unwrap();
    }
    // (account/user, start, end) per sacct row, seconds after the first submission.
    let mut lines = run.text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('|').collect();
    let col = |n: &str| head.iter().position(|&h| h == n).unwrap();
    let secs = |s: &str| {
        let (d, t) = s.split_once('T').unwrap();
        let t: Vec<i64> = t.split(':').map(|x| x.parse().unwrap()).collect();
        d[8..].parse::<i64>().unwrap() * 86_400 + t[0] * 3600 + t[1] * 60 + t[2]
    };
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('|').collect()).collect();
    let origin = rows.iter().map(|r| secs(r[col("Submit")])).min().unwrap();
    let ids: HashMap<i64, usize> = (run.set.jobs.iter().enumerate())
        .map(|(j, x)| (x.id, j))
        .collect();
    let mut infos = Vec::new();
    let mut events = Vec::new();
    for r in &rows {
        let j = ids[&r[col("JobID")].parse::<i64>().unwrap()];
        let (acct, user) = (r[col("Account")], r[col("User")]);
        let assoc = (0..tree.nodes.len())
            .find(|&i| tree.nodes[i].account == acct && tree.nodes[i].user.as_deref() == Some(user))
            .unwrap();
        let k = infos.len();
        infos.push((
            j,
            JobInfo {
                submit: 0,
                cpus: run.set.jobs[j].procs,
                nodes: 1,
                gpus: 0,
                mem_mb: 0,
                limit: None,
                assoc,
                part_factor: None,
                qos: 0.0,
                usage_factor: 1.0,
            },
        ));
        // Ends before starts within a second (a late period sees neither as running).
        events.push((secs(r[col("Start")]) - origin, 1, k));
        events.push((secs(r[col("End")]) - origin, 0, k));
    }
    events.sort();
    let size = Size {
        cpus: 32,
        nodes: 4,
        mem_mb: 64_000,
        gpus: 8,
    };
    let mut m = Multifactor::new(p, tree, infos.iter().map(|x| x.1).collect(), size);
    m.advance(0, true);
    for &(t, kind, k) in &events {
        m.advance(t, false);
        match kind {
            1 => {
                m.set_billing(k, charge(infos[k].0));
                m.started(k, t);
            }
            _ => m.ended(k, t),
        }
    }
    let last = events.last().unwrap().0;
    m.advance(last + 120, true);
    let total: f64 = (m.tree.nodes.iter())
        .filter(|a| a.user.is_some())
        .map(|a| a.usage)
        .sum();
    (m.tree.nodes.iter())
        .filter(|a| a.user.is_some())
        .map(|a| {
            (
                format!("{}/{}", a.account, a.user.as_deref().unwrap()),
                a.usage / total,
            )
        })
        .collect()
}

/// `sshare-end.txt`'s usage (each user association's `RawUsage` over their sum), by
/// `account/user`.
fn sshare_end_shares(run: &Run) -> HashMap<String, f64> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(&run.name);
    let text = std::fs::read_to_string(dir.join("sshare-end.txt")).unwrap();
    let rows = schedlab::slurm::sshare::parse(&text, "sshare-end.txt").unwrap();
    let users: Vec<_> = rows.iter().filter(|r| r.user.is_some()).collect();
    let total: f64 = users.iter().map(|r| r.raw_usage).sum();
    (users.iter())
        .map(|r| {
            (
                format!("{}/{}", r.account, r.user.as_deref().unwrap()),
                r.raw_usage / total,
            )
        })
        .collect()
}

/// The largest gap between two shares' maps (every user association of the end state).
fn largest_gap(a: &HashMap<String, f64>, b: &HashMap<String, f64>) -> f64 {
    b.iter()
        .map(|(k, v)| (a.get(k).copied().unwrap_or(0.0) - v).abs())
        .fold(0.0, f64::max)
}

/// The usage Slurm kept (`sshare-end.txt`) against the model's periods over the recorded
/// starts and ends: charged the billing, every user association's share of the usage is
/// Slurm's within 0.0017 (run1) and 0.0012 (run2); charged the CPUs (Slurm without the
/// weights) they are up to 0.0455 and 0.0291 off. Checked against [`USAGE_GAPS`].
#[test]
fn sshare_end_usage_is_the_billing_not_the_cpus() {
    for (run, (billed, cpus)) in runs().iter().zip(USAGE_GAPS) {
        let layout = &run.set.placement.as_ref().unwrap().layout;
        let bill = |j: usize| {
            let alloc = PackedAlloc::new(run.set.recorded_nodes[j].as_ref().unwrap());
            billing::weighted(layout, 0, &alloc, false).unwrap()
        };
        let slurm = sshare_end_shares(run);
        let with_billing = largest_gap(&model_usage_shares(run, bill), &slurm);
        let with_cpus = largest_gap(
            &model_usage_shares(run, |j| f64::from(run.set.jobs[j].procs)),
            &slurm,
        );
        println!(
            "{}: largest usage share gap billed {with_billing:.4}, CPUs {with_cpus:.4}",
            run.name
        );
        assert!(with_billing <= billed, "{}: {with_billing}", run.name);
        assert!(with_cpus >= cpus, "{}: {with_cpus}", run.name);
    }
}

/// Per run: the largest usage share gap charged the billing (at most), charged the CPUs (at
/// least).
const USAGE_GAPS: [(f64, f64); 2] = [(0.002, 0.045), (0.0015, 0.029)];

/// `slurm`'s decisions reached (recall, precision), floored at 0.1%: without the debug log,
/// and with it (`schedlab replay --debug-log`).
const DECISIONS_REACHED: [((f64, f64), (f64, f64)); 2] = [
    ((0.987, 0.975), (0.987, 0.975)),
    ((1.0, 0.919), (1.0, 0.919)),
];

/// Decisions one step ahead (recall / precision), measured once the runs were recorded, with
/// no rule changed for them: run1 98.8 / 97.5% (79 of Slurm's 80 starts; the model makes 81),
/// 98.8 / 98.8% with the debug log as recorded, 98.8 / 97.5% since the replay moves each
/// second's late submissions once (one more start of the model's, at an instant where a second
/// late submission of one second is now seen; not traced); run2 100 / 92.0% (80 of 80; 87)
/// with and without it.
/// `easy` 60.0 / 35.8% and 58.8 / 44.8%, `conservative` 48.8 / 63.9% and 60.0 / 62.3%. Issue
/// 34's 90 / 90% on both runs. Checked: the figures reached ([`DECISIONS_REACHED`]) and a
/// precision above both baselines'.
#[test]
fn decisions_with_usage_charged_by_weights() {
    super::gpulong_runs::decisions_reach(&runs(), &DECISIONS_REACHED);
}

/// `slurm`'s whole-run figures reached (mean wait apart, worst account apart, largest wait
/// CDF gap), each rounded up at 0.1%.
const WHOLE_REACHED: [[f64; 3]; 2] = [[0.0285, 0.965, 0.1005], [0.1155, 0.575, 0.1255]];

/// How many of `slurm`'s 6 whole-run figures lie within the noise floor.
const WITHIN: usize = 0;

/// The whole runs beside their noise floor (run1 against run2: mean wait 163.9 / 168.4 s,
/// 2.7% apart, worst account 49% (bio, 9 jobs), largest wait CDF gap 0.087: a tight floor).
/// run1: `slurm` 2.8%, 96% (eng: 4 jobs, 9 s recorded, 25 s simulated), 0.100; `easy` 16.8%,
/// 175%, 0.138; `conservative` 4.7%, 180%, 0.175. run2: `slurm` 11.5%, 57% (bio), 0.125;
/// `easy` 20.7%, 160%, 0.188; `conservative` 6.3%, 173%, 0.125. None of the 6 figures within
/// the floor (run1's mean wait 0.1% past it). Checked: the figures reached ([`WHOLE_REACHED`],
/// each rounded up from the printed), [`WITHIN`] exactly, and `slurm`'s worst account below both
/// baselines' on each run.
#[test]
fn whole_runs_with_usage_charged_by_weights() {
    let runs = runs();
    let (within, figures) = super::new_workload::beside_the_floor("billing-18", &runs);
    for ((run, f), reached) in runs.iter().zip(&figures).zip(&WHOLE_REACHED) {
        for k in 0..3 {
            assert!(f[0][k] <= reached[k] + 1e-9, "{}: {f:?}", run.name);
        }
        assert!(f[0][1] < f[1][1].min(f[2][1]), "{}: {f:?}", run.name);
    }
    assert_eq!(within, WITHIN, "{within} of 6 within the noise floor");
}

/// billingmax-19 (one run: billing's weights with `PriorityFlags=MAX_TRES`, 60 jobs,
/// `scripts/slurm-validate.sh -c billingmax -s 19 -j 60 -w 240 -d`): every job's model billing
/// under `MAX_TRES` (the largest of its weighted CPUs, memory, nodes and GPUs), cut to a whole
/// number, equals sacct's `billing=`; the weighted sum would not for most GPU jobs. By hand,
/// a job of 1 node, 2 CPUs, 1000 MB and 1 GPU: max(2, 0.244, 4) = 4 (the sum 6.24).
#[test]
fn max_tres_billing_equals_saccts_for_every_job() {
    let run = load_run("billingmax-19/run1", "0");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm/billingmax-19/run1");
    let conf = std::fs::read_to_string(dir.join("slurm.conf")).unwrap();
    assert!(conf.lines().any(|l| l == "PriorityFlags=MAX_TRES"));
    let layout = &run.set.placement.as_ref().unwrap().layout;
    let recorded_billing = sacct_billing(&run);
    let mut sum_differs = 0;
    for (j, job) in run.set.jobs.iter().enumerate() {
        let alloc = PackedAlloc::new(run.set.recorded_nodes[j].as_ref().unwrap());
        let max = billing::weighted(layout, 0, &alloc, true).unwrap();
        assert_eq!(
            recorded(max),
            recorded_billing[&job.id],
            "job {}: model {max}",
            job.id
        );
        let sum = billing::weighted(layout, 0, &alloc, false).unwrap();
        if recorded(sum) != recorded(max) {
            sum_differs += 1;
        }
    }
    assert!(sum_differs * 2 > run.set.jobs.len(), "{sum_differs}");
    let w = layout.parts[0].billing.as_ref().unwrap();
    let t = schedlab::cluster::billing::Tres {
        cpus: 2,
        mem_mb: 1000,
        nodes: 1,
        gpus: 1,
    };
    assert_eq!(
        (w.billable(t, true), w.billable(t, false)),
        (4.0, 6.244140625)
    );
}
