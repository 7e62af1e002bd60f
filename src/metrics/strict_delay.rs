//! The strict-fairness delay of the PV-EASY paper (Yuan et al., HPDC'10, Table 1) and the
//! part of it after each job's first reservation (Table 2), from a sweep over the schedule's
//! events: after each instant, the head is the waiting job of highest priority (arrival order,
//! job index); while it cannot start it is blocked, and it is *delayed by later jobs* for the
//! time during which the free processors plus those of running jobs of lower priority would let
//! it start. [`super::fairness`] turns the delays into its tables.

use crate::input::JobSet;
use crate::sim::Schedule;
use crate::Time;

/// Processors of running jobs by job index (a Fenwick tree), 4 bytes a job: each entry is a
/// sum of running jobs' processors, at most the machine's count (a `u32`) once an instant's
/// events are all applied, and is added to modulo 2^32, so a count above it part-way through
/// an instant (a start applied before an end) leaves every sum exact.
struct Fenwick(Vec<u32>);

impl Fenwick {
    fn add(&mut self, i: usize, v: u32) {
        let mut i = i + 1;
        while i < self.0.len() {
            self.0[i] = self.0[i].wrapping_add(v);
            i += i & i.wrapping_neg();
        }
    }

    /// Sum over indices `0..=i`.
    fn prefix(&self, i: usize) -> u32 {
        let (mut i, mut s) = (i + 1, 0u32);
        while i > 0 {
            s = s.wrapping_add(self.0[i]);
            i -= i & i.wrapping_neg();
        }
        s
    }
}

/// A set of job indices whose smallest member is found quickly: one bit per job, and one bit
/// per word of jobs telling whether that word holds any (the smallest member is at most two
/// short scans away; inserting or removing is a bit flip).
struct JobBits {
    words: Vec<u64>,
    /// Bit `w % 64` of `summary[w / 64]`: `words[w]` is not zero.
    summary: Vec<u64>,
    /// No summary word before this one is non-zero (the head of the queue mostly moves on).
    low: usize,
}

impl JobBits {
    fn new(n: usize) -> JobBits {
        let words = n.div_ceil(64);
        JobBits {
            words: vec![0; words],
            summary: vec![0; words.div_ceil(64)],
            low: 0,
        }
    }

    fn insert(&mut self, j: usize) {
        let w = j / 64;
        self.words[w] |= 1 << (j % 64);
        self.summary[w / 64] |= 1 << (w % 64);
        self.low = self.low.min(w / 64);
    }

    fn remove(&mut self, j: usize) {
        let w = j / 64;
        self.words[w] &= !(1 << (j % 64));
        if self.words[w] == 0 {
            self.summary[w / 64] &= !(1 << (w % 64));
        }
    }

    fn first(&mut self) -> Option<usize> {
        while *self.summary.get(self.low)? == 0 {
            self.low += 1;
        }
        let w = self.low * 64 + self.summary[self.low].trailing_zeros() as usize;
        Some(w * 64 + self.words[w].trailing_zeros() as usize)
    }
}

/// Job indices in the order of a time key, read one at a time: from a list of them sorted by
/// the key (4 bytes a job; [`ByTime::sorted`]) or straight from a stream already in order.
struct ByTime<I, K> {
    jobs: I,
    key: K,
    /// The next job and its time (cached: the key reads a job's record).
    next: Option<(usize, Time)>,
}

impl<I: Iterator<Item = usize>, K: Fn(usize) -> Time> ByTime<I, K> {
    fn new(mut jobs: I, key: K) -> ByTime<I, K> {
        let next = jobs.next().map(|j| (j, key(j)));
        ByTime { jobs, key, next }
    }

    /// The time of the next job.
    fn time(&self) -> Option<Time> {
        self.next.map(|n| n.1)
    }

