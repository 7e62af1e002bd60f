//! The worst selected node of a LessConsume run (the highest penalty, the lowest position on
//! ties), without a heap of every selected node.
//!
//! Keys are penalty bits (penalties are >= 0, so their bit patterns order like the numbers).
//! Call a key high when the run goes on while it is the worst (`1 + penalty > stop`), low
//! otherwise. A low node is never the worst while the run swaps (a high one is above it), so
//! of the low nodes only the largest key is kept (for the factor the run stops with): a
//! selected node changes only as the worst (it gives a process) or as the candidate (it takes
//! one), so a low key, once counted, stays true. The high nodes are:
//! - those first fit filled, in position order, consecutive ones of one key as one range
//!   ([`Worst::first_fit`]): none changes before it is the worst, so they leave in the order
//!   (key descending, position ascending), the ranges sorted once so;
//! - those that gave a process and are still high, and candidates the scan passed: a heap, whose
//!   entries also change only as the worst (popped then), so none is ever stale;
//! - the candidate: its position is above every other selected node's, so it loses ties.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Where the worst node is.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum WorstIn {
    FirstFit,
    Heap,
    Candidate,
}

/// The high selected nodes of a run and the largest low key (buffers reused across runs).
#[derive(Default)]
pub struct Worst {
    /// High nodes filled by first fit, by position, as ranges of one key: `(key, first
    /// position, end)`.
    first_fit: Vec<(u64, u32, u32)>,
    /// The range of the next first-fit node to leave (`first_fit.len()` when none is left;
    /// read in order after [`Worst::start`]) and that node's position.
    at: usize,
    pos: u32,
    heap: BinaryHeap<(u64, Reverse<u32>)>,
    /// The largest low key counted (0: none).
    low: u64,
    /// The candidate: `(key, position)`, when it has processes selected.
    candidate: Option<(u64, u32)>,
    /// The threshold past which a key is high (as `1 + penalty > stop`).
    stop: f64,
}

impl Worst {
    /// Empties it for a run that stops once its factor is <= `stop`.
    pub fn reset(&mut self, stop: f64) {
        self.first_fit.clear();
        self.heap.clear();
        self.low = 0;
        self.candidate = None;
        self.stop = stop;
    }

    #[inline]
    fn high(&self, key: u64) -> bool {
        1.0 + f64::from_bits(key) > self.stop
    }

    /// A selected node that is neither the candidate nor counted yet.
    #[inline]
    fn count(&mut self, key: u64, i: u32, first_fit: bool) {
        if !self.high(key) {
            self.low = self.low.max(key);
        } else if first_fit {
            self.first_fit.push((key, i, i + 1));
        } else {
            self.heap.push((key, Reverse(i)));
        }
    }

    /// A node first fit filled (in position order), not the last one (the first candidate).
    #[inline]
    pub fn first_fit(&mut self, key: u64, i: u32) {
        match self.first_fit.last_mut() {
            Some(last) if last.0 == key && last.2 == i => last.2 += 1,
            _ => self.count(key, i, true),
        }
    }

    /// Starts reading the first-fit nodes (once they are all given): their ranges in the order
    /// they leave, (key descending, position ascending); a sort of the few ranges, not of the
    /// nodes (consecutive nodes of one key are one range).
    pub fn start(&mut self) {
        self.first_fit
            .sort_unstable_by_key(|&(key, first, _)| (std::cmp::Reverse(key), first));
        self.at = 0;
        self.pos = self.first_fit.first().map_or(0, |r| r.1);
    }

    /// The candidate takes a process: its key is now `key`.
    #[inline]
    pub fn candidate_took(&mut self, key: u64, i: u32) {
        self.candidate = Some((key, i));
    }

    /// The scan leaves the candidate: it is counted with the other selected nodes.
    pub fn next_candidate(&mut self) {
        if let Some((key, i)) = self.candidate.take() {
            self.count(key, i, false);
        }
    }

    /// The worst node `(position, key, where)` when it is high; else the largest key of all
    /// (the run's factor is then `1 +` that penalty and it stops) as `(0, key, Candidate)`.
    #[inline]
    pub fn worst(&self) -> (u32, u64, WorstIn) {
        let mut best: Option<(u32, u64, WorstIn)> = self
            .first_fit
            .get(self.at)
            .map(|&(key, _, _)| (self.pos, key, WorstIn::FirstFit));
        if let Some(&(key, Reverse(i))) = self.heap.peek() {
            if best.is_none_or(|b| key > b.1 || (key == b.1 && i < b.0)) {
                best = Some((i, key, WorstIn::Heap));
            }
        }
        if let Some((key, i)) = self.candidate {
            if best.is_none_or(|b| key > b.1) {
                best = Some((i, key, WorstIn::Candidate));
            }
        }
        match best {
            Some((i, key, from)) => (i, key.max(self.low), from),
            None => (0, self.low, WorstIn::Candidate),
        }
    }

    /// The worst node (from `from`, not the candidate) gives a process; `key` is its new key
    /// (`None` when it has none left).
    #[inline]
    pub fn gave(&mut self, from: WorstIn, i: u32, key: Option<u64>) {
        match from {
            WorstIn::FirstFit => {
                self.pos += 1;
                if self.pos == self.first_fit[self.at].2 {
                    self.at += 1;
                    self.pos = self.first_fit.get(self.at).map_or(0, |r| r.1);
                }
            }
            WorstIn::Heap => {
                self.heap.pop();
            }
            WorstIn::Candidate => unreachable!("the candidate takes processes"),
        }
        if let Some(key) = key {
            self.count(key, i, false);
        }
    }
}
