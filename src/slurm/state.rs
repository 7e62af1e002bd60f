//! The state the `slurm` policy's queue order (the priorities) and start rule (the scheduling
//! loops) share in one simulation: the site, the parameters and the multifactor plugin.

use super::accrue::Accrue;
use super::params::SlurmParams;
use super::priority::{JobInfo, Multifactor};
use super::tree::Tree;
use super::{Site, Size};
use crate::Time;
use std::cell::RefCell;
use std::collections::HashMap;
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
    /// The plugin's cluster totals are the cluster's: from slurm.conf ([`Site::size`]), or
    /// from the cluster the jobs run on once it is seen ([`State::size_from_cluster`]).
    pub sized: bool,
    /// A period at this second falls between the second's backfill cycle and its main
    /// scheduler ([`SlurmParams::period_sides`]). `Some(order)`: the cycle came first; the
    /// period ran (early) and the cycle walks the waiting jobs in `order`, their order before
    /// it. `None`: the main scheduler came first; the period is late, and the start rule runs
    /// it between the two.
    pub split_period: Option<(Time, Option<Vec<usize>>)>,
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
            sized: false,
            split_period: None,
        }))
    }

    /// Builds the association tree and the plugin for `jobs` on a pool of `procs` processors:
    /// each job is charged to its user's association in its own account (the site's
    /// `accounts`), else to the first association of its user's name in the sshare tree (one
    /// under root with one share when it has none); with no sshare file every user is under
    /// root with one share. A job's nodes are its processors over the cluster's processors per
    /// node, rounded up, until the cluster gives its shape ([`Multifactor::shape`]).
    pub fn prepare(&mut self, jobs: impl Iterator<Item = JobIn>, procs: u32) {
        let mut tree = match &self.site.sshare {
            Some((rows, file)) => {
                Tree::from_sshare(rows, file).unwrap_or_else(|_| Tree::flat([].into_iter()))
            }
            None => Tree::flat([].into_iter()),
        };
        let pool = u64::from(procs);
        let size = self.site.size.unwrap_or(Size {
            cpus: pool,
            nodes: pool,
            ..Size::default()
        });
        let per_node = (size.cpus as f64 / size.nodes.max(1) as f64).max(1.0);
        let mut assoc_of: HashMap<(i64, &str), usize> = HashMap::new();
        let site = &self.site;
        let qos_factor = self.qos_factors();
        let usage_factor = |j: usize| {
            (site.qos.as_ref()).map_or(1.0, |(t, _)| {
                t.usage_factor(site.qos_of(j).unwrap_or(super::qos::DEFAULT_QOS))
            })
        };
        let mut users = Vec::new();
        let infos: Vec<JobInfo> = jobs
            .enumerate()
            .map(|(j, (user, p, submit, limit))| {
                users.push(user);
                let account = site.accounts.get(j).map_or("", String::as_str);
                let assoc = *assoc_of.entry((user, account)).or_insert_with(|| {
                    let name = site.user_name(user);
                    let mut all = tree.user_assocs(&name);
                    let first = all.next();
                    let own = first
                        .into_iter()
                        .chain(all)
                        .find(|&a| tree.nodes[a].account == account);
                    own.or(first)
                        .unwrap_or_else(|| tree.add_user_under_root(&name))
                });
                JobInfo {
                    submit,
                    cpus: p,
                    nodes: (f64::from(p) / per_node).ceil().max(1.0) as u32,
                    gpus: 0,
                    mem_mb: 0,
                    limit,
                    assoc,
                    part_factor: None,
                    qos: qos_factor(j),
                    usage_factor: usage_factor(j),
                }
            })
            .collect();
        drop(qos_factor);
        let users: Vec<(i64, Time)> = (infos.iter().zip(&users))
            .map(|(i, &u)| (u, i.submit))
            .collect();
        let accrue = Accrue::of_site(site, &self.params, &users);
        let mut mf = Multifactor::new(self.params.clone(), tree, infos, size);
        mf.accrue = accrue;
        self.mf = Some(mf);
        self.sized = self.site.size.is_some();
    }

    /// Each job's QOS factor, by job index: from the `qos` key's priorities, else the site's
    /// `--qos` file's; 0 for every job without either (or without `PriorityWeightQOS`).
    fn qos_factors(&self) -> impl Fn(usize) -> f64 + '_ {
        let table = match (&self.params.qos, &self.site.qos) {
            _ if self.params.weight_qos <= 0.0 => None,
            (Some(t), _) | (None, Some((t, _))) => Some(t),
            (None, None) => None,
        };
        let normalized =
            !(self.params.flags.iter()).any(|f| f == "NO_NORMAL_QOS" || f == "NO_NORMAL_ALL");
        // Per log QOS (index 0: none, so normal), computed once.
        let by_index: Vec<f64> = match table {
            None => Vec::new(),
            Some(t) => std::iter::once(None)
                .chain(self.site.qos_names.iter().map(|n| Some(n.as_str())))
                .map(|n| t.factor(n, normalized))
                .collect(),
        };
        move |j| {
            if by_index.is_empty() {
                return 0.0;
            }
            let k = self.site.job_qos.get(j).copied().unwrap_or(0);
            by_index.get(usize::from(k)).copied().unwrap_or(0.0)
        }
    }

    /// The jobs run on a cluster of `size`: without a slurm.conf (which gives the totals the
    /// job size and TRES factors divide by, [`Site::size`]) those are the cluster's, not the
    /// pool's that [`State::prepare`] assumed (each processor a node, no GPU), so that a spec
    /// on a cluster given in its compact form gives the schedule its slurm.conf gives. Once.
    pub fn size_from_cluster(&mut self, size: impl FnOnce() -> Size) {
        if self.sized {
            return;
        }
        if let Some(mf) = self.mf.as_mut() {
            mf.set_size(size());
            self.sized = true;
        }
    }

    /// The priority of job `j` as last set (0 before [`State::prepare`]).
    pub fn priority(&self, j: usize) -> f64 {
        self.mf.as_ref().map_or(0.0, |m| m.priority(j))
    }

    /// The priority job `j` was given at its submission (0 before it, or before
    /// [`State::prepare`]): the one sacct's `Priority` records.
    pub fn submitted_priority(&self, j: usize) -> f64 {
        self.mf.as_ref().map_or(0.0, |m| m.submitted_priority(j))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// alice has an association in bio (listed first) and in phys. A job of hers whose account
    /// is phys is charged to phys/alice; one without an account, or with an account she has no
    /// association in, to bio/alice, the first listed; bob, not in the file, gets one under
    /// root.
    #[test]
    fn a_job_is_charged_to_its_own_account() {
        let text = "Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare\n\
                    root|||0.0|0||1.0|\n \
                    bio||20|0.5|0||0.0|\n  \
                    bio|alice|1|0.5|0||0.0|1.0\n \
                    phys||40|0.5|0||0.0|\n  \
                    phys|alice|1|0.5|0||0.0|1.0\n";
        let site = Site::default()
            .with_sshare(text, "s")
            .unwrap()
            .with_accounts(["phys", "", "chem", "phys"].map(String::from).to_vec());
        let site = Site {
            users: vec!["alice".into(), "bob".into()],
            ..site
        };
        let mut st = State {
            site,
            params: SlurmParams::default(),
            mf: None,
            sized: false,
            split_period: None,
        };
        let jobs = [
            (1, 1, 0, None),
            (1, 1, 0, None),
            (1, 1, 0, None),
            (2, 1, 0, None),
        ];
        st.prepare(jobs.into_iter(), 4);
        let mf = st.mf.as_ref().unwrap();
        let of = |j: usize| {
            let a = &mf.tree.nodes[mf.assoc_of(j)];
            (a.account.as_str(), a.user.as_deref().unwrap_or(""))
        };
        assert_eq!(of(0), ("phys", "alice"));
        assert_eq!(of(1), ("bio", "alice"));
        assert_eq!(of(2), ("bio", "alice"));
        assert_eq!(of(3).1, "bob");
    }

    /// Three jobs submitted at 0 on a site whose QOS are normal 10, high 100, low 0
    /// (`PriorityWeightQOS=10000`, `PriorityWeightAge=1000`, `PriorityMaxAge` 10 minutes,
    /// periods every minute): job 0 in high, job 1 with no QOS (so normal), job 2 in low. The
    /// largest QOS priority is 100, so the QOS factors are 100/100 = 1, 10/100 = 0.1 and 0:
    /// at 0 the priorities are 10000, 1000 and 1 (0, raised to Slurm's least, 1); at 60 each
    /// has waited 60 s of 600, + 1000 · 0.1 = 100: 10100, 1100 and 100. With NO_NORMAL_QOS the
    /// factors are the priorities themselves: 10000 · 100 = 1000000 and 10000 · 10 = 100000.
    /// The `qos` key replaces the file: (high:50,normal:50) gives both factor 1 (10000 each)
    /// and low, not listed, 0.
    #[test]
    fn jobs_in_two_qos_are_ranked_by_their_qos_priority() {
        let run = |extra: &[(&str, &str)]| {
            let site = Site::default()
                .with_qos("Name|Priority\nnormal|10\nhigh|100\nlow|0\n", "qos.txt")
                .unwrap()
                .with_job_qos(vec!["high".into(), "low".into()], vec![1, 0, 2]);
            let mut params = SlurmParams::default();
            for (k, v) in [
                ("PriorityWeightQOS", "10000"),
                ("PriorityWeightAge", "1000"),
                ("PriorityMaxAge", "10"),
                ("PriorityCalcPeriod", "1"),
            ]
            .iter()
            .chain(extra)
            {
                params.set(k, v).unwrap();
            }
            let mut st = State {
                site,
                params,
                mf: None,
                sized: false,
                split_period: None,
            };
            st.prepare([(1, 1, 0, None); 3].into_iter(), 8);
            let mf = st.mf.as_mut().unwrap();
            mf.advance(0, true);
            for j in 0..3 {
                mf.submitted(j, 0);
            }
            // A scheduler's queue build finds them: they age from their submission.
            mf.queue_built(0);
            let at0 = [0, 1, 2].map(|j| mf.priority(j));
            mf.advance(60, true);
            (at0, [0, 1, 2].map(|j| mf.priority(j)))
        };
        assert_eq!(run(&[]), ([10000.0, 1000.0, 1.0], [10100.0, 1100.0, 100.0]));
        let raw = run(&[("PriorityFlags", "NO_NORMAL_QOS")]);
        assert_eq!(raw.0, [1_000_000.0, 100_000.0, 1.0]);
        let key = run(&[("qos", "(high:50,normal:50)")]);
        assert_eq!(key.0, [10000.0, 10000.0, 1.0]);
        // Without PriorityWeightQOS the file changes nothing: age alone.
        let off = run(&[("PriorityWeightQOS", "0")]);
        assert_eq!(off, ([1.0; 3], [100.0; 3]));
    }
}
