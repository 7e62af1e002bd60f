//! The event-driven simulator.
//!
//! Events are ordered by (time, sequence number). At each instant the engine applies every event
//! of that instant (terminations, then plan expiries, then submissions), then calls the policy
//! for one scheduling pass if at least one of them is current: a submission, a termination, an
//! expiry of a planned end that still stands, or the wake-up the latest pass asked for. An
//! instant whose only events are superseded (a finish of an end the node model has since moved
//! or of an earlier attempt, an expiry of a plan that moved or ended) has no pass. The pass is
//! repeated while it caused current events at the same instant (zero-length jobs).

pub mod check;
pub mod check_cluster;
mod cluster;
mod ctx;
pub mod final_state;
mod free_procs;
mod idle;
pub mod limits;
pub(crate) mod node_jobs;
pub mod nodes;
pub mod penalty;
mod policy;
pub mod procset;
pub mod reason;
pub mod schedule;
pub mod series;
mod start;
mod view;
mod waiting;

pub use cluster::ClusterView;
pub use ctx::{Ctx, Happening};
pub use final_state::FinalState;
pub use limits::LimitChecks;
pub use nodes::{NodeOutcome, Nodes};
pub use policy::{Policy, Starts};
pub use procset::ProcSet;
pub use reason::StartReason;
pub use schedule::{JobRecord, Outcome, Run, RunEnd, Schedule};
pub use series::{Series, SeriesPoint};
pub use view::{JobView, Jobs, NodesView};
pub use waiting::Waiting;

use crate::job::Job;
use crate::predict::Predictor;
use crate::Time;
use ctx::Ev;
use idle::{IdleRun, MAX_IDLE_INSTANTS};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

/// Room for the busy/queue series made at the start, in bytes per job (two points of 3 to
/// 4 bytes in the traces of tests/data).
const SERIES_BYTES_PER_JOB: usize = 8;

/// Passes allowed at one instant before the engine calls the policy stuck in a loop.
const MAX_PASSES_PER_INSTANT: u32 = 100_000;

/// Waiting jobs a [`SimError::Stuck`] names.
const STUCK_NAMED: usize = 5;

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("policy {policy}: invalid decision at t={time}: {reason}")]
    Invalid {
        policy: String,
        time: Time,
        reason: String,
    },
    #[error("policy {policy} failed at t={time}: {reason}")]
    Failed {
        policy: String,
        time: Time,
        reason: String,
    },
    #[error("policy {policy} left {waiting} jobs waiting with {why} at t={time} (jobs {jobs})")]
    Stuck {
        policy: String,
        time: Time,
        waiting: usize,
        /// Why nothing more can happen.
        why: String,
        /// The first few waiting jobs' ids.
        jobs: String,
    },
    #[error("policy {policy} made {MAX_PASSES_PER_INSTANT} scheduling passes at t={time} without time advancing")]
    Livelock { policy: String, time: Time },
    #[error("cancelled")]
    Cancelled,
}

/// Progress report: `(jobs finished, jobs to finish)`; returning `false` cancels the run.
pub type Progress<'p> = &'p mut dyn FnMut(usize, usize) -> bool;

/// Runs `policy` over `jobs` (in arrival order) on a machine of `procs` processors.
pub fn simulate(
    jobs: &[Job],
    procs: u32,
    policy: &mut dyn Policy,
    seed: u64,
    progress: Option<Progress<'_>>,
) -> Result<Schedule, SimError> {
    simulate_on(jobs, procs, None, policy, seed, progress)
}

/// The machine a simulation runs on beyond its size: the node model and whether jobs are
/// killed at their requested time (the input option).
#[derive(Debug, Clone, Copy)]
pub struct Machine<'m> {
    pub nodes: &'m crate::machine::NodeModel,
    pub kill: bool,
}

