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

/// The node state during a simulation: demands on nodes and each running job's progress.
pub struct Nodes {
    model: NodeModel,
    kill: bool,
    demand: Vec<f64>,
    node_demand: Vec<f64>,
    /// The penalty of each node at its current demand (kept with `node_demand`).
    node_pen: Vec<f64>,
    on_node: Vec<Vec<usize>>,
    spread: Vec<Vec<(u32, u32)>>,
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
    /// Per job, the last `stamp` it was listed in `touched` with (to list it once).
    seen: Vec<u32>,
    stamp: u32,
    /// Spread buffers of stopped jobs, reused by the next starts.
    pool: Vec<Vec<(u32, u32)>>,
    /// Per running job, the largest penalty of its nodes (kept as node penalties change).
    max_pen: Vec<f64>,
    /// Per job, the `stamp` at which its `max_pen` went stale (a node at its maximum eased).
    stale: Vec<u32>,
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
            on_node: vec![Vec::new(); nodes],
            spread: vec![Vec::new(); n],
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
            seen: vec![0; n],
            stamp: 0,
            pool: Vec::new(),
            max_pen: vec![0.0; n],
            stale: vec![0; n],
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

    /// Job `k`'s factor from its nodes' penalties: [`super::penalty::job_factor`], from `max_pen` unless it
    /// went stale in this start or stop.
    fn recompute(&mut self, k: usize, now: Time) {
        if self.stale[k] == self.stamp {
            self.max_pen[k] = max_penalty(
                self.spread[k]
                    .iter()
                    .map(|&(n, _)| self.node_pen[n as usize]),
            );
        }
        let f = 1.0 + self.max_pen[k];
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

    /// The jobs sharing a node with `j` (sorted, without `j`), each advanced to `now`; hand the
    /// list back to `self.touched` when done with it (it is reused).
    fn advance_neighbours(&mut self, j: usize, now: Time) -> Vec<usize> {
        self.touched.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.seen[j] = stamp;
        for &(n, _) in &self.spread[j] {
            for &k in &self.on_node[n as usize] {
                if self.seen[k] != stamp {
                    self.seen[k] = stamp;
                    self.touched.push(k);
                }
            }
        }
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
        let mut own = self.pool.pop().unwrap_or_default();
        self.model.per_node_into(procs.intervals(), &mut own);
        self.spread[j] = own;
        let touched = self.advance_neighbours(j, now);
        for i in 0..self.spread[j].len() {
            let (n, count) = self.spread[j][i];
            self.node_free[n as usize] -= count;
            self.node_demand[n as usize] += f64::from(count) * self.demand[j];
            self.set_pen(n);
            self.on_node[n as usize].push(j);
        }
        self.remaining[j] = job.runtime as f64;
        self.since[j] = now;
        self.stale[j] = self.stamp;
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
        let touched = self.advance_neighbours(j, now);
        for i in 0..self.spread[j].len() {
            let (n, count) = self.spread[j][i];
            self.node_free[n as usize] += count;
            let list = &mut self.on_node[n as usize];
            if let Some(pos) = list.iter().position(|&k| k == j) {
                list.remove(pos);
            }
            self.node_demand[n as usize] = if list.is_empty() {
                0.0
            } else {
                (self.node_demand[n as usize] - f64::from(count) * self.demand[j]).max(0.0)
            };
            self.set_pen(n);
        }
        let mut own = std::mem::take(&mut self.spread[j]);
        own.clear();
        self.pool.push(own);
        self.update(&touched, now, moved);
        self.touched = touched;
        self.work[j]
    }

    /// Node `n`'s penalty at its new demand, noted in the `max_pen` of the jobs on it (stale
    /// where a node at a job's maximum eased).
    fn set_pen(&mut self, n: u32) {
        let n = n as usize;
        let old = self.node_pen[n];
        let new = self.penalty_at(self.node_demand[n]);
        self.node_pen[n] = new;
        for &k in &self.on_node[n] {
            let m = self.max_pen[k];
            if new > m {
                self.max_pen[k] = new;
            } else if new < old && old == m {
                self.stale[k] = self.stamp;
            }
        }
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
