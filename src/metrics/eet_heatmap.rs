//! EET heatmap data (Tóth & Klusáček, Section 3.3): users x time bins, each cell the number of
//! the user's violated EETs at that time.
//!
//! A violated job covers `[x, x + T_j)` with `x = EET_j - runtime_j` (the latest start that
//! would have met the EET; `runtime_j` is `Job::runtime`, the runtime the EET was computed
//! with) and `T_j` its tardiness. The paper samples each minute and adds 1 to `T_j` minutes'
//! cells; at any bin width a cell here holds the time-average of the number of covering
//! violations over the bin: `(1 / width) x integral of the count`. A violation covering a whole
//! bin adds exactly 1, one covering a fraction adds that fraction, so a row sums to
//! `sum of T_j / width` (within the window) at every resolution.
//!
//! Each row is built from its violations' end points, sorted (a sweep over +1 / -1 events), so
//! the cost is the events' sort plus the non-zero cells written: no per-second arrays.

use super::eet::Expected;
use crate::input::JobSet;
use crate::Time;
use foldhash::HashMap;
use serde::Serialize;

/// One violated EET: the user and the interval it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Violation {
    pub user: i64,
    /// `EET_j - runtime_j`.
    pub start: Time,
    /// `start + T_j`.
    pub end: Time,
}

/// The violated EETs of a measured schedule, in job order.
pub fn violations(set: &JobSet, s: &crate::sim::Schedule, expected: &Expected) -> Vec<Violation> {
    set.jobs
        .iter()
        .zip(super::eet::per_job(expected, s))
        .filter_map(|(job, e)| {
            let t = e.tardiness.filter(|&t| t > 0)?;
            let start = e.eet - job.runtime;
            Some(Violation {
                user: job.user,
                start,
                end: start + t,
            })
        })
        .collect()
}

/// One user's row: the non-zero cells as `(bin index, value)`, ascending.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeatRow {
    pub user: i64,
    /// Violated EETs of the user (in the window or not).
    pub violated: u64,
    /// Sum of the row's cells.
    pub total: f64,
    pub cells: Vec<(u32, f64)>,
}

/// Heatmap of `bins` bins of `width` seconds from `t0`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Heatmap {
    pub t0: f64,
    pub width: f64,
    pub bins: u32,
    pub rows: Vec<HeatRow>,
}

impl Heatmap {
    /// End of the window.
    pub fn t1(&self) -> f64 {
        self.t0 + self.width * f64::from(self.bins)
    }

    /// The largest cell value (0 when no cell is set).
    pub fn max(&self) -> f64 {
        self.rows
            .iter()
            .flat_map(|r| r.cells.iter().map(|c| c.1))
            .fold(0.0, f64::max)
    }
}

/// Bins `violations` into one row per user of `users` (in that order; violations of other
/// users are ignored): `bins` bins of `width` seconds from `t0`. A non-positive or non-finite
/// width, or no bins, gives empty rows.
pub fn heatmap(users: &[i64], violations: &[Violation], t0: f64, width: f64, bins: u32) -> Heatmap {
    let index: HashMap<i64, usize> = users.iter().enumerate().map(|(i, &u)| (u, i)).collect();
    let mut events: Vec<Vec<(Time, i32)>> = vec![Vec::new(); users.len()];
    let mut rows: Vec<HeatRow> = users
        .iter()
        .map(|&user| HeatRow {
            user,
            violated: 0,
            total: 0.0,
            cells: Vec::new(),
        })
        .collect();
    for v in violations {
        if let Some(&i) = index.get(&v.user) {
            rows[i].violated += 1;
            if v.end > v.start {
                events[i].push((v.start, 1));
                events[i].push((v.end, -1));
            }
        }
    }
    let usable = width.is_finite() && width > 0.0 && bins > 0 && t0.is_finite();
    let t1 = t0 + width * f64::from(bins);
    for (row, ev) in rows.iter_mut().zip(&mut events) {
        if !usable {
            continue;
        }
        ev.sort_unstable();
        let mut count = 0i64;
        for k in 0..ev.len() {
            count += i64::from(ev[k].1);
            let Some(&(next, _)) = ev.get(k + 1) else {
                break;
            };
            if count > 0 && next > ev[k].0 {
                add_span(
                    &mut row.cells,
                    ev[k].0 as f64,
                    next as f64,
                    count as f64,
                    t0,
                    t1,
                    width,
                    bins,
                );
            }
        }
        row.total = row.cells.iter().map(|c| c.1).sum();
    }
    Heatmap {
        t0,
        width,
        bins,
        rows,
    }
}

/// Adds `count` over `[a, b)` (clipped to the window) to the cells, which are ascending and
/// receive spans in time order.
#[allow(clippy::too_many_arguments)]
fn add_span(
    cells: &mut Vec<(u32, f64)>,
    a: f64,
    b: f64,
    count: f64,
    t0: f64,
    t1: f64,
    width: f64,
    bins: u32,
) {
    let (a, b) = (a.max(t0), b.min(t1));
    if b <= a {
        return;
    }
    let first = (((a - t0) / width).floor() as u32).min(bins - 1);
    let last = (((b - t0) / width).ceil() as u32).clamp(first + 1, bins);
    for i in first..last {
        let lo = a.max(t0 + f64::from(i) * width);
        let hi = b.min(t0 + f64::from(i + 1) * width);
        if hi <= lo {
            continue;
        }
        let v = count * (hi - lo) / width;
        match cells.last_mut() {
            Some(c) if c.0 == i => c.1 += v,
            _ => cells.push((i, v)),
        }
    }
}

/// A window for a schedule: from the first submit to the last end (at least one second).
pub fn window(set: &JobSet, s: &crate::sim::Schedule) -> (f64, f64) {
    let t0 = set.jobs.iter().map(|j| j.submit).min().unwrap_or(0);
    let t1 = s
        .jobs
        .iter()
        .filter(|r| r.ran())
        .map(|r| r.end)
        .max()
        .unwrap_or(t0)
        .max(t0 + 1);
    (t0 as f64, t1 as f64)
}

/// Memory in use over the schedule (every attempt, preempted ones included), as flat
/// `[time, KB]` pairs of a step function; `None` when no job of the trace has a memory figure
/// (field 10, else field 7; see [`super::eet_expected::memory_kb`]).
pub fn memory_series(set: &JobSet, s: &crate::sim::Schedule) -> Option<Vec<f64>> {
    let need: Vec<u128> = set
        .jobs
        .iter()
        .map(super::eet_expected::memory_kb)
        .collect();
    if need.iter().all(|&m| m == 0) {
        return None;
    }
    let mut edges: Vec<(Time, i128)> = Vec::new();
    let finals = s
        .jobs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.ran())
        .map(|(j, r)| (j, r.start, r.end));
    let attempts = s.preempted_runs.iter().map(|r| (r.job, r.start, r.end));
    for (j, start, end) in finals.chain(attempts) {
        if need[j] > 0 && end > start {
            edges.push((start, need[j] as i128));
            edges.push((end, -(need[j] as i128)));
        }
    }
    edges.sort_unstable();
    let mut out = Vec::with_capacity(edges.len());
    let mut level: i128 = 0;
    let mut i = 0;
    while i < edges.len() {
        let t = edges[i].0;
        while i < edges.len() && edges[i].0 == t {
            level += edges[i].1;
            i += 1;
        }
        out.extend([t as f64, level as f64]);
    }
    Some(out)
}
