//! The state the `slurm` policy's queue order (the priorities) and start rule (the scheduling
//! loops) share in one simulation: the site, the parameters and the multifactor plugin.

use super::params::SlurmParams;
use super::priority::{JobInfo, Multifactor};
use super::tree::Tree;
use super::Site;
use crate::Time;
use std::cell::RefCell;
use std::rc::Rc;

/// One simulation's shared state.
#[derive(Debug)]
pub struct State {
    /// The site (slurm.conf, sshare, user names).
    pub site: Site,
    /// The parameters in force (slurm.conf, then the spec's keys).
    pub params: SlurmParams,
    /// The plugin, once the jobs are known ([`State::prepare`]).
    pub mf: Option<Multifactor>,
}

/// The handle the order and the rule each hold.
pub type Shared = Rc<RefCell<State>>;

/// A job as [`State::prepare`] takes it: (user id, processors, submit, time limit).
pub type JobIn = (i64, u32, Time, Option<Time>);

impl State {
    /// A shared state.
    pub fn shared(site: Site, params: SlurmParams) -> Shared {
        Rc::new(RefCell::new(State {
            site,
            params,
            mf: None,
        }))
    }

    /// Builds the association tree and the plugin for `jobs` on a pool of `procs` processors:
    /// each job's user is mapped to the first association of its name in the sshare tree
    /// (one under root with one share when it has none), or with no sshare file every user is
    /// under root with one share.
    pub fn prepare(&mut self, jobs: impl Iterator<Item = JobIn>, procs: u32) {
        let mut tree = match &self.site.sshare {
            Some((rows, file)) => {
                Tree::from_sshare(rows, file).unwrap_or_else(|_| Tree::flat([].into_iter()))
            }
            None => Tree::flat([].into_iter()),
        };
        let (cpus, nodes) = self
            .site
            .size
            .unwrap_or((u64::from(procs), u64::from(procs)));
        let per_node = (cpus as f64 / nodes.max(1) as f64).max(1.0);
        let mut assoc_of: std::collections::HashMap<i64, usize> = Default::default();
        let infos: Vec<JobInfo> = jobs
            .map(|(user, p, submit, limit)| {
                let assoc = *assoc_of.entry(user).or_insert_with(|| {
                    let name = self.site.user_name(user);
                    let found = tree.user_assocs(&name).next();
                    found.unwrap_or_else(|| tree.add_user_under_root(&name))
                });
                JobInfo {
                    submit,
                    cpus: p,
                    nodes: (f64::from(p) / per_node).ceil().max(1.0) as u32,
                    limit,
                    assoc,
                }
            })
            .collect();
        self.mf = Some(Multifactor::new(
            self.params.clone(),
            tree,
            infos,
            cpus,
            nodes,
        ));
    }

    /// The priority of job `j` as last set (0 before [`State::prepare`]).
    pub fn priority(&self, j: usize) -> f64 {
        self.mf.as_ref().map_or(0.0, |m| m.priority(j))
    }
}
