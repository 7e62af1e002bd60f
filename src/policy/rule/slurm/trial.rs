//! The free state a will-run test works in ([`Trial`]), kept from one test to the next instead
//! of made from the plan's at each. Two states are kept: the plan's free resources with the
//! nodes a reservation holds taken out whole (`held_out`), and the test's working state, a
//! copy of it to which the test gives the running jobs' shares back. Between tests only what
//! changed is redone: the nodes that enter or leave the held set change `held_out` (a test's
//! held nodes are mostly the last test's), and the working state is copied from it again
//! (a copy of the arrays, cheaper than taking back the hundreds of shares a test gave on a
//! cluster of 1,000 nodes, measured: docs/benchmarks.md, slurmspeed3).
//!
//! Each change is exact: a node's rest taken and given back leaves [`Free`] as it was (its
//! partition totals, core sums and node sets follow the nodes' figures), so the state is the
//! one a fresh copy would be.

use crate::cluster::{Alloc, Free, Layout, Share};

/// A copy of the whole state costs about as much as taking or giving this many shares.
const COPY_COST: usize = 25;

/// A will-run test's free state and what it changed.
pub(super) struct Trial {
    /// The plan's free resources, the nodes of `held` taken out.
    held_out: Free,
    /// The state tested: `held_out` with the shares the test gave back free.
    free: Free,
    /// True when `free` is not `held_out` (the test gave shares back).
    changed: bool,
    /// The nodes taken out whole (their free rest taken).
    held: Vec<bool>,
    /// A buffer of shares to take or give at once.
    shares: Alloc,
    /// [`Trial::prepare`]'s buffer: the nodes entering or leaving the held set.
    moved: Vec<u32>,
}

impl Trial {
    /// A trial on `base`, no node held.
    pub(super) fn new(base: &Free) -> Self {
        Trial {
            held_out: base.clone(),
            free: base.clone(),
            changed: false,
            held: vec![false; base.cpus.len()],
            shares: Vec::new(),
            moved: Vec::new(),
        }
    }

    /// The trial made anew on `base` (as [`Trial::new`]), in this memory.
    pub(super) fn reset(&mut self, base: &Free) {
        self.held_out.clone_from(base);
        self.free.clone_from(base);
        self.changed = false;
        self.held.clear();
        self.held.resize(base.cpus.len(), false);
        self.shares.clear();
    }

    /// The free state tested.
    pub(super) fn free(&self) -> &Free {
        &self.free
    }

    /// The test's free state made `base` without the nodes of `held`: the nodes that left the
    /// held set given their rest back (as it is in `base`), the nodes that entered it their
    /// rest taken, and the working state copied from that. `base` must be the free state this
    /// trial was made on or last [`Trial::rebase_take`]n from.
    pub(super) fn prepare(&mut self, l: &Layout, base: &Free, held: &[bool]) {
        // One pass: the nodes whose membership changed, and how many are held.
        self.moved.clear();
        let mut count = 0;
        for (i, (&was, &now)) in self.held.iter().zip(held).enumerate() {
            count += usize::from(now);
            if was != now {
                self.moved.push(i as u32);
            }
        }
        // The held set changed (whatever the moves left in `moved`): copy again at the end.
        self.changed |= !self.moved.is_empty();
        if self.moved.len() > count + COPY_COST {
            self.held_out.clone_from(base);
            self.held.fill(false);
            self.moved.clear();
            self.moved
                .extend((0..held.len() as u32).filter(|&i| held[i as usize]));
        }
        self.shares.clear();
        for &i in &self.moved {
            if self.held[i as usize] {
                self.shares.push(rest(base, i as usize));
            }
        }
        self.held_out.give(l, &self.shares);
        self.shares.clear();
        for &i in &self.moved {
            if !self.held[i as usize] {
                self.shares.push(rest(&self.held_out, i as usize));
            }
        }
        self.held_out.take(l, &self.shares);
        self.held.copy_from_slice(held);
        self.shares.clear();
        if self.changed {
            self.free.clone_from(&self.held_out);
            self.changed = false;
        }
    }

    /// The shares of `a` outside the held nodes are set aside, to be free again at the next
    /// [`Trial::give_set_aside`] (a will-run group's jobs, given back at once: the
    /// partitions' figures are written once per group, not once per job).
    pub(super) fn set_aside_outside(&mut self, a: &[Share]) {
        self.shares
            .extend(a.iter().filter(|s| !self.held[s.node as usize]).copied());
    }

