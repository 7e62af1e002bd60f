//! The `;` header/comment lines of an SWF trace.

use serde::{Deserialize, Serialize};

use crate::quote::quote;

/// What the `; Key: value` lines of a trace say. Typed fields hold the first value that
/// parses; every `Key: value` line is also in `fields`, and every comment line in `lines`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SwfHeader {
    pub version: Option<String>,
    pub computer: Option<String>,
    pub installation: Option<String>,
    pub max_jobs: Option<u64>,
    pub max_records: Option<u64>,
    pub preemption: Option<String>,
    pub unix_start_time: Option<i64>,
    pub time_zone: Option<i64>,
    pub time_zone_string: Option<String>,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    pub max_nodes: Option<u64>,
    pub max_procs: Option<u64>,
    pub max_runtime: Option<u64>,
    pub max_memory: Option<u64>,
    pub allow_overuse: Option<bool>,
    pub max_queues: Option<u64>,
    pub max_partitions: Option<u64>,
    /// schedlab's extension: the field (19 or more, an extra column) holding each job's GPUs
    /// (`; GpuField: 19`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_field: Option<u64>,
    /// schedlab's extension: the field (19 or more, an extra column) that says whether the
    /// controller ended each job at its time limit (`; TimeoutField: 20`; 1 yes, 0 or -1 no):
    /// an sacct log's `TIMEOUT`, which SWF's status (field 11) has no code for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_field: Option<u64>,
    /// Every `Note:` value, in order.
    pub notes: Vec<String>,
    /// Every `Key: value` comment line, in order, including the typed ones.
    pub fields: Vec<(String, String)>,
    /// Every comment line verbatim (without its line ending), in order, wherever it was.
    pub lines: Vec<String>,
}

/// A header value that did not parse: (`header MaxProcs`, reason).
pub(crate) type HeaderWarning = (String, String);

impl SwfHeader {
    /// The first value of header key `key`, matched case-insensitively (`maxprocs` finds
    /// `MaxProcs`).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// Records one comment line (`raw` is the whole line, `;` included). Returns a warning
    /// when a typed field's value does not parse.
    pub(crate) fn add_comment(&mut self, raw: &str) -> Option<HeaderWarning> {
        self.lines.push(raw.to_owned());
        let (key, value) = split_key_value(raw)?;
        self.fields.push((key.to_owned(), value.to_owned()));
        self.set_typed(key, value)
    }

    fn set_typed(&mut self, key: &str, value: &str) -> Option<HeaderWarning> {
        let norm: String = key
            .chars()
            .filter(|c| *c != '_' && *c != '-')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let text = |slot: &mut Option<String>| {
            if slot.is_none() {
                *slot = Some(value.to_owned());
            }
            None
        };
        let uint = |slot: &mut Option<u64>| typed(slot, key, value, "a non-negative integer");
        let int = |slot: &mut Option<i64>| typed(slot, key, value, "an integer");
        match norm.as_str() {
            "version" => text(&mut self.version),
            "computer" => text(&mut self.computer),
            "installation" => text(&mut self.installation),
            "preemption" => text(&mut self.preemption),
            "timezonestring" => text(&mut self.time_zone_string),
            "starttime" => text(&mut self.start_time),
            "endtime" => text(&mut self.end_time),
            "maxjobs" => uint(&mut self.max_jobs),
            "maxrecords" => uint(&mut self.max_records),
            "maxnodes" => uint(&mut self.max_nodes),
            "maxprocs" => uint(&mut self.max_procs),
            "maxruntime" => uint(&mut self.max_runtime),
            "maxmemory" => uint(&mut self.max_memory),
            "maxqueues" => uint(&mut self.max_queues),
            "maxpartitions" => uint(&mut self.max_partitions),
            "gpufield" => column(&mut self.gpu_field, key, value),
            "timeoutfield" => column(&mut self.timeout_field, key, value),
            "unixstarttime" => int(&mut self.unix_start_time),
            "timezone" => int(&mut self.time_zone),
            "allowoveruse" => yes_no(&mut self.allow_overuse, key, value),
            "note" => {
                self.notes.push(value.to_owned());
                None
            }
            _ => None,
        }
    }
}

