//! The backfill cycle's plan on a cluster's nodes (Slurm's `node_space` map with
//! select/cons_tres's will-run test, backfill.c `_attempt_backfill`):
//!
//! - running jobs give their cores, memory and GPUs back at their planned ends (start + time
//!   limit); a job the cycle starts now is one more running job;
//! - a reservation holds **whole nodes** over an interval: `_add_reservation` takes the nodes
//!   the job was planned on out of the map's available nodes, so no other job tested in the
//!   cycle may use their idle cores meanwhile (kept per node, [`Holds`]);
//! - a job's earliest start ([`NodePlan::earliest`]): from a time `t` (now first), the nodes
//!   no reservation holds over `[t, t + limit]` (a reservation beginning at `t + limit`
//!   counts, as Slurm's `begin_time <= end_time` test does) are given to select/cons_tres's
//!   will-run test ([`NodePlan::will_run`]), which takes the running jobs away in groups of
//!   planned ends, coarser the further they lie (a group whose last job is past its planned
//!   end gives the start Slurm guesses for that job's end: `_guess_job_end`);
//! - a later start found there is checked against the reservations over the job's own run
//!   as Slurm rounds it ([`NodePlan::overlaps`], `_test_resv_overlap`).

mod reset;

use super::held::Holds;
use super::trial::Trial;
use crate::cluster::{Alloc, Free, Layout, Need, Share};
use crate::Time;

/// The first span of planned ends the will-run test takes together, seconds (cons_tres's
/// `time_window`).
const WINDOW: Time = 30;

/// The plan of one backfill cycle.
pub(super) struct NodePlan {
    now: Time,
    /// The log's clock at time 0: the groups of planned ends are aligned on `clock + t`
    /// (Slurm's on the epoch).
    clock: Time,
    /// The map's end (now + `bf_window` rounded down; `Time::MAX` until set): reservations
    /// hold nothing past it, and it is no later start.
    end: Time,
    /// Free now.
    free: Free,
    /// (planned end, allocation, time limit) of the running jobs, by planned end.
    ends: Vec<(Time, Alloc, Option<Time>)>,
    /// Whole-node reservations: each node's spans [from, to) and their merged runs.
    holds: Holds,
    /// `bf_resolution`, seconds (1 until set): a later start's run is checked against the
    /// reservations rounded down to it on the log's clock, as they are made.
    resolution: Time,
    /// How long after its planned end a job already past it is guessed to end (`KillWait`
    /// plus `OverTimeLimit`; 0 until set); `None`: `OverTimeLimit=UNLIMITED`, its time limit
    /// from now (a year from now without one).
    late_grace: Option<Time>,
    /// Buffers the tests of one job work in, kept for the next job (a cycle tests hundreds).
    scratch: Scratch,
    /// The last job [`NodePlan::earliest`] looked at reached the will-run test ([`NodePlan::tried`]).
    tried: bool,
    /// The last job found a start later than its will-run test's ([`NodePlan::raised`]).
    raised: bool,
}

/// [`NodePlan::earliest`]'s working state: buffers, nothing kept from one call to the next
/// but the trial's state, which follows the plan's free resources.
#[derive(Default)]
struct Scratch {
    /// The will-run test's free state (made at the first test).
    trial: Option<Trial>,
    /// Nodes a reservation holds over the interval tested.
    out: Vec<bool>,
}

impl NodePlan {
    /// The plan at `now`: `free` now, each running job's allocation given back at its end;
    /// `ends` holds (planned end, allocation, time limit) per running job (`None`: none).
    pub(super) fn new(
        now: Time,
        clock: Time,
        free: Free,
        mut ends: Vec<(Time, Alloc, Option<Time>)>,
    ) -> Self {
        ends.sort_by_key(|e| e.0);
        let holds = Holds::new(free.cpus.len());
        NodePlan {
            now,
            clock,
            end: Time::MAX,
            free,
            ends,
            holds,
            resolution: 1,
            late_grace: Some(0),
            scratch: Scratch::default(),
            tried: false,
            raised: false,
        }
    }

    /// When the will-run test guesses a running job planned to end at `end`, with time limit
    /// `limit`, gives its resources back (cons_common/job_test.c): at `end` while it lies
    /// ahead; for a job already past it (`end <= now`), `_guess_job_end`: `end` plus
    /// `KillWait` (and `OverTimeLimit`); with `OverTimeLimit=UNLIMITED`, its time limit from
    /// now (`now + time_limit * 60`: "no idea when the job might end"), a year from now when
    /// it has none; never before now + 1.
    fn guessed_end(&self, end: Time, limit: Option<Time>) -> Time {
        if end > self.now {
            return end;
        }
        let guess = match self.late_grace {
            Some(g) => end.saturating_add(g),
            None => self
                .now
                .saturating_add(limit.filter(|&l| l > 0).unwrap_or(super::NO_LIMIT)),
        };
        guess.max(self.now + 1)
    }

