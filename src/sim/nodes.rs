//! The node model of Guim, Rodero & Corbalan: the machine is nodes of `cores` processors
//! (processor `p` is on node `p / cores`) sharing a memory bandwidth per node; each job demands a
//! bandwidth per process. While a node's demand exceeds its capacity, every job on it runs
//! slower (see [`super::penalty`]), so its end moves as co-located jobs start and end.
//!
//! Runtime model (a choice where the paper is silent on the dynamics): a job progresses at rate
//! `1 / factor`, where `factor` = 1 + the largest current penalty of its nodes; so a shared window
//! of `L` seconds of the job's own progress adds `L x penalty` seconds (equation 3), and a job
//! whose whole run is in one window has the paper's penalty factor `(rt + prt) / rt = 1 + penalty`.
//! Ends are rounded up to whole seconds; a job whose penalized end passes its kill time
//! (start + requested time) is killed there.

use super::node_jobs::{FreeMasks, NodeJobs};
use super::penalty::{max_penalty, node_penalty};
use super::procset::ProcSet;
use crate::job::Job;
use crate::machine::NodeModel;
use crate::Time;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde::Serialize;

/// Seed of the demand draw, derived from the run seed (a stream apart from the policy's RNG).
const DEMAND_STREAM: u64 = 0x6e6f_6465_5f62_7721;

/// Each job's memory bandwidth per process (MB/s): from its SWF field, or drawn from the mix
/// with a generator seeded by `seed` (one draw per job, in arrival order).
pub fn demands(jobs: &[Job], model: &NodeModel, seed: u64) -> Vec<f64> {
    if model.field.is_some() {
        return jobs.iter().map(|j| j.bandwidth).collect();
    }
    let (high, medium) = model.mix.shares();
    let mut rng = Pcg64::seed_from_u64(seed ^ DEMAND_STREAM);
    jobs.iter()
        .map(|_| {
            let u: f64 = rng.random();
            if u < high {
                model.high
            } else if u < high + medium {
                model.medium
            } else {
                model.low
            }
        })
        .collect()
}

/// `(node, processes)` of a processor set, ascending by node.
pub fn spread(model: &NodeModel, procs: &ProcSet) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    model.per_node_into(procs.intervals(), &mut out);
    out
}

/// A job's spread and its processors' masks per node (buffers reused from job to job).
type Held = (Vec<(u32, u32)>, Vec<u64>);

/// What a change of a job's nodes' penalties reads and writes, together (one cache line).
#[derive(Clone, Copy, Default)]
struct JobPen {
    /// The largest penalty of the running job's nodes (kept as node penalties change).
    max: f64,
    /// How many of its nodes have the penalty `max`.
    at_max: u32,
    /// The last `stamp` the job was listed in `touched` with (to list it once).
    seen: u32,
    /// The `stamp` at which `max` went stale (every node at the maximum eased).
    stale: u32,
}

/// The node state during a simulation: demands on nodes and each running job's progress.
pub struct Nodes {
    model: NodeModel,
    kill: bool,
    demand: Vec<f64>,
    node_demand: Vec<f64>,
    /// The penalty of each node at its current demand (kept with `node_demand`).
    node_pen: Vec<f64>,
    on_node: NodeJobs,
    spread: Vec<Vec<(u32, u32)>>,
    /// Per running job, its processors on each node of its spread as a mask (when kept).
    held: Vec<Vec<u64>>,
    free_masks: FreeMasks,
    remaining: Vec<f64>,
    factor: Vec<f64>,
    since: Vec<Time>,
    end: Vec<Time>,
    kill_at: Vec<Option<Time>>,
    by_kill: Vec<bool>,
    work: Vec<f64>,
    touched: Vec<usize>,
    /// Free processors per node (kept at each start and stop).
    node_free: Vec<u32>,
    /// Per job, what a change of its nodes' penalties reads (see [`JobPen`]).
    pen: Vec<JobPen>,
    stamp: u32,
    /// Spread and mask buffers of stopped jobs, reused by the next starts.
    pool: Vec<Held>,
}

impl Nodes {
    /// `kill`: jobs are killed at start + requested time (the input option).
    pub(crate) fn new(jobs: &[Job], procs: u32, model: &NodeModel, kill: bool, seed: u64) -> Self {
        let n = jobs.len();
        let nodes = model.node_count(procs) as usize;
        Self {
            model: model.clone(),
            kill,
            demand: demands(jobs, model, seed),
            node_demand: vec![0.0; nodes],
            node_pen: vec![node_penalty(&[(0.0, model.bandwidth)]); nodes],
            on_node: NodeJobs::new(nodes, model.cores),
            spread: vec![Vec::new(); n],
            held: vec![Vec::new(); n],
            free_masks: FreeMasks::new(procs, model.cores),
            remaining: vec![0.0; n],
            factor: vec![1.0; n],
            since: vec![0; n],
            end: vec![-1; n],
            kill_at: vec![None; n],
            by_kill: vec![false; n],
            work: vec![0.0; n],
            touched: Vec::new(),
            node_free: (0..nodes as u32)
                .map(|i| procs.saturating_sub(i * model.cores).min(model.cores))
                .collect(),
            pen: vec![JobPen::default(); n],
            stamp: 0,
            pool: Vec::new(),
        }
    }

