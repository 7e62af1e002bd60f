//! The machine at the running jobs' planned ends after now, assuming they end then: what
//! LessConsume-Threshold's search looks at. [`Later`] walks it once; [`Horizon`] keeps the
//! states it walked, so that several searches on the same machine state (RUA's thresholds and
//! waiting jobs between two starts) share one walk and one set of buffers.

use super::less_consume::{free_nodes_into, FreeNode, Scratch};
use crate::sim::nodes::spread_lowest_into;
use crate::sim::{Ctx, ProcSet};
use crate::Time;

/// The machine at the running jobs' planned ends after now, assuming they end then: the free
/// processors and the demand per node, time after time.
pub(super) struct Later<'c, 'a> {
    c: &'c Ctx<'a>,
    running: Vec<(Time, usize)>,
    i: usize,
    pub(super) free: ProcSet,
    pub(super) demand: Vec<f64>,
    spread: Vec<(u32, u32)>,
}

impl<'c, 'a> Later<'c, 'a> {
    pub(super) fn new(c: &'c Ctx<'a>) -> Self {
        Self {
            c,
            running: c.running().collect(),
            i: 0,
            free: c.free_set().clone(),
            demand: demand_now(c),
            spread: Vec::new(),
        }
    }

    /// Moves to the next time (the jobs planned to end then freed) and returns it.
    pub(super) fn advance(&mut self) -> Option<Time> {
        let c = self.c;
        let now = c.now();
        let first = self.running.get(self.i)?;
        // A job past its planned end in this instant (its end just moved) frees nothing now.
        let t = first.0.max(now + 1);
        while self.i < self.running.len() && self.running[self.i].0.max(now + 1) == t {
            let k = self.running[self.i].1;
            let procs = c.procs_of(k);
            self.free.insert(procs);
            if let Some(nodes) = c.nodes() {
                spread_lowest_into(nodes.model(), procs, u32::MAX, &mut self.spread);
                for &(n, cnt) in &self.spread {
                    if let Some(d) = self.demand.get_mut(n as usize) {
                        *d = (*d - f64::from(cnt) * nodes.demand(k)).max(0.0);
                    }
                }
            }
            self.i += 1;
        }
        Some(t)
    }
}

/// One state of the machine: at `t`, `total` free processors on the free `nodes` (empty
/// without the node model).
pub(super) struct State {
    pub(super) t: Time,
    pub(super) total: u32,
    pub(super) nodes: Vec<FreeNode>,
}

/// The machine now and at the running jobs' planned ends, walked once for every search on the
/// same state (valid until a job starts or ends), with the LessConsume buffers they share. The
/// walk keeps free processors and demand per node (no processor sets): all a search needs.
pub struct Horizon<'c, 'a> {
    c: &'c Ctx<'a>,
    /// The free nodes now.
    pub(super) now_nodes: Vec<FreeNode>,
    /// The later states walked so far, in time order.
    pub(super) states: Vec<State>,
    pub(super) scratch: Scratch,
    /// The walk, started at the first later state asked for.
    walk: Option<Walk>,
}

/// Where the walk of a [`Horizon`] is: the running jobs by planned end, the next one, the free
/// processors in all and per node, the demand per node.
struct Walk {
    running: Vec<(Time, usize)>,
    i: usize,
    total: u32,
    free: Vec<u32>,
    demand: Vec<f64>,
}

impl<'c, 'a> Horizon<'c, 'a> {
    /// The horizon of the machine state of `c` now.
    pub fn new(c: &'c Ctx<'a>) -> Self {
        let mut now_nodes = Vec::new();
        if let Some(nodes) = c.nodes() {
            free_nodes_into(
                nodes.model(),
                c.free_set(),
                nodes.node_demands(),
                &mut now_nodes,
            );
        }
        Self {
            c,
            now_nodes,
            states: Vec::new(),
            scratch: Scratch::default(),
            walk: None,
        }
    }

    fn start_walk(&self) -> Walk {
        let c = self.c;
        let (mut free, demand) = match c.nodes() {
            Some(view) => (
                vec![0; view.node_count() as usize],
                view.node_demands().to_vec(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        for &(n, k, _) in &self.now_nodes {
            free[n as usize] = k;
        }
        Walk {
            running: c.running().collect(),
            i: 0,
            total: c.free_set().len(),
            free,
            demand,
        }
    }

    /// True when the `i`-th later state exists (walking to it if needed).
    pub(super) fn reach(&mut self, i: usize) -> bool {
        let c = self.c;
        let now = c.now();
        while self.states.len() <= i {
            if self.walk.is_none() {
                self.walk = Some(self.start_walk());
            }
            let w = self.walk.as_mut().expect("started");
            let Some(first) = w.running.get(w.i) else {
                return false;
            };
            // A job past its planned end in this instant (its end just moved) frees nothing
            // now.
            let t = first.0.max(now + 1);
            while w.i < w.running.len() && w.running[w.i].0.max(now + 1) == t {
                let k = w.running[w.i].1;
                w.total += c.procs_of(k).len();
                if let Some(view) = c.nodes() {
                    for &(n, cnt) in view.spread(k) {
                        w.free[n as usize] += cnt;
                        let d = &mut w.demand[n as usize];
                        *d = (*d - f64::from(cnt) * view.demand(k)).max(0.0);
                    }
                }
                w.i += 1;
            }
            let nodes = w
                .free
                .iter()
                .zip(&w.demand)
                .enumerate()
                .filter(|(_, (&k, _))| k > 0)
                .map(|(n, (&k, &d))| (n as u32, k, d))
                .collect();
            self.states.push(State {
                t,
                total: w.total,
                nodes,
            });
        }
        true
    }
}

/// Demand per node now.
fn demand_now(c: &Ctx<'_>) -> Vec<f64> {
    c.nodes().map_or_else(Vec::new, |n| {
        (0..n.node_count()).map(|i| n.node_demand(i)).collect()
    })
}