    /// The next job, when its time is `t`.
    fn next_at(&mut self, t: Time) -> Option<usize> {
        let (j, at) = self.next?;
        if at != t {
            return None;
        }
        self.next = self.jobs.next().map(|k| (k, (self.key)(k)));
        Some(j)
    }
}

/// `jobs` in the order of `key` (a radix sort of the indices when they are not in order).
fn in_order(mut jobs: Vec<u32>, key: impl Fn(usize) -> Time) -> impl Iterator<Item = usize> {
    if !jobs.is_sorted_by_key(|&j| key(j as usize)) {
        radsort::sort_by_key(&mut jobs, |&j| key(j as usize));
    }
    jobs.into_iter().map(|j| j as usize)
}

/// An event's kind (its code is job x 4 + kind): the job becomes ready to run (it waits),
/// starts (it stops waiting and runs) or ends.
const READY: u64 = 0;
const START: u64 = 1;
const END: u64 = 2;

/// The events of the jobs with a preempted attempt (each attempt: ready, start, end; the job is
/// ready at its submit time, then at the end of each attempt), sorted by time; and those jobs
/// as a bit set. Their number follows the preemptions, not the jobs.
fn preempted_events(set: &JobSet, s: &Schedule) -> (Vec<(Time, u64)>, Vec<u64>, Vec<usize>) {
    let mut marked = vec![0u64; set.jobs.len().div_ceil(64)];
    let mut runs: Vec<(usize, Time, Time)> = Vec::with_capacity(s.preempted_runs.len());
    for r in &s.preempted_runs {
        runs.push((r.job, r.start, r.end));
        let (w, bit) = (r.job / 64, 1 << (r.job % 64));
        if marked[w] & bit == 0 {
            marked[w] |= bit;
            let rec = &s.jobs[r.job];
            if rec.ran() {
                runs.push((r.job, rec.start, rec.end));
            }
        }
    }
    // Every attempt in job then time order.
    runs.sort_unstable();
    let mut preempted: Vec<usize> = runs.iter().map(|r| r.0).collect();
    preempted.dedup();
    let mut ev = Vec::with_capacity(3 * runs.len());
    let mut previous: Option<(usize, Time)> = None;
    for &(job, start, end) in &runs {
        let from = match previous {
            Some((p, at)) if p == job => at,
            _ => set.jobs[job].submit,
        };
        let j = job as u64 * 4;
        ev.push((from, j + READY));
        ev.push((start, j + START));
        ev.push((end, j + END));
        previous = Some((job, end));
    }
    radsort::sort_by_key(&mut ev, |e| e.0);
    (ev, marked, preempted)
}

/// The sweep's state after the events applied so far.
struct Sweep {
    /// The jobs with a preempted attempt, in order, and per such job its ready events minus
    /// its start events (it waits while above 0: within an instant its events come in any
    /// order). Another job is ready once and starts once, its ready event applied before its
    /// start event at the same instant, so the waiting set alone says whether it waits
    /// (`delays` applies them directly).
    preempted: Vec<usize>,
    waiting_count: Vec<i32>,
    waiting: JobBits,
    /// Processors of running jobs by job index.
    tree: Fenwick,
    running: i64,
}

impl Sweep {
    /// An event of a job with a preempted attempt.
    fn apply(&mut self, set: &JobSet, j: usize, kind: u64) {
        let (w, r) = match kind {
            READY => (1, 0),
            START => (-1, 1),
            _ => (0, -1),
        };
        if w != 0 {
            let k = self.preempted.binary_search(&j).unwrap_or_default();
            self.waiting_count[k] += w;
            if self.waiting_count[k] > 0 {
                self.waiting.insert(j);
            } else {
                self.waiting.remove(j);
            }
        }
        if r != 0 {
            self.run(set, j, r);
        }
    }

    /// Job `j` starts (`r` = 1) or ends (-1).
    fn run(&mut self, set: &JobSet, j: usize, r: i64) {
        let p = i64::from(set.jobs[j].procs) * r;
        self.tree.add(j, p as u32);
        self.running += p;
    }
}

