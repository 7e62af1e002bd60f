//! Slurm's time limits (`MaxTime`): `minutes`, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`,
//! `D-HH:MM:SS`, or `UNLIMITED` / `INFINITE` (any case; `-1` too). As Slurm does
//! (`time_str2mins`), a limit is kept in whole minutes, seconds rounded up.

use crate::quote::quote;

/// A time limit in minutes; `None` is unlimited.
pub type Minutes = Option<u32>;

/// Parses a Slurm time limit into minutes (`None`: unlimited).
pub fn parse_minutes(s: &str) -> Result<Minutes, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("unlimited") || t.eq_ignore_ascii_case("infinite") || t == "-1" {
        return Ok(None);
    }
    let bad = || {
        format!(
            "{} is not a time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)",
            quote(s)
        )
    };
    let num = |x: &str| -> Result<u64, String> {
        if x.is_empty() || x.len() > 9 || !x.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        x.parse().map_err(|_| bad())
    };
    let (days, rest) = match t.split_once('-') {
        Some((d, r)) => (Some(num(d)?), r),
        None => (None, t),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    let v: Vec<u64> = parts.iter().map(|p| num(p)).collect::<Result<_, _>>()?;
    let secs = match (days, v.as_slice()) {
        (None, [m]) => m * 60,
        (None, [m, s]) => m * 60 + s,
        (None, [h, m, s]) => h * 3600 + m * 60 + s,
        (Some(d), [h]) => d * 86400 + h * 3600,
        (Some(d), [h, m]) => d * 86400 + h * 3600 + m * 60,
        (Some(d), [h, m, s]) => d * 86400 + h * 3600 + m * 60 + s,
        _ => return Err(bad()),
    };
    u32::try_from(secs.div_ceil(60))
        .map(Some)
        .map_err(|_| format!("{}: longer than {} minutes", quote(s), u32::MAX))
}

/// Writes minutes as Slurm prints a limit: `D-HH:MM:SS`, `HH:MM:SS` under a day, `UNLIMITED`.
pub fn format_minutes(m: Minutes) -> String {
    match m {
        None => "UNLIMITED".into(),
        Some(m) => {
            let (d, h, mi) = (m / 1440, m % 1440 / 60, m % 60);
            if d > 0 {
                format!("{d}-{h:02}:{mi:02}:00")
            } else {
                format!("{h:02}:{mi:02}:00")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_formats() {
        assert_eq!(parse_minutes("90"), Ok(Some(90)));
        assert_eq!(parse_minutes("0"), Ok(Some(0)));
        assert_eq!(parse_minutes("10:30"), Ok(Some(11)));
        assert_eq!(parse_minutes("10:00"), Ok(Some(10)));
        assert_eq!(parse_minutes("02:00:00"), Ok(Some(120)));
        assert_eq!(parse_minutes("1-12"), Ok(Some(2160)));
        assert_eq!(parse_minutes("1-00:30"), Ok(Some(1470)));
        assert_eq!(parse_minutes("2-00:00:01"), Ok(Some(2881)));
        assert_eq!(parse_minutes("UNLIMITED"), Ok(None));
        assert_eq!(parse_minutes("infinite"), Ok(None));
        for bad in [
            "",
            "1:2:3:4",
            "a",
            "1-",
            "-5",
            "1-2-3",
            "1::2",
            "99999999999",
        ] {
            assert!(parse_minutes(bad).is_err(), "{bad:?}");
        }
        assert_eq!(format_minutes(Some(1440)), "1-00:00:00");
        assert_eq!(format_minutes(Some(90)), "01:30:00");
        assert_eq!(format_minutes(None), "UNLIMITED");
    }
}
