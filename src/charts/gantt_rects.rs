//! The Gantt's data, apart from drawing: a rectangle per contiguous processor interval of each
//! execution attempt, and the flat form of the rectangles that the page exchanges.

use crate::input::JobSet;
use crate::sim::Schedule;

/// One rectangle: processors `[lo, hi)` over `[start, end)`, of job index `job` and its user;
/// `preempted` when this attempt was killed by a preemption (its work is lost). In a Gantt with
/// GPU lanes ([`super::gpu_lanes`]) `lo` and `hi` are rows, and `lane` marks the rectangles of
/// GPU lanes (the others are cores).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub start: f64,
    pub end: f64,
    pub lo: u32,
    pub hi: u32,
    pub user: i64,
    pub job: u32,
    pub preempted: bool,
    pub lane: bool,
}

/// Numbers per rectangle in the flat form the page exchanges:
/// `[start, end, lo, hi, user, job, kind]`, kind 0 for a final attempt, 1 for a preempted one,
/// plus 2 for the rectangle of GPU lanes.
pub const RECT_FIELDS: usize = 7;

/// The rectangles of every execution attempt of schedule `s` (preempted attempts first, then
/// the final attempts in arrival order).
pub fn rects(set: &JobSet, s: &Schedule) -> Vec<Rect> {
    let mut out = Vec::with_capacity(set.jobs.len());
    out.extend(each_rect(set, s));
    out
}

/// One execution attempt as the Gantt draws it: its job, start, end, processors, and whether it
/// was preempted.
pub type Attempt<'a> = (
    usize,
    crate::Time,
    crate::Time,
    &'a crate::sim::ProcSet,
    bool,
);

/// Every execution attempt of `s` in the Gantt's order: the preempted attempts (in the order of
/// `preempted_runs`), then the final attempts of the jobs that ran, by job index.
pub fn attempts(s: &Schedule) -> impl Iterator<Item = Attempt<'_>> {
    let finals = s
        .jobs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.ran())
        .map(|(j, r)| (j, r.start, r.end, &r.procs, false));
    s.preempted_runs
        .iter()
        .map(|r| (r.job, r.start, r.end, &r.procs, true))
        .chain(finals)
}

/// [`rects`] one at a time (the page hands millions of them over a chunk at a time, without
/// holding them all).
pub fn each_rect<'a>(set: &'a JobSet, s: &'a Schedule) -> impl Iterator<Item = Rect> + 'a {
    attempts(s).flat_map(move |(j, start, end, procs, preempted)| {
        procs.intervals().iter().map(move |&(lo, hi)| Rect {
            start: start as f64,
            end: end as f64,
            lo,
            hi,
            user: set.jobs[j].user,
            job: j as u32,
            preempted,
            lane: false,
        })
    })
}

/// Flattens rectangles to `[start, end, lo, hi, user, job, kind, ...]`.
pub fn flatten(rects: &[Rect]) -> Vec<f64> {
    rects
        .iter()
        .flat_map(|r| {
            [
                r.start,
                r.end,
                f64::from(r.lo),
                f64::from(r.hi),
                r.user as f64,
                f64::from(r.job),
                f64::from(u8::from(r.preempted) + 2 * u8::from(r.lane)),
            ]
        })
        .collect()
}

/// Reads the flat form back; incomplete trailing numbers are ignored.
pub fn unflatten(flat: &[f64]) -> Vec<Rect> {
    flat.chunks_exact(RECT_FIELDS)
        .map(|c| Rect {
            start: c[0],
            end: c[1],
            lo: c[2].max(0.0) as u32,
            hi: c[3].max(0.0) as u32,
            user: c[4] as i64,
            job: c[5].max(0.0) as u32,
            preempted: c[6] == 1.0 || c[6] == 3.0,
            lane: c[6] >= 2.0,
        })
        .collect()
}
