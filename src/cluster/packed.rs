//! A job's allocation as the engine keeps it for the whole run: runs of consecutive nodes
//! holding the same share. A selection gives a wide job whole nodes one after the other (a job
//! of 2,000 cores on 32-core nodes: about 60 shares, usually one to three runs), so the
//! allocations of a million jobs take memory by the runs, not by the nodes each job spans.

use super::select::Share;

/// An allocation ([`super::Alloc`]) as runs: each run is a share and the number of nodes after
/// it (node numbers ascending by one) holding the same share. Its shares are the allocation's,
/// in the same order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackedAlloc {
    /// (the run's first share, its node count).
    runs: Box<[(Share, u32)]>,
}

impl PackedAlloc {
    /// The allocation `shares`, packed.
    pub fn new(shares: &[Share]) -> PackedAlloc {
        PackedAlloc::new_with(shares, &mut Vec::new())
    }

    /// [`PackedAlloc::new`] with the runs gathered in `buf` (a buffer kept by the caller), so
    /// that the allocation is made once, at its size (a start's cost).
    pub fn new_with(shares: &[Share], buf: &mut Vec<(Share, u32)>) -> PackedAlloc {
        buf.clear();
        for s in shares {
            match buf.last_mut() {
                Some((first, n))
                    if first.node.checked_add(*n) == Some(s.node)
                        && (first.cpus, first.mem_mb, first.gpus, first.whole)
                            == (s.cpus, s.mem_mb, s.gpus, s.whole) =>
                {
                    *n += 1
                }
                _ => buf.push((*s, 1)),
            }
        }
        PackedAlloc {
            runs: Box::from(&buf[..]),
        }
    }

    /// Its runs: (the run's first share, its node count); node `k` of a run is the first
    /// share's node + `k`.
    pub fn runs(&self) -> &[(Share, u32)] {
        &self.runs
    }

    /// Each node's share, in the allocation's order.
    pub fn iter(&self) -> impl Iterator<Item = Share> + Clone + '_ {
        self.runs.iter().flat_map(|&(s, count)| {
            (0..count).map(move |k| Share {
                node: s.node + k,
                ..s
            })
        })
    }

    /// The nodes it holds.
    pub fn len(&self) -> usize {
        self.runs.iter().map(|&(_, count)| count as usize).sum()
    }

    /// True when it holds no node.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The cores and GPUs its shares use (a whole node's: those the job uses there).
    pub fn totals(&self) -> (u64, u64) {
        self.runs.iter().fold((0, 0), |(c, g), &(s, count)| {
            let n = u64::from(count);
            (c + n * u64::from(s.cpus), g + n * u64::from(s.gpus))
        })
    }

    /// Its shares, one per node.
    pub fn to_vec(&self) -> Vec<Share> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{PackedAlloc, Share};

    fn share(node: u32, cpus: u32, gpus: u32) -> Share {
        Share {
            node,
            cpus,
            mem_mb: 0,
            gpus,
            whole: false,
        }
    }

    #[test]
    fn runs_of_consecutive_equal_shares_unpack_to_the_same_shares() {
        let a = vec![
            share(3, 32, 0),
            share(4, 32, 0),
            share(5, 32, 0),
            share(6, 8, 0),
            share(9, 32, 0),
            share(10, 32, 4),
            share(1, 32, 4),
            share(2, 32, 4),
        ];
        let p = PackedAlloc::new(&a);
        assert_eq!(p.runs.len(), 5);
        assert_eq!(p.to_vec(), a);
        assert_eq!(p.len(), 8);
        assert_eq!(p.totals(), (32 * 7 + 8, 12));
        assert!(PackedAlloc::new(&[]).is_empty());
        assert_eq!(PackedAlloc::new(&[]).len(), 0);
    }

    #[test]
    fn random_allocations_round_trip() {
        // A plain generator: shares on nodes that often follow each other, with few values.
        let mut x: u64 = 7;
        let mut rand = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        // One buffer for every allocation, as the engine keeps it.
        let mut buf = Vec::new();
        for _ in 0..500 {
            let n = rand(40) as usize;
            let mut node = rand(5) as u32;
            let a: Vec<Share> = (0..n)
                .map(|_| {
                    node += 1 + u32::from(rand(4) == 0) * rand(3) as u32;
                    Share {
                        node: if rand(10) == 0 { rand(50) as u32 } else { node },
                        cpus: 1 + rand(2) as u32,
                        mem_mb: rand(2) * 100,
                        gpus: rand(2) as u32,
                        whole: rand(8) == 0,
                    }
                })
                .collect();
            let p = PackedAlloc::new_with(&a, &mut buf);
            assert_eq!(p.to_vec(), a);
            assert_eq!(p.len(), a.len());
            let cpus = a.iter().map(|s| u64::from(s.cpus)).sum();
            let gpus = a.iter().map(|s| u64::from(s.gpus)).sum();
            assert_eq!(p.totals(), (cpus, gpus));
        }
    }
}