    /// The shares set aside ([`Trial::set_aside_outside`]) are free again (until the next
    /// [`Trial::prepare`]).
    pub(super) fn give_set_aside(&mut self, l: &Layout) {
        if !self.shares.is_empty() {
            self.free.give(l, &self.shares);
            self.changed = true;
            self.shares.clear();
        }
    }

    /// The shares of `a` outside the held nodes are free again (until the next
    /// [`Trial::prepare`]).
    #[cfg(test)]
    pub(super) fn give_outside(&mut self, l: &Layout, a: &[Share]) {
        self.set_aside_outside(a);
        self.give_set_aside(l);
    }

    /// `a` was taken from the base (a job started): taken here too on the nodes not held
    /// (a held node's rest is taken already; it gets `a`'s share back with the rest when it
    /// leaves the held set, the base's rest having shrunk by it). The working state is
    /// copied anew at the next [`Trial::prepare`].
    pub(super) fn rebase_take(&mut self, l: &Layout, base: &Free, a: &[Share]) {
        if a.iter().all(|s| !self.held[s.node as usize]) {
            self.held_out.take(l, a);
        } else {
            // Simplest exact course: start again from the base.
            self.held_out.clone_from(base);
            self.held.fill(false);
        }
        self.changed = true;
    }
}

/// Node `i`'s free rest in `f`, as one share.
fn rest(f: &Free, i: usize) -> Share {
    Share {
        node: i as u32,
        cpus: f.cpus[i],
        mem_mb: f.mem_mb[i],
        gpus: f.gpus[i],
        whole: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::{Cluster, Need};
    use proptest::prelude::*;

    /// The plain state a test used to build (the reference): a copy of `base`, the rest of
    /// each node of `held` taken, then the shares of `given` outside them given back.
    fn plain(l: &Layout, base: &Free, held: &[bool], given: &[Alloc]) -> Free {
        let mut f = base.clone();
        let rests: Alloc = (0..held.len())
            .filter(|&i| held[i])
            .map(|i| rest(base, i))
            .collect();
        f.take(l, &rests);
        for a in given {
            let outside: Alloc = a
                .iter()
                .filter(|s| !held[s.node as usize])
                .copied()
                .collect();
            f.give(l, &outside);
        }
        f
    }

    proptest! {
        /// Jobs running on 40 nodes of 8 cores and 2 GPUs (some exclusive), then tests in a
        /// row, each on its own held nodes (all, none, or some: from all to none the held set
        /// is made anew from the base, more than `COPY_COST` nodes leaving it) giving back
        /// some running jobs, with jobs started between them (on held nodes or not): each
        /// test's state is the plain one.
        #[test]
        fn each_test_sees_the_plain_state(
            jobs in prop::collection::vec((1u32..20, 0u32..3, 0u32..6), 1..14),
            tests in prop::collection::vec(
                (prop::collection::vec(any::<bool>(), 40), 0u8..4, 0usize..14, any::<bool>()),
                1..10,
            ),
        ) {
            let c = Cluster::from_compact("1/n[1-40]:c8:m1000:g2").unwrap();
            let l = Layout::new(&c).unwrap();
            let mut base = Free::all(&l);
            let mut running: Vec<Alloc> = Vec::new();
            let need = |(cpus, gpus, kind): (u32, u32, u32)| Need {
                cpus,
                gpus,
                nodes: u32::from(kind == 1),
                mem_per_cpu_mb: u64::from(kind == 2) * 30,
                exclusive: kind == 3,
                ..Need::default()
            };
            // The first half runs before the trial is made, the rest start between tests.
            let (before, after) = jobs.split_at(jobs.len() / 2);
            for &j in before {
                if let Some(a) = base.select(&l, &need(j), None) {
                    base.take(&l, &a);
                    running.push(a);
                }
            }
            let mut trial = Trial::new(&base);
            let mut later = after.iter();
            for (some, which, upto, start) in tests {
                let held = match which {
                    0 => vec![false; 40],
                    1 => vec![true; 40],
                    _ => some,
                };
                trial.prepare(&l, &base, &held);
                prop_assert_eq!(trial.free(), &plain(&l, &base, &held, &[]));
                let given = &running[..upto.min(running.len())];
                for a in given {
                    trial.give_outside(&l, a);
                }
                prop_assert_eq!(trial.free(), &plain(&l, &base, &held, given));
                if let Some(&j) = later.next().filter(|_| start) {
                    if let Some(a) = base.select(&l, &need(j), None) {
                        base.take(&l, &a);
                        trial.rebase_take(&l, &base, &a);
                        running.push(a);
                    }
                }
            }
        }
    }
}
