//! Slurm's parameters read as Slurm reads them: units and defaults, `calc_phase`'s fraction,
//! the loops' timing keys, slurm.conf's SchedulerParameters split into pairs.

use super::*;

#[test]
fn slurm_units_and_defaults() {
    let mut p = SlurmParams::default();
    assert_eq!(
        p.set("PriorityDecayHalfLife", "0-0:10").unwrap(),
        "00:10:00"
    );
    assert_eq!(p.decay_half_life, 600);
    assert_eq!(p.set("PriorityCalcPeriod", "1").unwrap(), "00:01:00");
    assert_eq!(p.calc_period, 60);
    assert_eq!(p.set("bf_window", "2").unwrap(), "2");
    assert_eq!(p.bf_window, 120);
    assert_eq!(
        p.set("PriorityWeightTRES", "CPU=1000,GRES/gpu=4000")
            .unwrap(),
        "(CPU=1000,GRES/gpu=4000)"
    );
    assert_eq!(
        p.set("PriorityFlags", "(no_fair_tree)").unwrap(),
        "NO_FAIR_TREE"
    );
    assert!(!p.fair_tree);
    assert!(p.set("PriorityFlags", "FAIR").is_err());
    // FAIR_TREE, a slurm.conf's from before 19.05, is the default: no flag, Fair Tree on
    // (read_config.c sets it first); it was refused as an unknown flag.
    assert_eq!(
        p.set("PriorityFlags", "FAIR_TREE,SMALL_RELATIVE_TO_TIME")
            .unwrap(),
        "SMALL_RELATIVE_TO_TIME"
    );
    assert!(p.fair_tree && p.small_relative_to_time);
    assert_eq!(p.set("PriorityFlags", "Fair_Tree").unwrap(), "none");
    assert!(p.fair_tree);
    let e = p.set("PriorityFlags", "DEPTH_OBLIVIOUS").unwrap_err();
    assert!(e.contains("not modelled"), "{e}");
    assert!(p.set("bf_resolution", "0").is_err());
    assert!(p.set("Nope", "1").is_err());
}

/// `calc_phase` takes whole seconds, and a fraction for a period late in its second, or `read`.
#[test]
fn calc_phase_takes_a_fraction_for_late_in_the_second() {
    let mut p = SlurmParams::default();
    assert_eq!(p.set("calc_phase", "58").unwrap(), "58");
    assert_eq!((p.calc_phase, p.calc_late), (58, false));
    assert_eq!(p.set("calc_phase", "58.50").unwrap(), "58.5");
    assert_eq!((p.calc_phase, p.calc_late), (58, true));
    assert_eq!(p.set("calc_phase", "7.0").unwrap(), "7");
    assert_eq!((p.calc_phase, p.calc_late), (7, false));
    // `read`: a replay reads it from the log (`replay::prio_phase`); the model runs 0 else.
    assert_eq!(p.set("calc_phase", "READ").unwrap(), "read");
    assert_eq!((p.calc_phase, p.calc_late), (0, false));
    assert!(p.set("calc_phase", "58.x").is_err());
    assert!(p.set("calc_phase", "-1").is_err());
}

/// `calc_early` takes `none` or seconds, one bare or several in parentheses, written back
/// sorted without repeats.
#[test]
fn calc_early_takes_a_list_of_seconds() {
    let mut p = SlurmParams::default();
    assert_eq!(p.calc_early, None);
    assert_eq!(p.set("calc_early", "113").unwrap(), "113");
    assert_eq!(p.calc_early, Some(vec![113]));
    assert_eq!(
        p.set("calc_early", "(353, 53,113,53)").unwrap(),
        "(53,113,353)"
    );
    assert_eq!(p.calc_early, Some(vec![53, 113, 353]));
    assert_eq!(p.set("calc_early", "none").unwrap(), "none");
    assert_eq!(p.calc_early, None);
    assert!(p.set("calc_early", "(53,x)").is_err());
    assert!(p.set("calc_early", "-1").is_err());
}

/// `calc_early_bf` takes the same lists; worked by hand, the sides of a period at 58 and at
/// 118 under `calc_phase=58.5` (every period late) with `calc_early=58`: (main scheduler,
/// backfill cycle) early at 58, late at 118; `calc_early_bf=118` makes 58's cycle late and
/// 118's early, and `none` gives the cycle the main scheduler's sides again.
#[test]
fn calc_early_bf_gives_the_backfill_cycles_side_of_each_period() {
    let mut p = SlurmParams::default();
    p.set("calc_phase", "58.5").unwrap();
    p.set("calc_early", "58").unwrap();
    assert_eq!(p.period_sides(58), (true, true));
    assert_eq!(p.period_sides(118), (false, false));
    assert_eq!(p.set("calc_early_bf", "(118)").unwrap(), "118");
    assert_eq!(p.period_sides(58), (true, false));
    assert_eq!(p.period_sides(118), (false, true));
    assert_eq!(p.set("calc_early_bf", "none").unwrap(), "none");
    assert_eq!(p.period_sides(118), (false, false));
    assert!(p.set("calc_early_bf", "(x)").is_err());
}