/// The strict-fairness delays of the jobs, in all and after their first reservation: few jobs
/// have one (a blocked head delayed by jobs of lower priority), so they are kept as a list of
/// (job, delay, delay after the reservation), the head's delays over consecutive instants
/// added up in one entry; past `n / 8` entries, as two vectors indexed by job.
pub(super) enum Delays {
    Sparse(Vec<(u32, Time, Time)>),
    Dense(Vec<Time>, Vec<Time>),
}

impl Delays {
    fn add(&mut self, j: usize, total: Time, after: Time, n: usize, sparse_max: usize) {
        if let Delays::Sparse(list) = self {
            let len = list.len();
            match list.last_mut() {
                Some(last) if last.0 as usize == j => {
                    last.1 += total;
                    last.2 += after;
                    return;
                }
                _ if len < sparse_max => {
                    list.push((j as u32, total, after));
                    return;
                }
                _ => {
                    let (mut t, mut a) = (vec![0; n], vec![0; n]);
                    for &(k, dt, da) in list.iter() {
                        t[k as usize] += dt;
                        a[k as usize] += da;
                    }
                    *self = Delays::Dense(t, a);
                }
            }
        }
        if let Delays::Dense(t, a) = self {
            t[j] += total;
            a[j] += after;
        }
    }

    /// Each job's delays (in all, after its first reservation) for increasing `j`.
    pub(super) fn reader(mut self) -> impl FnMut(usize) -> (Time, Time) {
        if let Delays::Sparse(list) = &mut self {
            // By job; a job's entries (it was the head again after a preemption) added up.
            list.sort_unstable_by_key(|e| e.0);
        }
        let mut at = 0;
        move |j| match &self {
            Delays::Dense(t, a) => (t[j], a[j]),
            Delays::Sparse(list) => {
                while list.get(at).is_some_and(|e| (e.0 as usize) < j) {
                    at += 1;
                }
                let (mut t, mut a) = (0, 0);
                while let Some(&(_, dt, da)) = list.get(at).filter(|e| e.0 as usize == j) {
                    (t, a) = (t + dt, a + da);
                    at += 1;
                }
                (t, a)
            }
        }
    }
}

