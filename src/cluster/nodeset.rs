//! A set of positions in a partition's node order, one bit each: the node selection walks only
//! the nodes that can give a job something (those with a free core, or a free core and a free
//! GPU) instead of every node of the partition. On a busy cluster of 1,000 nodes most are full,
//! and a job's selection visits the few that are not.

/// Positions `0..len` in a partition's node order, as bits.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct NodeSet {
    words: Vec<u64>,
}

impl Clone for NodeSet {
    fn clone(&self) -> NodeSet {
        NodeSet {
            words: self.words.clone(),
        }
    }

    /// Into the buffer already there (a will-run trial's state is copied once per test).
    fn clone_from(&mut self, from: &NodeSet) {
        self.words.clone_from(&from.words);
    }
}

impl NodeSet {
    /// Positions `0..len`, each in the set when `member(position)`.
    pub(super) fn new(len: usize, member: impl Fn(usize) -> bool) -> NodeSet {
        let mut s = NodeSet {
            words: vec![0; len.div_ceil(64)],
        };
        for k in 0..len {
            s.set(k, member(k));
        }
        s
    }

    /// Position `k` is in the set when `on`.
    #[inline]
    pub(super) fn set(&mut self, k: usize, on: bool) {
        let (w, bit) = (k / 64, 1u64 << (k % 64));
        let word = &mut self.words[w];
        *word = (*word & !bit) | (bit * u64::from(on));
    }

    /// The positions `w x 64 + i` for each bit `i` of `mask` flip in or out of the set.
    #[inline]
    pub(super) fn flip(&mut self, w: usize, mask: u64) {
        self.words[w] ^= mask;
    }

    /// The positions `w x 64..` in the set, as the bits of a word.
    #[inline]
    pub(super) fn word(&self, w: usize) -> u64 {
        self.words[w]
    }

    /// The first position from `from` on in the set.
    #[inline]
    pub(super) fn next(&self, from: usize) -> Option<usize> {
        let mut w = from / 64;
        let mut bits = self.words.get(w)? & (!0u64 << (from % 64));
        loop {
            if bits != 0 {
                return Some(w * 64 + bits.trailing_zeros() as usize);
            }
            w += 1;
            bits = *self.words.get(w)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NodeSet;

    #[test]
    fn next_finds_each_member_in_order() {
        let members = [0, 5, 63, 64, 130];
        let mut s = NodeSet::new(131, |k| members.contains(&k));
        let walk = |s: &NodeSet| {
            let (mut out, mut from) = (Vec::new(), 0);
            while let Some(k) = s.next(from) {
                out.push(k);
                from = k + 1;
            }
            out
        };
        assert_eq!(walk(&s), members);
        s.set(64, false);
        s.set(1, true);
        assert_eq!(walk(&s), [0, 1, 5, 63, 130]);
        assert_eq!(s.next(131), None);
        assert_eq!(NodeSet::new(0, |_| true).next(0), None);
    }
}
