//! Decisions, one step ahead: a policy asked, at each instant where a log starts jobs, which
//! jobs it starts then, the engine holding the recorded state just before (`schedlab replay`).
//!
//! - **Instants**: the recorded starts sorted; an instant takes a start and every start at most
//!   [`WINDOW`] seconds after it (Slurm starts the jobs of one scheduling pass over a second or
//!   two). The decision is asked at the instant's last start `T`.
//! - **The recorded state**: the engine simulates from the log's first submission with the
//!   policy wrapped (`follow::Follow`): every job the log started before the instant's first
//!   start starts at its recorded time, on its recorded nodes (`NodeList`, when the log has it
//!   and the run is on a cluster), planned to end at its start + time limit (as Slurm plans),
//!   and runs to its recorded end (`Elapsed`, past its limit for a job Slurm killed late). The
//!   policy follows these starts through [`Policy::follow`]: its queue order sees every
//!   submission, start and end at its time (the `slurm` policy's usage, fairshare and
//!   priorities as of `T`), its start rule never runs. Jobs submitted by `T` and not started
//!   before the instant wait; the ends up to `T` have happened.
//! - **The decision**: at `T` the policy makes one pass of its own, fresh (a new policy per
//!   instant: for `slurm`, its main scheduler over the whole queue, then a backfill cycle);
//!   the jobs it starts are its decision. The engine checks every start as in any run.
//!
//! Recall: the share of the log's starts the policy also makes at their instant; precision:
//! the share of the policy's starts the log made then. The whole run ([`whole`]): a full
//! simulation's waits against the recorded ones.

mod follow;
pub mod log_order;
mod order;
pub mod prio_phase;
pub mod prio_sides;
pub mod recorded;
#[cfg(test)]
mod test_log;
pub mod whole;

use crate::cluster::Alloc;
use crate::input::JobSet;
use crate::job::Job;
use crate::policy::order::priority_in_part;
use crate::sim::{self, Policy, SimError};
use crate::Time;
use recorded::Logged;

/// Starts at most this many seconds after an instant's first start belong to it.
pub const WINDOW: Time = 2;

/// One instant of the log's starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instant {
    /// Its first start.
    pub first: Time,
    /// Its last start: when the decision is asked.
    pub time: Time,
    /// The jobs the log started then, ascending.
    pub recorded: Vec<usize>,
}

/// The instants of the recorded starts `starts` (by job), in time order.
pub fn instants(starts: &[Time]) -> Vec<Instant> {
    let mut order: Vec<(Time, usize)> = starts.iter().enumerate().map(|(j, &t)| (t, j)).collect();
    order.sort_unstable();
    let mut out: Vec<Instant> = Vec::new();
    for (t, j) in order {
        match out.last_mut() {
            Some(i) if t <= i.first + WINDOW => {
                i.time = t;
                i.recorded.push(j);
            }
            _ => out.push(Instant {
                first: t,
                time: t,
                recorded: vec![j],
            }),
        }
    }
    for i in &mut out {
        i.recorded.sort_unstable();
    }
    out
}

/// One decision: the jobs waiting at an instant, those the log started, those the policy
/// started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// When it was asked (the instant's last start).
    pub time: Time,
    /// The jobs waiting then (submitted by `time`, not started before the instant), ascending.
    pub waiting: Vec<usize>,
    /// The jobs the log started at the instant.
    pub recorded: Vec<usize>,
    /// The jobs the policy started.
    pub model: Vec<usize>,
}

/// Recall and precision over decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Figures {
    /// Instants asked about.
    pub instants: usize,
    /// Starts the log made.
    pub recorded: usize,
    /// Starts the policy made.
    pub model: usize,
    /// Starts both made.
    pub both: usize,
}

impl Figures {
    /// The figures of `decisions`.
    pub fn of(decisions: &[Decision]) -> Figures {
        let mut f = Figures::default();
        for d in decisions {
            f.instants += 1;
            f.recorded += d.recorded.len();
            f.model += d.model.len();
            f.both += d.model.iter().filter(|j| d.recorded.contains(j)).count();
        }
        f
    }