/// [`simulate`] on a machine with the node model when `machine` is given: jobs' demands come
/// from the model (seeded by `seed`) and penalties move their ends.
pub fn simulate_on(
    jobs: &[Job],
    procs: u32,
    machine: Option<Machine<'_>>,
    policy: &mut dyn Policy,
    seed: u64,
    progress: Option<Progress<'_>>,
) -> Result<Schedule, SimError> {
    simulate_placed(jobs, procs, machine, None, policy, seed, progress)
}

/// [`simulate_on`], on a cluster's nodes when `cluster` is given (then `procs` is its number
/// of cores): each job gets an allocation of nodes, and the jobs that can never run there are
/// rejected with their reason.
pub fn simulate_placed(
    jobs: &[Job],
    procs: u32,
    machine: Option<Machine<'_>>,
    cluster: Option<&crate::cluster::Placement>,
    policy: &mut dyn Policy,
    seed: u64,
    progress: Option<Progress<'_>>,
) -> Result<Schedule, SimError> {
    let machine = (machine, cluster);
    run_engine(jobs, procs, machine, policy, (seed, None, None), progress)
}

/// [`simulate_placed`] without a node model, each job with a time limit ended by the first of
/// `checks` at or after it rather than at it ([`LimitChecks::end`]: a job marked killed runs
/// until that check, any other until its own end or the check, the earlier); `jobs` as
/// [`LimitChecks::jobs`] makes them. Every front end comes here through
/// `crate::run::simulate_set` for a policy that models the checks (`slurm`).
pub fn simulate_checked(
    jobs: &[Job],
    procs: u32,
    cluster: Option<&crate::cluster::Placement>,
    policy: &mut dyn Policy,
    (seed, checks): (u64, &LimitChecks),
    progress: Option<Progress<'_>>,
) -> Result<Schedule, SimError> {
    let seeds = (seed, None, Some(checks));
    run_engine(jobs, procs, (None, cluster), policy, seeds, progress)
}

/// [`simulate_placed`] up to time `until` (inclusive), without a node model: the schedule so
/// far, jobs still waiting or running left pending (the replay of a recorded schedule,
/// `crate::replay`, stops right after the instant it asks about).
pub fn simulate_until(
    jobs: &[Job],
    procs: u32,
    cluster: Option<&crate::cluster::Placement>,
    policy: &mut dyn Policy,
    seed: u64,
    until: Time,
) -> Result<Schedule, SimError> {
    run_engine(
        jobs,
        procs,
        (None, cluster),
        policy,
        (seed, Some(until), None),
        None,
    )
}