    /// True when a reservation holds a node of `a` over a job's run from `start` for `len`
    /// seconds as `_attempt_backfill` checks a start later than now (`_test_resv_overlap`):
    /// the run's start and end rounded down to the resolution on the log's clock, as a
    /// reservation's are, and a reservation overlapping that interval strictly (`end_time >
    /// start_time && begin_time < end_reserve`): one beginning at the rounded end, or ending
    /// at the rounded start, does not count.
    /// The reservations as made (not merged: the test is strict), of `a`'s nodes only.
    fn overlaps(&self, start: Time, len: Time, a: &[Share]) -> bool {
        let from = super::round_down(start, self.resolution, self.clock);
        let to = super::round_down(start.saturating_add(len), self.resolution, self.clock);
        self.holds.overlap(from, to, a.iter().map(|s| s.node))
    }

    /// select/cons_tres's will-run test on the nodes not in `out` (`trial`: the state it works
    /// in): now if the job fits there; else the running jobs on those nodes are taken away in
    /// groups by planned end (the first group up to its first end rounded up to [`WINDOW`]
    /// seconds, plus `WINDOW`; each next group's span doubled; a running job on none of the
    /// nodes is passed over and never ends a group, `_will_run_test`), and the job starts at
    /// the last end of the first group after which it fits (a job past its end: Slurm's guess
    /// at its end, [`NodePlan::guessed_end`]).
    fn will_run(
        &self,
        trial: &mut Trial,
        l: &Layout,
        need: &Need,
        out: &[bool],
        more: Option<&[u32]>,
    ) -> Option<(Time, Alloc)> {
        trial.prepare(l, &self.free, out, need.part);
        if let Some(a) = super::fit::best_fit_weighted(l, trial.free(), need, more) {
            return Some((self.now, a));
        }
        // Slurm's walk (`_will_run_test`): the running jobs by planned end, given back a group
        // at a time. A job on none of the job's candidate nodes (its partition's, less those
        // held: the test's `node_bitmap`) is passed over, and so never ends a group: after
        // each job given back, the group ends where the next running job, on those nodes or
        // not, ends past the window; the next job on the nodes then joins however late it
        // ends. The window is set from the first job on the nodes: its end's next multiple of
        // 30 s on the log's clock, the window doubled after each group until it reaches the
        // next job.
        let on_nodes = |a: &Alloc| {
            a.iter().any(|s| {
                let n = s.node as usize;
                !out[n] && l.node_parts[n].contains(&need.part)
            })
        };
        let mut ends = self.ends.iter().peekable();
        let mut barrier: Option<Time> = None;
        let mut window = WINDOW;
        loop {
            let mut last = None;
            while let Some((end, a, limit)) = ends.next() {
                if !on_nodes(a) {
                    continue;
                }
                let b = *barrier
                    .get_or_insert_with(|| super::round_down(*end, WINDOW, self.clock) + WINDOW);
                last = Some((*end, *limit));
                if !trial.next_group_kept() {
                    trial.set_aside_outside(a);
                }
                if ends.peek().is_none_or(|e| e.0 > b + window) {
                    break;
                }
            }
            let (end, limit) = last?;
            trial.give_set_aside(l);
            let b = barrier?;
            loop {
                window *= 2;
                if ends.peek().is_none_or(|e| e.0 <= b + window) {
                    break;
                }
            }
            if let Some(a) = super::fit::best_fit(l, trial.free(), need) {
                return Some((self.guessed_end(end, limit), a));
            }
            ends.peek()?;
        }
    }

    /// Slurm's `later_start` from a start `t` (`_attempt_backfill`'s walk of the node_space
    /// map): the first reservation boundary after `t` at which a node some reservation holds
    /// between `t` and that boundary is free again, before the map's end; `None` when there
    /// is none. A node is free again first where the first run of its reservations still
    /// held after `t` (each overlapping or touching the next) ends, so the answer is the
    /// earliest such end over the nodes: the first run end after `t` ([`Holds`]).
    fn later_start(&self, t: Time) -> Option<Time> {
        self.holds.first_end_after(t).filter(|&e| e < self.end)
    }

