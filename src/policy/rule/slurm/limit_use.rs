//! The limits a job is held by (`AccountingStorageEnforce` naming `limits`): its QOS's
//! (`qos_use.rs`), then its association's (`assoc_use.rs`), in the order
//! `acct_policy_job_runnable_pre_select` and `_post_select` check them; and the minutes
//! limits of both (`mins_use.rs`).

use super::assoc_use::AssocUse;
use super::mins_use::MinsUse;
use super::qos_use::{ask, QosUse};
use super::reasons::Reason;
use crate::cluster::Share;
use crate::sim::{Ctx, Jobs};
use crate::slurm::state::State;
use crate::slurm::tres_usage::TresUsage;
use crate::slurm::Site;

/// What the running jobs use of the QOS and association limits.
#[derive(Debug, Clone)]
pub(super) struct LimitUse {
    qos: Option<QosUse>,
    assoc: Option<AssocUse>,
    /// The minutes limits, when a QOS or an association has one (made with the jobs).
    mins: Option<MinsUse>,
}

impl LimitUse {
    /// The site's limits, when any QOS or association has one (`None`: no check at all).
    pub(super) fn of_site(site: &Site) -> Option<Self> {
        let qos = QosUse::of_site(site);
        let assoc = AssocUse::of_site(site);
        (qos.is_some() || assoc.is_some()).then_some(LimitUse {
            qos,
            assoc,
            mins: None,
        })
    }

    /// Tells the jobs; the jobs a limit holds for ever, with why (QOS first), and the TRES
    /// usage the multifactor plugin keeps for the `GrpTRESMins` limits, when one is set.
    pub(super) fn prepare(
        &mut self,
        site: &Site,
        jobs: Jobs<'_>,
    ) -> (Vec<(usize, String)>, Option<TresUsage>) {
        if let Some(a) = self.assoc.as_mut() {
            a.prepare(site, jobs.iter());
        }
        self.mins = MinsUse::of_site(site, self.qos.as_ref(), self.assoc.as_ref(), jobs.len());
        // What each job asks, as the limit checks count it (`qos_use::tres`).
        let asks: Vec<_> = (jobs.iter().enumerate())
            .map(|(j, v)| ask(v.procs, jobs.need(j)))
            .collect();
        let (qos, assoc, mins) = (self.qos.as_ref(), self.assoc.as_ref(), self.mins.as_ref());
        let held = (jobs.iter().zip(&asks).enumerate())
            .filter_map(|(j, (v, t))| {
                let q = qos.and_then(|q| q.never(j, v, t));
                q.or_else(|| assoc.and_then(|a| a.never(j, v, t)))
                    .or_else(|| mins.and_then(|m| m.never(j, v, t, qos, assoc)))
                    .map(|why| (j, why))
            })
            .collect();
        (held, mins.and_then(|m| m.tres_usage(&asks)))
    }

    /// Counts the jobs running now afresh; the minutes limits read the usage from `s`.
    pub(super) fn reset(&mut self, c: &Ctx<'_>, s: &State) {
        if let Some(q) = self.qos.as_mut() {
            q.reset(c);
        }
        if let Some(a) = self.assoc.as_mut() {
            a.reset(c);
        }
        if let Some(m) = self.mins.as_mut() {
            m.reset(c, s);
        }
    }

    /// Job `j` started.
    pub(super) fn started(&mut self, c: &Ctx<'_>, j: usize) {
        if let Some(q) = self.qos.as_mut() {
            q.started(c, j);
        }
        if let Some(a) = self.assoc.as_mut() {
            a.started(c, j);
        }
        if let Some(m) = self.mins.as_mut() {
            m.started(c, j);
        }
    }

    /// The nodes `select_nodes` prefers for job `j` (node_scheduler.c `_find_grp_node_bitmap`):
    /// its QOS's (`QosUse::grp_nodes`), then, unless the QOS has a `GrpTRES` node limit, its
    /// association's (`AssocUse::grp_nodes`); sorted, each once.
    pub(super) fn grp_nodes(&self, c: &Ctx<'_>, j: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let qos_grp = self
            .qos
            .as_ref()
            .is_some_and(|q| q.grp_nodes(c, j, &mut out));
        if !qos_grp {
            if let Some(a) = self.assoc.as_ref() {
                a.grp_nodes(j, &mut out);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Held before node selection: the reason of the first limit that holds the job (its
    /// QOS's, then its associations': `acct_policy_job_runnable_pre_select`).
    pub(super) fn held_pre(&self, c: &Ctx<'_>, j: usize) -> Option<Reason> {
        let qos = self.qos.as_ref().and_then(|q| q.held_pre(c, j));
        qos.or_else(|| self.assoc.as_ref().and_then(|a| a.held_pre(c, j)))
    }

    /// Held after node selection, on the nodes `on` it gets (`None`: its node count whole):
    /// the reason of the first limit over, its QOS's (minutes first) before its associations'
    /// (`acct_policy_job_runnable_post_select`).
    pub(super) fn held_post_on(
        &self,
        c: &Ctx<'_>,
        j: usize,
        on: Option<&[Share]>,
    ) -> Option<Reason> {
        let (qos, assoc) = (self.qos.as_ref(), self.assoc.as_ref());
        let mins = |qos_side| (self.mins.as_ref()).and_then(|m| m.held(c, j, qos, assoc, qos_side));
        mins(true)
            .or_else(|| qos.and_then(|q| q.held_post(c, j, on)))
            .or_else(|| mins(false))
            .or_else(|| assoc.and_then(|a| a.held_post(c, j, on)))
    }

    /// Held by either, on its whole node count.
    pub(super) fn held(&self, c: &Ctx<'_>, j: usize) -> Option<Reason> {
        self.held_pre(c, j)
            .or_else(|| self.held_post_on(c, j, None))
    }
}
