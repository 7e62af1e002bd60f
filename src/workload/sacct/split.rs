//! Cutting sacct lines into fields. `--parsable2` separates them with `|`, which no field holds;
//! `--delimiter=X` (`,` is the usual choice, a CSV) with any text, which some fields hold too:
//! `NodeList` (`n[01-04,07]`), the TRES lists (`billing=4,cpu=4,mem=4G,node=1`) and `Flags`
//! (`SchedMain,StartRecieved`) hold commas. The header says which delimiter was used (the one
//! that cuts a `JobID` field out of it); a comma inside `[...]` is a hostlist's; a line's
//! extra fields go to its one list column (a TRES list or `Flags`) when the header names one,
//! and the line is refused, saying why, when it names several (which list each entry belongs
//! to cannot be told). `Partition` is a list too (`short,batch`: a job submitted to several):
//! beside one TRES list or `Flags`, the extra fields are shared out so that each of that
//! list's entries is one of its kind (`cpu=4`, `SchedMain`) and no partition name is; a line
//! no such share fits is refused.

/// Delimiters tried, in order: sacct's `|`, then the common `--delimiter` choices.
const DELIMITERS: [char; 4] = ['|', ',', '\t', ';'];

/// The delimiter of an sacct header line (`None`: not an sacct header). A line holding `|` is
/// one (SWF never holds `|`); another delimiter when it cuts a `JobID` or `JobIDRaw` field out
/// of the line.
pub fn delimiter(header: &str) -> Option<char> {
    let header = header.trim_start_matches('\u{feff}');
    if header.trim_start().starts_with(';') {
        return None;
    }
    if header.contains('|') {
        return Some('|');
    }
    DELIMITERS[1..].iter().copied().find(|&d| {
        header.split(d).count() > 1
            && header.split(d).any(|f| {
                let f = f.trim().trim_matches('"');
                f.eq_ignore_ascii_case("JobID") || f.eq_ignore_ascii_case("JobIDRaw")
            })
    })
}

/// How the lines of one file are cut: its delimiter, the header's field count, the columns
/// that hold lists.
pub struct Splitter {
    pub delim: char,
    /// Fields the header names.
    pub count: usize,
    /// The columns whose values are comma lists (TRES lists, `Flags`), with their names.
    lists: Vec<(usize, String)>,
    /// The `Partition` column (a comma list of names: a job submitted to several).
    partition: Option<usize>,
}

/// Whether `entry` is an entry of list column `name`: a TRES list's `name=count`, a `Flags`
/// word (22.05's `slurmdb_job_flags_str`, src/common/slurmdb_defs.c: `None`, `SchedNotSet`,
/// `SchedSubmit`, `SchedMain`, `SchedBackfill`, `StartRecieved`; Slurm 23.11 and later spell
/// the last `StartReceived`).
fn entry_of(name: &str, entry: &str) -> bool {
    const FLAGS: [&str; 7] = [
        "None",
        "SchedNotSet",
        "SchedSubmit",
        "SchedMain",
        "SchedBackfill",
        "StartRecieved",
        "StartReceived",
    ];
    if name.eq_ignore_ascii_case("flags") {
        FLAGS.contains(&entry.trim())
    } else {
        entry.contains('=')
    }
}

