//! Workloads beyond SWF files: every format is read into the SWF model ([`Workload`]), told
//! apart by its content, never by its name (plain or gzip):
//! - SWF ([`crate::swf`]);
//! - Slurm accounting, `sacct --parsable2` ([`sacct`]): the first line names `|`-separated
//!   fields (sacct's table, names padded with spaces, is refused saying how to export);
//! - Slurm's JSON, `sacct --json` ([`sacct::json`], 22.05's layout and 23.02's): an object
//!   whose start names Slurm's `meta` and `jobs`, or a job's `job_id` and `submission`;
//! - Batsim JSON workloads ([`batsim`]): any other text that starts with `{`.
//!
//! [`generate`] makes synthetic workloads (Lublin–Feitelson 1999 with Tsafrir et al. 2005
//! estimates); [`transform`] scales load, cuts time windows and selects users.

pub mod batsim;
mod batsim_doc;
pub mod batsim_swf;
pub mod conversion;
pub mod generate;
pub mod names;
pub mod sacct;
pub mod slurm_time;
pub mod slurm_tres;
pub mod transform;

use std::io::Read;

use crate::swf::{self, Budget, ReadOptions, RecordSink, SwfError, SwfHeader, SwfRecord, Workload};

impl Workload {
    /// A workload without header, records or issues, named `source`.
    pub(crate) fn empty(source: &str) -> Workload {
        Workload {
            source: source.to_owned(),
            header: SwfHeader::default(),
            records: Vec::new(),
            issues: Vec::new(),
            issue_count: 0,
            skipped_lines: 0,
            gzip: false,
            streamed: 0,
            alea_lines: 0,
            partition_names: Vec::new(),
            requeued: Vec::new(),
            accounts: Vec::new(),
            node_lists: Vec::new(),
            backfilled: Vec::new(),
            timed_out: Vec::new(),
            partition_limit: Vec::new(),
            partition_lists: Vec::new(),
            job_ids: Vec::new(),
            qos: Vec::new(),
            qos_names: Vec::new(),
            words: Default::default(),
        }
    }
}

/// A completed job (status 1) known by its submit time, runtime, processors (allocated and
/// requested), requested time and user; every other field unknown (-1).
pub(crate) fn simple_record(
    job_number: i64,
    submit: i64,
    run: i64,
    procs: i64,
    requested_time: i64,
    user: i64,
) -> SwfRecord {
    SwfRecord {
        line: 0,
        job_number,
        submit_time: submit,
        wait_time: -1,
        run_time: run,
        allocated_processors: procs,
        average_cpu_time: -1.0,
        used_memory: -1.0,
        requested_processors: procs,
        requested_time,
        requested_memory: -1.0,
        status: 1,
        user_id: user,
        group_id: -1,
        executable: -1,
        queue: -1,
        partition: -1,
        preceding_job: -1,
        think_time: -1,
        extra: Vec::new(),
        req: Default::default(),
    }
}

/// Names numbered 1, 2, ... in order of first appearance (users, partitions, ...).
#[derive(Default)]
pub(crate) struct Numbering {
    ids: foldhash::HashMap<String, i64>,
    pub(crate) names: Vec<String>,
}

impl Numbering {
    /// The number of `name` (-1 for an empty name).
    pub(crate) fn id(&mut self, name: &str) -> i64 {
        if name.is_empty() {
            return -1;
        }
        if let Some(&i) = self.ids.get(name) {
            return i;
        }
        self.names.push(name.to_owned());
        let i = self.names.len() as i64;
        self.ids.insert(name.to_owned(), i);
        i
    }

    /// `1=alice, 2=bob`
    pub(crate) fn listing(&self) -> String {
        let parts: Vec<String> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}={n}", i + 1))
            .collect();
        parts.join(", ")
    }
}

/// The formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Swf,
    Sacct,
    /// Slurm's JSON (`sacct --json`).
    SacctJson,
    Batsim,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Swf => "SWF",
            Format::Sacct => "Slurm sacct",
            Format::SacctJson => "Slurm sacct JSON",
            Format::Batsim => "Batsim JSON",
        }
    }
}

/// How much of the (decompressed) start of the input decides its format.
const SNIFF_BYTES: usize = 64 << 10;

