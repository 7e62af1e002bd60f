//! The free states a will-run test works in ([`Trial`]), kept from one test to the next
//! instead of made from the plan's at each:
//!
//! - the plan's free resources with the nodes a reservation holds taken out whole: between
//!   tests only the nodes that enter or leave the held set change it (a test's held nodes are
//!   mostly the last test's);
//! - the states after each group of running jobs the test gave back, one copy per group: a
//!   test whose held set, partition and base are the last test's gives back the same groups
//!   in the same order (the walk reads nothing else), so it reads the states the last tests
//!   built and gives back only the groups past them. On a cluster of 1,000 nodes a test gives
//!   hundreds of shares back; a copy of the state costs less than giving a group's
//!   (measured: docs/benchmarks.md, slurmspeed3).
//!
//! Each change is exact: a node's rest taken and given back leaves [`Free`] as it was (its
//! partition totals, core sums and node sets follow the nodes' figures), so each state is
//! the one a fresh copy would be.

use crate::cluster::{Alloc, Free, Layout, Share};

/// A copy of the whole state costs about as much as taking or giving this many shares.
const COPY_COST: usize = 25;

/// A will-run test's free states.
pub(super) struct Trial {
    /// `states[0]`: the plan's free resources, the nodes of `held` taken out; `states[g]`:
    /// that with the shares of the test's first `g` groups free. Those past `valid` are
    /// buffers, not states.
    states: Vec<Free>,
    /// How many of `states` are states of the current held set, partition and base.
    valid: usize,
    /// The state tested now: after this many groups.
    current: usize,
    /// The partition of the tests whose groups `states` hold.
    part: u32,
    /// The nodes taken out whole (their free rest taken).
    held: Vec<bool>,
    /// The shares set aside for the next group, or a buffer of shares to take or give.
    shares: Alloc,
    /// [`Trial::prepare`]'s buffer: the nodes entering or leaving the held set.
    moved: Vec<u32>,
}

impl Trial {
    /// A trial on `base`, no node held.
    pub(super) fn new(base: &Free) -> Self {
        Trial {
            states: vec![base.clone()],
            valid: 1,
            current: 0,
            part: 0,
            held: vec![false; base.cpus.len()],
            shares: Vec::new(),
            moved: Vec::new(),
        }
    }

    /// The trial made anew on `base` (as [`Trial::new`]), in this memory.
    pub(super) fn reset(&mut self, base: &Free) {
        self.states[0].clone_from(base);
        (self.valid, self.current) = (1, 0);
        self.held.clear();
        self.held.resize(base.cpus.len(), false);
        self.shares.clear();
    }

    /// The free state tested.
    pub(super) fn free(&self) -> &Free {
        &self.states[self.current]
    }

    /// A test of a job of partition `part`: its free state made `base` without the nodes of
    /// `held` (the nodes that left the held set given their rest back, as it is in `base`;
    /// the nodes that entered it their rest taken). `base` must be the free state this trial
    /// was made on or last [`Trial::rebase_take`]n from. The states after the last tests'
    /// groups are kept when the held set and the partition are theirs.
    pub(super) fn prepare(&mut self, l: &Layout, base: &Free, held: &[bool], part: u32) {
        // One pass: the nodes whose membership changed, and how many are held.
        self.moved.clear();
        let mut count = 0;
        for (i, (&was, &now)) in self.held.iter().zip(held).enumerate() {
            count += usize::from(now);
            if was != now {
                self.moved.push(i as u32);
            }
        }
        self.current = 0;
        self.shares.clear();
        if self.moved.is_empty() && part == self.part {
            return;
        }
        (self.valid, self.part) = (1, part);
        let kept = &mut self.states[0];
        if self.moved.len() > count + COPY_COST {
            kept.clone_from(base);
            self.held.fill(false);
            self.moved.clear();
            self.moved
                .extend((0..held.len() as u32).filter(|&i| held[i as usize]));
        }
        for &i in &self.moved {
            if self.held[i as usize] {
                self.shares.push(rest(base, i as usize));
            }
        }
        kept.give(l, &self.shares);
        self.shares.clear();
        for &i in &self.moved {
            if !self.held[i as usize] {
                self.shares.push(rest(kept, i as usize));
            }
        }
        kept.take(l, &self.shares);
        self.held.copy_from_slice(held);
        self.shares.clear();
    }

    /// True when the next group's state is kept from the last tests (its shares need not be
    /// set aside).
    pub(super) fn next_group_kept(&self) -> bool {
        self.current + 1 < self.valid
    }

    /// The shares of `a` outside the held nodes are set aside, to be free from the next
    /// [`Trial::give_set_aside`] (a will-run group's jobs, given back at once).
    pub(super) fn set_aside_outside(&mut self, a: &[Share]) {
        self.shares
            .extend(a.iter().filter(|s| !self.held[s.node as usize]).copied());
    }

    /// The state tested becomes the one after the next group: kept from the last tests, or the
    /// current one with the shares set aside ([`Trial::set_aside_outside`]) free, kept for the
    /// next tests.
    pub(super) fn give_set_aside(&mut self, l: &Layout) {
        let g = self.current + 1;
        if g < self.valid {
            self.current = g;
            self.shares.clear();
            return;
        }
        if self.states.len() == g {
            let next = self.states[g - 1].clone();
            self.states.push(next);
        } else {
            let (before, after) = self.states.split_at_mut(g);
            after[0].clone_from(&before[g - 1]);
        }
        self.states[g].give(l, &self.shares);
        self.shares.clear();
        (self.valid, self.current) = (g + 1, g);
    }

    /// The shares of `a` outside the held nodes are free, as one group.
    #[cfg(test)]
    pub(super) fn give_outside(&mut self, l: &Layout, a: &[Share]) {
        if !self.next_group_kept() {
            self.set_aside_outside(a);
        }
        self.give_set_aside(l);
    }

    /// `a` was taken from the base (a job started): taken here too on the nodes not held
    /// (a held node's rest is taken already; it gets `a`'s share back with the rest when it
    /// leaves the held set, the base's rest having shrunk by it). The groups' states are
    /// built anew by the next tests.
    pub(super) fn rebase_take(&mut self, l: &Layout, base: &Free, a: &[Share]) {
        if a.iter().all(|s| !self.held[s.node as usize]) {
            self.states[0].take(l, a);
        } else {
            // Simplest exact course: start again from the base.
            self.states[0].clone_from(base);
            self.held.fill(false);
        }
        (self.valid, self.current) = (1, 0);
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
                trial.prepare(&l, &base, &held, 0);
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
