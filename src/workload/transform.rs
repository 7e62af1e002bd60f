//! Workload transforms, applied before the input rules: a time window, a choice of users, and
//! load scaling. They are input options ([`crate::input::InputOptions::transform`]), so the
//! CLI flags, the page's controls and the share link set them, and the JSON report records
//! them.
//!
//! Order: the window (`from <= submit < to`, on the trace's own clock) and the users select
//! jobs; then `load_scale = F` divides every inter-arrival time by F (F = 1.2: 20% more load):
//! submit' = s0 + round((submit - s0) / F), s0 = the first selected submit time.
//!
//! A time is a number of seconds on the trace's clock (SWF field 2), or a date
//! (`2024-03-01T10:00:00`, read as UTC unless it carries `Z` or an offset) for a trace whose
//! header gives `UnixStartTime`.

use crate::quote::quote;
use serde::{Deserialize, Serialize};

use super::names::{Names, UserRef};
use super::slurm_time;
use crate::job::Job;
use crate::swf::{SwfHeader, Workload};
use std::fmt::Write;

/// The transforms; the default changes nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Transform {
    /// Inter-arrival times divided by this factor (> 0); `None` = 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_scale: Option<f64>,
    /// Only jobs submitted at or after this time (seconds or a date).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Only jobs submitted before this time (seconds or a date).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Only these users (SWF field 12, or names the trace gives); empty = all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub users: Vec<UserRef>,
    /// Not these users.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude_users: Vec<UserRef>,
}

impl Transform {
    pub fn is_identity(&self) -> bool {
        *self == Transform::default()
    }

    /// Checks the values alone (without a trace): the factor, the times' syntax.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(f) = self.load_scale {
            if !(f.is_finite() && f > 0.0 && f <= 1e6) {
                return Err(format!(
                    "load scale {}: must be a number > 0 and at most 1e6",
                    show(f)
                ));
            }
        }
        for (name, t) in [("from", &self.from), ("to", &self.to)] {
            if let Some(t) = t {
                parse_time(t).map_err(|e| format!("{name} {e}"))?;
            }
        }
        Ok(())
    }
}

/// A factor as typed: `1.2`, `-1`, `1e-300` (not 300 digits).
fn show(f: f64) -> String {
    if f != 0.0 && f.is_finite() && !(1e-6..1e16).contains(&f.abs()) {
        format!("{f:e}")
    } else {
        format!("{f}")
    }
}

enum When {
    Seconds(i64),
    Unix(i64),
}

fn parse_time(t: &str) -> Result<When, String> {
    let t = t.trim();
    if let Ok(s) = t.parse::<i64>() {
        return Ok(When::Seconds(s));
    }
    match slurm_time::timestamp(t) {
        Ok(Some(u)) if t.contains('-') => Ok(When::Unix(u)),
        _ => Err(format!(
            "{}: expected seconds of the trace's clock or a date such as 2024-03-01T10:00:00",
            quote(t)
        )),
    }
}

/// Resolves a time on the trace's clock.
fn resolve(name: &str, t: &str, header: &SwfHeader) -> Result<i64, String> {
    match parse_time(t).map_err(|e| format!("{name} {e}"))? {
        When::Seconds(s) => Ok(s),
        When::Unix(u) => match header.unix_start_time {
            Some(start) => u.checked_sub(start).ok_or_else(|| {
                format!("{name} {t}: out of range of the trace's clock (UnixStartTime {start})")
            }),
            None => Err(format!(
                "{name} {t}: a date needs a trace whose header gives UnixStartTime; give seconds of the trace's clock instead"
            )),
        },
    }
}

/// The transformed workload and what was done (for the warnings), or `None` when `t` changes
/// nothing.
pub fn apply(w: &Workload, t: &Transform) -> Result<Option<(Workload, Vec<String>)>, String> {
    if t.is_identity() {
        return Ok(None);
    }
    let mut records = w.records.clone();
    let notes = select(&mut records, &w.header, t, |r| {
        (&mut r.submit_time, r.user_id)
    })?;
    let out = Workload {
        header: w.header.clone(),
        issues: w.issues.clone(),
        issue_count: w.issue_count,
        skipped_lines: w.skipped_lines,
        gzip: w.gzip,
        records,
        partition_names: w.partition_names.clone(),
        requeued: w.requeued.clone(),
        words: w.words,
        alea_lines: w.alea_lines,
        ..Workload::empty(&w.source)
    };
    Ok(Some((out, notes)))
}

