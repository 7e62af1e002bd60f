//! The minutes limits' arithmetic worked by hand.

use super::*;

/// A 2-minute job (120 s) started at 10, periods every 60 s. Before any period after its
/// start it holds its whole 120 s (times UsageFactor 1); after the period at 60, 120 - 50 =
/// 70; after 120, 70 - 60 = 10; once a period passed its end (130) nothing. With
/// UsageFactor 0.5: 60 at its start, less ⌊50 · 0.5⌋ = 25 at 60 (35), less 30 at 120 (5).
/// With 2: 240, less 100 (140), less 120 (20). A job without a limit holds Slurm's
/// INFINITE minutes (0xfffffffe · 60 s).
#[test]
fn a_running_job_holds_what_is_left_of_its_limit() {
    let left = |f, last| run_secs_left(10, Some(120), f, last, 60);
    assert_eq!(left(1.0, None), 120);
    assert_eq!(left(1.0, Some(0)), 120);
    assert_eq!(left(1.0, Some(60)), 70);
    assert_eq!(left(1.0, Some(120)), 10);
    assert_eq!(left(1.0, Some(180)), 0);
    assert_eq!(left(0.5, None), 60);
    assert_eq!(left(0.5, Some(60)), 35);
    assert_eq!(left(0.5, Some(120)), 5);
    assert_eq!(left(2.0, Some(60)), 140);
    assert_eq!(left(2.0, Some(120)), 20);
    assert_eq!(left(0.0, Some(60)), 0);
    assert_eq!(run_secs_left(0, None, 1.0, None, 60), 0xffff_fffe * 60);
}

/// A job of 8 CPUs and a 3-minute limit asks 24 CPU-minutes (and 3 node-minutes on one
/// node); without a limit, INFINITE minutes.
#[test]
fn a_jobs_minutes_are_its_limit_times_its_tres() {
    assert_eq!(job_mins(Some(180), &[8, 0, 1, 0]), [24, 0, 3, 0]);
    assert_eq!(job_mins(None, &[2, 0, 0, 0])[0], 2 * 0xffff_fffe);
}

/// GrpTRESMins=cpu=50: held when the usage is 50 or more (not 49), for a job asking CPUs.
/// GrpTRESRunMins=cpu=100: a job of 24 minutes with 76 running is not held (100), with 77
/// it is (101); one of 101 is held with nothing running. MaxTRESMins=cpu=24: 24 passes, 25
/// does not. A QOS limit on cpu takes the association's away.
#[test]
fn the_checks_hold_at_their_bounds() {
    let cpu = |n| [Some(n), None, None, None];
    let jm = [24, 0, 3, 0];
    assert!(used_over(&cpu(50), &jm, &[50, 0, 0, 0]).is_some());
    assert!(used_over(&cpu(50), &jm, &[49, 0, 0, 0]).is_none());
    assert!(used_over(&cpu(50), &[0, 0, 3, 0], &[80, 0, 0, 0]).is_none());
    assert!(run_over(&cpu(100), &jm, &[76, 0, 0, 0]).is_none());
    assert!(run_over(&cpu(100), &jm, &[77, 0, 0, 0]).is_some());
    assert!(run_over(&cpu(100), &[101, 0, 0, 0], &[0; 4]).is_some());
    assert_eq!(max_over(&cpu(24), &jm), None);
    assert_eq!(max_over(&cpu(24), &[25, 0, 0, 0]), Some((0, 24)));
    assert_eq!(without(&cpu(24), &cpu(64)), [None; 4]);
    assert_eq!(without(&cpu(24), &[None; 4]), cpu(24));
}