    pub fn model(&self) -> &NodeModel {
        &self.model
    }

    /// Memory bandwidth per process of job `j`, MB/s.
    pub fn demand(&self, j: usize) -> f64 {
        self.demand[j]
    }

    /// The summed demand of the jobs running on node `n` now.
    pub fn node_demand(&self, n: u32) -> f64 {
        self.node_demand[n as usize]
    }

    pub fn node_count(&self) -> u32 {
        self.node_demand.len() as u32
    }

    /// `(node, processes)` of running job `j`, ascending by node (empty once it stopped).
    pub fn spread_of(&self, j: usize) -> &[(u32, u32)] {
        &self.spread[j]
    }

    /// Free processors per node now, by node id.
    pub fn node_free(&self) -> &[u32] {
        &self.node_free
    }

    /// Free processors per node now as bit masks (bit `i`: processor `node x cores + i`), by
    /// node id; `None` when nodes have more than 64 cores.
    pub fn free_masks(&self) -> Option<&[u64]> {
        self.free_masks.masks()
    }

    /// The summed demand of the jobs running on each node now, by node id.
    pub fn node_demands(&self) -> &[f64] {
        &self.node_demand
    }

    /// The penalty of node `n` if its demand were `demand`.
    pub fn penalty_at(&self, demand: f64) -> f64 {
        node_penalty(&[(demand, self.model.bandwidth)])
    }

    /// Current penalty factor of running job `j` (1 = no penalty).
    pub fn factor(&self, j: usize) -> f64 {
        self.factor[j]
    }

    /// Current end of running job `j` (penalized, or its kill time).
    pub fn end(&self, j: usize) -> Time {
        self.end[j]
    }

    /// True when running job `j` will be (or was) killed for overrunning its requested time
    /// because of its penalty.
    pub fn killed_by_penalty(&self, j: usize) -> bool {
        self.by_kill[j]
    }

    fn advance(&mut self, k: usize, now: Time) {
        let dt = (now - self.since[k]) as f64;
        self.remaining[k] = (self.remaining[k] - dt / self.factor[k]).max(0.0);
        self.since[k] = now;
    }

    /// Job `k`'s factor from its nodes' penalties: [`super::penalty::job_factor`], from its `max` unless it
    /// went stale in this start or stop.
    fn recompute(&mut self, k: usize, now: Time) {
        if self.pen[k].stale == self.stamp {
            let pens = self.spread[k]
                .iter()
                .map(|&(n, _)| self.node_pen[n as usize]);
            let m = max_penalty(pens.clone());
            self.pen[k].max = m;
            self.pen[k].at_max = pens.filter(|&p| p == m).count() as u32;
        }
        let f = 1.0 + self.pen[k].max;
        self.factor[k] = f;
        let left = (self.remaining[k] * f - 1e-6).ceil().max(0.0);
        let pen_end = now.saturating_add(left.min(i64::MAX as f64 / 4.0) as Time);
        match self.kill_at[k] {
            Some(kill) if pen_end > kill => {
                self.end[k] = kill.max(now);
                self.by_kill[k] = true;
            }
            _ => {
                self.end[k] = pen_end;
                self.by_kill[k] = false;
            }
        }
    }

