//! The loops' phases read from the sacct log itself (`slurm::phases_from_log`; docs/slurm.md,
//! "The loops' phases"): `schedlab run` or `replay` of a log with `-p slurm` and no phases,
//! as a user without the controller's debug log runs it, on every committed run.

use super::Run;
use schedlab::slurm::phases_from_log::LogClocks;

/// Recall, precision, whole run's mean wait apart.
type Reached = (f64, f64, f64);

/// Per run: the phases estimated (`bf_phase`: the first `SchedBackfill` start modulo 5;
/// `sched_phase`: the first limit-check grid two ends share, modulo 10), and the figures
/// reached with them (recall, precision, whole run's mean wait apart), floored (ceiled) at
/// 0.1%. Against the debug logs' phases (`PHASES`, `FURTHER`, `LIMITS`, `QOS_RUNS`, `NEW`):
/// `bf_phase` the same on 21 of the 24 runs (tiers-4/run1, run2 and run4 a second later:
/// their first backfill start came a second after the grid the debug log times), `sched_phase`
/// on 20 (fairshare-1/run1 and run2: 6, measured 9 from their starts; limits-5/run3 8 for 7;
/// qos-6/run1 6 for 7), and the checks' grid is `calc_phase`'s whole second modulo 30 on 22.
/// The whole runs' mean wait apart moved when a `TIMEOUT` job came to run until the model's
/// own check (docs/slurm.md "Time limits"): with no `calc_phase` the checks fall on 0 + 30k,
/// not on the log's grid, so those jobs end up to 29 s from their recorded ends (before, one
/// whose recorded end came before the model's check ended there): closer on 10 runs, farther
/// on 12, the same on 2, 9.8% -> 9.2% on average over the 24.
const ESTIMATED: [(&str, i64, i64, Reached); 24] = [
    ("fairshare-1/run1", 1, 6, (0.766, 0.741, 0.206)),
    ("fairshare-1/run2", 1, 6, (0.616, 0.660, 0.110)),
    ("fairshare-1/run3", 1, 6, (0.932, 0.932, 0.038)),
    ("fairshare-1/run4", 0, 5, (0.716, 0.781, 0.099)),
    ("gpu-3/run1", 2, 8, (0.899, 0.884, 0.104)),
    ("gpu-3/run2", 2, 8, (0.799, 0.888, 0.175)),
    ("gpu-3/run3", 3, 8, (0.866, 0.866, 0.074)),
    ("gpu-3/run4", 2, 7, (0.882, 0.963, 0.055)),
    ("limits-5/run1", 2, 7, (0.916, 0.916, 0.112)),
    ("limits-5/run2", 1, 7, (0.866, 0.962, 0.198)),
    ("limits-5/run3", 2, 8, (0.999, 0.999, 0.117)),
    ("qos-6/run1", 0, 6, (0.849, 0.822, 0.113)),
    ("qos-6/run2", 4, 5, (0.882, 0.790, 0.072)),
    ("qos-6/run3", 0, 5, (0.916, 0.820, 0.126)),
    ("smallbf-2/run1", 4, 9, (0.966, 0.966, 0.018)),
    ("smallbf-2/run2", 4, 9, (0.849, 0.878, 0.025)),
    ("smallbf-2/run3", 4, 9, (0.899, 0.999, 0.081)),
    ("smallbf-2/run4", 3, 8, (0.882, 0.897, 0.144)),
    ("tiers-4/run1", 4, 3, (0.821, 0.840, 0.003)),
    ("tiers-4/run2", 4, 3, (0.755, 0.818, 0.052)),
    ("tiers-4/run3", 2, 2, (0.877, 0.813, 0.174)),
    ("tiers-4/run4", 3, 3, (0.688, 0.511, 0.021)),
    ("tiers-7/run1", 2, 7, (0.874, 0.920, 0.036)),
    ("tiers-7/run2", 2, 7, (0.841, 0.807, 0.196)),
];

/// The run `name` as a user replays it: its site with what its log shows of the loops, and
/// `slurm` with no phase.
fn as_a_user(name: &str) -> Run {
    let mut run = match name.starts_with("qos-6") {
        true => super::site_run(name, "0"),
        false => super::load_run(name, "0"),
    };
    run.site = run.site.with_log_clocks(LogClocks::of(&run.set));
    run.slurm = "slurm".into();
    run
}

