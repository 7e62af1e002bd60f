//! Random small Slurm sites through the `slurm` policy, as a user's files reach it: a
//! slurm.conf (node groups, partitions with odd node sets and `PriorityTier`, the backfill and
//! scheduler keys at their edges: `bf_window` tiny or huge, `bf_max_job_test=1`,
//! `default_queue_depth` 0 or 1, weights 0 and huge, `PriorityDecayHalfLife=0`), a qos file
//! with limits (0 among them), an sshare file with zero shares, and an sacct log whose jobs ask
//! more nodes, memory or GPUs than exist, time limits of 0 or years, and submit at the same
//! instant. Every run must end (a wall-clock bound cancels it through the progress callback: a
//! failure, not a hung CI) with a schedule or an error, never a panic, both by the CLI's path
//! and by the page's (the slurm.conf read as the page's `cluster_from_conf` reads it, the texts
//! handed to [`Site::of_texts`] as `Session::new` hands them, the run as `Session::run` makes
//! it).

use proptest::prelude::*;
use schedlab::cluster::layout::Layout;
use schedlab::input::InputOptions;
use schedlab::run::{Error, RunResult, Trace};
use schedlab::sim::SimError;
use schedlab::slurm::Site;
use schedlab::swf::ReadOptions;
use std::time::{Duration, Instant};

/// How long one run may take before the test calls it hung (a run here takes milliseconds).
const BOUND: Duration = Duration::from_secs(5);

/// A job: (user, QOS, partition, submit s, cores, nodes, mem MB per node, GPUs, limit, runtime s).
type FJob = (u8, u8, u8, i64, u32, u32, u32, u32, u8, i64);

const USERS: [&str; 3] = ["ann", "bob", "cy"];
const ACCOUNTS: [&str; 3] = ["phys", "bio", "phys"];
const QOS: [&str; 3] = ["normal", "low", "high"];
const PARTS: [&str; 3] = ["batch", "gpu", "nowhere"];

/// A time limit: 0, a minute, an hour, a year, none.
fn limit_text(k: u8) -> &'static str {
    match k % 5 {
        0 => "00:00:00",
        1 => "00:01:00",
        2 => "01:00:00",
        3 => "365-00:00:00",
        _ => "UNLIMITED",
    }
}

/// The sacct log of `jobs`.
fn log(jobs: &[FJob]) -> String {
    let t = |s: i64| {
        format!(
            "2024-01-0{}T{:02}:{:02}:{:02}",
            1 + s / 86_400,
            s / 3600 % 24,
            s / 60 % 60,
            s % 60
        )
    };
    let mut out = String::from(
        "JobID|User|Account|Partition|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|\
         ReqNodes|ReqMem|ReqTRES|NodeList|State\n",
    );
    for (i, &(u, q, p, submit, cpus, nodes, mem, gpus, lim, run)) in jobs.iter().enumerate() {
        let (u, q, p) = (usize::from(u), usize::from(q), usize::from(p));
        let gres = if gpus > 0 {
            format!(",gres/gpu={gpus}")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{:02}:{:02}:{:02}|{}|{cpus}|{}|{nodes}|{mem}M|\
             billing={cpus},cpu={cpus},mem={mem}M,node={}{gres}|n1|COMPLETED\n",
            i + 1,
            USERS[u % 3],
            ACCOUNTS[u % 3],
            PARTS[p % 3],
            QOS[q % 3],
            t(submit),
            t(submit),
            t(submit + run),
            run / 3600,
            run / 60 % 60,
            run % 60,
            limit_text(lim),
            nodes.max(1),
            nodes.max(1),
        ));
    }
    out
}

