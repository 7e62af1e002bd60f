//! Each priority period's side of its second (the `slurm` policy's `calc_early`), measured
//! from a run's `squeue.log`, which samples every job's priority every ~10 s: for each
//! period second P the model's priorities of the jobs squeue shows pending in its first
//! sample after P (with a pending job, before the next period) are computed on the recorded
//! history with P early in its second and with P late, the earlier periods at the sides
//! measured before them; the side whose priorities are all the logged ones is P's, none when
//! both or neither are (docs/slurm-runs.md, "The periods' sides from squeue"). Checked against
//! the sides the four debug logs time (scripts/slurm-period-sides.py), and the sides `PHASES`
//! replays against those measured.

use super::by_hand::SIDES_LOG;
use super::{committed_runs, load_run, read, replay_of, Run, PHASES};
use schedlab::replay::{recorded, Replay};
use schedlab::slurm::Site;
use schedlab::Time;

/// A period's side of its second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    /// Before its second's ends and passes.
    Early,
    /// After them.
    Late,
    /// Both sides give the logged priorities, or neither does, or no job was pending.
    Undecided,
}

/// What one period's measurement found.
#[derive(Debug, Clone, Copy)]
struct Measured {
    /// The period's second.
    period: Time,
    /// The sample read (0 when none).
    sample: Time,
    /// Jobs pending in it.
    pending: usize,
    /// Of them, the model's priority equals the logged one: with the period early, late.
    early: usize,
    late: usize,
    side: Side,
}

/// One squeue sample: its time (seconds of the log's clock) and the pending jobs with their
/// logged priorities, by job index.
pub(super) type Sample = (Time, Vec<(usize, f64)>);

/// The pending jobs of `squeue.log` (`epoch|jobid|name|state|priority|reason`) per sample,
/// at `epoch - clock`; jobs `ids` does not name are left out.
pub(super) fn samples(text: &str, clock: Time, ids: &[String]) -> Vec<Sample> {
    let mut out: Vec<Sample> = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split('|').collect();
        let (Some(epoch), Some(&id), Some(&state), Some(prio)) = (
            f.first().and_then(|v| v.parse::<Time>().ok()),
            f.get(1),
            f.get(3),
            f.get(4).and_then(|v| v.parse::<f64>().ok()),
        ) else {
            continue;
        };
        let t = epoch - clock;
        if out.last().is_none_or(|s| s.0 != t) {
            out.push((t, Vec::new()));
        }
        if state == "PENDING" {
            if let Some(j) = ids.iter().position(|x| x == id) {
                out.last_mut().unwrap().1.push((j, prio));
            }
        }
    }
    out
}

/// Periods left open at once at most (each doubles the sides tried).
const OPEN: usize = 4;

