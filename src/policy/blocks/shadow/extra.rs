//! EASY's extra resources on a cluster: what is free on each node at the shadow time once the
//! blocked head has its allocation there. Taking a wide head's allocation out of the shadow's
//! free state visits every node it spans (most of the cluster for the widest jobs), and most
//! passes never need the result: their candidates end by the shadow time, or ask for more
//! cores or GPUs than the extra resources hold in total. So the head's allocation is selected
//! and taken out only when a candidate first passes that totals check (the free state it is
//! selected on does not change before, so it is the allocation the head would get then). The
//! state with the head taken out is computed once per shadow ([`Extra::take_head_out`]) and
//! shared by every copy of it: a shadow kept from pass to pass (`ShadowCache`) takes the head
//! out at most once, however many passes reach a candidate that needs it.

use crate::cluster::{Alloc, Free, Layout, Need};
use std::sync::OnceLock;

/// What is free on each node at the shadow time once the head has its allocation.
#[derive(Debug)]
pub(super) struct Extra {
    /// What is free at the shadow time; the head's allocation is taken out of it once `head`
    /// is `None`.
    free: Free,
    /// What the head asks (it fits in `free`), its allocation not yet taken out of `free`.
    head: Option<Need>,
    /// The head's partition and the cores and GPUs its allocation takes out of `free` there.
    head_part: u32,
    head_totals: (u64, u64),
    /// `free` with the head's allocation taken out, once a candidate needed it.
    head_out: OnceLock<Free>,
}

impl Clone for Extra {
    /// A copy to take from: once the head is out, the state without it (nothing left to take
    /// out).
    fn clone(&self) -> Extra {
        let (free, head) = match self.head_out.get() {
            Some(out) => (out.clone(), None),
            None => (self.free.clone(), self.head),
        };
        Extra {
            free,
            head,
            head_part: self.head_part,
            head_totals: self.head_totals,
            head_out: OnceLock::new(),
        }
    }
}

impl Extra {
    /// What is left of `free` once `head` (which fits there) has its allocation by the default
    /// selection; with no head, `free` itself.
    pub(super) fn new(l: &Layout, free: Free, head: Option<&Need>) -> Extra {
        let Some(head) = head else {
            return Extra {
                free,
                head: None,
                head_part: 0,
                head_totals: (0, 0),
                head_out: OnceLock::new(),
            };
        };
        // What its allocation removes from the partition's free totals: what it asks, or on
        // whole nodes all they have.
        let head_totals = if head.exclusive {
            let a = free.select(l, head, None).expect("the head fits");
            a.iter().fold((0, 0), |(c, g), s| {
                let i = s.node as usize;
                (c + u64::from(free.cpus[i]), g + u64::from(free.gpus[i]))
            })
        } else {
            (u64::from(head.cpus), u64::from(head.gpus))
        };
        Extra {
            free,
            head: Some(*head),
            head_part: head.part,
            head_totals,
            head_out: OnceLock::new(),
        }
    }

    /// False when `need` asks for more cores or GPUs than are free here in its partition in
    /// total: then no selection finds it room (checked without taking the head out).
    pub(super) fn may_hold(&self, need: &Need) -> bool {
        let (mut cpus, mut gpus) = self.free.part_totals(need.part);
        if self.head.is_some() && need.part == self.head_part {
            cpus -= self.head_totals.0;
            gpus -= self.head_totals.1;
        }
        u64::from(need.cpus) <= cpus && u64::from(need.gpus) <= gpus
    }

    /// The most cores free here in one partition: no job asking for more fits.
    pub(super) fn most_cores(&self) -> u64 {
        (0..self.free.parts())
            .map(|p| {
                let cpus = self.free.part_cores(p);
                if self.head.is_some() && p == self.head_part {
                    cpus - self.head_totals.0
                } else {
                    cpus
                }
            })
            .max()
            .unwrap_or(0)
    }

    /// Takes the head's allocation out, once for this shadow and every copy made of it after
    /// (through a shared reference: the copy a cache keeps gets it too).
    pub(super) fn take_head_out(&self, l: &Layout) {
        if let Some(head) = &self.head {
            self.head_out.get_or_init(|| {
                let mut free = self.free.clone();
                assert!(free.take_selection(l, head), "the head fits");
                free
            });
        }
    }

    /// `need`'s allocation by the default selection on what is free both in `now` and here,
    /// taken from here; `None` when it does not fit.
    pub(super) fn take_for(&mut self, l: &Layout, now: &Free, need: &Need) -> Option<Alloc> {
        if self.head.is_some() {
            self.take_head_out(l);
            self.free = self.head_out.take().expect("taken out above");
            self.head = None;
        }
        let a = now.select(l, need, Some(&self.free))?;
        self.free.take(l, &a);
        Some(a)
    }
}

#[cfg(test)]
mod tests {
    use super::Extra;
    use crate::cluster::{Cluster, Free, Layout, Need};

    /// Against the plain reference (the head taken out at once, then each need selected within
    /// what is left): the same allocations, in order, on random states of a cluster with two
    /// partitions sharing nodes.
    #[test]
    fn taking_the_head_out_late_gives_what_taking_it_at_once_gives() {
        let c = Cluster::from_compact(
            "1/n[1-12]:c8:m1000:g2/m[1-6]:c4:m500/p=a:n[1-12],m[1-3]:default/p=b:m[1-6],n[1-4]",
        )
        .unwrap();
        let l = Layout::new(&c).unwrap();
        let mut x: u64 = 3;
        let mut rand = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % m) as u32
        };
        let need = |rand: &mut dyn FnMut(u64) -> u32| Need {
            part: rand(2),
            cpus: 1 + rand(40),
            nodes: if rand(4) == 0 { 1 + rand(4) } else { 0 },
            gpus: rand(3) * rand(4),
            mem_per_cpu_mb: u64::from(rand(3)) * 50,
            mem_per_node_mb: 0,
            exclusive: rand(8) == 0,
        };
        let (mut lazy_starts, mut checked) = (0, 0);
        for _ in 0..300 {
            // A busy state: random jobs taken from the idle cluster.
            let mut busy = Free::all(&l);
            for _ in 0..rand(12) {
                if let Some(a) = busy.select(&l, &need(&mut rand), None) {
                    busy.take(&l, &a);
                }
            }
            let mut at_shadow = Free::all(&l);
            for _ in 0..rand(6) {
                if let Some(a) = at_shadow.select(&l, &need(&mut rand), None) {
                    at_shadow.take(&l, &a);
                }
            }
            let head = need(&mut rand);
            let Some(head_alloc) = at_shadow.select(&l, &head, None) else {
                continue;
            };
            let mut eager = at_shadow.clone();
            eager.take(&l, &head_alloc);
            let mut lazy = Extra::new(&l, at_shadow, Some(&head));
            for _ in 0..8 {
                let n = need(&mut rand);
                let want = busy.select(&l, &n, Some(&eager));
                if let Some(a) = &want {
                    eager.take(&l, a);
                }
                checked += 1;
                let got = if lazy.may_hold(&n) {
                    lazy.take_for(&l, &busy, &n)
                } else {
                    None
                };
                lazy_starts += usize::from(got.is_some());
                assert_eq!(got, want);
            }
            if lazy.head.is_none() {
                assert_eq!(lazy.free, eager);
            }
        }
        assert!(
            lazy_starts > 50 && checked > 1000,
            "{lazy_starts} {checked}"
        );
    }
}