/// A slurm.conf: `groups` node groups of (count, cores, memory MB, GPUs), partition `batch` on
/// all of them, `gpu` on the last group only (PriorityTier `tier`); the keys `keys`.
fn conf(groups: &[(u32, u32, u32, u32)], tier: u8, keys: &Keys) -> String {
    let mut out = String::from(
        "SchedulerType=sched/backfill\nPriorityType=priority/multifactor\n\
         AccountingStorageEnforce=associations,limits\nSelectType=select/cons_tres\n\
         GresTypes=gpu\n",
    );
    out.push_str(&format!(
        "SchedulerParameters=bf_interval={},bf_window={},bf_resolution={},bf_max_job_test={},\
         sched_interval={},default_queue_depth={}\n",
        keys.bf_interval,
        keys.bf_window,
        keys.bf_resolution,
        keys.bf_max_job_test,
        keys.sched_interval,
        keys.queue_depth
    ));
    out.push_str(&format!(
        "OverTimeLimit={}\nPriorityCalcPeriod={}\nPriorityDecayHalfLife={}\n\
         PriorityWeightAge={w}\nPriorityWeightFairshare={w}\nPriorityWeightJobSize={w}\n\
         PriorityWeightQOS={w}\nPriorityWeightPartition={w}\n",
        keys.over_time,
        keys.calc_period,
        keys.half_life,
        w = keys.weight
    ));
    for &(k, v) in &keys.extra {
        let (key, values) = EXTRA[k % EXTRA.len()];
        out.push_str(&format!("{key}={}\n", values[v % values.len()]));
    }
    let mut first = 1;
    let mut names = Vec::new();
    for (g, &(count, cores, mem, gpus)) in groups.iter().enumerate() {
        let last = first + count - 1;
        let name = format!("g{g}n[{first}-{last}]");
        let gres = if gpus > 0 {
            format!(" Gres=gpu:{gpus}")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "NodeName={name} CPUs={cores} RealMemory={mem}{gres}\n"
        ));
        names.push(name);
        first = last + 1;
    }
    out.push_str(&format!(
        "PartitionName=batch Nodes={} Default=YES\n",
        names.join(",")
    ));
    out.push_str(&format!(
        "PartitionName=gpu Nodes={} PriorityTier={tier}\n",
        names.last().expect("a group")
    ));
    out
}

/// Other keys a site may set, each with values at its edges (`PriorityMaxAge=0`: the age
/// factor's division by it).
const EXTRA: [(&str, &[&str]); 12] = [
    ("PriorityMaxAge", &["0", "1", "365-00:00:00"]),
    (
        "PriorityFlags",
        &[
            "NO_FAIR_TREE",
            "SMALL_RELATIVE_TO_TIME",
            "CALCULATE_RUNNING",
        ],
    ),
    ("PriorityUsageResetPeriod", &["NOW", "DAILY", "YEARLY"]),
    ("PriorityFavorSmall", &["YES", "NO"]),
    ("FairShareDampeningFactor", &["1", "5", "1000"]),
    (
        "PriorityWeightTRES",
        &["cpu=1000,mem=1,gres/gpu=4294967295", "cpu=0"],
    ),
    ("KillWait", &["0", "30"]),
    ("MinJobAge", &["0", "300"]),
    ("PartitionName=DEFAULT PriorityJobFactor", &["0", "65533"]),
    (
        "SchedulerParameters",
        &[
            "bf_continue,bf_max_job_user=1,bf_node_space_size=2,batch_sched_delay=0",
            "bf_min_prio_reserve=4294967295",
        ],
    ),
    ("PriorityCalcPeriod", &["1", "1440"]),
    ("DefMemPerCPU", &["0", "100000"]),
];

/// Spec keys a page's user may add to `slurm`, at their edges.
const SPEC_KEYS: [&str; 10] = [
    "calc_phase=86400",
    "sched_phase=86400,bf_phase=0",
    "calc_early=(0,1,2),calc_early_bf=(0,3)",
    "PriorityMaxAge=0",
    "PriorityJobFactor=1e308",
    "bf_node_space_size=2,batch_sched_delay=0",
    "KillWait=65533,OverTimeLimit=65533",
    "PriorityUsageResetPeriod=NOW",
    "PriorityWeightTRES=(cpu=1e300,gres/gpu=1)",
    "bf_max_job_user=1,bf_continue=yes,bf_min_prio_reserve=1",
];

/// The spec of the run: `slurm`, with the keys of [`SPEC_KEYS`] at `keys`.
fn spec(keys: &[usize]) -> String {
    if keys.is_empty() {
        return "slurm".into();
    }
    let k: Vec<&str> = keys
        .iter()
        .map(|&k| SPEC_KEYS[k % SPEC_KEYS.len()])
        .collect();
    format!("slurm[{}]", k.join(","))
}