    /// A new stamp for the jobs listed in `touched` (cleared): `j` alone counts as listed.
    fn new_stamp(&mut self, j: usize) -> u32 {
        self.touched.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.pen.iter_mut().for_each(|p| p.seen = 0);
            self.stamp = 1;
        }
        self.pen[j].seen = self.stamp;
        self.stamp
    }

    /// Node `n`'s demand is now `demand`: its penalty follows, and the jobs on it are listed in
    /// `touched` (once per stamp) with their `max` and `at_max` noted (stale where the last
    /// node at a job's maximum eased).
    #[inline(always)]
    fn node_changed(&mut self, n: u32, demand: f64) {
        let n = n as usize;
        self.node_demand[n] = demand;
        let old = self.node_pen[n];
        let new = self.penalty_at(demand);
        self.node_pen[n] = new;
        let stamp = self.stamp;
        for &k in self.on_node.on(n as u32) {
            let k = k as usize;
            let p = &mut self.pen[k];
            if p.seen != stamp {
                p.seen = stamp;
                self.touched.push(k);
            }
            // An unchanged penalty changes no job's maximum (`old` <= every `max`).
            if new == old {
                continue;
            }
            if new > p.max {
                p.max = new;
                p.at_max = 1;
            } else if new == p.max {
                p.at_max += 1;
            } else if old == p.max {
                p.at_max = p.at_max.saturating_sub(1);
                if p.at_max == 0 {
                    p.stale = stamp;
                }
            }
        }
    }

    /// The jobs listed in `touched` (those sharing a node with the job that started or
    /// stopped), sorted, each advanced to `now`; hand the list back to `self.touched` when done
    /// with it (it is reused).
    fn advance_touched(&mut self, now: Time) -> Vec<usize> {
        self.touched.sort_unstable();
        let touched = std::mem::take(&mut self.touched);
        for &k in &touched {
            self.advance(k, now);
        }
        touched
    }

    /// Job `j` (of `job`) starts now on `procs`. Pushes `(job, new end)` for `j` and every
    /// co-located job whose end moved into `moved`.
    pub(crate) fn start(
        &mut self,
        j: usize,
        job: &Job,
        procs: &ProcSet,
        now: Time,
        moved: &mut Vec<(usize, Time)>,
    ) {
        let (mut own, mut held) = self.pool.pop().unwrap_or_default();
        self.free_masks
            .spread_into(procs.intervals(), &mut own, &mut held);
        self.free_masks.update(&own, &held, true);
        self.new_stamp(j);
        let per_proc = self.demand[j];
        // The largest penalty of the job's nodes (as [`max_penalty`] folds them) and how many
        // have it.
        let (mut max, mut at_max) = (0.0, 0);
        for &(n, count) in &own {
            self.node_free[n as usize] -= count;
            let demand = self.node_demand[n as usize] + f64::from(count) * per_proc;
            self.node_changed(n, demand);
            self.on_node.add(n, j);
            let p = self.node_pen[n as usize];
            if p > max {
                (max, at_max) = (p, 1);
            } else if p == max {
                at_max += 1;
            }
        }
        self.spread[j] = own;
        self.held[j] = held;
        self.pen[j].max = max;
        self.pen[j].at_max = at_max;
        let touched = self.advance_touched(now);
        self.remaining[j] = job.runtime as f64;
        self.since[j] = now;
        self.kill_at[j] = job
            .requested()
            .filter(|&r| self.kill && job.runtime <= r)
            .map(|r| now + r);
        self.recompute(j, now);
        moved.push((j, self.end[j]));
        self.update(&touched, now, moved);
        self.touched = touched;
    }

    /// Job `j` stops now (ends, is killed or preempted); returns the work it did (seconds of
    /// its own progress) and pushes the co-located jobs whose end moved into `moved`.
    pub(crate) fn stop(
        &mut self,
        j: usize,
        job: &Job,
        now: Time,
        moved: &mut Vec<(usize, Time)>,
    ) -> f64 {
        self.advance(j, now);
        self.work[j] = job.runtime as f64 - self.remaining[j];
        self.new_stamp(j);
        let mut own = std::mem::take(&mut self.spread[j]);
        let mut held = std::mem::take(&mut self.held[j]);
        self.free_masks.update(&own, &held, false);
        let per_proc = self.demand[j];
        for &(n, count) in &own {
            self.node_free[n as usize] += count;
            self.on_node.remove(n, j);
            let demand = if self.on_node.on(n).is_empty() {
                0.0
            } else {
                (self.node_demand[n as usize] - f64::from(count) * per_proc).max(0.0)
            };
            self.node_changed(n, demand);
        }
        own.clear();
        held.clear();
        self.pool.push((own, held));
        let touched = self.advance_touched(now);
        self.update(&touched, now, moved);
        self.touched = touched;
        self.work[j]
    }

    fn update(&mut self, touched: &[usize], now: Time, moved: &mut Vec<(usize, Time)>) {
        for &k in touched {
            let old = self.end[k];
            self.recompute(k, now);
            if self.end[k] != old {
                moved.push((k, self.end[k]));
            }
        }
    }

    /// What the schedule keeps: the model, the demands and each job's work in its final run.
    pub(crate) fn outcome(self) -> NodeOutcome {
        NodeOutcome {
            model: self.model,
            demand: self.demand,
            work: self.work,
        }
    }
}

/// The node model's part of a schedule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeOutcome {
    pub model: NodeModel,
    /// Memory bandwidth per process of each job, MB/s.
    pub demand: Vec<f64>,
    /// Seconds of its own progress each job made in its final run (its runtime unless killed).
    pub work: Vec<f64>,
}

impl NodeOutcome {
    /// Penalized time of a job that ran from `start` to `end`: run length - work done.
    pub fn penalized(&self, j: usize, start: Time, end: Time) -> f64 {
        ((end - start) as f64 - self.work[j]).max(0.0)
    }
}
