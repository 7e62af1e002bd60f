//! Slurm's periodic time-limit checks in every front end's run (`run::simulate_set`): a
//! policy that models them (`slurm`) has a job that reaches its limit ended at the first
//! check at or after it, plus `OverTimeLimit`; any other kills it at its limit.

use schedlab::input::InputOptions;
use schedlab::metrics::MetricOptions;
use schedlab::run::Trace;
use schedlab::sim::{check::check, Outcome};
use schedlab::swf::{read_bytes, ReadOptions};

/// Four jobs of all 4 processors, limit 60 s each, no recorded start (wait -1): job 1 runs
/// 70 s, past its limit, failed (status 0: the kill at the requested time cuts it); job 2 10
/// s; job 3 exactly its 60 s, completed (status 1: it ended by itself at its limit); job 4 5 s.
const TRACE: &str = "\
; MaxProcs: 4
1 0 -1 70 4 -1 -1 4 60 -1 0 1 1 -1 -1 -1 -1 -1
2 1 -1 10 4 -1 -1 4 60 -1 1 2 1 -1 -1 -1 -1 -1
3 2 -1 60 4 -1 -1 4 60 -1 1 1 1 -1 -1 -1 -1 -1
4 3 -1 5 4 -1 -1 4 60 -1 1 2 1 -1 -1 -1 -1 -1
";

/// (start, end) of each job of `spec`'s run through `Trace::run` (the path of `schedlab run`,
/// `sweep` and the page), its schedule held to the invariant checker, and its outcomes.
fn run(spec: &str) -> (Vec<(i64, i64)>, Vec<Outcome>) {
    let w = read_bytes("checks.swf", TRACE.as_bytes(), &ReadOptions::default()).unwrap();
    let trace = Trace::new(w, &InputOptions::default(), MetricOptions::default()).unwrap();
    let r = trace.run(spec, 1, None).unwrap();
    check(&trace.jobs.jobs, &r.schedule).unwrap();
    let s = &r.schedule.jobs;
    (
        s.iter().map(|j| (j.start, j.end)).collect(),
        s.iter().map(|j| j.outcome).collect(),
    )
}

/// Worked by hand: checks every 30 s at 25 + 30k (`calc_phase=25`). Job 1 starts at 0 and
/// reaches its limit at 60; the first check at or after it is 85 (55 is before it): it is
/// killed at 85, not at 60. Each job takes the whole machine, so the others follow one by
/// one at each end: job 2 85-95; job 3 95-155 (its own end at its limit, 155, comes before
/// the check it would meet, 175: completed); job 4 155-160. With `OverTimeLimit=1` (a
/// minute) job 1 runs until the first check at or after 60 + 60 = 120: 145; then 145-155,
/// 155-215, 215-220. `easy` models no checks: job 1 is killed at 60 (0-60, 60-70, 70-130,
/// 130-135).
#[test]
fn a_job_reaching_its_limit_ends_at_the_next_check_in_a_run() {
    use Outcome::{Completed as C, Killed as K};
    let (ends, outcomes) = run("slurm[calc_phase=25]");
    assert_eq!(ends, [(0, 85), (85, 95), (95, 155), (155, 160)]);
    assert_eq!(outcomes, [K, C, C, C]);
    let (ends, _) = run("slurm[calc_phase=25,OverTimeLimit=1]");
    assert_eq!(ends, [(0, 145), (145, 155), (155, 215), (215, 220)]);
    let (ends, outcomes) = run("easy");
    assert_eq!(ends, [(0, 60), (60, 70), (70, 130), (130, 135)]);
    assert_eq!(outcomes, [K, C, C, C]);
}

/// With the kill at the requested time off (`--no-kill`) no limit ends a job, checks or not:
/// job 1 runs its 70 s under `slurm` too.
#[test]
fn without_the_kill_no_check_ends_a_job() {
    let w = read_bytes("checks.swf", TRACE.as_bytes(), &ReadOptions::default()).unwrap();
    let input = InputOptions {
        kill: false,
        ..InputOptions::default()
    };
    let trace = Trace::new(w, &input, MetricOptions::default()).unwrap();
    let r = trace.run("slurm[calc_phase=25]", 1, None).unwrap();
    check(&trace.jobs.jobs, &r.schedule).unwrap();
    assert_eq!((r.schedule.jobs[0].end, r.schedule.jobs[1].start), (70, 70));
}

/// An sacct log of two jobs of all 4 CPUs (its recorded peak: a machine of 4), limit 1
/// minute each: job 1 started at 0 and was ended by Slurm's check at 67 (`TIMEOUT`, 67 s);
/// job 2, submitted at 1, ran 67-77.
const TIMEOUT_LOG: &str = "\
JobID|User|Submit|Start|End|Elapsed|Timelimit|NCPUS|State
1|ann|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:07|00:01:07|00:01:00|4|TIMEOUT
2|bob|2024-01-01T00:00:01|2024-01-01T00:01:07|2024-01-01T00:01:17|00:00:10|00:01:00|4|COMPLETED
";

/// Worked by hand: a `TIMEOUT` job runs until its policy's own limit rule ends it, and is
/// killed there under every policy. `slurm[calc_phase=25]` (checks at 25 + 30k): job 1 starts
/// at 0, reaches its limit at 60, the first check at or after it is 85: killed at 85 (its
/// recorded end, 67, is where Slurm's own check caught it, on another grid; before, 67 came
/// before the model's check and job 1 "completed" there, failed by its status). Job 2 85-95.
/// `slurm[calc_phase=7]` (checks at 7 + 30k, the log's grid): 60 -> 67, job 2 67-77, the log
/// itself. `historic` (the recorded starts; no checks: killed at the limit): job 1 0-60,
/// job 2 at its recorded 67, 67-77. `easy`: 0-60, 60-70.
#[test]
fn a_timeout_job_is_killed_at_its_policys_limit_rule() {
    use Outcome::{Completed as C, Killed as K};
    let run = |spec: &str| {
        let w = schedlab::workload::read_bytes(
            "t.sacct",
            TIMEOUT_LOG.as_bytes(),
            &ReadOptions::default(),
        )
        .unwrap();
        let trace = Trace::new(w, &InputOptions::default(), MetricOptions::default()).unwrap();
        assert!(trace.jobs.jobs[0].timed_out && !trace.jobs.jobs[1].timed_out);
        let r = trace.run(spec, 1, None).unwrap();
        check(&trace.jobs.jobs, &r.schedule).unwrap();
        let s = &r.schedule.jobs;
        let ends: Vec<(i64, i64)> = s.iter().map(|j| (j.start, j.end)).collect();
        let outcomes: Vec<Outcome> = s.iter().map(|j| j.outcome).collect();
        (ends, outcomes)
    };
    assert_eq!(
        run("slurm[calc_phase=25]"),
        (vec![(0, 85), (85, 95)], vec![K, C])
    );
    assert_eq!(
        run("slurm[calc_phase=7]"),
        (vec![(0, 67), (67, 77)], vec![K, C])
    );
    assert_eq!(run("historic"), (vec![(0, 60), (67, 77)], vec![K, C]));
    assert_eq!(run("easy"), (vec![(0, 60), (60, 70)], vec![K, C]));
}