fn typed<T: std::str::FromStr>(
    slot: &mut Option<T>,
    key: &str,
    value: &str,
    expected: &str,
) -> Option<HeaderWarning> {
    match value.parse::<T>() {
        Ok(v) => {
            if slot.is_none() {
                *slot = Some(v);
            }
            None
        }
        Err(_) => Some(warning(key, value, expected)),
    }
}

/// A header value naming an extra column (19 or more).
fn column(slot: &mut Option<u64>, key: &str, value: &str) -> Option<HeaderWarning> {
    match value.parse::<u64>() {
        Ok(f) if f >= 19 && f <= u64::from(u32::MAX) => {
            slot.get_or_insert(f);
            None
        }
        _ => Some(warning(
            key,
            value,
            "a field number from 19 (an extra column)",
        )),
    }
}

fn yes_no(slot: &mut Option<bool>, key: &str, value: &str) -> Option<HeaderWarning> {
    let parsed = match value.to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" => Some(true),
        "no" | "false" | "0" => Some(false),
        _ => None,
    };
    match parsed {
        Some(b) => {
            slot.get_or_insert(b);
            None
        }
        None => Some(warning(key, value, "Yes or No")),
    }
}

fn warning(key: &str, value: &str, expected: &str) -> HeaderWarning {
    (
        format!("header {}", quote_key(key)),
        format!("not {expected}: {} (value ignored)", quote(value)),
    )
}

fn quote_key(key: &str) -> &str {
    // Keys are short ASCII identifiers (see `split_key_value`); cut a silly long one.
    key.get(..40).unwrap_or(key)
}

/// `; Key: value` → (`Key`, `value`), both trimmed. The key must look like an identifier
/// (letters, digits, `_`, `-`, `.`), so that indented continuation text and URLs
/// (`;   http://...`) are not mistaken for fields.
fn split_key_value(raw: &str) -> Option<(&str, &str)> {
    let body = raw.trim_start().strip_prefix(';')?.trim_start();
    let (key, value) = body.split_once(':')?;
    let key = key.trim_end();
    let mut chars = key.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !first_ok || !rest_ok || value.starts_with("//") {
        return None;
    }
    Some((key, value.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_fields_and_lines() {
        let mut h = SwfHeader::default();
        for l in [
            "; Version: 2.2",
            ";  MaxProcs: 430 ",
            ";MaxNodes:100",
            "; TimeZone: -25200",
            "; TimeZoneString: Europe/Stockholm",
            "; Note: uses EASY",
            ";       continuation without a key",
            ";              http://www.cs.huji.ac.il/labs/parallel/workload/",
            "; Note: second",
            "; AllowOveruse: No",
            "; MaxProcs: 999",
            "   ; Queue:  0  interactive   ",
        ] {
            assert_eq!(h.add_comment(l), None, "{l}");
        }
        assert_eq!(h.version.as_deref(), Some("2.2"));
        assert_eq!(h.max_procs, Some(430), "first value wins");
        assert_eq!(h.max_nodes, Some(100));
        assert_eq!(h.time_zone, Some(-25200));
        assert_eq!(h.time_zone_string.as_deref(), Some("Europe/Stockholm"));
        assert_eq!(h.allow_overuse, Some(false));
        assert_eq!(h.notes, vec!["uses EASY", "second"]);
        assert_eq!(h.lines.len(), 12);
        assert_eq!(h.lines[11], "   ; Queue:  0  interactive   ");
        assert_eq!(h.fields.len(), 10);
        assert_eq!(h.get("queue"), Some("0  interactive"));
        assert_eq!(h.get("http"), None);
    }

    #[test]
    fn bad_typed_value_warns_and_stays_in_fields() {
        let mut h = SwfHeader::default();
        let w = h.add_comment("; MaxProcs: lots").unwrap();
        assert_eq!(w.0, "header MaxProcs");
        assert_eq!(w.1, "not a non-negative integer: \"lots\" (value ignored)");
        assert_eq!(h.max_procs, None);
        assert_eq!(h.get("MaxProcs"), Some("lots"));
        assert!(
            h.add_comment("; maxprocs: 12").is_none(),
            "case-insensitive"
        );
        assert_eq!(h.max_procs, Some(12));
    }
}
