//! `schedlab replay` on small sacct logs worked by hand (Slurm's rules at one instant each,
//! from its source), and the errors of bad inputs.

use super::{end_sides, read};
use schedlab::input::JobSet;
use schedlab::policy;
use schedlab::replay::{recorded, Decision, Figures, Replay};

/// One node of 5 cores. Job 1 (4 cores) runs 0-100; jobs 2 and 3 (2 cores each, limit 1
/// minute) run 100-150; job 4 (4 cores) 150-200; job 5 (1 core) 200-210.
const LOG: &str = "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:40|00:01:40|00:02:00|4|1|n1|COMPLETED
2|bob|2024-01-01T00:00:10|2024-01-01T00:01:40|2024-01-01T00:02:30|00:00:50|00:01:00|2|1|n1|COMPLETED
3|ann|2024-01-01T00:00:20|2024-01-01T00:01:40|2024-01-01T00:02:30|00:00:50|00:01:00|2|1|n1|COMPLETED
4|bob|2024-01-01T00:00:30|2024-01-01T00:02:30|2024-01-01T00:03:20|00:00:50|00:01:00|4|1|n1|COMPLETED
5|ann|2024-01-01T00:00:40|2024-01-01T00:03:20|2024-01-01T00:03:30|00:00:10|00:01:00|1|1|n1|COMPLETED
";

fn small() -> JobSet {
    read("small.sacct", LOG, "1/n1:c5:m1/p=batch:ALL:default".into())
}

fn decisions(set: &JobSet, text: &str, spec: &str) -> Vec<Decision> {
    let logged = recorded::Logged::from_sacct(text, "log", &set.jobs).unwrap();
    let replay = Replay::new(set, logged).unwrap();
    replay
        .decisions(
            || policy::build(spec).map_err(schedlab::run::Error::from),
            1,
        )
        .unwrap()
        .0
}

/// (time, recorded, model) per instant, as job numbers.
fn table(ds: &[Decision]) -> Vec<(i64, Vec<usize>, Vec<usize>)> {
    let n = |v: &[usize]| v.iter().map(|j| j + 1).collect();
    ds.iter()
        .map(|d| (d.time, n(&d.recorded), n(&d.model)))
        .collect()
}

#[test]
fn a_small_log_worked_by_hand() {
    let set = small();
    // fcfs: at 0 job 1; at 100 (job 1 ended then) jobs 2 and 3, job 4 (4 cores) does not fit
    // the 1 left; at 150 jobs 4 and 5 both fit (the log started 4 only); at 200 job 5.
    let fcfs = decisions(&set, LOG, "fcfs");
    assert_eq!(
        table(&fcfs),
        [
            (0, vec![1], vec![1]),
            (100, vec![2, 3], vec![2, 3]),
            (150, vec![4], vec![4, 5]),
            (200, vec![5], vec![5]),
        ]
    );
    assert_eq!(fcfs[1].waiting, [1, 2, 3, 4]);
    let f = Figures::of(&fcfs);
    assert_eq!((f.instants, f.recorded, f.model, f.both), (4, 5, 6, 5));
    assert_eq!((f.recall(), f.precision()), (1.0, 5.0 / 6.0));
    // easy at 100: job 4 is blocked until 160 (the planned ends of 2 and 3: start + limit);
    // job 5 (limit 60 s) ends by then and is backfilled.
    let easy = decisions(&set, LOG, "easy");
    assert_eq!(easy[1].model, [1, 2, 4]);
    let f = Figures::of(&easy);
    assert_eq!((f.recorded, f.model, f.both), (5, 7, 5));
    // The CSV: every job waiting at each instant, Slurm's job ids.
    let logged = recorded::Logged::from_sacct(LOG, "log", &set.jobs).unwrap();
    let replay = Replay::new(&set, logged).unwrap();
    let mut out = Vec::new();
    replay.write_csv(&mut out, &easy).unwrap();
    let csv = String::from_utf8(out).unwrap();
    let rows: Vec<&str> = csv.lines().take(6).collect();
    assert_eq!(
        rows,
        [
            "time,job_id,recorded,model",
            "0,1,1,1",
            "100,2,1,1",
            "100,3,1,1",
            "100,4,0,0",
            "100,5,0,1"
        ]
    );
}