    /// The earliest start of a job asking `need` for `len` seconds, with the allocation it
    /// gets then (`_attempt_backfill`'s loop): from a start `t` (now first), the nodes no
    /// reservation holds over `[t, t + len]` are tested ([`NodePlan::will_run`]). A start
    /// after `t`'s [`NodePlan::later_start`] tries again from there (nodes a reservation
    /// held are free again then, the job may start sooner on them: Slurm's `TRY_LATER`);
    /// a start on nodes a reservation holds over the job's own run tries again from that
    /// start; no fit tries again from the later start, else the job gets none.
    /// `more`: what `select_nodes` adds to each node's weight for a start now (`_start_job`
    /// selects its nodes anew among those the will-run test had: `prefer.rs`); a later start
    /// keeps the configured weights.
    pub(super) fn earliest(
        &mut self,
        l: &Layout,
        need: &Need,
        len: Time,
        more: Option<&[u32]>,
    ) -> Option<(Time, Alloc)> {
        let mut s = std::mem::take(&mut self.scratch);
        let found = self.earliest_in(&mut s, l, need, len, more);
        self.scratch = s;
        found
    }

    /// [`NodePlan::earliest`] in the buffers `s`.
    fn earliest_in(
        &mut self,
        s: &mut Scratch,
        l: &Layout,
        need: &Need,
        len: Time,
        more: Option<&[u32]>,
    ) -> Option<(Time, Alloc)> {
        let mut trial = s.trial.take().unwrap_or_else(|| Trial::new(&self.free));
        let mut t = self.now;
        self.tried = false;
        self.raised = false;
        let found = loop {
            let later = self.later_start(t);
            // The nodes held over some of [t, t + len] (Slurm's `begin_time <= end_time`).
            self.holds.held_over(t, t.saturating_add(len), &mut s.out);
            let open = (0..s.out.len())
                .filter(|&n| !s.out[n] && l.node_parts[n].contains(&need.part))
                .count();
            self.tried |= open >= need.nodes.max(1) as usize;
            let now_more = more.filter(|_| t == self.now);
            if let Some((start, a)) = self.will_run(&mut trial, l, need, &s.out, now_more) {
                self.raised = start < t;
                let start = start.max(t);
                if let Some(b) = later.filter(|&b| start > b) {
                    t = b;
                    continue;
                }
                if start <= self.now || !self.overlaps(start, len, &a) {
                    break Some((start, a));
                }
                if start > t {
                    t = start;
                    continue;
                }
            }
            match later {
                Some(b) => t = b,
                None => break None,
            }
        };
        s.trial = Some(trial);
        found
    }

    /// Whether the last job [`NodePlan::earliest`] looked at reached select/cons_tres's
    /// will-run test (`_try_sched`): at one of the starts tried, its partition had at least
    /// its node count (one without `-N`) of nodes no reservation holds over its run.
    /// `_attempt_backfill` counts toward `bf_max_job_test` only such jobs
    /// (`bf_last_depth_try`, raised just before `_try_sched`); a job with too few nodes left
    /// is passed over uncounted (`bit_set_count(avail_bitmap) < min_nodes`).
    pub(super) fn tried(&self) -> bool {
        self.tried
    }

    /// Whether the start [`NodePlan::earliest`] found for the last job is the start it was
    /// tried at (`start_res`, a later start of the map), later than its will-run test's
    /// (which reads only the running jobs): `_attempt_backfill` then sets the job's start
    /// to `start_res` and `last_job_update` (`start_res > job_ptr->start_time`), a change
    /// for the backfill thread ([`super::agent::Agent::ran`]).
    pub(super) fn raised(&self) -> bool {
        self.raised
    }

    /// A job allocated `a` starts now and runs until `end` (after now: its time limit is
    /// never read, [`NodePlan::guessed_end`]).
    pub(super) fn start(&mut self, l: &Layout, a: Alloc, end: Time) {
        self.free.take(l, &a);
        if let Some(trial) = &mut self.scratch.trial {
            trial.rebase_take(l, &self.free, &a);
        }
        let at = self.ends.partition_point(|e| e.0 <= end);
        self.ends.insert(at, (end, a, None));
    }

    /// The nodes of `a` are reserved over [from, to).
    pub(super) fn hold(&mut self, from: Time, to: Time, a: &[Share]) {
        self.holds.hold(from, to, a.iter().map(|s| s.node));
    }
}

#[cfg(test)]
mod tests;