impl Splitter {
    /// The splitter of a file whose header names `names`, cut with `delim`.
    pub fn new(delim: char, names: &[String]) -> Splitter {
        let lists = names
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                let n = n.to_ascii_lowercase();
                n.contains("tres") || n == "flags"
            })
            .map(|(i, n)| (i, n.clone()))
            .collect();
        let partition = names
            .iter()
            .position(|n| n.eq_ignore_ascii_case("partition"));
        Splitter {
            delim,
            count: names.len(),
            lists,
            partition,
        }
    }

    /// The header's field names (a `--parsable` header's trailing empty one dropped).
    pub fn names(header: &str, delim: char) -> Vec<String> {
        let mut names: Vec<String> = header
            .split(delim)
            .map(|s| s.trim().trim_matches('"').trim().to_owned())
            .collect();
        if names.len() > 1 && names.last().is_some_and(|s| s.is_empty()) {
            names.pop(); // --parsable ends every line with the delimiter
        }
        names
    }

    /// Cuts `line` into `out` (cleared first): exactly [`Self::count`] fields, or why not.
    pub fn split<'a>(&self, line: &'a str, out: &mut Vec<&'a str>) -> Result<(), String> {
        out.clear();
        if self.delim == '|' {
            out.extend(line.split(self.delim));
        } else {
            split_quoted(line, self.delim, out);
        }
        if out.len() == self.count + 1 && out.last().is_some_and(|s| s.is_empty()) {
            out.pop();
        }
        if out.len() > self.count && self.delim == ',' {
            let extra = out.len() - self.count;
            match (self.partition, self.lists.as_slice()) {
                // One list column: the extra fields are all its entries.
                (None, &[(k, _)]) | (Some(k), []) => merge(line, out, k, extra),
                (Some(p), [(k, name)]) => self.share_out(line, out, p, (*k, name)),
                _ => {}
            }
        }
        if out.len() == self.count {
            return Ok(());
        }
        let mut why = format!(
            "line has {} field{}, the header names {}",
            out.len(),
            if out.len() == 1 { "" } else { "s" },
            self.count
        );
        let several = self.lists.len() + usize::from(self.partition.is_some()) > 1;
        if out.len() > self.count && self.delim != '|' && several {
            let mut lists: Vec<(usize, &str)> =
                self.lists.iter().map(|(k, n)| (*k, n.as_str())).collect();
            lists.extend(self.partition.map(|p| (p, "Partition")));
            lists.sort_unstable();
            let lists: Vec<&str> = lists.into_iter().map(|(_, n)| n).collect();
            why.push_str(&format!(
                "; the delimiter {} also separates the entries of {}, so which list each \
                 belongs to cannot be told: export with --parsable2 (fields separated by '|')",
                crate::quote::quote_char(self.delim),
                lists.join(", ")
            ));
        }
        Err(why)
    }

    /// Shares a line's extra fields out between the `Partition` column `p` and the one other
    /// list column `list`: the first share (from the fewest partition names up) under which every entry of
    /// `list` is one of its kind and no partition name is; none fits: `out` is left as cut
    /// (refused with the reason).
    fn share_out<'a>(&self, line: &'a str, out: &mut Vec<&'a str>, p: usize, list: (usize, &str)) {
        let (k, name) = list;
        let extra = out.len() - self.count;
        for a in 0..=extra {
            let mut v = out.clone();
            // The later column first, so that the earlier one's pieces stay where they are.
            if p < k {
                merge(line, &mut v, k + a, extra - a);
                merge(line, &mut v, p, a);
            } else {
                merge(line, &mut v, p + (extra - a), a);
                merge(line, &mut v, k, extra - a);
            }
            let entries_fit = v[k].is_empty() || v[k].split(',').all(|e| entry_of(name, e));
            if entries_fit && !v[p].split(',').any(|e| entry_of(name, e)) {
                *out = v;
                return;
            }
        }
    }
}

/// Cuts `line` at each `delim` outside `[...]` (for `,`: a hostlist's commas stay in its field) and
/// outside double quotes: a spreadsheet saves a CSV with the fields that hold its delimiter
/// quoted (`"cpu=2,node=1"`), or every field (`"1","COMPLETED"`). A field's enclosing quotes
/// are dropped (a `""` inside one is kept as it is: no sacct value holds a quote).
fn split_quoted<'a>(line: &'a str, delim: char, out: &mut Vec<&'a str>) {
    let mut depth = 0u32;
    let mut quoted = false;
    let mut start = 0;
    let unquote = |f: &'a str| {
        let t = f.trim();
        match t.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Some(inner) if t.len() >= 2 => inner,
            _ => f,
        }
    };
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            _ if quoted => {}
            // A hostlist's brackets matter only where its commas would cut.
            '[' if delim == ',' => depth += 1,
            ']' if delim == ',' => depth = depth.saturating_sub(1),
            c if c == delim && depth == 0 => {
                out.push(unquote(&line[start..i]));
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(unquote(&line[start..]));
}

