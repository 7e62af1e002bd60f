//! The backfill thread's clock over a whole run, against every committed debug log (docs/slurm.md
//! "When a cycle runs", "Over a long run"; docs/slurm-runs.md "The loops' drift over a long
//! run"; `scripts/slurm-loop-drift.py` prints the figures per run). `backfill_agent`
//! (backfill.c 1039-1044, 22.05.8) sleeps `bf_interval` from the moment a cycle ends
//! (`_my_sleep`, 651-674, a timed wait from its call), so the next cycle begins `bf_interval`
//! after the last one's end, never on a fixed period from its start: each cycle's length
//! carries the grid later, which is why a fixed `bf_phase` cannot follow a long run.

use std::path::Path;

/// Milliseconds since 1970-01-01 of a line stamped `[YYYY-MM-DDTHH:MM:SS.mmm]` (the
/// controller's local time; only differences are read here), or `None`.
fn ms_of(line: &str) -> Option<i64> {
    let s = line.strip_prefix('[')?.get(..23)?;
    let num = |a: usize, b: usize| s.get(a..b)?.parse::<i64>().ok();
    let (y, m, d) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (hh, mm, ss, ms) = (num(11, 13)?, num(14, 16)?, num(17, 19)?, num(20, 23)?);
    // Days from the civil date (March-based years, so February ends each year).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    Some(((days * 24 + hh) * 60 + mm) * 60_000 + ss * 1000 + ms)
}

/// Each backfill cycle of a debug log: when it began (`_attempt_backfill: beginning`) and
/// when it ended (`completed testing N(M) jobs` or `no jobs to backfill`), milliseconds.
fn cycles(text: &str) -> Vec<(i64, Option<i64>)> {
    let mut out: Vec<(i64, Option<i64>)> = Vec::new();
    for l in text.lines() {
        let Some(t) = ms_of(l) else { continue };
        if l.contains("_attempt_backfill: beginning") {
            out.push((t, None));
        } else if l.contains("_attempt_backfill: completed testing")
            || l.contains("_attempt_backfill: no jobs to backfill")
        {
            if let Some(c) = out.last_mut().filter(|c| c.1.is_none()) {
                c.1 = Some(t);
            }
        }
    }
    out
}

/// On every committed debug log (30 runs, all at `bf_interval=5`), each cycle that follows
/// the one before within `bf_interval` + 1 s (the thread found a change at its first look)
/// begins at least `bf_interval` after that cycle's logged end: 5,714 such gaps, none
/// shorter. A fixed period from the cycles' starts would instead put the next beginning
/// exactly `bf_interval` after the last one's, also after a cycle of 2 ms or more; no such
/// gap is there (of 3,025 such cycles). Checked: the runs and gaps are all read (a log
/// that lost its cycles fails), the rule holds on each, and the fixed period is never seen.
#[test]
fn each_cycle_begins_bf_interval_after_the_last_ones_end() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm");
    let (mut runs, mut gaps, mut long, mut on_period) = (0, 0, 0, 0);
    let mut workloads: Vec<_> = std::fs::read_dir(&root).unwrap().flatten().collect();
    workloads.sort_by_key(|e| e.path());
    for w in workloads.iter().filter(|e| e.path().is_dir()) {
        let mut dirs: Vec<_> = std::fs::read_dir(w.path()).unwrap().flatten().collect();
        dirs.sort_by_key(|e| e.path());
        for run in dirs {
            let log = run.path().join("slurmctld.log.gz");
            if !log.exists() {
                continue;
            }
            let conf = std::fs::read_to_string(run.path().join("slurm.conf")).unwrap();
            // `SchedulerParameters=bf_interval=5,...` (every committed run gives it).
            let bf: i64 = conf
                .split("bf_interval=")
                .nth(1)
                .and_then(|v| v.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
                .expect("bf_interval in slurm.conf");
            let text =
                schedlab::replay::recorded::debug_log_text(&std::fs::read(&log).unwrap()).unwrap();
            let cs = cycles(&text);
            let (mut n, mut least) = (0, i64::MAX);
            for (a, b) in cs.iter().zip(&cs[1..]) {
                let Some(end) = a.1 else { continue };
                if b.0 - a.0 >= (bf + 1) * 1000 {
                    continue; // looks that found nothing changed came between
                }
                n += 1;
                least = least.min(b.0 - end - bf * 1000);
                if end - a.0 >= 2 {
                    long += 1;
                    on_period += usize::from(b.0 - a.0 == bf * 1000);
                }
            }
            let name = run
                .path()
                .strip_prefix(&root)
                .unwrap()
                .display()
                .to_string();
            println!(
                "{name:<20} {n:>4} gaps on the grid; least past the end + bf_interval: {least} ms"
            );
            assert!(n >= 50, "{name}: {n} gaps");
            assert!(
                least >= 0,
                "{name}: a cycle began {least} ms before bf_interval past the last end"
            );
            runs += 1;
            gaps += n;
        }
    }
    println!("{runs} runs, {gaps} gaps; {long} cycles of 2 ms or more, {on_period} followed on a fixed period");
    assert!(runs >= 30, "{runs} debug logs");
    assert!(gaps >= 5000, "{gaps} gaps");
    assert!(long >= 1000, "{long} long cycles");
    assert_eq!(on_period, 0);
}