/// Per job: strict-fairness delay in all, and the part after its first reservation.
///
/// The events are swept by time. A job never preempted has three (ready at its submit time,
/// start, end): they come from three lists of job indices sorted by those times (4 bytes a
/// job each, no list of 16-byte events and no sort buffer of them); the preempted jobs'
/// attempts come from a small sorted list of events. Every event of an instant is applied
/// before the instant is looked at, and what they leave (counts, sums, the waiting set) does
/// not depend on their order within it.
pub(super) fn delays(set: &JobSet, s: &Schedule, sparse_max: usize) -> Delays {
    let n = set.jobs.len();
    let (extra, marked, preempted) = preempted_events(set, s);
    let is_plain = |j: &usize| s.jobs[*j].ran() && marked[j / 64] >> (j % 64) & 1 == 0;
    let plain: Vec<u32> = (0..n).filter(is_plain).map(|j| j as u32).collect();
    let submit = |j: usize| set.jobs[j].submit;
    let (start, end) = (|j: usize| s.jobs[j].start, |j: usize| s.jobs[j].end);
    // Jobs come in arrival order: their submit times are in order, and the ready events are
    // the plain jobs in index order, with no list of them (a list sorted by submit time only
    // for jobs out of that order).
    let by_submit: Option<Vec<u32>> = (!set.jobs.is_sorted_by_key(|j| j.submit))
        .then(|| in_order(plain.clone(), submit).map(|j| j as u32).collect());
    let at = |i: usize| by_submit.as_ref().map_or(i, |list| list[i] as usize);
    let count = by_submit.as_ref().map_or(n, Vec::len);
    let mut ready = ByTime::new((0..count).map(at).filter(is_plain), submit);
    let mut starts = ByTime::new(in_order(plain.clone(), start), start);
    let mut ends = ByTime::new(in_order(plain, end), end);
    let mut x = 0;
    let next = |times: [Option<Time>; 3], x: usize| {
        let [a, b, c] = times;
        [a, b, c, extra.get(x).map(|e| e.0)]
            .into_iter()
            .flatten()
            .min()
    };
    let mut sweep = Sweep {
        waiting_count: vec![0; preempted.len()],
        preempted,
        waiting: JobBits::new(n),
        tree: Fenwick(vec![0; n + 1]),
        running: 0,
    };
    let procs = i64::from(s.procs);
    let mut delays = Delays::Sparse(Vec::new());
    let mut now = next([ready.time(), starts.time(), ends.time()], x);
    while let Some(t) = now {
        // A job never preempted: ready once, then started once (its ready event first).
        while let Some(j) = ready.next_at(t) {
            sweep.waiting.insert(j);
        }
        while let Some(j) = starts.next_at(t) {
            sweep.waiting.remove(j);
            sweep.run(set, j, 1);
        }
        while let Some(j) = ends.next_at(t) {
            sweep.run(set, j, -1);
        }
        while let Some(&(_, code)) = extra.get(x).filter(|e| e.0 == t) {
            sweep.apply(set, (code / 4) as usize, code % 4);
            x += 1;
        }
        now = next([ready.time(), starts.time(), ends.time()], x);
        let Some(head) = sweep.waiting.first() else {
            continue;
        };
        let Some(t2) = now else {
            break;
        };
        let need = i64::from(set.jobs[head].procs);
        let free = procs - sweep.running;
        // The processors of running jobs of lower priority, counted only for a blocked head.
        if need > free && free + sweep.running - i64::from(sweep.tree.prefix(head)) >= need {
            let r = s.jobs[head].first_reservation().unwrap_or(Time::MAX);
            delays.add(head, t2 - t, (t2 - t.max(r)).max(0), n, sparse_max);
        }
    }
    delays
}

#[cfg(test)]
mod tests {
    use super::{delays, Delays, Fenwick, JobBits};
    use crate::input::JobSet;
    use crate::sim::Schedule;
    use crate::Time;
    use std::collections::BTreeSet;

    /// The sweep as it was first written: every attempt's three events in one list of
    /// (time, job x 4 + kind) sorted by time, the waiting set a `BTreeSet`.
    fn delays_by_event_list(set: &JobSet, s: &Schedule) -> (Vec<Time>, Vec<Time>) {
        let n = set.jobs.len();
        let mut runs: Vec<(usize, Time, Time)> = s
            .preempted_runs
            .iter()
            .map(|r| (r.job, r.start, r.end))
            .collect();
        runs.extend(
            (0..n)
                .filter(|&j| s.jobs[j].ran())
                .map(|j| (j, s.jobs[j].start, s.jobs[j].end)),
        );
        runs.sort_unstable();
        let mut ev = Vec::new();
        let mut ready: Vec<Option<Time>> = vec![None; n];
        for &(job, start, end) in &runs {
            let from = ready[job].unwrap_or(set.jobs[job].submit);
            ev.extend([(from, job * 4), (start, job * 4 + 1), (end, job * 4 + 2)]);
            ready[job] = Some(end);
        }
        ev.sort_by_key(|e| e.0);
        let (mut count, mut waiting) = (vec![0i32; n], BTreeSet::new());
        let (mut tree, mut running) = (Fenwick(vec![0; n + 1]), 0i64);
        let (mut total, mut after) = (vec![0; n], vec![0; n]);
        let mut i = 0;
        while i < ev.len() {
            let t = ev[i].0;
            while i < ev.len() && ev[i].0 == t {
                let j = ev[i].1 / 4;
                let (w, r) = [(1, 0), (-1, 1), (0, -1)][ev[i].1 % 4];
                count[j] += w;
                if count[j] > 0 {
                    waiting.insert(j);
                } else {
                    waiting.remove(&j);
                }
                let p = i64::from(set.jobs[j].procs) * r;
                tree.add(j, p as u32);
                running += p;
                i += 1;
            }
            let (Some(&head), Some(t2)) = (waiting.first(), ev.get(i).map(|e| e.0)) else {
                continue;
            };
            let need = i64::from(set.jobs[head].procs);
            let free = i64::from(s.procs) - running;
            if need > free && free + running - i64::from(tree.prefix(head)) >= need {
                total[head] += t2 - t;
                let r = s.jobs[head].first_reservation().unwrap_or(Time::MAX);
                after[head] += (t2 - t.max(r)).max(0);
            }
        }
        (total, after)
    }

