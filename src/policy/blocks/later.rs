//! The machine now and at the running jobs' planned ends after now, assuming they end then:
//! what LessConsume-Threshold's search looks at. A [`Horizon`] keeps the states it walked for
//! one machine state (by [`Ctx::state_id`]), so that every search on that state (RUA's
//! thresholds, the waiting jobs tried between two starts) shares one walk and one set of
//! buffers; the walk keeps free processors and demand per node (no processor sets).

use super::less_consume::{FreeNode, Scratch};
use crate::sim::{Ctx, ProcSet};
use crate::Time;
use std::collections::HashSet;

/// One later state of the machine: at `t`, `total` free processors on the free `nodes` (empty
/// without the node model), once the first `freed` running jobs (by planned end) ended.
pub(super) struct State {
    pub(super) t: Time,
    pub(super) total: u32,
    pub(super) nodes: Vec<FreeNode>,
    freed: usize,
}

/// The machine now and at the running jobs' planned ends, for the machine state of the
/// [`Ctx`] it was last given (rebuilt when that state changes), with the LessConsume buffers
/// the searches on it share. Owned by a policy and reused from one state to the next.
#[derive(Default)]
pub struct Horizon {
    /// The state id the contents belong to (0: none).
    id: u64,
    /// The free nodes now.
    pub(super) now_nodes: Vec<FreeNode>,
    /// The later states (the first `reached` are walked; the rest are buffers to reuse).
    states: Vec<State>,
    reached: usize,
    pub(super) scratch: Scratch,
    /// The walk, started at the first later state asked for.
    walk: Walk,
    /// Searches found to start later on this state, by the job's processors, demand per
    /// process and threshold (bits): the search depends on nothing else of the job.
    pub(super) later: HashSet<(u32, u64, u64)>,
}

/// Where the walk of a [`Horizon`] is: the running jobs by planned end, the next one, the free
/// processors in all and per node, the demand per node.
#[derive(Default)]
struct Walk {
    started: bool,
    running: Vec<(Time, usize)>,
    i: usize,
    total: u32,
    free: Vec<u32>,
    demand: Vec<f64>,
}

impl Horizon {
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes this the horizon of the machine state of `c` (kept when it is still that state's).
    pub fn on(&mut self, c: &Ctx<'_>) {
        if self.id == c.state_id() {
            return;
        }
        self.id = c.state_id();
        self.reached = 0;
        self.walk.started = false;
        self.later.clear();
        self.now_nodes.clear();
        if let Some(view) = c.nodes() {
            free_nodes_into(view.node_free(), view.node_demands(), &mut self.now_nodes);
        }
    }

    fn start_walk(&mut self, c: &Ctx<'_>) {
        let w = &mut self.walk;
        w.started = true;
        w.running.clear();
        w.running.extend(c.running());
        w.i = 0;
        w.total = c.free();
        w.free.clear();
        w.demand.clear();
        if let Some(view) = c.nodes() {
            w.free.extend_from_slice(view.node_free());
            w.demand.extend_from_slice(view.node_demands());
        }
    }

    /// True when the `i`-th later state exists ([`Horizon::state`]), walking to it if needed.
    /// The horizon must be on the state of `c` ([`Horizon::on`]).
    pub(super) fn reach(&mut self, c: &Ctx<'_>, i: usize) -> bool {
        debug_assert_eq!(self.id, c.state_id(), "a horizon of another state");
        let now = c.now();
        while self.reached <= i {
            if !self.walk.started {
                self.start_walk(c);
            }
            let w = &mut self.walk;
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
            if self.states.len() <= self.reached {
                self.states.push(State {
                    t: 0,
                    total: 0,
                    nodes: Vec::new(),
                    freed: 0,
                });
            }
            let state = &mut self.states[self.reached];
            state.t = t;
            state.total = w.total;
            state.freed = w.i;
            free_nodes_into(&w.free, &w.demand, &mut state.nodes);
            self.reached += 1;
        }
        true
    }

    /// The `i`-th later state (reached: [`Horizon::reach`]).
    pub(super) fn state(&self, i: usize) -> &State {
        &self.states[..self.reached][i]
    }

    /// The free processors of `state` (a state this horizon walked on the state of `c`).
    pub(super) fn free_set(&self, c: &Ctx<'_>, state: &State) -> ProcSet {
        let mut free = c.free_set().clone();
        for &(_, k) in &self.walk.running[..state.freed] {
            free.insert(c.procs_of(k));
        }
        free
    }
}

/// The free nodes of a state given its free processors and demand per node, ascending by id,
/// into `out` (cleared first).
pub(super) fn free_nodes_into(free: &[u32], demand: &[f64], out: &mut Vec<FreeNode>) {
    out.clear();
    out.extend(
        free.iter()
            .zip(demand)
            .enumerate()
            .filter(|(_, (&k, _))| k > 0)
            .map(|(n, (&k, &d))| (n as u32, k, d)),
    );
}