    /// The share of the log's starts the policy also made (1 when the log made none).
    pub fn recall(&self) -> f64 {
        ratio(self.both, self.recorded)
    }

    /// The share of the policy's starts the log made (1 when the policy made none).
    pub fn precision(&self) -> f64 {
        ratio(self.both, self.model)
    }
}

impl std::fmt::Display for Figures {
    /// `instants 33  recorded 60  model 38  both 24  recall 40.0%  precision 63.2%`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "instants {:>3}  recorded {:>4}  model {:>4}  both {:>4}  recall {:>5.1}%  precision {:>5.1}%",
            self.instants,
            self.recorded,
            self.model,
            self.both,
            100.0 * self.recall(),
            100.0 * self.precision()
        )
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// A log ready to be replayed: its jobs running their recorded times, their recorded starts,
/// ends and allocations.
pub struct Replay<'s> {
    set: &'s JobSet,
    /// The jobs as the replay runs them: their recorded run time, never cut at the limit.
    jobs: Vec<Job>,
    /// Recorded start per job.
    pub starts: Vec<Time>,
    /// Planned end per job when it starts as recorded: recorded start + time limit.
    planned: Vec<Time>,
    /// Recorded allocation per job (`JobSet::recorded_nodes`; empty when none is known).
    allocs: &'s [Option<Alloc>],
    /// What the log records beyond the jobs: the nodes each ran on.
    pub logged: Logged,
}

