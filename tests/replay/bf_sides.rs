//! A priority period between its second's backfill cycle and its main scheduler
//! (`calc_early_bf`): Slurm's backfill thread wakes at its own fraction of a second, the
//! decay thread and the background loop at theirs, so a cycle may walk the queue in the order
//! before a period that the main scheduler of the same second sees, or after one it does not.

use super::read;
use schedlab::replay::{recorded, Replay};

/// One node of 4 cores, three users (one share each under root). Job 1 (ann, 2 cores) runs
/// 0-300, job 2 (bob, 1 core) 0-60. Job 3 (carl, 4 cores) waits from 5 for the whole node;
/// jobs 4 (ann) and 5 (bob), 2 cores and a minute each, wait from 10 and run 30 s.
const LOG: &str = "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|NNodes|NodeList|State
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:05:00|00:05:00|00:10:00|2|1|n1|COMPLETED
2|bob|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|00:01:00|00:10:00|1|1|n1|COMPLETED
3|carl|2024-01-01T00:00:05|2024-01-01T00:05:00|2024-01-01T00:06:00|00:01:00|00:01:00|4|1|n1|COMPLETED
4|ann|2024-01-01T00:00:10|2024-01-01T00:01:00|2024-01-01T00:01:30|00:00:30|00:01:00|2|1|n1|COMPLETED
5|bob|2024-01-01T00:00:10|2024-01-01T00:01:30|2024-01-01T00:02:00|00:00:30|00:01:00|2|1|n1|COMPLETED
";

/// Worked by hand (priority_multifactor.c `_decay_thread`, backfill.c `_attempt_backfill`):
/// periods every minute from 0, no decay, Fair Tree weight 1000, backfill cycles every 5 s
/// from 5 (job 3's submission). The period at 0 sees no usage: every priority ties, and the
/// queue is 3, 4, 5 by job id. The period at 60 counts ann's 2 cores for 60 s (120) and
/// bob's 1 core (60), carl none: 3, 5, 4. Until 60 one core is free: neither job 4 nor 5
/// fits, and job 3 (the whole node) waits for job 1's planned end, 600, past both runs
/// (it starts at 300, at job 1's end).
/// At 60 job 2 ends and two cores are free: the main scheduler stops at job 3, and the
/// cycle starts the first of jobs 4 and 5 in its order (60-90); the other starts at the
/// cycle at 90, when the first has ended.
/// - `calc_phase=0`: the period at 60 comes before both loops: job 5 at 60, job 4 at 90.
/// - `calc_phase=0,calc_early_bf=0`: it comes after the cycle at 60 (before the main
///   scheduler): the cycle walks 3, 4, 5: job 4 at 60, job 5 at 90.
/// - `calc_phase=0.5`: after both: job 4 at 60.
/// - `calc_phase=0.5,calc_early_bf=60`: after the main scheduler, before the cycle: job 5 at
///   60.
#[test]
fn a_period_after_its_seconds_backfill_cycle_leaves_the_cycle_the_order_before_it() {
    let set = read(
        "bf_sides.sacct",
        LOG,
        "1/n1:c4:m1/p=batch:ALL:default".into(),
    );
    let base =
        "PriorityWeightFairshare=1000,PriorityCalcPeriod=1,PriorityDecayHalfLife=0,bf_interval=5";
    let logged = recorded::Logged::from_sacct(LOG, "log", &set.jobs).unwrap();
    let replay = Replay::new(&set, logged).unwrap();
    for (keys, job4, job5) in [
        ("calc_phase=0", 90, 60),
        ("calc_phase=0,calc_early_bf=0", 60, 90),
        ("calc_phase=0.5", 60, 90),
        ("calc_phase=0.5,calc_early_bf=60", 90, 60),
    ] {
        let mut slurm = schedlab::policy::build(&format!("slurm[{base},{keys}]")).unwrap();
        let s = replay.simulate(slurm.as_mut(), 1).unwrap();
        let starts: Vec<_> = s.jobs.iter().map(|j| j.start).collect();
        assert_eq!(starts, [0, 0, 300, job4, job5], "{keys}");
    }
}
