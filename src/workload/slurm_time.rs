//! Slurm's time notations: durations (`[D-]HH:MM:SS`, `MM:SS`, `MM:SS.mmm`, `UNLIMITED`) and
//! timestamps (`YYYY-MM-DDTHH:MM:SS`, optionally with `Z` or `±HH:MM` (`±HHMM`, `±HH`), or
//! Unix seconds).
//!
//! Timestamps without a time zone (sacct's default output) are read as UTC. Slurm prints them
//! in the cluster's local time, which the file does not name; reading them as UTC keeps every
//! difference (waits, runtimes, inter-arrival times) exact except across a daylight-saving
//! change, where one hour is gained or lost once a year. Set `SLURM_TIME_FORMAT=%s` (Unix
//! seconds) or give an offset to avoid even that.

use crate::quote::quote;

/// A duration limit: seconds, or no limit (`UNLIMITED`, `Partition_Limit`, `INVALID`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Seconds(i64),
    None,
}

/// `[D-]HH:MM:SS`, `HH:MM:SS`, `MM:SS`, `SS` (each part may carry `.fraction` on the seconds,
/// rounded to nearest). Negative durations are an error.
pub fn duration(text: &str) -> Result<i64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("empty".into());
    }
    if t.starts_with('-') {
        return Err(format!("negative duration {}", quote(t)));
    }
    let (days, rest) = match t.split_once('-') {
        Some((d, r)) => (
            d.parse::<i64>()
                .map_err(|_| format!("not a duration: {}", quote(t)))?,
            r,
        ),
        None => (0, t),
    };
    let bad = || {
        format!(
            "not a duration: {} (expected [D-]HH:MM:SS or MM:SS)",
            quote(t)
        )
    };
    // At most three parts, none empty (no Vec: this runs for every line of a large log).
    let mut parts: [&str; 3] = [""; 3];
    let mut count = 0;
    for p in rest.split(':') {
        if count == 3 || p.is_empty() {
            return Err(bad());
        }
        parts[count] = p;
        count += 1;
    }
    let parts = &parts[..count];
    let last = parts.len() - 1;
    let mut secs = 0i64;
    for (i, p) in parts.iter().enumerate() {
        let v = if i == last {
            // Whole seconds are read as an integer; a fraction (or anything else a float
            // reads) through f64, rounded to nearest.
            let whole = p.bytes().all(|b| b.is_ascii_digit());
            match p.parse::<i64>() {
                Ok(v) if whole => {
                    // Minutes and seconds after a larger part are below 60 (`1:99:99` was
                    // 2h 40m 39s).
                    if i > 0 && v >= 60 {
                        return Err(bad());
                    }
                    v
                }
                _ => {
                    let f: f64 = p.parse().map_err(|_| bad())?;
                    if !f.is_finite() || f < 0.0 || p.starts_with('+') || (i > 0 && f >= 60.0) {
                        return Err(bad());
                    }
                    f.round() as i64
                }
            }
        } else {
            if !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let v = p.parse::<i64>().map_err(|_| bad())?;
            // Hours after days are below 24, minutes after hours below 60.
            let most = if i == 0 {
                t.contains('-').then_some(24)
            } else {
                Some(60)
            };
            if most.is_some_and(|m| v >= m) {
                return Err(bad());
            }
            v
        };
        secs = secs
            .checked_mul(60)
            .and_then(|s| s.checked_add(v))
            .ok_or_else(bad)?;
    }
    // With days, the form is D-HH[:MM[:SS]]: a lone part after the dash is hours.
    if days > 0 || t.contains('-') {
        let scale = match parts.len() {
            1 => 3600,
            2 => 60,
            _ => 1,
        };
        secs = secs.saturating_mul(scale);
        secs = days
            .checked_mul(86_400)
            .and_then(|d| d.checked_add(secs))
            .ok_or_else(bad)?;
    }
    Ok(secs)
}

/// A Timelimit: a duration, or no limit (`INVALID`: what Slurm's `mins2time_str` prints for a
/// value it cannot show). A bare number is minutes (Slurm's `--time=N`, `TimelimitRaw`).
pub fn limit(text: &str) -> Result<Limit, String> {
    let t = text.trim();
    if t.is_empty()
        || [
            "UNLIMITED",
            "PARTITION_LIMIT",
            "INFINITE",
            "NONE",
            "INVALID",
        ]
        .iter()
        .any(|w| t.eq_ignore_ascii_case(w))
    {
        return Ok(Limit::None);
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        let m: i64 = t
            .parse()
            .map_err(|_| format!("not a time limit: {}", quote(t)))?;
        return m
            .checked_mul(60)
            .map(Limit::Seconds)
            .ok_or_else(|| format!("time limit too large: {}", quote(t)));
    }
    duration(t)
        .map(Limit::Seconds)
        .map_err(|e| format!("{e}; or UNLIMITED / Partition_Limit"))
}

/// A timestamp in Unix seconds, or `None` for `Unknown`, `None` and empty fields.
pub fn timestamp(text: &str) -> Result<Option<i64>, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("unknown") || t.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return t
            .parse::<i64>()
            .map(Some)
            .map_err(|_| format!("not a time: {}", quote(t)));
    }
    iso(t).map(Some).ok_or_else(|| {
        format!(
            "not a time: {} (expected YYYY-MM-DDTHH:MM:SS, optionally with Z or an offset \
                 from -14:00 to +14:00)",
            quote(t)
        )
    })
}