/// The slurm.conf keys a site sets.
#[derive(Debug, Clone)]
struct Keys {
    bf_interval: u32,
    bf_window: u32,
    bf_resolution: u32,
    bf_max_job_test: u32,
    sched_interval: u32,
    queue_depth: u32,
    over_time: u32,
    calc_period: u32,
    half_life: u32,
    weight: u64,
    /// Keys of [`EXTRA`] and their values, by index.
    extra: Vec<(usize, usize)>,
}

fn keys() -> impl Strategy<Value = Keys> {
    (
        prop_oneof![Just(1u32), Just(30), Just(3600)],
        prop_oneof![Just(1u32), Just(60), Just(43_200)],
        prop_oneof![Just(1u32), Just(60), Just(3600)],
        prop_oneof![Just(1u32), Just(500)],
        prop_oneof![Just(1u32), Just(60), Just(86_400)],
        prop_oneof![Just(0u32), Just(1), Just(100)],
        prop_oneof![Just(0u32), Just(5)],
        prop_oneof![Just(1u32), Just(5)],
        prop_oneof![Just(0u32), Just(1), Just(10_080)],
        prop_oneof![Just(0u64), Just(1000), Just(4_294_967_295)],
        prop::collection::vec((0usize..EXTRA.len(), 0usize..3), 0..4),
    )
        .prop_map(|(bi, bw, br, bt, si, qd, ot, cp, hl, w, extra)| Keys {
            bf_interval: bi,
            bf_window: bw,
            bf_resolution: br,
            bf_max_job_test: bt,
            sched_interval: si,
            queue_depth: qd,
            over_time: ot,
            calc_period: cp,
            half_life: hl,
            weight: w,
            extra,
        })
}

/// A qos file: each QOS's limits, 0 and tiny ones among them.
fn qos_file(limits: &[(u8, u8, u8, u8); 3]) -> String {
    let mut out = String::from("Name|Priority|MaxJobsPU|MaxTRESPU|GrpTRES|GrpJobs|MaxWall|Flags\n");
    for (name, &(jobs, tres, grp, wall)) in QOS.iter().zip(limits) {
        let count = |k: u8| match k % 4 {
            0 => String::new(),
            k => (k - 1).to_string(),
        };
        let tres_text = |k: u8| match k % 5 {
            0 => String::new(),
            1 => "cpu=0".into(),
            2 => "cpu=4".into(),
            3 => "mem=1000M,node=1".into(),
            _ => "gres/gpu=1".into(),
        };
        let wall = match wall % 3 {
            0 => "",
            1 => "0",
            _ => "10",
        };
        out.push_str(&format!(
            "{name}|{}|{}|{}|{}|{}|{wall}|\n",
            u32::from(jobs) * 10,
            count(jobs),
            tres_text(tres),
            tres_text(grp),
            count(grp),
        ));
    }
    out
}

/// An sshare file: root, accounts phys and bio with `shares` (0 among them), each user under
/// its account with its own.
fn sshare(shares: &[u8; 5]) -> String {
    sshare_tree(shares, 0)
}

