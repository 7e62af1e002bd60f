//! Policies decided outside the engine (`policy::External`, what the page's JavaScript policies
//! run on): deciders written against the pass view give the built-ins' schedules, and every bad
//! decision ends the run with an error naming the job and the time.

use crate::common;
use common::{job_set, run, starts};
use schedlab::input::{Job, JobSet};
use schedlab::policy::{External, PassView};
use schedlab::sim::{check::check, simulate, Schedule, SimError};
use schedlab::Time;

fn run_ext(
    set: &JobSet,
    f: impl FnMut(&PassView<'_>) -> Result<Vec<f64>, String>,
) -> Result<Schedule, SimError> {
    let mut p = External::new("js:test", f);
    let s = simulate(&set.jobs, set.procs, &mut p, 1, None)?;
    if let Err(e) = check(&set.jobs, &s) {
        panic!("invariants violated:\n{}", e.join("\n"));
    }
    Ok(s)
}

/// FCFS as the page's example writes it: heads in arrival order while they fit.
fn fcfs(jobs: &[Job]) -> impl FnMut(&PassView<'_>) -> Result<Vec<f64>, String> + '_ {
    move |v| {
        let mut free = v.free;
        let mut out = Vec::new();
        for j in v.waiting {
            if jobs[j].procs > free {
                break;
            }
            free -= jobs[j].procs;
            out.push(jobs[j].id as f64);
        }
        Ok(out)
    }
}

/// The earliest time `need` processors are free if running jobs end at their planned ends
/// (`view.earliest` of the page), with the processors left over then.
fn earliest(
    v: &PassView<'_>,
    jobs: &[Job],
    extra_running: &[(u32, Time)],
    need: u32,
) -> (Time, u32) {
    let mut ends: Vec<(Time, u32)> = v
        .running
        .iter()
        .map(|&(j, _, end)| (end, jobs[j].procs))
        .chain(extra_running.iter().map(|&(p, e)| (e, p)))
        .collect();
    ends.sort();
    let used: u32 = extra_running.iter().map(|r| r.0).sum();
    let mut avail = v.free - used;
    if avail >= need {
        return (v.now, avail - need);
    }
    let mut i = 0;
    while i < ends.len() {
        let t = ends[i].0;
        while i < ends.len() && ends[i].0 == t {
            avail += ends[i].1;
            i += 1;
        }
        if avail >= need {
            return (t, avail - need);
        }
    }
    (Time::MAX, 0)
}

/// EASY as the page's example writes it.
fn easy(jobs: &[Job]) -> impl FnMut(&PassView<'_>) -> Result<Vec<f64>, String> + '_ {
    move |v| {
        let mut out = Vec::new();
        let mut started: Vec<(u32, Time)> = Vec::new();
        let mut free = v.free;
        let waiting = v.waiting.to_vec();
        let mut k = 0;
        while k < waiting.len() && jobs[waiting[k]].procs <= free {
            let job = &jobs[waiting[k]];
            free -= job.procs;
            started.push((job.procs, v.now + job.estimate));
            out.push(job.id as f64);
            k += 1;
        }
        if k == waiting.len() || free == 0 {
            return Ok(out);
        }
        let (shadow, mut extra) = earliest(v, jobs, &started, jobs[waiting[k]].procs);
        for &j in &waiting[k + 1..] {
            let job = &jobs[j];
            if free == 0 {
                break;
            }
            if job.procs > free {
                continue;
            }
            let end = v.now + job.estimate;
            if end <= shadow {
                free -= job.procs;
                out.push(job.id as f64);
            } else if job.procs <= extra {
                extra -= job.procs;
                free -= job.procs;
                out.push(job.id as f64);
            }
        }
        Ok(out)
    }
}

fn same_starts(a: &Schedule, b: &Schedule) -> bool {
    a.jobs
        .iter()
        .zip(&b.jobs)
        .all(|(x, y)| x.start == y.start && x.end == y.end && x.procs == y.procs)
}

#[test]
fn deciders_equal_the_built_ins_by_hand() {
    // easy's hand-made cases: backfill into the hole, the extra processors, consumed extra
    for jobs in [
        vec![(0, 100, 6, 100), (1, 50, 8, 50), (2, 50, 4, 50)],
        vec![
            (0, 100, 6, 100),
            (1, 50, 8, 50),
            (2, 50, 4, 50),
            (3, 200, 2, 200),
        ],
        vec![
            (0, 100, 6, 100),
            (1, 50, 8, 50),
            (2, 300, 2, 300),
            (3, 300, 2, 300),
        ],
    ] {
        let set = job_set(10, &jobs);
        let e = run_ext(&set, easy(&set.jobs)).unwrap();
        assert!(same_starts(&e, &run(&set, "easy")), "{jobs:?}");
        assert_eq!(e.policy, "js:test");
        let f = run_ext(&set, fcfs(&set.jobs)).unwrap();
        assert!(same_starts(&f, &run(&set, "fcfs")), "{jobs:?}");
    }
}

#[test]
fn deciders_equal_the_built_ins_on_real_traces() {
    let Some(dir) = common::trace_dir() else {
        eprintln!("../shared/data/swf not found: skipped");
        return;
    };
    for name in ["KTH-SP2-1996-2.1-cln.swf.gz", "hpc2n.swf"] {
        let w = schedlab::swf::read_path(&dir.join(name), &Default::default()).unwrap();
        let set = schedlab::input::prepare(&w, &Default::default()).unwrap();
        let e = run_ext(&set, easy(&set.jobs)).unwrap();
        assert!(same_starts(&e, &run(&set, "easy")), "{name}: easy");
        let f = run_ext(&set, fcfs(&set.jobs)).unwrap();
        assert!(same_starts(&f, &run(&set, "fcfs")), "{name}: fcfs");
    }
}

fn error(set: &JobSet, f: impl FnMut(&PassView<'_>) -> Result<Vec<f64>, String>) -> String {
    match run_ext(set, f) {
        Ok(_) => panic!("the run should fail"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_decisions_name_the_job_and_the_time() {
    // J1 (6 procs) at 0, J2 (8) at 1 waits, J3 (2) at 2.
    let set = job_set(10, &[(0, 100, 6, 100), (1, 50, 8, 50), (2, 50, 2, 50)]);
    let at = |t: Time, ids: Vec<f64>| {
        move |v: &PassView<'_>| Ok(if v.now == t { ids.clone() } else { vec![] })
    };
    let e = error(&set, at(0, vec![1e99]));
    assert!(
        e.contains("t=0") && e.contains("returned 1e99, which is not a job id"),
        "{e}"
    );
    let e = error(&set, at(0, vec![1.5]));
    assert!(e.contains("returned 1.5, which is not a job id"), "{e}");
    let e = error(&set, at(0, vec![f64::NAN]));
    assert!(e.contains("NaN"), "{e}");
    let e = error(&set, at(0, vec![42.0]));
    assert!(e.contains("the trace has no job 42"), "{e}");
    let e = error(&set, at(0, vec![2.0]));
    assert!(
        e.contains("job 2") && e.contains("not been submitted yet"),
        "{e}"
    );
    let e = error(&set, at(0, vec![1.0, 1.0]));
    assert!(e.contains("job 1") && e.contains("returned twice"), "{e}");
    let e = error(&set, |v: &PassView<'_>| {
        Ok(match v.now {
            0 => vec![1.0],
            1 => vec![1.0],
            _ => vec![],
        })
    });
    assert!(
        e.contains("t=1") && e.contains("job 1") && e.contains("it is running"),
        "{e}"
    );
    let e = error(&set, |v: &PassView<'_>| {
        Ok(match v.now {
            0 => vec![1.0],
            1 => vec![2.0],
            _ => vec![],
        })
    });
    assert!(
        e.contains("t=1") && e.contains("job 2, which needs 8 processors: 4 free"),
        "{e}"
    );
    let e = error(&set, |v: &PassView<'_>| match v.now {
        0 => Ok(vec![1.0]),
        2 => Err("ReferenceError: x is not defined (line 3)".into()),
        _ => Ok(vec![]),
    });
    assert!(
        e.contains("js:test failed at t=2") && e.contains("x is not defined (line 3)"),
        "{e}"
    );
    // a policy that never starts anything: the engine's existing error
    let e = error(&set, |_: &PassView<'_>| Ok(vec![]));
    assert!(
        e.contains("left 3 jobs waiting with nothing left to happen"),
        "{e}"
    );
}

/// A first policy's mistake: every waiting job that fits in `view.free`, each alone
/// (`view.waiting.filter(j => j.procs <= view.free)`). J1 (4 procs), J2 (4) and J3 (4) arrive
/// at 0 on 10 processors: each fits the 10 free, so all three are returned; J1 and J2 start and
/// take 8, and J3 finds 2. The error says that the 2 jobs returned before it took them and
/// what `view.free` was (before, "4 free" alone: "2 free" beside the 10 the author saw). A job
/// that does not fit when returned first keeps the short message.
#[test]
fn a_job_that_fits_only_alone_is_told_what_the_earlier_ones_took() {
    let set = job_set(10, &[(0, 50, 4, 50), (0, 50, 4, 50), (0, 50, 4, 50)]);
    let jobs = set.jobs.clone();
    let e = error(&set, move |v: &PassView<'_>| {
        Ok((v.waiting.iter())
            .filter(|&j| jobs[j].procs <= v.free)
            .map(|j| jobs[j].id as f64)
            .collect())
    });
    assert!(
        e.contains(
            "invalid decision at t=0: returned job 3, which needs 4 processors: 2 free once the 2 \
             jobs it returned before it started (view.free was 10: each job started takes its \
             processors from it)"
        ),
        "{e}"
    );
    // J1 (4) at 0 runs to 50; J2 (4) at 1 is returned alone and finds 0 free.
    let set = job_set(4, &[(0, 50, 4, 50), (1, 50, 4, 50)]);
    let e = error(&set, |v: &PassView<'_>| {
        Ok(match v.now {
            0 => vec![1.0],
            1 => vec![2.0],
            _ => vec![],
        })
    });
    assert!(
        e.ends_with("returned job 2, which needs 4 processors: 0 free"),
        "{e}"
    );
}

#[test]
fn a_finished_job_is_named_and_the_view_shows_what_a_scheduler_knows() {
    let set = job_set(10, &[(0, 10, 6, 10), (5, 10, 2, 10), (20, 10, 2, 10)]);
    let e = error(&set, |v: &PassView<'_>| {
        Ok(if v.now == 20 {
            vec![1.0]
        } else {
            v.waiting.iter().map(|j| (j + 1) as f64).collect()
        })
    });
    assert!(
        e.contains("job 1") && e.contains("it has finished") && e.contains("t=20"),
        "{e}"
    );
    let mut seen = Vec::new();
    let s = run_ext(&set, |v: &PassView<'_>| {
        seen.push((
            v.now,
            v.procs,
            v.free,
            v.waiting.to_vec(),
            v.running.to_vec(),
        ));
        Ok(v.waiting.iter().map(|j| (j + 1) as f64).collect())
    })
    .unwrap();
    assert_eq!(starts(&s), vec![0, 5, 20]);
    assert_eq!(seen[0], (0, 10, 10, vec![0], vec![]));
    // at 5: J1 runs (start 0, planned end 10), J2 waits
    assert_eq!(seen[1], (5, 10, 4, vec![1], vec![(0, 0, 10)]));
    // at 10: J1 ended; J2 runs until 15
    assert_eq!(seen[2], (10, 10, 8, vec![], vec![(1, 5, 15)]));
}

/// Wraps a decider: keeps its own copy of the queue from `left` and `arrived` only, as the
/// page does, and checks it against `waiting` at every pass.
fn keeping_queue<'a>(
    mut f: impl FnMut(&PassView<'_>) -> Result<Vec<f64>, String> + 'a,
) -> impl FnMut(&PassView<'_>) -> Result<Vec<f64>, String> + 'a {
    let mut queue: Vec<usize> = Vec::new();
    move |v| {
        queue.retain(|j| !v.left.contains(j));
        queue.extend_from_slice(v.arrived);
        assert_eq!(queue, v.waiting.to_vec(), "t={}", v.now);
        f(v)
    }
}

#[test]
fn the_changes_of_each_pass_rebuild_the_queue() {
    // By hand: J1 starts at 0; J2 (8 procs) arrives at 1 and waits; J3 arrives at 2 and is
    // started at once (FCFS would not, this decider starts whatever fits, last first).
    let set = job_set(10, &[(0, 100, 6, 100), (1, 50, 8, 50), (2, 50, 2, 50)]);
    let mut passes = Vec::new();
    let jobs = set.jobs.clone();
    run_ext(&set, |v: &PassView<'_>| {
        passes.push((v.now, v.left.to_vec(), v.arrived.to_vec()));
        let mut free = v.free;
        let mut out = Vec::new();
        for &j in v.waiting.to_vec().iter().rev() {
            if jobs[j].procs <= free {
                free -= jobs[j].procs;
                out.push(jobs[j].id as f64);
            }
        }
        Ok(out)
    })
    .unwrap();
    assert_eq!(passes[0], (0, vec![], vec![0]));
    assert_eq!(passes[1], (1, vec![0], vec![1]));
    assert_eq!(passes[2], (2, vec![], vec![2]));
    assert_eq!(
        passes[3].1,
        vec![2],
        "J3 started at 2 has left by the next pass"
    );
    // Real traces: EASY and a policy that starts nothing (the engine's error at the end).
    let Some(dir) = common::trace_dir() else {
        eprintln!("../shared/data/swf not found: skipped");
        return;
    };
    let w = schedlab::swf::read_path(
        &dir.join("KTH-SP2-1996-2.1-cln.swf.gz"),
        &Default::default(),
    )
    .unwrap();
    let set = schedlab::input::prepare(&w, &Default::default()).unwrap();
    let e = run_ext(&set, keeping_queue(easy(&set.jobs))).unwrap();
    assert!(same_starts(&e, &run(&set, "easy")));
    let e = error(&set, keeping_queue(|_: &PassView<'_>| Ok(vec![])));
    assert!(
        e.contains(&format!("left {} jobs waiting", set.jobs.len())),
        "{e}"
    );
}

/// An answer longer than the trace is refused before anything is allocated for it: a
/// JavaScript array may claim 2^32 - 1 elements with none set (issue 37 item 5; the page's
/// engine panicked with "capacity overflow" on it).
#[test]
fn answers_longer_than_the_trace_are_refused() {
    use schedlab::policy::answer_len;
    assert_eq!(answer_len(0, 12), Ok(0));
    assert_eq!(answer_len(12, 12), Ok(12));
    let msg = answer_len(u64::from(u32::MAX), 12).unwrap_err();
    assert_eq!(
        msg,
        "schedule(view) returned an array of 4294967295 elements: at most the trace's 12 jobs can start"
    );
    assert!(answer_len(13, 12).is_err());
    assert!(answer_len(u64::MAX, usize::MAX).is_err() || usize::BITS == 64);
}

/// On a cluster the view's free processors are not its nodes: clusterkit's J2 (1 core, the
/// only GPU, held by J1 until 100) fits the 7 free cores at 1 and at 2 but no free node. An
/// external FCFS that counts processors only returns it at every pass: it waits each time, and
/// J3 returned after it at 2 waits with it (none overtakes it), both start at 100, as under the
/// built-in fcfs. Before, the run ended at 1 on an error saying J2 needs 1 processor with 7
/// free.
#[test]
fn on_a_cluster_a_job_the_free_processors_hold_but_no_node_does_waits() {
    use common::clusterkit::{a_gpu_job_waiting_while_cores_are_free, nodes, run};
    use schedlab::sim::{check_cluster::check_cluster, simulate_placed};
    let (jobs, place) = a_gpu_job_waiting_while_cores_are_free();
    let mut returned = Vec::new();
    let mut p = External::new("js:fcfs", |v: &PassView<'_>| {
        let ids = fcfs(&jobs)(v)?;
        returned.push((v.now, ids.clone()));
        Ok(ids)
    });
    let s = simulate_placed(
        &jobs,
        place.layout.procs,
        None,
        Some(&place),
        &mut p,
        1,
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    check(&jobs, &s).unwrap();
    check_cluster(&place, &s).unwrap();
    assert_eq!(starts(&s), [0, 100, 100]);
    assert_eq!(nodes(&place, &s, 1), ["g1"]);
    assert_eq!(starts(&s), starts(&run(&place, &jobs, "fcfs")));
    // What the policy returned at each pass: J2 (and J3 after it) waited at 1 and 2.
    assert_eq!(
        returned,
        [
            (0, vec![1.0]),
            (1, vec![2.0]),
            (2, vec![2.0, 3.0]),
            (100, vec![2.0, 3.0]),
            (110, vec![]) // J2 and J3 end: nothing waits
        ]
    );
}

/// A job the free processors do not hold is still the policy's error on a cluster (only a
/// node's fit waits).
#[test]
fn on_a_cluster_a_job_beyond_the_free_processors_is_still_an_error() {
    use common::clusterkit::{jobs as cjobs, place, req, GPU_NODE_AND_CPU_NODE};
    use schedlab::sim::simulate_placed;
    let js = cjobs(&[(0, 100, 6, 0, req(0, 0)), (1, 10, 4, 0, req(0, 0))]);
    let pl = place(GPU_NODE_AND_CPU_NODE, &js, &[]);
    let mut p = External::new("js:all", |v: &PassView<'_>| {
        Ok(v.waiting
            .iter()
            .map(|j| js[j].id as f64)
            .collect::<Vec<_>>())
    });
    let e = simulate_placed(&js, pl.layout.procs, None, Some(&pl), &mut p, 1, None).unwrap_err();
    let e = e.to_string();
    assert!(
        e.contains("t=1") && e.contains("returned job 2, which needs 4 processors: 2 free"),
        "{e}"
    );
}