impl<'s> Replay<'s> {
    /// The replay of `set`, whose jobs all have a recorded start, with what the log records
    /// beyond them (`logged`: nodes are used on a cluster only).
    pub fn new(set: &'s JobSet, logged: Logged) -> Result<Replay<'s>, String> {
        let mut starts = Vec::with_capacity(set.jobs.len());
        let mut planned = Vec::with_capacity(set.jobs.len());
        let mut jobs = set.jobs.clone();
        for job in &mut jobs {
            let Some(wait) = job.trace_wait() else {
                return Err(format!(
                    "{} has no recorded start: a replay needs every job's start",
                    set.words.job(job.line, job.id)
                ));
            };
            let start = job.submit + wait;
            starts.push(start);
            planned.push(start + job.requested().unwrap_or(job.trace_runtime).max(0));
            job.runtime = job.trace_runtime.max(0);
            job.killed = false;
        }
        check_nodes(set, &logged)?;
        Ok(Replay {
            set,
            jobs,
            starts,
            planned,
            allocs: &set.recorded_nodes,
            logged,
        })
    }

    /// The decision of `policy` at `inst`, with the number of recorded starts before it that
    /// their recorded nodes could not take (the engine placed them).
    pub fn decide_at(
        &self,
        inst: &Instant,
        policy: &mut dyn Policy,
        seed: u64,
    ) -> Result<(Decision, usize), SimError> {
        let (s, reselected, last) =
            self.follow(inst.first, inst.time, policy, seed, false, None)?;
        let rejected: std::collections::HashSet<usize> = s.rejected.iter().map(|r| r.0).collect();
        let waiting = (0..self.jobs.len())
            .filter(|&j| {
                self.jobs[j].submit <= inst.time
                    && self.starts[j] >= inst.first
                    && !rejected.contains(&j)
            })
            .collect();
        // The decision's passes: one at the instant's last start; with the debug log's order
        // also one in each earlier second where Slurm's thread began a cycle, and one a second
        // after the last for the events of its second after its cycle (`order`).
        let model = (0..self.jobs.len())
            .filter(|&j| {
                (inst.first..=last).contains(&s.jobs[j].start) && self.starts[j] >= inst.first
            })
            .collect();
        let d = Decision {
            time: inst.time,
            waiting,
            recorded: inst.recorded.clone(),
            model,
        };
        Ok((d, reselected))
    }

    /// `policy` brought to time `t` on the recorded history: every job the log started before
    /// `t` starts as recorded (as in [`Replay::decide_at`]), and at `t` the policy follows a
    /// pass that starts nothing, so that its queue order's state is that of `t` (for `slurm`:
    /// the priority periods up to `t` run, the ends and submissions up to `t` seen), which the
    /// caller reads from the policy's own state (`policy::slurm::build_sharing`). Nothing is
    /// decided.
    pub fn follow_to(&self, t: Time, policy: &mut dyn Policy, seed: u64) -> Result<(), SimError> {
        self.follow(t, t, policy, seed, true, None).map(|_| ())
    }

    /// Whether `v`, the log's `Priority` of job `j`, is a priority the `slurm` policy's state
    /// `st` gave `j` at its submission: its priority in its own partition, or, for a job
    /// submitted to several (`sbatch -p short,batch`), in any of them. Slurm keeps one priority
    /// per partition for such a job (`priority_array`) and sets its `priority` to an entry's
    /// whenever the main scheduler pops that entry from its queue (job_scheduler.c 1457 of
    /// 22.05.8, before it passes over a job started through another entry, 1473-1476) or a
    /// backfill cycle tests it (backfill.c 1977); accounting's first record of the job, sent by
    /// the slurmdbd plugin's thread every 5 s (accounting_storage_slurmdbd.c
    /// `_set_db_inx_thread`), takes the one set last, seldom that of the partition the job ran
    /// in (docs/slurm.md, "Jobs submitted to several partitions").
    pub(crate) fn records_priority(
        &self,
        st: &crate::slurm::state::State,
        j: usize,
        v: f64,
    ) -> bool {
        let own = st.submitted_priority(j);
        if own == v {
            return true;
        }
        let (Some(place), Some(mf)) = (self.set.placement.as_deref(), st.mf.as_ref()) else {
            return false;
        };
        let home = place.needs[j].part;
        (place.parts_of(j).iter())
            .filter(|&&p| p != home)
            .any(|&p| priority_in_part(&place.layout, &mf.params, own, home, p) == v)
    }

    /// [`Replay::follow_to`] with the ends' sides `sides` in place of the log's
    /// ([`Logged::end_sides`]).
    pub(crate) fn follow_to_with_sides(
        &self,
        t: Time,
        policy: &mut dyn Policy,
        seed: u64,
        sides: &(Time, Vec<Option<bool>>),
    ) -> Result<(), SimError> {
        self.follow(t, t, policy, seed, true, Some(sides))
            .map(|_| ())
    }

    /// The engine run to `at` with `policy` following the recorded starts before `first`; at
    /// `at` the policy's own pass, or with `probe` a followed pass that starts nothing. With
    /// the debug log's order, the passes of [`order::passes`]. Gives the schedule, the recorded
    /// starts placed by the engine's selection and the second of the last pass. `sides`
    /// replace the log's ends' sides when given.
    fn follow(
        &self,
        first: Time,
        at: Time,
        policy: &mut dyn Policy,
        seed: u64,
        probe: bool,
        sides: Option<&(Time, Vec<Option<bool>>)>,
    ) -> Result<(sim::Schedule, usize, Time), SimError> {
        let mut forced: Vec<(Time, usize)> = (0..self.jobs.len())
            .filter(|&j| self.starts[j] < first)
            .map(|j| (self.starts[j], j))
            .collect();
        forced.sort_unstable();
        let (passes, jobs) = match (&self.logged.order, probe) {
            (Some(order), false) => {
                let ids = |j: usize| self.set.log_id(j);
                let p = order::passes(order, (first, at), &self.jobs, &self.starts, ids);
                (p.passes, std::borrow::Cow::Owned(p.jobs))
            }
            _ => {
                let cycles = self.logged.cycles.as_deref();
                let ran = cycles.map(|cs| cs.iter().any(|&t| t >= first && t <= at));
                (vec![(at, ran)], std::borrow::Cow::Borrowed(&self.jobs[..]))
            }
        };
        let mut wrap = follow::Follow {
            inner: policy,
            forced,
            next: 0,
            allocs: self.allocs,
            planned: &self.planned,
            backfilled: &self.set.backfilled,
            log_ids: &self.set.log_ids,
            at,
            passes,
            done: 0,
            end_sides: sides.or(self.logged.end_sides.as_ref()),
            decided: false,
            probe,
            reselected: 0,
        };
        let last = wrap.passes.last().map_or(at, |p| p.0);
        let place = self.set.placement.as_deref();
        let s = sim::simulate_until(&jobs, self.set.procs, place, &mut wrap, seed, last)?;
        Ok((s, wrap.reselected, last))
    }

    /// The decisions at every instant of the log, a fresh policy from `build` for each; with
    /// the most recorded starts any one replay had to place by the engine's selection.
    pub fn decisions<E: From<SimError>>(
        &self,
        mut build: impl FnMut() -> Result<Box<dyn Policy>, E>,
        seed: u64,
    ) -> Result<(Vec<Decision>, usize), E> {
        let mut out = Vec::new();
        let mut reselected = 0;
        for inst in instants(&self.starts) {
            let mut p = build()?;
            let (d, r) = self.decide_at(&inst, p.as_mut(), seed)?;
            reselected = reselected.max(r);
            out.push(d);
        }
        Ok((out, reselected))
    }

    /// The decisions as CSV: `time,job_id,recorded,model`, one row per job waiting at each
    /// instant (and any job either side started then), time in seconds of the trace's clock.
    pub fn write_csv(&self, mut w: impl std::io::Write, ds: &[Decision]) -> std::io::Result<()> {
        writeln!(w, "time,job_id,recorded,model")?;
        for d in ds {
            let mut rows: Vec<usize> = d.waiting.clone();
            rows.extend(&d.recorded);
            rows.extend(&d.model);
            rows.sort_unstable();
            rows.dedup();
            for j in rows {
                let r = u8::from(d.recorded.contains(&j));
                let m = u8::from(d.model.contains(&j));
                let t = d.time + self.set.origin;
                writeln!(w, "{t},{},{r},{m}", self.set.log_id(j))?;
            }
        }
        Ok(())
    }
}

/// Every node the log names is one of the cluster's: a recorded start holds its job on its
/// recorded nodes, the input step's allocation on them (`JobSet::recorded_nodes`, where
/// `historic` starts it); a job on nodes the cluster lacks, which a run starts on the cluster's
/// selection, is an error here. Off a cluster the nodes are not read.
fn check_nodes(set: &JobSet, logged: &Logged) -> Result<(), String> {
    let Some(place) = set.placement.as_deref() else {
        return Ok(());
    };
    let known: std::collections::HashSet<&str> =
        place.layout.nodes.iter().map(|n| n.name.as_str()).collect();
    for (j, names) in logged.nodes.iter().enumerate() {
        if let Some(name) = names.iter().flatten().find(|n| !known.contains(n.as_str())) {
            return Err(format!(
                "job {}: NodeList: node {name} is not a node of the cluster: a replay holds \
                 each recorded start on its recorded nodes; give the slurm.conf (or --cluster) \
                 of the cluster the log ran on",
                set.log_id(j)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_take_starts_within_two_seconds_of_the_first() {
        let got = instants(&[10, 0, 2, 3, 12, 13]);
        let want = [
            (0, 2, vec![1, 2]),
            (3, 3, vec![3]),
            (10, 12, vec![0, 4]),
            (13, 13, vec![5]),
        ];
        let want: Vec<Instant> = want
            .into_iter()
            .map(|(first, time, recorded)| Instant {
                first,
                time,
                recorded,
            })
            .collect();
        assert_eq!(got, want);
    }
}