/// [`sshare`], or (`tree` 1) with ann right under root and an account with no user, or (2)
/// with bob in both accounts and cy missing.
fn sshare_tree(shares: &[u8; 5], tree: u8) -> String {
    let head = "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|\
                LevelFS|GrpTRESMins|TRESRunMins\n";
    let mut out = String::from(head);
    out.push_str("root|||0.000000|0||1.000000||||\n");
    match tree % 3 {
        1 => {
            out.push_str(&format!(" root|ann|{}|0.5|99999999|1|1|0|0||\n", shares[1]));
            out.push_str(&format!(" empty||{}|0|0|0|0||inf||\n", shares[0]));
            out.push_str(&format!(" bio||{}|0.5|0|0|0||inf||\n", shares[3]));
            out.push_str(&format!("  bio|bob|{}|1|0|0|0|1|inf||\n", shares[4]));
            out.push_str(&format!("  bio|cy|{}|1|0|0|0|1|inf||\n", shares[2]));
            return out;
        }
        2 => {
            out.push_str(&format!(" phys||{}|0.5|0|0|0||inf||\n", shares[0]));
            out.push_str(&format!("  phys|bob|{}|0.5|0|0|0|1|inf||\n", shares[1]));
            out.push_str(&format!(" bio||{}|0.5|0|0|0||inf||\n", shares[3]));
            out.push_str(&format!("  bio|bob|{}|1|0|0|0|1|inf||\n", shares[4]));
            return out;
        }
        _ => {}
    }
    out.push_str(&format!(" phys||{}|0.5|0|0|0||inf||\n", shares[0]));
    out.push_str(&format!("  phys|ann|{}|0.5|0|0|0|1|inf||\n", shares[1]));
    out.push_str(&format!("  phys|cy|{}|0.5|0|0|0|1|inf||\n", shares[2]));
    out.push_str(&format!(" bio||{}|0.5|0|0|0||inf||\n", shares[3]));
    out.push_str(&format!("  bio|bob|{}|1|0|0|0|1|inf||\n", shares[4]));
    out
}

fn job() -> impl Strategy<Value = FJob> {
    (
        0u8..3,
        0u8..3,
        0u8..3,
        prop_oneof![Just(0i64), Just(0), 0i64..200],
        prop_oneof![1u32..5, 1u32..80],
        prop_oneof![Just(0u32), 1u32..3, Just(50)],
        prop_oneof![Just(0u32), Just(100), Just(1_000_000)],
        prop_oneof![Just(0u32), Just(1), Just(9)],
        0u8..5,
        prop_oneof![Just(0i64), 1i64..500, Just(100_000)],
    )
}

/// A site: (node groups, PriorityTier of `gpu`, keys, qos limits, shares, jobs).
type SiteCase = (
    Vec<(u32, u32, u32, u32)>,
    u8,
    Keys,
    [(u8, u8, u8, u8); 3],
    [u8; 5],
    Vec<FJob>,
);

fn site_case() -> impl Strategy<Value = SiteCase> {
    (
        prop::collection::vec((1u32..3, 1u32..9, 500u32..20_000, 0u32..3), 1..3),
        0u8..3,
        keys(),
        any::<[(u8, u8, u8, u8); 3]>(),
        prop::array::uniform5(0u8..3),
        prop::collection::vec(job(), 1..16),
    )
}

/// A progress callback that cancels the run past [`BOUND`] (the test then fails as hung).
fn bounded() -> impl FnMut(usize, usize) -> bool {
    let began = Instant::now();
    move |_, _| began.elapsed() < BOUND
}

/// One case by the page's path: the slurm.conf read as `cluster_from_conf` reads it (its
/// compact form the cluster), the trace read with it, the site from the three texts, one run
/// of `spec`. `Ok(None)`: the input refused before any run (a file with an error, no job that fits);
/// `Ok(Some(run))`: a schedule, or an error that ends the run as it should (a key's value
/// refused); `Err`: a run that did not end (cancelled past [`BOUND`]), or ended only because
/// the engine found the policy stuck or passing for ever (a job the policy never starts, which
/// it should have left out before the run).
fn run_as_page(conf_text: &str, qos: &str, share: &str, log_text: &str, spec: &str) -> Outcome {
    let Ok(read) = schedlab::cluster::conf::parse_str(conf_text, "slurm.conf") else {
        return Ok(None);
    };
    if Layout::new(&read.cluster).is_err() {
        return Ok(None);
    }
    let input = InputOptions {
        cluster: Some(read.cluster.to_compact()),
        ..InputOptions::default()
    };
    let read_opts = ReadOptions::default();
    let Ok((workload, jobs)) =
        schedlab::run::read_bytes("log.sacct", log_text.as_bytes(), &read_opts, &input)
    else {
        return Ok(None);
    };
    let Ok(trace) = Trace::of_jobs(workload, jobs, Default::default()) else {
        return Ok(None);
    };
    let site = Site::of_texts(
        Some((conf_text, "slurm.conf")),
        Some((share, "sshare")),
        Some((qos, "qos")),
        None,
    )
    .map_err(|e| format!("site: {e}"))?
    .map(|s| trace.named_site(s));
    let mut progress = bounded();
    match trace.run_at(spec, site.as_ref(), 1, Some(&mut progress)) {
        Err(Error::Sim(
            e @ (SimError::Cancelled | SimError::Stuck { .. } | SimError::Livelock { .. }),
        )) => Err(e.to_string()),
        r => Ok(Some(r.map_err(|e| e.to_string()))),
    }
}