/// `batch_sched_delay` and `sched_phase` take whole seconds; `bf_phase` also `none`.
#[test]
fn loop_timing_keys() {
    let mut p = SlurmParams::default();
    assert_eq!(p.batch_sched_delay, 3);
    assert_eq!(p.set("batch_sched_delay", "0").unwrap(), "0");
    assert_eq!(p.batch_sched_delay, 0);
    assert!(p.set("batch_sched_delay", "-1").is_err());
    assert_eq!(p.set("sched_phase", "9").unwrap(), "9");
    assert_eq!(p.sched_phase, 9);
    assert_eq!(p.set("bf_phase", "4").unwrap(), "4");
    assert_eq!(p.bf_phase, Some(4));
    assert_eq!(p.set("bf_phase", "none").unwrap(), "none");
    assert_eq!(p.bf_phase, None);
    assert!(p.set("bf_phase", "x").is_err());
}

/// `KillWait` (seconds) and `OverTimeLimit` (minutes or UNLIMITED), read from slurm.conf:
/// the will-run test's guess at a late job's end is their sum after its planned end.
#[test]
fn kill_wait_and_over_time_limit() {
    let mut p = SlurmParams::default();
    assert_eq!(p.late_end_grace(), Some(30));
    assert_eq!(p.set("KillWait", "5").unwrap(), "5");
    assert_eq!(p.set("OverTimeLimit", "2").unwrap(), "2");
    assert_eq!(p.late_end_grace(), Some(5 + 120));
    assert_eq!(p.set("OverTimeLimit", "infinite").unwrap(), "UNLIMITED");
    assert_eq!(p.late_end_grace(), None);
    assert!(p.set("KillWait", "-1").is_err());
    assert!(p.set("OverTimeLimit", "1:00").is_err());
    let conf = [("KillWait", "5"), ("overtimelimit", "0")];
    assert_eq!(
        conf_pairs(conf.iter().copied()),
        vec![
            ("KillWait", "5".to_string()),
            ("OverTimeLimit", "0".to_string())
        ]
    );
}

/// A time written with a unit Slurm does not read (`bf_window=2h`) is refused with the unit
/// the key counts in: minutes for `bf_window` and `OverTimeLimit`, seconds for the loops'.
#[test]
fn a_times_error_names_its_unit() {
    let mut p = SlurmParams::default();
    let err = |p: &mut SlurmParams, k: &str, v: &str| p.set(k, v).unwrap_err();
    assert_eq!(
        err(&mut p, "bf_window", "2h"),
        "\"2h\" is not a whole number from 1 to 43200 (minutes)"
    );
    assert!(err(&mut p, "bf_interval", "30s").ends_with("(seconds)"));
    assert!(err(&mut p, "OverTimeLimit", "1h").ends_with("(minutes)"));
    assert!(err(&mut p, "bf_max_job_test", "x").ends_with("to 1000000"));
}

/// The five priority weights are whole numbers, as Slurm reads them (`S_P_UINT32`: a `k`
/// suffix times 1024, at most 4294967295); a fraction is refused naming the value (it was
/// taken: `PriorityWeightAge=1.5` gave priorities no Slurm computes). PriorityWeightTRES's
/// weights are Slurm's doubles and take one.
#[test]
fn priority_weights_are_whole_numbers() {
    let mut p = SlurmParams::default();
    for key in WHOLE_WEIGHTS {
        assert_eq!(p.set(key, "1000").unwrap(), "1000", "{key}");
        assert_eq!(p.set(key, "2k").unwrap(), "2048", "{key}");
        assert_eq!(p.set(key, "4294967295").unwrap(), "4294967295", "{key}");
        let e = p.set(key, "1.5").unwrap_err();
        assert_eq!(
            e, "\"1.5\" is not a weight >= 0: Slurm's priority weights are whole numbers from 0 to 4294967295",
            "{key}"
        );
        for bad in ["4294967296", "-1", "1e3", "lots", "", "5M"] {
            let e = p.set(key, bad).unwrap_err();
            assert!(e.contains("is not a weight >= 0"), "{key}={bad}: {e}");
        }
    }
    assert_eq!(p.weight_age, 4294967295.0);
    assert_eq!(
        p.set("PriorityWeightTRES", "CPU=0.5,GRES/gpu=4000")
            .unwrap(),
        "(CPU=0.5,GRES/gpu=4000)"
    );
}
