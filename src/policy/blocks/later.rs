//! The machine now and at the running jobs' planned ends after now, assuming they end then:
//! what LessConsume-Threshold's search looks at. A [`Horizon`] keeps the states it walked for
//! one machine state (by [`Ctx::state_id`]), so that every search on that state (RUA's
//! thresholds, the waiting jobs tried between two starts) shares one walk and one set of
//! buffers; the walk keeps free processors and demand per node (no processor sets), and the
//! free nodes counted by demand and free processors ([`NodeGroups`]): enough for the factor of
//! a complete LessConsume run, which spares the run on a state where no threshold can be met.
//! Keeping the groups costs; they are kept while they spare enough runs ([`Pays`]).

use super::less_consume::{FreeNode, Scratch};
use crate::sim::{Ctx, NodesView, ProcSet};
use crate::Time;
use node_groups::NodeGroups;
use std::collections::HashSet;

mod node_groups;

/// One later state of the machine: at `t`, `total` free processors on the free `nodes` (empty
/// without the node model), once the first `freed` running jobs (by planned end) ended; those
/// nodes counted by demand and free processors (when the horizon keeps groups).
pub(super) struct State {
    pub(super) t: Time,
    pub(super) total: u32,
    groups: NodeGroups,
    nodes: Vec<FreeNode>,
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
    /// The free nodes now by demand and free processors (built when first asked for).
    now_groups: NodeGroups,
    now_grouped: bool,
    /// Whether this state keeps node groups (now and in the walk), as [`Pays`] decides.
    grouping: bool,
    pays: Pays,
    /// A buffer of [`NodeGroups::factor`].
    pub(super) slots: Vec<(f64, u32)>,
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
    /// The free nodes counted (kept only while the horizon is `grouping`).
    groups: NodeGroups,
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
        self.now_grouped = false;
        self.grouping = self.pays.decide();
        self.now_nodes.clear();
        if let Some(view) = c.nodes() {
            free_nodes_into(view.node_free(), view.node_demands(), &mut self.now_nodes);
        }
    }

    /// The free nodes now by demand and free processors.
    pub(super) fn now_groups(&mut self) -> &NodeGroups {
        if !self.now_grouped {
            self.now_grouped = true;
            self.now_groups.build(&self.now_nodes);
        }
        &self.now_groups
    }

    fn start_walk(&mut self, c: &Ctx<'_>) {
        if self.grouping {
            self.now_groups();
            self.walk.groups.copy_from(&self.now_groups);
        }
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
                    let groups = self.grouping.then_some(&mut w.groups);
                    release(view, k, &mut w.free, &mut w.demand, groups);
                }
                w.i += 1;
            }
            if self.states.len() <= self.reached {
                self.states.push(State {
                    t: 0,
                    total: 0,
                    groups: NodeGroups::new(),
                    nodes: Vec::new(),
                    freed: 0,
                });
            }
            let state = &mut self.states[self.reached];
            state.t = t;
            state.total = w.total;
            state.freed = w.i;
            if self.grouping {
                state.groups.copy_from(&w.groups);
            }
            free_nodes_into(&w.free, &w.demand, &mut state.nodes);
            self.reached += 1;
        }
        true
    }

    /// The `i`-th later state (reached: [`Horizon::reach`]).
    pub(super) fn state(&self, i: usize) -> &State {
        &self.states[..self.reached][i]
    }

    /// The factor a complete LessConsume run gives `need` processes of `per_proc` MB/s each on
    /// the state now (`at` = `None`) or on the `at`-th later state (reached), from its node
    /// groups, when it is above `top`: then no run with a stop <= `top` ends earlier, so that
    /// is its factor too. `None` when it is not above `top`, the job does not fit, or the
    /// horizon does not keep groups on this state (the caller runs LessConsume).
    pub(super) fn beyond(
        &mut self,
        c: &Ctx<'_>,
        at: Option<usize>,
        need: u32,
        per_proc: f64,
        top: f64,
    ) -> Option<f64> {
        if !self.grouping {
            return None;
        }
        let view = c.nodes()?;
        let total = at.map_or(c.free(), |i| self.state(i).total);
        if total < need {
            return None;
        }
        let bandwidth = view.model().bandwidth;
        let mut slots = std::mem::take(&mut self.slots);
        let groups = match at {
            None => self.now_groups(),
            Some(i) => &self.states[..self.reached][i].groups,
        };
        let f = groups
            .factor(need, per_proc, bandwidth, &mut slots)
            .filter(|&w| w > top);
        self.slots = slots;
        self.pays.record(f.is_some());
        f
    }

    /// The free nodes of the `i`-th later state (reached).
    pub(super) fn nodes_of(&self, i: usize) -> &[FreeNode] {
        &self.state(i).nodes
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

/// Whether node groups pay: of the recent states where a search asked for a complete run's
/// factor, how often it spared a run. Speed only: a search gets the same answer either way.
#[derive(Default)]
struct Pays {
    tried: u32,
    spared: u32,
    states: u32,
}

impl Pays {
    /// Whether the next machine state keeps groups: while learning, while at least one ask in
    /// four spares a run, and on every 64th state (to notice when the workload changes).
    fn decide(&mut self) -> bool {
        self.states = self.states.wrapping_add(1);
        self.tried < 256 || self.spared * 4 >= self.tried || self.states.is_multiple_of(64)
    }

    fn record(&mut self, spared: bool) {
        self.tried += 1;
        self.spared += u32::from(spared);
        if self.tried >= 4096 {
            self.tried /= 2;
            self.spared /= 2;
        }
    }
}

/// Running job `k`'s processors and demand given back to its nodes in `free` and `demand`
/// (per node, by id), and the nodes recounted in `groups` when given.
fn release(
    view: NodesView<'_>,
    k: usize,
    free: &mut [u32],
    demand: &mut [f64],
    mut groups: Option<&mut NodeGroups>,
) {
    for &(n, cnt) in view.spread(k) {
        let (f, d) = (&mut free[n as usize], &mut demand[n as usize]);
        if let Some(g) = groups.as_deref_mut() {
            g.remove(*d, *f);
        }
        *f += cnt;
        *d = (*d - f64::from(cnt) * view.demand(k)).max(0.0);
        if let Some(g) = groups.as_deref_mut() {
            g.add(*d, *f);
        }
    }
}

/// The free nodes of a state given its free processors and demand per node, ascending by id,
/// into `out` (cleared first).
pub(super) fn free_nodes_into(free: &[u32], demand: &[f64], out: &mut Vec<FreeNode>) {
    out.clear();
    let n = free.len().min(demand.len());
    out.reserve(n);
    for (i, (&k, &d)) in free.iter().zip(demand).enumerate() {
        if k > 0 {
            out.push((i as u32, k, d));
        }
    }
}
