//! The profile's steps in a vector whose front can be dropped without moving the rest: time
//! going on drops the steps before now at every pass, and moving a million steps each time
//! made a million jobs submitted at one instant quadratic.

use crate::Time;
use std::ops::{Deref, DerefMut};

/// `buf[head..]` are the steps; the ones before `head` were dropped and are moved out only
/// when they are as many as the steps kept (so each step is moved O(1) times on average).
#[derive(Debug, Clone, Default)]
pub(super) struct Steps {
    buf: Vec<(Time, i64)>,
    head: usize,
}

impl Steps {
    /// The steps of `steps`.
    pub(super) fn from_vec(steps: Vec<(Time, i64)>) -> Self {
        Self {
            buf: steps,
            head: 0,
        }
    }

    /// Drops the first `n` steps.
    pub(super) fn drop_front(&mut self, n: usize) {
        self.head += n;
        if self.head >= self.buf.len() - self.head {
            self.buf.drain(..self.head);
            self.head = 0;
        }
    }

    pub(super) fn insert(&mut self, i: usize, step: (Time, i64)) {
        self.buf.insert(self.head + i, step);
    }

    pub(super) fn remove(&mut self, i: usize) {
        self.buf.remove(self.head + i);
    }

    pub(super) fn extend_from_slice(&mut self, steps: &[(Time, i64)]) {
        self.buf.extend_from_slice(steps);
    }

    pub(super) fn resize(&mut self, n: usize, step: (Time, i64)) {
        self.buf.resize(self.head + n, step);
    }

    pub(super) fn truncate(&mut self, n: usize) {
        self.buf.truncate(self.head + n);
    }

    pub(super) fn clear(&mut self) {
        self.buf.clear();
        self.head = 0;
    }

    /// Drops each step at the level of the one before it.
    pub(super) fn dedup_levels(&mut self) {
        self.buf.drain(..self.head);
        self.head = 0;
        self.buf.dedup_by(|b, a| b.1 == a.1);
    }

    /// The vector of the steps (for scratch reuse).
    pub(super) fn into_vec(mut self) -> Vec<(Time, i64)> {
        self.buf.drain(..self.head);
        self.buf
    }
}

impl Deref for Steps {
    type Target = [(Time, i64)];
    fn deref(&self) -> &Self::Target {
        &self.buf[self.head..]
    }
}

impl DerefMut for Steps {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.buf[self.head..]
    }
}

#[cfg(test)]
mod tests {
    use super::Steps;

    #[test]
    fn the_front_dropped_keeps_the_rest_and_their_indices() {
        let mut s = Steps::from_vec((0..10).map(|t| (t, t * 10)).collect());
        s.drop_front(3);
        assert_eq!(s[0], (3, 30));
        assert_eq!(s.len(), 7);
        s.insert(1, (99, 0));
        assert_eq!(&s[..3], &[(3, 30), (99, 0), (4, 40)]);
        s.remove(1);
        s.truncate(2);
        assert_eq!(&s[..], &[(3, 30), (4, 40)]);
        s.resize(3, (7, 7));
        assert_eq!(&s[..], &[(3, 30), (4, 40), (7, 7)]);
        // Now the dropped steps outnumber the kept ones: moved out.
        s.drop_front(1);
        assert_eq!(&s[..], &[(4, 40), (7, 7)]);
        s.extend_from_slice(&[(8, 7), (9, 1)]);
        s.dedup_levels();
        assert_eq!(&s[..], &[(4, 40), (7, 7), (9, 1)]);
        assert_eq!(s.into_vec(), vec![(4, 40), (7, 7), (9, 1)]);
    }
}