/// Applies `t` in place to the raw jobs of a trace (see [`crate::input::RawJobs`]: `submit` is
/// field 2) and tells what was done (for the warnings).
pub(crate) fn apply_jobs(
    jobs: &mut Vec<Job>,
    header: &SwfHeader,
    t: &Transform,
) -> Result<Vec<String>, String> {
    if t.is_identity() {
        return Ok(Vec::new());
    }
    select(jobs, header, t, |j| (&mut j.submit, j.user))
}

/// The transform on records or raw jobs: `fields` gives an item's submit time (field 2, to
/// change) and user (field 12).
fn select<T>(
    items: &mut Vec<T>,
    header: &SwfHeader,
    t: &Transform,
    fields: impl Fn(&mut T) -> (&mut i64, i64),
) -> Result<Vec<String>, String> {
    t.validate()?;
    let from = t
        .from
        .as_deref()
        .map(|s| resolve("from", s, header))
        .transpose()?;
    let to =
        t.to.as_deref()
            .map(|s| resolve("to", s, header))
            .transpose()?;
    // Users given by name are found in the header's notes (an sacct log's names).
    let names = Names::of_header(header.lines.iter().map(String::as_str));
    let users = names.user_ids(&t.users, "--users")?;
    let exclude_users = names.user_ids(&t.exclude_users, "--exclude-users")?;
    let mut notes = Vec::new();
    let (mut outside, mut other_users) = (0u64, 0u64);
    // The submissions' span, told when the window leaves no job.
    let span = (items.iter_mut().map(|r| *fields(r).0).min())
        .zip(items.iter_mut().map(|r| *fields(r).0).max());
    items.retain_mut(|r| {
        let (&mut s, user) = fields(r);
        if from.is_some_and(|f| s < f) || to.is_some_and(|e| s >= e) {
            outside += 1;
            false
        } else if (!users.is_empty() && !users.contains(&user)) || exclude_users.contains(&user) {
            other_users += 1;
            false
        } else {
            true
        }
    });
    if from.is_some() || to.is_some() {
        let show = |v: Option<i64>, d: &str| v.map(|x| x.to_string()).unwrap_or(d.to_owned());
        let mut note = format!(
            "window [{}, {}) s of the trace's clock: {} outside left out",
            show(from, "start"),
            show(to, "end"),
            crate::plural::count(outside, "job")
        );
        if let (true, Some((lo, hi))) = (items.is_empty(), span) {
            let date = |s: i64| {
                (header.unix_start_time)
                    .and_then(|u| u.checked_add(s))
                    .map_or(String::new(), |u| format!(" ({})", slurm_time::iso_utc(u)))
            };
            let _ = write!(
                note,
                "; the trace's jobs are submitted from {lo} s{} to {hi} s{}",
                date(lo),
                date(hi)
            );
        }
        notes.push(note);
    }
    if !t.users.is_empty() || !t.exclude_users.is_empty() {
        notes.push(format!(
            "user selection: {} of other users left out",
            crate::plural::count(other_users, "job")
        ));
    }
    if let Some(f) = t.load_scale.filter(|&f| f != 1.0) {
        if let Some(s0) = items.iter_mut().map(|r| *fields(r).0).min() {
            // The scaled span must stay a time the simulation holds (2^53 s).
            let last = items.iter_mut().map(|r| *fields(r).0).max().unwrap_or(s0);
            let width = i128::from(last) - i128::from(s0);
            let span = width as f64 / f;
            if span > crate::job::MAX_TIME as f64 {
                return Err(format!(
                    "load scale {}: the arrivals' span of {} s divided by {} is {span:.3e} s, \
                     beyond 2^53 s (the longest time simulated); the smallest scale for this trace \
                     is {:.3e}",
                    show(f),
                    width,
                    show(f),
                    width as f64 / crate::job::MAX_TIME as f64
                ));
            }
            for r in items.iter_mut() {
                let submit = fields(r).0;
                let gap = (i128::from(*submit) - i128::from(s0)) as f64;
                *submit = s0.saturating_add((gap / f).round() as i64);
            }
        }
        notes.push(format!(
            "load scaled by {f}: inter-arrival times divided by {f}"
        ));
    }
    Ok(notes)
}