/// The engine: `(machine, cluster)` as [`simulate_placed`] takes them, `(seed, until,
/// checks)` (the time-limit checks of [`simulate_checked`], never with a node model).
fn run_engine(
    jobs: &[Job],
    procs: u32,
    (machine, cluster): (Option<Machine<'_>>, Option<&crate::cluster::Placement>),
    policy: &mut dyn Policy,
    (seed, until, checks): (u64, Option<Time>, Option<&LimitChecks>),
    mut progress: Option<Progress<'_>>,
) -> Result<Schedule, SimError> {
    let n = jobs.len();
    if cluster.is_some() && !policy.runs_on_clusters() {
        return Err(SimError::Failed {
            policy: policy.spec(),
            time: 0,
            reason: "it does not run on a cluster yet: it plans with one pool of processors".into(),
        });
    }
    let replay = policy.replays_trace();
    let predictor = match policy.predictor() {
        Some(text) => Some(Predictor::parse(text).map_err(|reason| SimError::Invalid {
            policy: policy.spec(),
            time: 0,
            reason,
        })?),
        None => None,
    };
    let mut rejected: Vec<(usize, String)> = if replay {
        jobs.iter()
            .enumerate()
            .filter(|(_, j)| j.trace_wait().is_none())
            .map(|(i, _)| {
                (
                    i,
                    "field 3 (wait_time): no recorded wait, cannot replay".to_string(),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let place = cluster;
    rejected.extend(policy.prepare(
        Jobs {
            jobs,
            replay,
            place,
        },
        procs,
    ));
    let mut is_rejected = vec![false; n];
    if let Some(place) = cluster {
        for (j, _) in &rejected {
            is_rejected[*j] = true;
        }
        rejected.extend(
            place
                .never
                .iter()
                .filter(|(j, _)| !is_rejected[*j])
                .cloned(),
        );
    }
    let mut records: Vec<JobRecord> = (0..n).map(|_| JobRecord::pending()).collect();
    for (j, _) in &rejected {
        is_rejected[*j] = true;
        records[*j].outcome = Outcome::Rejected;
    }
    let to_finish = n - is_rejected.iter().filter(|&&r| r).count();
    let mut c = Ctx {
        jobs,
        procs,
        now: jobs.first().map_or(0, |j| j.submit),
        free: free_procs::FreeProcs::new(procs, machine.is_some()),
        free_count: procs,
        waiting: Waiting::new(n),
        running: BTreeSet::new(),
        planned: vec![0; n],
        attempt: vec![0; n],
        records,
        preempted_runs: Vec::new(),
        heap: BinaryHeap::new(),
        seq: 0,
        happenings: Vec::new(),
        rng: Pcg64::seed_from_u64(seed),
        policy: policy.spec(),
        finished: 0,
        nodes: machine.map(|m| Nodes::new(jobs, procs, m.nodes, m.kill, seed)),
        moved: Vec::new(),
        wake: None,
        named: Time::MIN,
        predictor,
        replay,
        words: Vec::new(),
        state: ctx::new_state_id(),
        cluster: cluster.map(cluster::ClusterRun::new),
        checks: checks.filter(|_| machine.is_none()),
    };
    // About one point per submission and one per end, a few bytes each: room for that from
    // the start (the series grows a quarter at a time past it).
    let mut series = Series::with_room(SERIES_BYTES_PER_JOB * n + 64);
    let mut next_submit = 0;
    let mut instants = 0u64;
    let mut batch: Vec<Ev> = Vec::new();
    // The idle guard's run of instants (idle.rs).
    let mut idle = IdleRun::default();
    loop {
        while next_submit < n && is_rejected[next_submit] {
            next_submit += 1;
        }
        let t_heap = c.heap.peek().map(|Reverse((t, _, _))| *t);
        let t_sub = jobs.get(next_submit).map(|j| j.submit);
        let Some(t) = earlier(earlier(t_heap, t_sub), c.wake) else {
            break;
        };
        if until.is_some_and(|u| t > u) {
            break;
        }
        c.now = t;
        c.state = ctx::new_state_id();
        let mut passes = 0;
        loop {
            batch.clear();
            while let Some(Reverse((te, _, ev))) = c.heap.peek() {
                if *te != t {
                    break;
                }
                batch.push(*ev);
                c.heap.pop();
            }
            // A pass runs only for current events: a termination, an expiry of a planned end
            // that still stands, a submission, or the wake-up the latest pass asked for.
            // Superseded events (a finish of an end that moved or of an earlier attempt, an
            // expiry of a plan that already ended or moved) change nothing and call no pass.
            let mut current = false;
            for ev in &batch {
                if let Ev::Finish { job, attempt } = *ev {
                    current |= c.finish(job, attempt);
                }
            }
            for ev in &batch {
                if let Ev::Expire { job, attempt } = *ev {
                    current |= c.expire(job, attempt);
                }
            }
            if c.wake == Some(t) {
                c.wake = None;
                current = true;
            }
            if passes == 0 {
                while next_submit < n && jobs[next_submit].submit == t {
                    if !is_rejected[next_submit] {
                        c.waiting.insert(next_submit);
                        c.happenings.push(Happening::Submitted(next_submit));
                        current = true;
                    }
                    next_submit += 1;
                }
            }
            if !current {
                break;
            }
            c.observe();
            c.wake = None;
            policy.schedule(&mut c)?;
            c.happenings.clear();
            passes += 1;
            if passes >= MAX_PASSES_PER_INSTANT {
                return Err(SimError::Livelock {
                    policy: c.policy.clone(),
                    time: t,
                });
            }
            if c.heap.peek().is_none_or(|Reverse((te, _, _))| *te != t) {
                break;
            }
        }
        if passes > 0 {
            if let Some(head) = c.waiting.first() {
                c.records[head].blocked = true;
            }
            if until.is_none() && c.running.is_empty() && !c.waiting.is_empty() {
                while next_submit < n && is_rejected[next_submit] {
                    next_submit += 1;
                }
                let state = (c.waiting.len(), c.finished);
                // A time the policy named lies beyond its next wake-up: it waits for that
                // time (holding jobs until a time of day, polling meanwhile).
                let waits = c.wake.is_some_and(|w| c.named > w);
                idle.idle(t, state, next_submit < n, waits);
                if idle.stuck(next_submit < n) {
                    let why = format!(
                        "nothing running, no submission left, and {MAX_IDLE_INSTANTS} scheduling \
                         passes from t={} starting none of them (a limit that holds them for \
                         ever?)",
                        idle.since
                    );
                    return Err(stuck(&c, why));
                }
            } else {
                idle.busy();
            }
            let point = SeriesPoint {
                time: t,
                busy: procs - c.free_count,
                queued: c.waiting.len() as u32,
            };
            match series.last() {
                Some(last) if last.busy == point.busy && last.queued == point.queued => {}
                _ => series.push(point),
            }
        }
        instants += 1;
        if instants.is_multiple_of(1024) {
            if let Some(p) = progress.as_mut() {
                if !p(c.finished, to_finish) {
                    return Err(SimError::Cancelled);
                }
            }
        }
    }
    if !c.waiting.is_empty() && until.is_none() {
        return Err(stuck(&c, "nothing left to happen".into()));
    }
    if let Some(p) = progress.as_mut() {
        p(c.finished, to_finish);
    }
    // A schedule is kept as long as the page shows it: no room left over from growing.
    series.shrink_to_fit();
    let (allocs, preempted_allocs) = c
        .cluster
        .map(|cl| (cl.allocs, cl.preempted))
        .unwrap_or_default();
    Ok(Schedule {
        policy: c.policy,
        seed,
        procs,
        jobs: c.records,
        wasted: schedule::wasted_by_job(&c.preempted_runs),
        preempted_runs: c.preempted_runs,
        rejected,
        reason_words: c.words,
        series,
        nodes: c.nodes.map(Nodes::outcome),
        allocs,
        preempted_allocs,
        checks: c.checks.cloned(),
    })
}

/// The error of a run whose waiting jobs can never start (`why`), naming the first few.
fn stuck(c: &Ctx<'_>, why: String) -> SimError {
    let mut ids: Vec<String> = (c.waiting.iter().take(STUCK_NAMED))
        .map(|j| c.jobs[j].id.to_string())
        .collect();
    if c.waiting.len() > STUCK_NAMED {
        ids.push("...".into());
    }
    SimError::Stuck {
        policy: c.policy.clone(),
        time: c.now,
        waiting: c.waiting.len(),
        why,
        jobs: ids.join(", "),
    }
}

/// The earlier of two times, either of which may be missing (a chain of these costs less
/// than the minimum of an iterator over the options, in the engine's loop).
#[inline]
fn earlier(a: Option<Time>, b: Option<Time>) -> Option<Time> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Tests: pseudo-random numbers below `m` (xorshift from `seed`), the same sequence on every
/// platform.
#[cfg(test)]
pub(crate) fn test_numbers(mut x: u64) -> impl FnMut(u64) -> u64 {
    move |m| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    }
}
