//! What the replay's unit tests share (`prio_phase/tests.rs`, `prio_sides/tests.rs`): a made-up
//! sacct log read on a one-node cluster, and the `slurm` policy they replay it under.

use crate::input::{InputOptions, JobSet};
use crate::replay::recorded::Logged;
use crate::sim::Policy;
use crate::slurm::state::Shared;
use crate::slurm::Site;
use crate::swf::ReadOptions;

/// The sacct log `text` read on the cluster `cluster` (its compact form): its jobs, and what it
/// records of them (nodes, priorities) for a [`super::Replay`].
pub(super) fn read_log(text: &str, cluster: &str) -> (JobSet, Logged) {
    let input = InputOptions {
        cluster: Some(cluster.into()),
        ..InputOptions::default()
    };
    let read = ReadOptions::default();
    let set = (crate::run::read_bytes("log.sacct", text.as_bytes(), &read, &input).unwrap()).1;
    let logged = Logged::from_sacct(text, "log", &set.jobs).unwrap();
    (set, logged)
}

/// `slurm` with periods every minute at `calc_phase` (no decay, Fair Tree weight 1000, no other
/// weight), on no site: the policy and the state its order and rule share.
pub(super) fn fairshare_at(
    calc_phase: &str,
) -> Result<(Box<dyn Policy>, Shared), crate::run::Error> {
    let spec = format!(
        "slurm[PriorityWeightFairshare=1000,PriorityCalcPeriod=1,PriorityDecayHalfLife=0,\
         calc_phase={calc_phase}]"
    );
    crate::policy::slurm::build_sharing(&spec, &Site::default()).map_err(crate::run::Error::from)
}