/// Two nodes of 4 cores. Job 1 (3 cores on n1, limit 1 minute) runs 0-200: Slurm plans it to
/// end at 60 and, past that, kills it at a limit check (here late, at 200). Job 2 holds n2.
/// Job 3 (4 cores, one node) waits for n1; job 4 (1 core, `L` seconds) is backfilled at 70 on
/// n1's idle core.
fn late_log(len: &str) -> String {
    format!(
        "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:03:20|00:03:20|00:01:00|3|1|n1|TIMEOUT
2|bob|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:16:40|00:16:40|00:20:00|4|1|n2|COMPLETED
3|ann|2024-01-01T00:00:10|2024-01-01T00:03:20|2024-01-01T00:05:00|00:01:40|00:02:00|4|1|n1|COMPLETED
4|bob|2024-01-01T00:01:05|2024-01-01T00:01:10|2024-01-01T00:01:20|00:00:10|{len}|1|1|n1|COMPLETED
"
    )
}

/// Worked by hand (cons_common/job_test.c `_will_run_test`, `_guess_job_end`): at 70 job 1
/// is past its planned end, 60 (start + limit, Slurm's `end_time`; the engine, running it to
/// its recorded end, plans it on). Job 3's will-run start is Slurm's guess at job 1's end:
/// 60 + `KillWait` (30 s by default: 90; `KillWait=5`: 65, so now + 1 = 71), and it reserves
/// n1 from there (`bf_resolution=1`). Job 4 (1 core) starts now on n1 only if it ends before:
/// 30 s [70, 100] overlaps 90, 15 s [70, 85] does not, and overlaps 71. Planned on the
/// engine's end (120) job 4 started in all three.
#[test]
fn a_job_past_its_limit_is_guessed_to_end_kill_wait_after_it() {
    for (len, kill_wait, started) in [
        ("00:00:30", 30, false),
        ("00:00:15", 30, true),
        ("00:00:15", 5, false),
    ] {
        let log = late_log(len);
        let set = read(
            "late.sacct",
            &log,
            "1/n[1-2]:c4:m1/p=batch:ALL:default".into(),
        );
        let spec = format!("slurm[bf_interval=1,bf_resolution=1,KillWait={kill_wait}]");
        let ds = decisions(&set, &log, &spec);
        let at70 = ds.iter().find(|d| d.time == 70).unwrap();
        assert_eq!(at70.recorded, [3], "{len}, KillWait={kill_wait}");
        assert_eq!(
            at70.model == [3],
            started,
            "{len}, KillWait={kill_wait}: {at70:?}"
        );
    }
}

/// Two nodes of 4 cores; `batch` over both (the default), `short` over n1 with
/// `PriorityTier=2`. Job 1 holds 3 cores of n1 until 200, job 2 all of n2 until 100. Jobs 3
/// (1 core) and 4 (4 cores, one node) are batch's; job 5 (2 cores), submitted last, short's.
/// At 100 (job 2 ended) the log starts job 3 on n2.
const TIERS_LOG: &str = "\
JobID|User|Partition|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State
1|ann|batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:03:20|00:03:20|00:10:00|3|1|n1|COMPLETED
2|bob|batch|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:40|00:01:40|00:10:00|4|1|n2|COMPLETED
3|bob|batch|2024-01-01T00:00:10|2024-01-01T00:01:40|2024-01-01T00:04:00|00:02:20|00:10:00|1|1|n2|COMPLETED
4|ann|batch|2024-01-01T00:00:20|2024-01-01T00:04:00|2024-01-01T00:04:10|00:00:10|00:10:00|4|1|n2|COMPLETED
5|ann|short|2024-01-01T00:00:30|2024-01-01T00:03:20|2024-01-01T00:03:30|00:00:10|00:10:00|2|1|n1|COMPLETED
";

/// Worked by hand (job_scheduler.c `_schedule`, `sort_job_queue2`): at 100 the queue is
/// job 5 first (its partition's tier, though submitted last), then 3 and 4 (equal
/// priorities, by job id). Job 5 does not fit n1's one free core: `short` fails and its
/// node n1 leaves the pass's available nodes. Job 3 then fits only n2 (on n1 best fit
/// would take n1's last core), and job 4 no longer fits n2: the main scheduler starts job 3
/// alone, as the log did. Breaking at job 5 (one partition's rule) started nothing; going
/// on without taking n1 out started 3 and 4. `bf_max_job_test=1`: backfill tests job 5
/// only, so the starts are the main scheduler's.
#[test]
fn a_job_that_does_not_fit_blocks_its_partitions_nodes_and_the_pass_goes_on() {
    let cluster = "1/n[1-2]:c4:m1/p=batch:ALL:default/p=short:n1:r2";
    let set = read("tiers.sacct", TIERS_LOG, cluster.into());
    let ds = decisions(&set, TIERS_LOG, "slurm[bf_max_job_test=1]");
    let at100 = ds.iter().find(|d| d.time == 100).unwrap();
    assert_eq!(at100.waiting, [2, 3, 4], "{at100:?}");
    assert_eq!(
        (&at100.recorded[..], &at100.model[..]),
        (&[2][..], &[2][..])
    );
    // With one tier (short at PriorityTier=1) job 5 comes last: 3 starts on n1's free core
    // (best fit), 4 on n2, and 5 does not fit.
    let flat = cluster.replace(":r2", "");
    let set = read("flat.sacct", TIERS_LOG, flat);
    let ds = decisions(&set, TIERS_LOG, "slurm[bf_max_job_test=1]");
    let at100 = ds.iter().find(|d| d.time == 100).unwrap();
    assert_eq!(at100.model, [2, 3], "{at100:?}");
}

