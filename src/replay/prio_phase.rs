//! The priority periods' second and side (`calc_phase`) read from the sacct log's `Priority`
//! column (docs/slurm.md, "The periods' second from sacct's Priority").
//!
//! The limit checks put the periods' whole second at `c + 30k` (`phases_from_log`: the decay
//! thread and the checks' loop start in the controller's same second); which `k` they do not
//! say when `PriorityCalcPeriod` is a minute or more. The recorded priorities do: each is the
//! one Slurm gave the job at its submission (`prio_sides`), from the fairshare factors of the
//! last period before it, and a period half a minute off counts other usage; one on the
//! other side of its second's ends counts or leaves their last part. Each candidate (second,
//! early or late in it) is replayed on the recorded history and the model's priority at
//! submission of every job compared with the recorded one; the candidate giving the most,
//! alone, is the periods' phase.

use super::Replay;
use crate::sim::{Policy, SimError};
use crate::slurm::state::Shared;
use crate::Time;

/// The limit checks' period, seconds.
const CHECKS: Time = crate::slurm::phases_from_log::CHECK_PERIOD;

/// Half minutes tried at most (a `PriorityCalcPeriod` of 10 minutes): each is two replays of
/// the history; a longer period is not read.
pub const MOST_CANDIDATES: usize = 20;

/// What the recorded priorities told of the periods' second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhaseRead {
    /// The phase told (second, late in it), when one candidate gives the most recorded
    /// priorities alone.
    pub second: Option<(Time, bool)>,
    /// Each candidate with the recorded priorities it gives.
    pub agree: Vec<((Time, bool), usize)>,
    /// The jobs with a recorded priority.
    pub compared: usize,
}

impl PhaseRead {
    /// For a person: each candidate's count.
    pub fn evidence(&self) -> String {
        let each: Vec<String> = (self.agree.iter())
            .map(|(s, n)| format!("{n} at {}", phase_text(*s)))
            .collect();
        format!(
            "the limit checks' second, the half minute the log's Priority column tells: of its \
             {} recorded priorities the model gives {}",
            self.compared,
            each.join(", ")
        )
    }
}

/// A candidate as `calc_phase` writes it: `58`, or `58.5` late in the second.
pub fn phase_text((second, late): (Time, bool)) -> String {
    match late {
        true => format!("{second}.5"),
        false => second.to_string(),
    }
}

/// The seconds within a period of `period` s the checks' second `check` allows: `check`
/// modulo 30, plus 30 s steps.
pub fn candidates(check: Time, period: Time) -> Vec<Time> {
    let first = check.rem_euclid(CHECKS);
    (0..)
        .map(|k| first + k * CHECKS)
        .take_while(|&s| s < period.max(1))
        .collect()
}

/// The periods' phase among `seconds` (second, late in it; each second's candidates
/// adjacent) that `replay`'s recorded priorities tell: the second whose better side gives
/// the most recorded priorities, alone, late when late gives more than early, `build` making the `slurm` policy at a given one; `None` when the log
/// records no priority.
pub fn read_phase<E>(
    replay: &Replay,
    seconds: &[(Time, bool)],
    build: impl Fn((Time, bool)) -> Result<(Box<dyn Policy>, Shared), E>,
) -> Result<Option<PhaseRead>, E>
where
    E: From<SimError>,
{
    let recorded = &replay.logged.priorities;
    let known: Vec<(usize, f64)> = (recorded.iter().enumerate())
        .filter_map(|(j, v)| v.map(|v| (j, v)))
        .collect();
    let Some(last) = known.iter().map(|&(j, _)| replay.jobs[j].submit).max() else {
        return Ok(None);
    };
    let mut agree = Vec::with_capacity(seconds.len());
    for &s in seconds {
        let (mut policy, shared) = build(s)?;
        replay.follow_to(last, policy.as_mut(), 1)?;
        let st = shared.borrow();
        let n = (known.iter())
            .filter(|&&(j, v)| replay.records_priority(&st, j, v))
            .count();
        agree.push((s, n));
    }
    // The second: the one whose better side gives the most, alone; its side: late where
    // late gives more than early, else early.
    let count = |c: (Time, bool)| agree.iter().find(|a| a.0 == c).map(|a| a.1);
    let best_of = |s: Time| count((s, false)).max(count((s, true))).unwrap_or(0);
    let mut secs: Vec<Time> = agree.iter().map(|a| a.0 .0).collect();
    secs.dedup();
    let best = secs.iter().map(|&s| best_of(s)).max().unwrap_or(0);
    let at_best: Vec<Time> = secs.into_iter().filter(|&s| best_of(s) == best).collect();
    let side = |s: Time| (s, count((s, true)) > count((s, false)));
    Ok(Some(PhaseRead {
        second: (at_best.len() == 1).then(|| side(at_best[0])),
        agree,
        compared: known.len(),
    }))
}