/// What [`run_as_page`] gives.
type Outcome = Result<Option<Result<RunResult, String>>, String>;

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("SLURM_PROPS_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every random site's `slurm` run ends, with a schedule or an error, and never panics.
    #[test]
    fn every_slurm_site_run_ends(
        (groups, tier, keys, limits, shares, jobs) in site_case(),
        tree in 0u8..3,
        spec_keys in prop::collection::vec(0usize..SPEC_KEYS.len(), 0..3),
    ) {
        let conf_text = conf(&groups, tier, &keys);
        let qos = qos_file(&limits);
        let share = sshare_tree(&shares, tree);
        let spec = spec(&spec_keys);
        let log_text = log(&jobs);
        // On a thread of its own, so that a loop that never reaches the progress callback
        // fails the test too (the thread is left behind).
        let (tx, rx) = std::sync::mpsc::channel();
        let texts = (conf_text.clone(), qos.clone(), share.clone(), log_text.clone(), spec.clone());
        std::thread::spawn(move || {
            let (c, q, s, l, p) = texts;
            let outcome = std::panic::catch_unwind(|| run_as_page(&c, &q, &s, &l, &p));
            let _ = tx.send(outcome.map_err(|_| ()));
        });
        match rx.recv_timeout(BOUND * 2) {
            Ok(Ok(Ok(_))) => {}
            Ok(Ok(Err(e))) => prop_assert!(false, "{e}\n{spec}\n{conf_text}\n{qos}\n{share}\n{log_text}"),
            Ok(Err(())) => prop_assert!(false, "panicked\n{spec}\n{conf_text}\n{qos}\n{share}\n{log_text}"),
            Err(_) => prop_assert!(false, "hung\n{spec}\n{conf_text}\n{qos}\n{share}\n{log_text}"),
        }
    }
}

/// Found by the test above: a job of 3 cores and 1 GPU on `-N 2` in partition `batch`, whose
/// only GPU node is `g0n1` (4 cores, 2 GPUs; `g1n2`, `g1n3`: 2 cores, none). The engine's
/// selection places it (2 cores and the GPU on g0n1, 1 core on g1n2), so the cluster does not
/// leave it out; cons_tres's choice (`best_fit`, policy/rule/slurm/fit.rs) spreads the GPUs
/// evenly and asks each node to hold the first node's share (2 cores, 1 GPU), which g0n1 alone
/// does: it never places the job, even on the idle cluster. Before, the passes went on for ever
/// (with the engine's guard, the run failed as stuck); now the job is left out before the run,
/// with the reason, and the run ends with nothing to run.
#[test]
fn a_job_cons_tres_never_places_is_left_out() {
    let conf_text = "SchedulerType=sched/backfill\nPriorityType=priority/multifactor\n\
        SelectType=select/cons_tres\nGresTypes=gpu\n\
        NodeName=g0n[1-1] CPUs=4 RealMemory=15236 Gres=gpu:2\n\
        NodeName=g1n[2-3] CPUs=2 RealMemory=9238\n\
        PartitionName=batch Nodes=g0n[1-1],g1n[2-3] Default=YES\n";
    let log_text = log(&[(2, 0, 0, 0, 3, 2, 100, 1, 2, 100)]);
    let (qos, share) = (qos_file(&[(0, 0, 0, 0); 3]), sshare(&[1; 5]));
    let run = run_as_page(conf_text, &qos, &share, &log_text, "slurm")
        .expect("ends")
        .expect("runs")
        .expect("a schedule");
    assert_eq!(run.schedule.rejected.len(), 1);
    let why = &run.schedule.rejected[0].1;
    assert!(why.contains("finds no 2 nodes in partition batch"), "{why}");
}