fn iso(t: &str) -> Option<i64> {
    let b = t.as_bytes();
    if b.len() < 19 || !matches!(b.get(10), Some(b'T') | Some(b' ')) {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = t.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    if b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, s) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let offset = match t.get(19..)? {
        "" | "Z" => 0,
        // `±HH:MM`, and `±HHMM` or `±HH` as strftime's `%z` writes it
        // (`SLURM_TIME_FORMAT=%FT%T%z`).
        z if (z.starts_with('+') || z.starts_with('-'))
            && (z.len() == 3 || z.len() == 5 || (z.len() == 6 && &z[3..4] == ":")) =>
        {
            let oh = num(20..22)?;
            let om = match z.len() {
                3 => 0,
                5 => num(22..24)?,
                _ => num(23..25)?,
            };
            // UTC-12:00 to UTC+14:00 are the offsets in use (`+25:00` is none).
            if oh > 14 || om > 59 {
                return None;
            }
            let o = oh * 3600 + om * 60;
            if z.starts_with('+') {
                o
            } else {
                -o
            }
        }
        _ => return None,
    };
    Some(days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A Unix time as a UTC date, `2026-11-27T13:45:03` (the form `--from` and `--to` take; H.
/// Hinnant's inverse of `days_from_civil`).
pub fn iso_utc(unix: i64) -> String {
    let (days, secs) = (unix.div_euclid(86_400), unix.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unix_time_reads_back_as_its_date() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00");
        // 2026-11-27T13:45:03 UTC: 20,784 days and 49,503 s after the epoch.
        assert_eq!(iso_utc(20_784 * 86_400 + 49_503), "2026-11-27T13:45:03");
        assert_eq!(iso_utc(951_782_400), "2000-02-29T00:00:00");
        assert_eq!(iso_utc(-1), "1969-12-31T23:59:59");
        for t in [0, 951_782_400, 1_796_033_625, -86_400 * 400] {
            assert_eq!(timestamp(&iso_utc(t)), Ok(Some(t)), "{t}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(duration("00:01:05"), Ok(65));
        assert_eq!(duration("1-02:03:04"), Ok(86_400 + 7384));
        assert_eq!(duration("12:30"), Ok(750));
        assert_eq!(duration("00:02.600"), Ok(3));
        assert_eq!(duration("2-00"), Ok(2 * 86_400));
        assert_eq!(duration("1-05:00"), Ok(86_400 + 5 * 3600));
        assert!(duration("-00:00:05").unwrap_err().contains("negative"));
        assert!(duration("ab:cd").is_err());
        assert!(duration("1:2:3:4").is_err());
        // Issue 37: parts out of range.
        assert!(duration("1:99:99").is_err());
        assert!(duration("1:00:60").is_err());
        assert!(duration("00:60").is_err());
        assert!(duration("1-24:00:00").is_err());
        assert_eq!(duration("99:59"), Ok(99 * 60 + 59));
        assert_eq!(duration("30:00:00"), Ok(30 * 3600));
        assert!(duration("").is_err());
    }

    #[test]
    fn limits() {
        assert_eq!(limit("UNLIMITED"), Ok(Limit::None));
        assert_eq!(limit("Partition_Limit"), Ok(Limit::None));
        assert_eq!(limit("INVALID"), Ok(Limit::None));
        assert_eq!(limit("30"), Ok(Limit::Seconds(1800)));
        assert_eq!(limit("1-00:00:00"), Ok(Limit::Seconds(86_400)));
        assert!(limit("soon").is_err());
    }

    #[test]
    fn timestamps() {
        assert_eq!(timestamp("1970-01-01T00:00:00"), Ok(Some(0)));
        assert_eq!(timestamp("2023-11-14T22:13:20"), Ok(Some(1_700_000_000)));
        assert_eq!(timestamp("2024-02-29T00:00:00Z"), Ok(Some(1_709_164_800)));
        assert_eq!(
            timestamp("2023-11-14T23:13:20+01:00"),
            Ok(Some(1_700_000_000))
        );
        assert_eq!(timestamp("1700000000"), Ok(Some(1_700_000_000)));
        assert_eq!(timestamp("Unknown"), Ok(None));
        assert_eq!(timestamp("None"), Ok(None));
        assert!(timestamp("2023-02-30T00:00:00").is_err());
        assert!(timestamp("2023-13-01T00:00:00").is_err());
        // Issue 37: offsets out of use.
        assert!(timestamp("2023-11-14T22:13:20+25:00").is_err());
        assert!(timestamp("2023-11-14T22:13:20+01:60").is_err());
        assert_eq!(
            timestamp("2023-11-14T23:13:20+01:00"),
            Ok(Some(1_700_000_000))
        );
        assert!(timestamp("yesterday").is_err());
        // strftime's `%z` (`SLURM_TIME_FORMAT=%FT%T%z`): `+0100`, and `+01` (ISO 8601's
        // hours alone); they were refused as not times, every job of such a log skipped.
        assert_eq!(
            timestamp("2023-11-14T23:13:20+0100"),
            Ok(Some(1_700_000_000))
        );
        assert_eq!(
            timestamp("2023-11-14T17:43:20-0430"),
            Ok(Some(1_700_000_000))
        );
        assert_eq!(timestamp("2023-11-14T23:13:20+01"), Ok(Some(1_700_000_000)));
        assert!(timestamp("2023-11-14T23:13:20+2500").is_err());
        assert!(timestamp("2023-11-14T23:13:20+010").is_err());
        assert!(timestamp("2023-11-14T23:13:20+01:0").is_err());
    }
}