/// One node of 4 cores, two users (one share each under root). Job 1 (ann, 2 cores) runs
/// 0-60 and is killed at its limit at 60; job 2 (bob, 1 core) runs 0-300. Jobs 3 (ann) and 4
/// (bob), 2 cores each, wait from 10; at 60 only one of them fits the 3 cores left.
pub(super) const SIDES_LOG: &str = "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|00:01:00|00:01:00|2|1|n1|TIMEOUT
2|bob|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:05:00|00:05:00|00:10:00|1|1|n1|COMPLETED
3|ann|2024-01-01T00:00:10|2024-01-01T00:02:00|2024-01-01T00:02:10|00:00:10|00:01:00|2|1|n1|COMPLETED
4|bob|2024-01-01T00:00:10|2024-01-01T00:01:00|2024-01-01T00:02:00|00:01:00|00:02:00|2|1|n1|COMPLETED
";

/// Worked by hand (priority_multifactor.c `_decay_thread`; `calc_early`): periods every
/// minute from 0, no decay, Fair Tree weight 1000. Run early in its second (before the kill
/// of job 1), the period at 60 counts ann's 2 cores for 60 s (120) and bob's 1 core (60):
/// LevelFS 0.5 / (120/180) = 0.75 for ann, 1.5 for bob, so bob ranks first (factor 1,
/// priority 1000; ann 500) and the pass at 60 starts job 4, as the log did. Run late (after
/// the kill), the period has not run at the pass, which keeps the priorities of the period
/// at 0 (no usage, a tie: job 3 first, by job id). `calc_early` says the side per period,
/// whatever `calc_phase`'s fraction says: (60) makes the period at 60 early under a late
/// phase, a list without 60 makes it late under a whole one.
#[test]
fn calc_early_puts_a_period_before_the_kills_of_its_second() {
    for (keys, started) in [
        ("calc_phase=0", 4),
        ("calc_phase=0.5", 3),
        ("calc_phase=0.5,calc_early=60", 4),
        ("calc_phase=0.5,calc_early=(0,60,120)", 4),
        ("calc_phase=0,calc_early=(0,120)", 3),
    ] {
        let at60 = end_sides::fairshare_decision(SIDES_LOG, keys, 60, None);
        assert_eq!(at60.recorded, [3], "{keys}");
        assert_eq!(at60.model, [started - 1], "{keys}: {at60:?}");
    }
}

#[test]
fn bad_inputs_are_errors_naming_what_is_wrong() {
    let set = small();
    let bad = LOG.replace("|2|1|n1|", "|2|1|n[1-|");
    let e = recorded::Logged::from_sacct(&bad, "log", &set.jobs).unwrap_err();
    assert!(e.starts_with("log:3: NodeList: \"n[1-\""), "{e}");
    let e = recorded::Logged::from_sacct(&LOG.replace("|2|1|n1|", "|2|1|n9|"), "log", &set.jobs)
        .map(|l| Replay::new(&set, l).err())
        .unwrap()
        .unwrap();
    assert!(
        e.starts_with("job 2: NodeList: node n9 is not a node of the cluster: a replay holds")
            && e.ends_with("give the slurm.conf (or --cluster) of the cluster the log ran on"),
        "{e}"
    );
    // An SWF trace without recorded waits (field 3 = -1) cannot be replayed.
    let swf = "1 0 -1 10 1 -1 -1 1 20 -1 1 1 -1 -1 -1 -1 -1 -1\n";
    let set = read("t.swf", swf, "1/n1:c5:m1/p=batch:ALL:default".into());
    let e = Replay::new(&set, recorded::Logged::empty(&set.jobs))
        .err()
        .unwrap();
    assert!(e.contains("line 1 (job 1) has no recorded start"), "{e}");
}