/// Every committed run: the phases read from its log are in `slurm`'s canonical spec
/// (`sched_phase=0`, Slurm's default, would not be: none is), and its decisions and whole run
/// reach the figures above. Over the 24 runs, against `-p slurm` with no phase before:
/// decisions the same but limits-5/run1 (88.3 / 93.0 -> 91.7 / 91.7%); the whole runs' mean
/// wait apart closer on 14 runs, farther on 5, the same on 5 (docs/slurm-runs.md, "The loops' phases read
/// from the log").
#[test]
fn phases_read_from_the_log_on_every_committed_run() {
    for (name, bf, sched, (recall, precision, apart)) in ESTIMATED {
        let run = as_a_user(name);
        let policy = schedlab::policy::slurm::build_with_site("slurm", &run.site).unwrap();
        let spec = policy.spec();
        assert!(spec.contains(&format!(",bf_phase={bf},")), "{name}: {spec}");
        assert!(
            spec.contains(&format!(",sched_phase={sched},")),
            "{name}: {spec}"
        );
        assert!(!spec.contains("calc_phase"), "{name}: {spec}");
        let [slurm, ..] = super::decision_figures(&run);
        assert!(slurm.recall() >= recall - 1e-9, "{name}: {slurm}");
        assert!(slurm.precision() >= precision - 1e-9, "{name}: {slurm}");
        let replay = super::replay_of(&run);
        let mut p = schedlab::policy::slurm::build_with_site("slurm", &run.site).unwrap();
        let waits = replay.simulated_waits(p.as_mut(), 1).unwrap();
        let d = replay.recorded_waits().distance(&waits);
        println!("{name:<18} slurm (log phases) whole run {d}");
        assert!(d.mean_apart() <= apart + 1e-9, "{name}: {d}");
    }
}

/// A spec's own phases win over the log's: `bf_phase=none` and `sched_phase=0` give back
/// the rule without them, and the canonical spec keeps them as given.
#[test]
fn a_specs_phases_win_over_the_logs() {
    let run = as_a_user("tiers-7/run1");
    let build = |spec: &str| schedlab::policy::slurm::build_with_site(spec, &run.site);
    let spec = build("slurm[bf_phase=none,sched_phase=0]").unwrap().spec();
    assert!(spec.contains(",bf_phase=none,"), "{spec}");
    assert!(spec.contains(",sched_phase=0,"), "{spec}");
    let spec = build("slurm[bf_phase=3]").unwrap().spec();
    assert!(
        spec.contains(",bf_phase=3,") && spec.contains(",sched_phase=7,"),
        "{spec}"
    );
}

/// A log worked by hand, through the sacct reader: job 1 (SchedMain) runs 1-63 on a limit of
/// 1 minute (62 s: 2 s past it, ended by a check), job 2 backfilled at 12, job 3 backfilled at
/// 17 and run 17-93 (16 s past its limit), job 4 (SchedMain) 63-70. The clocks: backfill
/// starts 12 and 17, limit ends (63, 2) and (93, 16). Under its slurm.conf's `bf_interval=5`,
/// `sched_interval=10` (`OverTimeLimit` 0): bf_phase 12 mod 5 = 2; the checks at 63 and 93
/// share 3 past the half minute: sched_phase 3. Without the `Flags` column: no backfill start,
/// so only sched_phase.
#[test]
fn the_clocks_of_a_small_log() {
    let log = "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State|Flags
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:01|2024-01-01T00:01:03|00:01:02|00:01:00|2|1|n1|TIMEOUT|SchedMain
2|bob|2024-01-01T00:00:05|2024-01-01T00:00:12|2024-01-01T00:00:20|00:00:08|00:01:00|1|1|n1|COMPLETED|SchedBackfill
3|ann|2024-01-01T00:00:06|2024-01-01T00:00:17|2024-01-01T00:01:33|00:01:16|00:01:00|1|1|n1|TIMEOUT|SchedBackfill
4|bob|2024-01-01T00:00:07|2024-01-01T00:01:03|2024-01-01T00:01:10|00:00:07|00:01:00|2|1|n1|COMPLETED|SchedMain
";
    let cluster = "1/n1:c4:m1/p=batch:ALL:default";
    let set = super::read("small.sacct", log, cluster.into());
    let clocks = LogClocks::of(&set).unwrap();
    assert_eq!(clocks.backfill_starts, [12, 17]);
    assert_eq!(clocks.limit_ends, [(63, 2), (93, 16)]);
    let conf = "NodeName=n1 CPUs=4 RealMemory=1000\nPartitionName=batch Nodes=n1 Default=YES\n\
                SchedulerParameters=bf_interval=5,sched_interval=10\nOverTimeLimit=0\n";
    let conf = schedlab::cluster::conf::parse_str(conf, "slurm.conf").unwrap();
    let site = schedlab::slurm::Site::default().with_conf(&conf);
    let spec = |site: &schedlab::slurm::Site| {
        let p = schedlab::policy::slurm::build_with_site("slurm", site).unwrap();
        p.spec()
    };
    let with = site.clone().with_log_clocks(Some(clocks));
    assert_eq!(
        spec(&with),
        "slurm[bf_interval=5,bf_phase=2,sched_interval=10,sched_phase=3]"
    );
    let no_flags: String = log
        .lines()
        .map(|l| l.rsplit_once('|').unwrap().0.to_string() + "\n")
        .collect();
    let set = super::read("small.sacct", &no_flags, cluster.into());
    let clocks = LogClocks::of(&set).unwrap();
    assert!(clocks.backfill_starts.is_empty());
    let with = site.with_log_clocks(Some(clocks));
    assert_eq!(
        spec(&with),
        "slurm[bf_interval=5,sched_interval=10,sched_phase=3]"
    );
}