/// The periods' sides of a replay at period second `second` (modulo `PriorityCalcPeriod`,
/// `period` s), from `samples`; `ends` are the jobs' recorded ends, `keys` spec keys beyond
/// the site's. Only a period with an end in its second can have a side the priorities show
/// (the job's last part is counted in it early, never late); a period that stays open (both
/// sides give the sample's priorities) is tried both ways again at the next periods' samples,
/// with up to [`OPEN`] such periods, and takes the side all the sides that give a later
/// sample's priorities share, if they share one; a period that leaves the open set
/// undecided is taken late.
fn measure(
    replay: &Replay,
    site: &Site,
    keys: &str,
    (second, period): (Time, Time),
    ends: &[Time],
    samples: &[Sample],
) -> Vec<Measured> {
    let last = samples.last().map_or(0, |s| s.0);
    let mut early: Vec<Time> = Vec::new();
    let mut open: Vec<Time> = Vec::new();
    let mut out: Vec<Measured> = Vec::new();
    let mut p = second;
    while p < last {
        let next = samples
            .iter()
            .find(|s| s.0 > p && s.0 < p + period && !s.1.is_empty());
        let matters = ends.contains(&p);
        out.push(Measured {
            period: p,
            sample: 0,
            pending: 0,
            early: 0,
            late: 0,
            side: Side::Undecided,
        });
        let mut tried = open.clone();
        if matters {
            tried.push(p);
        }
        if let (Some((t, jobs)), false) = (next, tried.is_empty()) {
            // Every assignment of sides to the tried periods (bit k: tried[k] early), with
            // how many of the sample's priorities it gives.
            let agree: Vec<(usize, usize)> = (0..1usize << tried.len())
                .map(|bits| {
                    let mut list = early.clone();
                    list.extend(
                        (0..tried.len())
                            .filter(|k| bits >> k & 1 == 1)
                            .map(|k| tried[k]),
                    );
                    list.sort_unstable();
                    let sides = if list.is_empty() {
                        String::new()
                    } else {
                        let l: Vec<String> = list.iter().map(Time::to_string).collect();
                        format!(",calc_early=({})", l.join(","))
                    };
                    let spec = format!("slurm[{keys}calc_phase={second}.5{sides}]");
                    let (mut policy, shared) =
                        schedlab::policy::slurm::build_sharing(&spec, site).unwrap();
                    replay.follow_to(*t, policy.as_mut(), 1).unwrap();
                    let st = shared.borrow();
                    let n = jobs.iter().filter(|&&(j, v)| st.priority(j) == v).count();
                    (bits, n)
                })
                .collect();
            let full: Vec<usize> = agree
                .iter()
                .filter(|a| a.1 == jobs.len())
                .map(|a| a.0)
                .collect();
            let mut resolved = Vec::new();
            for (k, &q) in tried.iter().enumerate() {
                let sides: Vec<bool> = full.iter().map(|b| b >> k & 1 == 1).collect();
                let side = match sides.first() {
                    Some(&e) if sides.iter().all(|&x| x == e) => {
                        if e {
                            Side::Early
                        } else {
                            Side::Late
                        }
                    }
                    _ => continue,
                };
                let m = out.iter_mut().find(|m| m.period == q).unwrap();
                let best = |e: bool| {
                    agree
                        .iter()
                        .filter(|a| (a.0 >> k & 1 == 1) == e)
                        .map(|a| a.1)
                        .max()
                        .unwrap_or(0)
                };
                (m.sample, m.pending, m.early, m.late, m.side) =
                    (*t, jobs.len(), best(true), best(false), side);
                resolved.push(q);
                if side == Side::Early {
                    early.push(q);
                }
            }
            open = tried
                .into_iter()
                .filter(|q| !resolved.contains(q))
                .collect();
        } else if matters {
            open.push(p);
        }
        if open.len() > OPEN {
            open.remove(0);
        }
        p += period;
    }
    out
}

/// The measured sides of a committed run (`tests/data/slurm/NAME`) at period second `second`.
fn measure_run(run: &Run, second: Time) -> Vec<Measured> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slurm")
        .join(&run.name);
    let text = std::fs::read_to_string(dir.join("squeue.log")).unwrap();
    let replay = replay_of(run);
    let got = samples(&text, run.site.clock, &run.set.log_id_list());
    let ends: Vec<Time> = (0..run.set.jobs.len())
        .map(|j| replay.starts[j] + run.set.jobs[j].trace_runtime)
        .collect();
    measure(&replay, &run.site, "", (second, 60), &ends, &got)
}

fn print(name: &str, ms: &[Measured]) {
    let show: Vec<String> = ms
        .iter()
        .map(|m| match m.side {
            Side::Early => format!(
                "{} early ({}: {}/{} early, {}/{} late)",
                m.period, m.sample, m.early, m.pending, m.late, m.pending
            ),
            Side::Late => format!(
                "{} late ({}: {}/{} early, {}/{} late)",
                m.period, m.sample, m.early, m.pending, m.late, m.pending
            ),
            Side::Undecided => format!("{} ?", m.period),
        })
        .collect();
    println!("{name:<18} {}", show.join(", "));
}

/// The early periods measured (the `calc_early` list they give).
fn early_list(ms: &[Measured]) -> Vec<Time> {
    ms.iter()
        .filter(|m| m.side == Side::Early)
        .map(|m| m.period)
        .collect()
}