/// Joins fields `k..=k + extra` of `out` (slices of `line`, in order) into field `k`: a list
/// column's entries (every other field holds no comma).
fn merge<'a>(line: &'a str, out: &mut Vec<&'a str>, k: usize, extra: usize) {
    if extra == 0 {
        return;
    }
    // Byte offsets of the fields within `line` (each is a slice of it).
    let base = line.as_ptr() as usize;
    let from = out[k].as_ptr() as usize - base;
    let last = out[k + extra];
    let to = last.as_ptr() as usize - base + last.len();
    out[k] = &line[from..to];
    out.drain(k + 1..=k + extra);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn splitter(header: &str) -> Splitter {
        let d = delimiter(header).unwrap();
        Splitter::new(d, &Splitter::names(header, d))
    }

    fn cut<'a>(s: &Splitter, line: &'a str) -> Result<Vec<&'a str>, String> {
        let mut out = Vec::new();
        s.split(line, &mut out).map(|_| out)
    }

    #[test]
    fn delimiter_from_the_header() {
        assert_eq!(delimiter("JobID|Submit|Start"), Some('|'));
        assert_eq!(delimiter("\u{feff}JobID,Submit,Start"), Some(','));
        assert_eq!(delimiter("JobIDRaw\tSubmit\tStart"), Some('\t'));
        assert_eq!(delimiter("jobid;submit;start"), Some(';'));
        // SWF lines, a comment, a CSV that is not sacct's: none.
        assert_eq!(delimiter("1 0 10 600 4 -1"), None);
        assert_eq!(delimiter("; MaxProcs: 64"), None);
        assert_eq!(delimiter("job,submit,start"), None);
        assert_eq!(delimiter("JobID"), None);
    }

    #[test]
    fn pipes_as_before() {
        // `|` cuts everywhere; `--parsable`'s trailing `|` is dropped.
        let s = splitter("JobID|NodeList|AllocTRES|");
        assert_eq!(s.count, 3);
        assert_eq!(
            cut(&s, "1|n[1,3]|cpu=2,node=2|").unwrap(),
            ["1", "n[1,3]", "cpu=2,node=2"]
        );
        assert_eq!(
            cut(&s, "1|n1").unwrap_err(),
            "line has 2 fields, the header names 3"
        );
    }

    #[test]
    fn commas_in_hostlists_and_one_list() {
        // Header: 4 fields, one list (AllocTRES). The line's 6 comma-cut pieces outside
        // brackets: 1 | n[01-04,07] | cpu=2 | node=5 | gpu=1 | COMPLETED: 2 extra, so AllocTRES
        // (field 3) takes pieces 3..5.
        let s = splitter("JobID,NodeList,AllocTRES,State");
        let f = cut(&s, "1,n[01-04,07],cpu=2,node=5,gres/gpu=1,COMPLETED").unwrap();
        assert_eq!(
            f,
            ["1", "n[01-04,07]", "cpu=2,node=5,gres/gpu=1", "COMPLETED"]
        );
        // An empty list (a job that never ran) is one empty field.
        assert_eq!(cut(&s, "2,None assigned,,PENDING").unwrap()[2], "");
        // No list column: extra fields are an error.
        let s = splitter("JobID,Submit");
        assert!(cut(&s, "1,2,3")
            .unwrap_err()
            .starts_with("line has 3 fields"));
    }

    #[test]
    fn several_lists_refused_with_the_reason() {
        let s = splitter("JobID,ReqTRES,AllocTRES,Flags");
        // Each list of one entry: no extra field, nothing to tell apart.
        assert_eq!(
            cut(&s, "1,cpu=1,cpu=1,SchedMain").unwrap(),
            ["1", "cpu=1", "cpu=1", "SchedMain"]
        );
        let e = cut(&s, "1,cpu=1,node=1,cpu=1,node=1,SchedMain").unwrap_err();
        assert!(e.starts_with("line has 6 fields, the header names 4; the delimiter ','"));
        assert!(e.contains("ReqTRES, AllocTRES, Flags"));
        assert!(e.contains("--parsable2"));
    }

    /// A job submitted to several partitions: `Partition` is a list too. Alone, it takes the
    /// extra fields; beside one TRES list or `Flags`, each takes the entries of its kind (before:
    /// the TRES list took `batch`, AllocTRES `batch,cpu=2,node=1` and Partition `short`).
    #[test]
    fn a_partition_list_is_shared_out_by_its_entries() {
        let s = splitter("JobID,Partition,State");
        assert_eq!(
            cut(&s, "1,short,batch,COMPLETED").unwrap(),
            ["1", "short,batch", "COMPLETED"]
        );
        let s = splitter("JobID,Partition,AllocTRES,State");
        assert_eq!(
            cut(&s, "1,short,batch,cpu=2,node=1,COMPLETED").unwrap(),
            ["1", "short,batch", "cpu=2,node=1", "COMPLETED"]
        );
        assert_eq!(
            cut(&s, "2,short,cpu=2,node=1,COMPLETED").unwrap(),
            ["2", "short", "cpu=2,node=1", "COMPLETED"]
        );
        assert_eq!(
            cut(&s, "3,short,batch,,PENDING").unwrap(),
            ["3", "short,batch", "", "PENDING"]
        );
        // The list before the partition: the same share.
        let s = splitter("JobID,Flags,Partition");
        assert_eq!(
            cut(&s, "4,SchedMain,StartRecieved,short,batch").unwrap(),
            ["4", "SchedMain,StartRecieved", "short,batch"]
        );
        // Slurm 23.11 and later spell the flag `StartReceived` (slurmdb_job_flags_str); such
        // a line was refused as fitting no share.
        let s = splitter("JobID,Partition,State,Flags");
        assert_eq!(
            cut(&s, "4,short,batch,COMPLETED,SchedBackfill,StartReceived").unwrap(),
            [
                "4",
                "short,batch",
                "COMPLETED",
                "SchedBackfill,StartReceived"
            ]
        );
        // A partition named like a TRES entry fits no share: refused, saying why.
        let s = splitter("JobID,Partition,AllocTRES");
        let e = cut(&s, "5,a=b,batch,cpu=1").unwrap_err();
        assert!(
            e.contains("also separates the entries of Partition, AllocTRES"),
            "{e}"
        );
        // With several other lists, as before: refused, Partition named among them.
        let s = splitter("JobID,Partition,ReqTRES,AllocTRES");
        let e = cut(&s, "6,short,batch,cpu=1,cpu=1").unwrap_err();
        assert!(e.contains("Partition, ReqTRES, AllocTRES"), "{e}");
    }

    /// A job submitted to several partitions, read from `|` and from `,`: the same workload,
    /// the job in the first of its list (`short`, where it ran), its list kept, and one warning
    /// of the whole file saying so (before, the `,` export read `batch` into AllocTRES).
    #[test]
    fn a_partition_list_reads_as_its_pipe_twin_and_is_told_of() {
        let pipes = "JobID|Partition|Submit|Start|End|AllocCPUS|AllocTRES|State\n\
            7|short,batch|2026-01-05T08:00:00|2026-01-05T08:00:10|2026-01-05T08:10:10|4|cpu=4,node=2|COMPLETED\n\
            8|batch|2026-01-05T08:01:00|2026-01-05T08:02:00|2026-01-05T08:03:00|1|cpu=1,node=1|COMPLETED\n";
        let commas = pipes.replace('|', ",");
        let opts = crate::swf::ReadOptions::default();
        let a = super::super::read("p", pipes, &opts).unwrap();
        let b = super::super::read("p", &commas, &opts).unwrap();
        assert_eq!(a.records, b.records);
        assert_eq!(a.partition_names, ["short", "batch"]);
        assert_eq!(b.partition_names, ["short", "batch"]);
        for w in [&a, &b] {
            assert_eq!(w.issue_count, 1);
            let i = w.issues[0].to_string();
            assert!(
                i.starts_with("Partition: 1 job submitted to several partitions (first: job 7 in short,batch): on a cluster each may start in any of its partitions"),
                "{i}"
            );
            // The list is kept, in the log's order, for the job of several only.
            assert_eq!(
                w.partition_lists,
                [(2, vec!["short".into(), "batch".into()])]
            );
        }
    }

    #[test]
    fn a_comma_export_reads_as_its_pipe_twin() {
        // `sacct --delimiter=,` of two jobs (one on a hostlist with a comma, its AllocTRES the
        // one list) and a step: the same workload as the `|` export of the same fields.
        let pipes = "JobID|Submit|Start|End|AllocCPUS|NodeList|AllocTRES|State\n\
            7|2026-01-05T08:00:00|2026-01-05T08:00:10|2026-01-05T08:10:10|4|n[01,03]|cpu=4,node=2|COMPLETED\n\
            7.batch|2026-01-05T08:00:10|2026-01-05T08:00:10|2026-01-05T08:10:10|2|n01|cpu=2,node=1|COMPLETED\n\
            8|2026-01-05T08:01:00|2026-01-05T08:02:00|2026-01-05T08:03:00|1|n02|cpu=1,mem=1G,node=1|FAILED\n";
        let commas = pipes.replace('|', ",");
        assert_eq!(
            crate::workload::detect_text(commas.as_bytes()),
            crate::workload::Format::Sacct
        );
        let opts = crate::swf::ReadOptions::default();
        let a = super::super::read("p", pipes, &opts).unwrap();
        let b = super::super::read("p", &commas, &opts).unwrap();
        assert_eq!(a.records.len(), 2);
        assert_eq!(a.records, b.records);
        assert_eq!(a.node_lists, b.node_lists);
        assert_eq!(b.node_lists[0].1, "n[01,03]");
    }

    /// A spreadsheet's CSV of an sacct export: every field quoted, lines ending in CRLF (a
    /// spreadsheet's own), or only the fields holding the delimiter quoted, `;` its delimiter
    /// (a locale with a decimal comma). Was: "line has 35 fields, the header names 26" and no
    /// job, the quotes' commas taken for delimiters (several lists: which list each comma
    /// belongs to cannot be told), or every field read with its quotes.
    #[test]
    fn a_spreadsheets_quoted_csv_reads_as_its_pipe_twin() {
        let pipes = "JobID|Partition|Submit|Start|End|AllocCPUS|NodeList|AllocTRES|Flags|State\n\
            7|batch|2026-01-05T08:00:00|2026-01-05T08:00:10|2026-01-05T08:10:10|4|n[01,03]|cpu=4,node=2|SchedMain,StartRecieved|COMPLETED\n\
            8|short,batch|2026-01-05T08:01:00|2026-01-05T08:02:00|2026-01-05T08:03:00|1|n02|cpu=1,mem=1G,node=1|SchedBackfill|FAILED\n";
        let all_quoted: String = pipes
            .lines()
            .map(|l| {
                let f: Vec<String> = l.split('|').map(|f| format!("\"{f}\"")).collect();
                f.join(",") + "\r\n"
            })
            .collect();
        let some_quoted: String = pipes
            .lines()
            .map(|l| {
                let f: Vec<String> = (l.split('|'))
                    .map(|f| match f.contains(',') {
                        true => format!("\"{f}\""),
                        false => f.to_string(),
                    })
                    .collect();
                f.join(";") + "\n"
            })
            .collect();
        let opts = crate::swf::ReadOptions::default();
        let a = super::super::read("p", pipes, &opts).unwrap();
        assert_eq!(a.records.len(), 2);
        for text in [all_quoted, some_quoted.replace(';', ",")] {
            let b = super::super::read("p", &text, &opts).unwrap();
            assert_eq!(a.records, b.records, "{text}");
            assert_eq!(a.node_lists, b.node_lists, "{text}");
            assert_eq!(a.backfilled, b.backfilled, "{text}");
            assert_eq!(a.partition_names, b.partition_names, "{text}");
            assert_eq!(b.issues.len(), 1, "{:?}", b.issues); // job 8's two partitions
        }
        let b = super::super::read("p", &some_quoted, &opts).unwrap();
        assert_eq!(a.records, b.records);
    }
}
