//! [`NodePlan`] made anew for the next backfill cycle in the last cycle's memory: the free
//! state, the running jobs' shares, the reservations and the will-run trial are rebuilt in
//! place rather than allocated per cycle (a cycle on a deep queue tests hundreds of jobs, and
//! a trace runs hundreds of thousands of cycles).

use super::NodePlan;
use crate::cluster::{Free, PackedAlloc};
use crate::Time;

impl NodePlan {
    /// The plan made anew at `now` as [`NodePlan::new`] makes it, in this plan's memory (its
    /// buffers and allocations kept): `ends` in the order `new` would be given them.
    pub(in crate::policy::rule::slurm) fn reset<'a>(
        &mut self,
        now: Time,
        clock: Time,
        free: &Free,
        ends: impl Iterator<Item = (Time, &'a PackedAlloc, Option<Time>)>,
    ) {
        self.now = now;
        self.clock = clock;
        self.free.clone_from(free);
        let mut k = 0;
        for (e, a, limit) in ends {
            match self.ends.get_mut(k) {
                Some(x) => {
                    x.0 = e;
                    x.1.clear();
                    x.1.extend(a.iter());
                    x.2 = limit;
                }
                None => self.ends.push((e, a.to_vec(), limit)),
            }
            k += 1;
        }
        self.ends.truncate(k);
        self.ends.sort_by_key(|e| e.0);
        self.holds.clear(free.cpus.len());
        if let Some(t) = &mut self.scratch.trial {
            t.reset(&self.free);
        }
        (self.end, self.resolution, self.late_grace) = (Time::MAX, 1, Some(0));
    }

    /// The plan's map ending at `end` (reservations hold nothing past it, and it is no later
    /// start), its later starts checked at `resolution` seconds (`bf_resolution`), and a job
    /// past its planned end guessed to end `grace` seconds after it
    /// ([`SlurmParams::late_end_grace`](crate::slurm::params::SlurmParams::late_end_grace)).
    pub(in crate::policy::rule::slurm) fn set(
        &mut self,
        end: Time,
        resolution: Time,
        grace: Option<Time>,
    ) {
        self.end = end;
        self.resolution = resolution.max(1);
        self.late_grace = grace;
    }
}
