//! The values of the parameters as slurm.conf and specs write them: numbers, counts, times in
//! minutes, YES/NO, lists; and the canonical text a parameter set from one is printed as.

use crate::cluster::time::{format_minutes, parse_minutes};
use crate::quote::quote;
use crate::Time;

pub(super) fn number(v: &str, what: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("{} is not {what}", quote(v))),
    }
}

/// A priority weight of slurm.conf (`PriorityWeightAge`, `...Fairshare`, `...JobSize`,
/// `...Partition`, `...QOS`): a whole number, as Slurm reads one (`S_P_UINT32`, read_config.c;
/// `s_p_handle_uint32`, parse_value.c: `strtoul`, a `k` suffix times 1024, at most
/// 4294967295). A fraction (`1.5`) was taken and gave priorities no Slurm computes.
pub(super) fn whole_weight(v: &str) -> Result<f64, String> {
    let t = v.trim();
    let (digits, scale) = match t.strip_suffix(['k', 'K']) {
        Some(d) => (d, 1024u64),
        None => (t, 1),
    };
    let n = (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse::<u64>().ok())
        .flatten()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n <= u64::from(u32::MAX));
    n.map(|n| n as f64).ok_or_else(|| {
        let why = if t.parse::<f64>().is_ok_and(|x| x.is_finite() && x >= 0.0) {
            "Slurm's priority weights are whole numbers"
        } else {
            "a whole number"
        };
        format!(
            "{} is not a weight >= 0: {why} from 0 to {}",
            quote(v),
            u32::MAX
        )
    })
}

/// A partition's `PriorityJobFactor`: a whole number from 0 to 65535, as Slurm reads one
/// (`S_P_UINT16`, read_config.c). A fraction (`1.5`) was taken and gave partition factors no
/// Slurm computes.
pub(super) fn job_factor(v: &str) -> Result<f64, String> {
    let t = v.trim();
    let n = (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse::<u16>().ok())
        .flatten();
    n.map(f64::from).ok_or_else(|| {
        let fraction =
            (t.parse::<f64>()).is_ok_and(|x| x.is_finite() && x >= 0.0 && x.fract() != 0.0);
        let why = match fraction {
            true => "Slurm's PriorityJobFactor is a whole number",
            false => "a whole number",
        };
        format!(
            "{} is not a partition factor: {why} from 0 to {}",
            quote(v),
            u16::MAX
        )
    })
}

pub(super) fn count(v: &str, min: u64, max: u64) -> Result<u64, String> {
    match v.trim().parse::<u64>() {
        Ok(x) if (min..=max).contains(&x) => Ok(x),
        _ => Err(format!(
            "{} is not a whole number from {min} to {max}",
            quote(v)
        )),
    }
}

/// [`count`] of a time in `unit` (seconds, minutes): its error names the unit, which a spec's
/// `bf_window=2h` does not write.
pub(super) fn count_of(v: &str, min: u64, max: u64, unit: &str) -> Result<u64, String> {
    count(v, min, max).map_err(|e| format!("{e} ({unit})"))
}

pub(super) fn minutes(v: &str) -> Result<Time, String> {
    match parse_minutes(v)? {
        Some(m) => Ok(Time::from(m) * 60),
        None => Err(format!("{}: a finite time is needed", quote(v))),
    }
}

pub(super) fn yes_no(v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "yes" | "y" | "1" | "true" => Ok(true),
        "no" | "n" | "0" | "false" => Ok(false),
        _ => Err(format!("{} is not YES or NO", quote(v))),
    }
}

/// A list value as slurm.conf writes it (`A,B`) or as a spec does (`(A,B)` or `A+B`).
pub(super) fn items(v: &str) -> Vec<String> {
    let v = v.trim();
    let v = v
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(v);
    v.split([',', '+'])
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A list for a spec: one item bare, several in parentheses.
pub(super) fn list_text(items: &[String]) -> String {
    match items {
        [] => "none".into(),
        [one] => one.clone(),
        _ => format!("({})", items.join(",")),
    }
}

pub(super) fn fmt(slot: &mut f64, v: f64) -> String {
    *slot = v;
    format!("{v}")
}

pub(super) fn time(slot: &mut Time, secs: Time) -> String {
    *slot = secs;
    format_minutes(Some((secs / 60) as u32))
}

pub(super) fn secs(slot: &mut Time, v: u64) -> String {
    *slot = v as Time;
    v.to_string()
}

/// A list of seconds of the log (`calc_early`, `calc_early_bf`): `none`, one bare or several
/// in parentheses; sorted, without repeats, and written back so.
pub(super) fn seconds_list(v: &str) -> Result<(Option<Vec<Time>>, String), String> {
    let mut secs = Vec::new();
    for t in items(v) {
        if t.eq_ignore_ascii_case("none") {
            continue;
        }
        secs.push(count(&t, 0, 1 << 40)? as Time);
    }
    secs.sort_unstable();
    secs.dedup();
    if v.trim().eq_ignore_ascii_case("none") {
        return Ok((None, "none".into()));
    }
    let text: Vec<String> = secs.iter().map(Time::to_string).collect();
    let text = match text.len() {
        1 => text[0].clone(),
        _ => format!("({})", text.join(",")),
    };
    Ok((Some(secs), text))
}