    /// Every job's delays, from the list or the vectors.
    fn dense(d: Delays, n: usize) -> (Vec<Time>, Vec<Time>) {
        let mut read = d.reader();
        (0..n).map(&mut read).unzip()
    }

    /// The sweep over sorted job lists gives every job the delays of the event list, kept as a
    /// list, as vectors from the start, or as a list turned into vectors on the way; on real
    /// traces with preemption (pv-easy), backfilling and reservations, and on the same jobs
    /// out of submit order.
    #[test]
    fn sweep_over_sorted_lists_gives_the_event_lists_delays() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/KTH-SP2-1996-2.1-cln.swf.gz"
        );
        let input = crate::input::InputOptions {
            max_jobs: Some(6000),
            ..Default::default()
        };
        let workload = crate::swf::read_path(std::path::Path::new(path), &Default::default());
        let jobs = crate::input::prepare(&workload.unwrap(), &input).unwrap();
        for spec in ["pv-easy", "easy", "conservative", "fcfs", "sjbf"] {
            let mut set = jobs.clone();
            let mut policy = crate::policy::build(spec).unwrap();
            let mut s =
                crate::sim::simulate_on(&set.jobs, set.procs, None, policy.as_mut(), 1, None)
                    .unwrap();
            let want = delays_by_event_list(&set, &s);
            // Backfilling delays blocked heads; pv-easy preempts instead.
            let delayed = want.0.iter().any(|&d| d > 0);
            assert!(
                delayed || !spec.contains("easy") || spec == "pv-easy",
                "{spec}"
            );
            let n = set.jobs.len();
            let delayed_jobs = want.0.iter().filter(|&&d| d > 0).count();
            for sparse_max in [usize::MAX, 0, delayed_jobs / 2] {
                let got = dense(delays(&set, &s, sparse_max), n);
                assert_eq!(got, want, "{spec}, list of at most {sparse_max}");
            }
            if spec == "pv-easy" {
                assert!(!s.preempted_runs.is_empty());
            }
            // The same schedule with its jobs reversed (submit times out of order).
            set.jobs.reverse();
            s.jobs.reverse();
            for r in &mut s.preempted_runs {
                r.job = n - 1 - r.job;
            }
            let got = dense(delays(&set, &s, n / 8), n);
            assert_eq!(got, delays_by_event_list(&set, &s), "{spec} reversed");
        }
    }

    #[test]
    fn job_bits_keep_the_smallest_member_as_a_set_does() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for n in [1, 63, 64, 65, 4096, 4097, 10_000] {
            let mut bits = JobBits::new(n);
            let mut set = BTreeSet::new();
            for _ in 0..20_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let j = (seed % n as u64) as usize;
                if seed >> 63 == 0 {
                    bits.insert(j);
                    set.insert(j);
                } else {
                    bits.remove(j);
                    set.remove(&j);
                }
                assert_eq!(bits.first(), set.first().copied(), "n {n}");
            }
        }
    }
}