/// `site` with the periods' phase read from `replay`'s recorded priorities for the `slurm`
/// spec `spec` when it asks for it (`calc_phase=read`; its `log_clocks` given it:
/// [`crate::slurm::phases_from_log::LogClocks::with_calc_phase`]), with what was read; `site`
/// as it was when the spec does not ask or the site has no log clocks. Where none is read its
/// clocks say why ([`crate::slurm::phases_from_log::LogClocks::with_calc_unread`], which the
/// note tells): no end by the limit checks, a period of more than [`MOST_CANDIDATES`] half
/// minutes, no recorded priority, or no candidate giving the most alone.
pub fn site_with_read_phase(
    replay: &Replay,
    spec: &str,
    site: crate::slurm::Site,
) -> Result<(crate::slurm::Site, Option<PhaseRead>), crate::run::Error> {
    use crate::policy::slurm::{build_sharing, is_slurm};
    let parsed = crate::spec::Spec::parse(spec)?;
    let asks =
        (parsed.params.iter()).any(|(k, v)| k == "calc_phase" && v.eq_ignore_ascii_case("read"));
    let Some(clocks) = site.log_clocks.clone().filter(|_| is_slurm(spec) && asks) else {
        return Ok((site, None));
    };
    let unread = |site: crate::slurm::Site, why: String| {
        let clocks = clocks.clone().with_calc_unread(why);
        site.with_log_clocks(Some(clocks))
    };
    let (_, shared) = build_sharing(spec, &site)?;
    let params = shared.borrow().params.clone();
    let Some(check) = clocks.check_second(&params) else {
        let why = "no job ended by the limit checks, whose second places the periods'";
        return Ok((unread(site, why.into()), None));
    };
    let halves = candidates(check, params.calc_period);
    if halves.len() > MOST_CANDIDATES {
        let why = format!(
            "PriorityCalcPeriod holds {} half minutes, more than the {MOST_CANDIDATES} tried",
            halves.len()
        );
        return Ok((unread(site, why), None));
    }
    let seconds: Vec<(Time, bool)> = (halves.into_iter())
        .flat_map(|s| [(s, false), (s, true)])
        .collect();
    let read = read_phase(replay, &seconds, |s| {
        let mut at = parsed.clone();
        at.params.retain(|(k, _)| k != "calc_phase");
        at.params.push(("calc_phase".into(), phase_text(s)));
        build_sharing(&at.to_string(), &site).map_err(crate::run::Error::from)
    })?;
    let Some(read) = read else {
        return Ok((unread(site, NO_PRIORITY.into()), None));
    };
    let Some(second) = read.second else {
        let why = format!("no candidate gives the most alone: {}", read.evidence());
        return Ok((unread(site, why), Some(read)));
    };
    let clocks = clocks.with_calc_phase(phase_text(second), read.evidence());
    Ok((site.with_log_clocks(Some(clocks)), Some(read)))
}

/// Why `calc_phase=read` read none from a log that records no job's priority.
pub const NO_PRIORITY: &str = "the log records no job's priority: an sacct log without its \
     Priority column (sacct --format ...,Priority), or a JSON dump without priority";

#[cfg(test)]
mod tests;