/// The format of a text, from its first non-blank line.
pub fn detect_text(head: &[u8]) -> Format {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first = head
        .split(|&b| b == b'\n' || b == b'\r')
        .find(|l| l.iter().any(|b| !b.is_ascii_whitespace()))
        .unwrap_or(&[]);
    // Compressed data (beyond the one gzip layer `sniff` opened) and a first line that is no
    // text go to the SWF reader, which names them: as text, a `|` among their bytes made them
    // an sacct log whose header "named" the bytes.
    let binary = |l: &[u8]| {
        l.contains(&0)
            || std::str::from_utf8(l).is_err_and(|e| e.error_len().is_some())
                && !l.trim_ascii_start().starts_with(b"{")
    };
    if swf::compressed_format(head).is_some() || is_gzip(head) || binary(first) {
        return Format::Swf;
    }
    let first = String::from_utf8_lossy(first);
    if sacct::json::looks_like(head) {
        Format::SacctJson
    } else if batsim::looks_like(&first) {
        Format::Batsim
    } else if sacct::looks_like(&first) {
        Format::Sacct
    } else {
        Format::Swf
    }
}

fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The first [`SNIFF_BYTES`] of the text (decompressed when gzip; a broken stream gives what
/// decoded).
fn sniff(bytes: &[u8]) -> Vec<u8> {
    if is_gzip(bytes) {
        let mut out = Vec::new();
        let mut d = flate2::bufread::MultiGzDecoder::new(bytes).take(SNIFF_BYTES as u64);
        let mut buf = [0u8; 8192];
        while let Ok(n) = d.read(&mut buf) {
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        out
    } else {
        bytes[..bytes.len().min(SNIFF_BYTES)].to_vec()
    }
}

/// The format of raw input bytes (plain or gzip).
pub fn detect(bytes: &[u8]) -> Format {
    detect_text(&sniff(bytes))
}

/// Reads a workload of any format from bytes (plain or gzip).
pub fn read_bytes(source: &str, bytes: &[u8], opts: &ReadOptions) -> Result<Workload, SwfError> {
    swf::with_records(|sink| read_bytes_into(source, bytes, opts, sink))
}

/// [`read_bytes`], each record handed to `sink` ([`swf::read_bytes_into`]: an SWF trace's
/// records as they are read, another format's once it is read).
pub fn read_bytes_into<S: RecordSink>(
    source: &str,
    bytes: &[u8],
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Workload, SwfError> {
    match detect(bytes) {
        Format::Swf => swf::read_bytes_into(source, bytes, opts, sink),
        format => read_other(source, bytes, format, opts).map(|w| hand_over(w, sink)),
    }
}

/// Moves a workload's records into `sink`.
fn hand_over<S: RecordSink>(mut w: Workload, sink: &mut S) -> Workload {
    w.streamed += w.records.len() as u64;
    for r in std::mem::take(&mut w.records) {
        sink.push(r);
    }
    w
}

/// Reads a workload file of any format (plain or gzip); SWF is streamed.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_path(path: &std::path::Path, opts: &ReadOptions) -> Result<Workload, SwfError> {
    swf::with_records(|sink| read_path_into(path, opts, sink))
}

/// [`read_path`], each record handed to `sink` (see [`read_bytes_into`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn read_path_into<S: RecordSink>(
    path: &std::path::Path,
    opts: &ReadOptions,
    sink: &mut S,
) -> Result<Workload, SwfError> {
    let source = path.display().to_string();
    let io = |e| SwfError::Io {
        file: source.clone(),
        source: e,
    };
    // Opened once and read front to back (the sniffed bytes are handed on), so that a path
    // which is a pipe (a FIFO, /dev/stdin) reads as a file does.
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut head = Vec::new();
    (&mut file)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    match detect(&head) {
        Format::Swf => {
            swf::read_stream_into(&source, std::io::Cursor::new(head).chain(file), opts, sink)
        }
        // Streamed from the file: a dump of a million jobs is never held whole.
        Format::SacctJson => {
            let gzip = is_gzip(&head);
            // What the jobs keep is held to the input read so far (as given: compressed).
            let budget = Budget::default();
            let raw = budget.counting(std::io::Cursor::new(head).chain(file));
            let bytes = std::io::BufReader::new(raw);
            let mut w = if gzip {
                let text = flate2::bufread::MultiGzDecoder::new(bytes);
                sacct::json::read_stream(&source, text, opts, &budget)?
            } else {
                sacct::json::read_stream(&source, bytes, opts, &budget)?
            };
            w.gzip = gzip;
            Ok(hand_over(w, sink))
        }
        format => {
            let mut bytes = head;
            file.read_to_end(&mut bytes).map_err(io)?;
            read_other(&source, &bytes, format, opts).map(|w| hand_over(w, sink))
        }
    }
}

fn read_other(
    source: &str,
    bytes: &[u8],
    format: Format,
    opts: &ReadOptions,
) -> Result<Workload, SwfError> {
    let gzip = is_gzip(bytes);
    let budget = Budget::of_size(bytes.len() as u64);
    if format == Format::SacctJson {
        let mut w = if gzip {
            let text = flate2::bufread::MultiGzDecoder::new(bytes);
            sacct::json::read_stream(source, text, opts, &budget)?
        } else {
            sacct::json::read_stream(source, bytes, opts, &budget)?
        };
        w.gzip = gzip;
        return Ok(w);
    }
    if format == Format::Batsim {
        // Streamed: only what the reader uses is built.
        let mut w = if gzip {
            let text = flate2::bufread::MultiGzDecoder::new(bytes);
            batsim::read_stream(source, text, opts, &budget)?
        } else {
            batsim::read_stream(source, bytes, opts, &budget)?
        };
        w.gzip = gzip;
        return Ok(w);
    }
    let text_bytes = if gzip {
        // The text is kept whole: no more of it than the input's size allows.
        let limit = swf::budget::retained_limit(bytes.len() as u64);
        let mut out = Vec::new();
        flate2::bufread::MultiGzDecoder::new(bytes)
            .take(limit.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| SwfError::Gzip {
                file: source.to_owned(),
                line: 0,
                source: e,
            })?;
        let what = format!("its {} text, read whole,", format.name());
        budget.check(source, out.len() as u64, &what)?;
        out
    } else {
        bytes.to_vec()
    };
    // An sacct log holds what users typed (job names, accounts) as they typed it: one name in
    // Latin-1 lost the whole log ("not valid UTF-8"). It is read with U+FFFD in place of each
    // bad byte and said, by the line and column of the first, as SWF's comments are.
    let (text, bad_utf8) = match String::from_utf8(text_bytes) {
        Ok(text) => (text, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            // The field as the reader cuts the line (a comma export's lists taken whole).
            let head = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            let delim = sacct::split::delimiter(head).unwrap_or('|');
            let names = sacct::split::Splitter::names(head, delim);
            let bad = text.lines().nth(line as usize - 1).unwrap_or("");
            let mut fields = Vec::new();
            let field = sacct::split::Splitter::new(delim, &names)
                .split(bad, &mut fields)
                .ok()
                .and_then(|()| fields.iter().position(|f| f.contains('\u{fffd}')))
                .and_then(|k| Some(format!("column {} ({})", k + 1, names.get(k)?)));
            (text, Some((line, field)))
        }
    };
    let mut w = match format {
        Format::Sacct => sacct::read(source, &text, opts)?,
        Format::Batsim => batsim::read(source, &text, opts)?,
        Format::SacctJson => sacct::json::read_stream(source, text.as_bytes(), opts, &budget)?,
        Format::Swf => swf::read_bytes(source, text.as_bytes(), opts)?,
    };
    if let Some((line, field)) = bad_utf8 {
        let lines = text.lines().filter(|l| l.contains('\u{fffd}')).count();
        let issue = swf::LineIssue {
            line,
            field,
            reason: format!(
                "not valid UTF-8 (read with replacement characters; {} so)",
                crate::plural::count(lines, "line")
            ),
            severity: swf::Severity::Warning,
        };
        let at = w.issues.partition_point(|i| i.line < line);
        w.issues.insert(at, issue);
        w.issues.truncate(opts.max_issues);
        w.issue_count += 1;
    }
    w.gzip = gzip;
    Ok(w)
}
