//! The phases of made-up logs, each worked out by hand.

use super::*;

/// Starts by backfill at 23, 7 and 12 s, `bf_interval=5`: the first is 7, on 2 + 5k.
/// Two grids (2, 7, 12, then 31, 36 after a quiet spell): the first, 2. None: no grid.
#[test]
fn bf_phase_is_the_first_backfill_starts_grid() {
    assert_eq!(bf_phase(&[23, 7, 12], 5), Some(2));
    assert_eq!(bf_phase(&[2, 7, 12, 31, 36], 5), Some(2));
    assert_eq!(bf_phase(&[], 5), None);
    // A zero interval (not a valid bf_interval) gives 0, not a panic.
    assert_eq!(bf_phase(&[7], 0), Some(0));
}

/// Ends of jobs that ran their limit:
/// - 86, 146, 176, 567: 86 is 26 past a half minute, as 146 and 176: 26 (567, on 27, drifted).
/// - 172, 176, 266: 172 is on 22 and no later end is; 176 is on 26, as 266: 26.
/// - 87, 117, 388, 418: 27 (the later 28 is the drift).
/// - one end at 100: 10; 31 and 62, no grid shared: the first, 1; none: None.
#[test]
fn check_phase_is_the_first_grid_two_ends_share() {
    assert_eq!(check_phase(&[86, 146, 176, 567]), Some(26));
    assert_eq!(check_phase(&[266, 172, 176]), Some(26));
    assert_eq!(check_phase(&[87, 117, 388, 418]), Some(27));
    assert_eq!(check_phase(&[100]), Some(10));
    assert_eq!(check_phase(&[31, 62]), Some(1));
    assert_eq!(check_phase(&[]), None);
}

/// Checks on 26 + 30k: full runs every 10 s on 6 + 10k; every 60 s, on 26 + 60k (or 56: the
/// log cannot say, 26 is given).
#[test]
fn sched_phase_follows_the_checks() {
    assert_eq!(sched_phase(26, 10), 6);
    assert_eq!(sched_phase(26, 60), 26);
    assert_eq!(sched_phase(26, 0), 0);
}

/// The made-up log of the two tests below, with its parameters.
fn a_log() -> (LogClocks, SlurmParams) {
    let clocks = LogClocks {
        backfill_starts: vec![7, 12],
        limit_ends: vec![(86, 0), (146, 3)],
        calc_phase: None,
        calc_unread: None,
    };
    let mut p = SlurmParams::default();
    for (k, v) in [
        ("bf_interval", "5"),
        ("sched_interval", "10"),
        ("OverTimeLimit", "0"),
    ] {
        p.set(k, v).unwrap();
    }
    (clocks, p)
}

/// The clocks of a log: backfill starts at 7 and 12, jobs past their limit ending at 86 (0 s
/// past) and 146 (3 s past). `bf_interval=5`, `sched_interval=10`, `OverTimeLimit=0`:
/// bf_phase 2, sched_phase 6 (26 mod 10; no calc_phase: its half minute is not in the log).
/// With `OverTimeLimit` of a minute no end ran past it: only bf_phase. A log without either:
/// nothing.
#[test]
fn phases_of_a_log() {
    let (clocks, mut p) = a_log();
    let two = |b: &str, s: &str| vec![("bf_phase", b.to_string()), ("sched_phase", s.to_string())];
    assert_eq!(clocks.phases(&p), two("2", "6"));
    p.set("OverTimeLimit", "1").unwrap();
    assert_eq!(clocks.phases(&p), [("bf_phase", "2".to_string())]);
    assert!(LogClocks::default().phases(&p).is_empty());
}

/// The note of the log above: both phases with their evidence, and calc_phase's second
/// (checks on 26 + 30k: 26 or 56 for a minute's period), not read.
#[test]
fn the_note_says_what_is_read_and_what_is_not() {
    let (clocks, p) = a_log();
    let note = clocks.note(&p);
    assert!(
        note.contains("bf_phase=2 (the first of its 2 SchedBackfill starts), sched_phase=6 "),
        "{note}"
    );
    assert!(
        note.contains("at 26 + 30k (e.g. calc_phase=26 or 56 "),
        "{note}"
    );
    let none = LogClocks::default().note(&p);
    assert!(
        none.ends_with("the log shows no backfill start nor a job ended at its limit"),
        "{none}"
    );
}

/// The log above with `calc_phase` read by a replay (`with_calc_phase`): it comes first among
/// the phases, the note gives it with its evidence and no longer says it is not read.
#[test]
fn a_calc_phase_read_elsewhere_is_a_phase_with_its_evidence() {
    let (clocks, p) = a_log();
    let read = clocks.with_calc_phase("56.5".into(), "the priorities".into());
    let phases = read.phases(&p);
    assert_eq!(phases[0], ("calc_phase", "56.5".to_string()));
    assert_eq!(phases.len(), 3);
    let note = read.note(&p);
    assert!(
        note.contains(": calc_phase=56.5 (the priorities), bf_phase=2 "),
        "{note}"
    );
    assert!(!note.contains("not read"), "{note}");
}