/// Worked by hand on [`SIDES_LOG`] (as `calc_early_puts_a_period_before_the_kills_of_its_second`):
/// job 3 (ann) waits from 10 to 120. With the period at 60 early (before job 1's kill) ann's
/// 2 cores for 60 s count, bob's 1 core too: bob ranks first, ann's factor 0.5, job 3's
/// priority 500; late, job 1's last minute is never counted (no `limits`): ann has no usage,
/// bob 60, ann first, job 3 at 1000. A sample at 70 showing 500 says early, 1000 late, any
/// other priority neither. The period at 0 has no end in its second: no side to measure.
#[test]
fn a_period_whose_logged_priorities_one_side_gives_is_on_that_side() {
    let set = read(
        "sides.sacct",
        SIDES_LOG,
        "1/n1:c4:m1/p=batch:ALL:default".into(),
    );
    let logged = recorded::Logged::from_sacct(SIDES_LOG, "log", &set.jobs).unwrap();
    let replay = Replay::new(&set, logged).unwrap();
    let keys = "PriorityWeightFairshare=1000,PriorityCalcPeriod=1,PriorityDecayHalfLife=0,";
    let site = Site::default();
    for (prio, side) in [
        (500.0, Side::Early),
        (1000.0, Side::Late),
        (700.0, Side::Undecided),
    ] {
        let got = [(10, vec![(2, 1000.0)]), (70, vec![(2, prio)])];
        let ends = [60, 300, 130, 120];
        let ms = measure(&replay, &site, keys, (0, 60), &ends, &got);
        assert_eq!(ms.len(), 2, "{ms:?}");
        assert_eq!((ms[0].period, ms[0].side), (0, Side::Undecided), "{ms:?}");
        assert_eq!((ms[1].period, ms[1].side), (60, side), "{prio}: {ms:?}");
        let counts = match side {
            Side::Early => (70, 1, 0),
            Side::Late => (70, 0, 1),
            Side::Undecided => (0, 0, 0),
        };
        assert_eq!((ms[1].sample, ms[1].early, ms[1].late), counts, "{ms:?}");
    }
}

/// The sides scripts/slurm-period-sides.py reads from the four debug logs: (run, period
/// second, the early periods; every other period late).
const DEBUG_SIDES: [(&str, Time, &[Time]); 4] = [
    ("tiers-4/run1", 53, &[53, 113, 353, 413, 473, 533, 713, 773]),
    ("tiers-4/run2", 53, &[53, 113, 353, 413, 593, 653]),
    ("gpu-3/run3", 58, &[58, 118, 178, 238, 298, 358]),
    ("smallbf-2/run3", 59, &[59, 119, 359, 419]),
];

/// On the four runs with a debug log, every side squeue decides is the one the log times
/// (early: the period's fraction before the loop's first kill or full run of its second;
/// late: after it, or the loop idle then), and squeue decides some of each run's periods: 12
/// in all (3, 4, 4, 1).
#[test]
fn the_sides_squeue_decides_are_those_the_debug_logs_time() {
    let mut total = 0;
    for (name, second, early) in DEBUG_SIDES {
        let run = load_run(name, &format!("{second}.5"));
        let ms = measure_run(&run, second);
        print(name, &ms);
        let mut decided = 0;
        for m in ms.iter().filter(|m| m.side != Side::Undecided) {
            let want = if early.contains(&m.period) {
                Side::Early
            } else {
                Side::Late
            };
            decided += 1;
            assert_eq!(m.side, want, "{name} at {}: {m:?}", m.period);
        }
        assert!(decided >= 1, "{name}: {ms:?}");
        total += decided;
    }
    assert_eq!(total, 12);
}

/// The eight committed runs: the sides `PHASES` replays (its `calc_early`, else its
/// `calc_phase`'s fraction for every period) are those measured wherever squeue decides.
#[test]
fn the_replayed_sides_are_the_measured_ones() {
    for run in committed_runs() {
        let phase = PHASES.iter().find(|p| p.0 == run.name).unwrap().1;
        let second: Time = phase.split(['.', ',']).next().unwrap().parse().unwrap();
        let listed: Option<Vec<Time>> = phase.split_once("calc_early=(").map(|(_, l)| {
            l.split_once(')')
                .unwrap()
                .0
                .split(',')
                .map(|v| v.parse().unwrap())
                .collect()
        });
        let fraction = phase.split(',').next().unwrap().contains('.');
        let ms = measure_run(&run, second);
        print(&run.name, &ms);
        println!("{:<18} measured calc_early={:?}", run.name, early_list(&ms));
        for m in &ms {
            let replayed = match &listed {
                Some(l) if l.contains(&m.period) => Side::Early,
                Some(_) => Side::Late,
                None if fraction => Side::Late,
                None => Side::Early,
            };
            if m.side != Side::Undecided {
                assert_eq!(m.side, replayed, "{} at {}: {m:?}", run.name, m.period);
            }
        }
    }
}
