//! The header of an sacct file: which column holds each field this reader knows.

/// The columns this reader knows, by role.
#[derive(Default)]
pub(super) struct Columns {
    pub names: Vec<String>,
    pub job_id: usize,
    pub submit: usize,
    pub start: usize,
    pub state: usize,
    pub elapsed: Option<usize>,
    pub end: Option<usize>,
    pub cpus: Option<usize>,
    pub user: Option<usize>,
    pub group: Option<usize>,
    pub timelimit: Option<usize>,
    pub req_cpus: Option<usize>,
    pub req_mem: Option<usize>,
    pub nnodes: Option<usize>,
    pub req_nodes: Option<usize>,
    pub req_tres: Option<usize>,
    pub alloc_tres: Option<usize>,
    pub req_gres: Option<usize>,
    pub alloc_gres: Option<usize>,
    pub total_cpu: Option<usize>,
    pub partition: Option<usize>,
    pub account: Option<usize>,
    pub qos: Option<usize>,
    pub name: Option<usize>,
    pub node_list: Option<usize>,
    pub flags: Option<usize>,
    pub eligible: Option<usize>,
}

/// The fields of the export the docs (docs/workloads.md) and the missing-field error suggest:
/// every field the reader uses, the cluster's resources and the accounts included, and the
/// nodes each job ran on and how Slurm started it, which `replay` and `historic` read
/// (`NodeList`, `Flags`; the `slurm` policy reads its backfill grid from `Flags` too).
pub const EXPORT_FIELDS: &str = "JobID,JobName,User,Group,Account,Partition,QOS,Submit,Start,End,\
Elapsed,Timelimit,AllocCPUS,ReqCPUS,NNodes,ReqMem,ReqTRES,AllocTRES,TotalCPU,State,NodeList,Flags";

impl Columns {
    /// The columns of a header whose fields are `names` ([`super::split::Splitter::names`]).
    pub fn parse(names: Vec<String>) -> Result<Columns, String> {
        let find = |want: &[&str]| {
            want.iter()
                .find_map(|w| names.iter().position(|n| n.eq_ignore_ascii_case(w)))
        };
        // sacct's field names are letters alone: a first line with digits holds a job's
        // values, the header left out (`sacct --noheader`).
        let values = if names.iter().any(|n| n.bytes().any(|b| b.is_ascii_digit())) {
            ": it holds values, not field names (an export with --noheader?)"
        } else {
            ""
        };
        let need = |want: &[&str]| {
            find(want).ok_or_else(|| {
                format!(
                    "the header names no {} field{values} (sacct --parsable2 output needs JobID, Submit, \
                     Start, State, Elapsed or End, and the CPUs: AllocCPUS, NCPUS, AllocTRES, \
                     ReqCPUS or ReqTRES); it names: {}. Export with, for example: sacct \
                     --allusers --duplicates --parsable2 --format {EXPORT_FIELDS}",
                    want.join(" or "),
                    names.join(", ")
                )
            })
        };
        let mut c = Columns {
            job_id: need(&["JobID", "JobIDRaw"])?,
            submit: need(&["Submit"])?,
            start: need(&["Start"])?,
            state: need(&["State"])?,
            elapsed: find(&["Elapsed", "ElapsedRaw"]),
            end: find(&["End"]),
            cpus: find(&["AllocCPUS", "NCPUS"]),
            user: find(&["User"]),
            group: find(&["Group"]),
            timelimit: find(&["Timelimit", "TimelimitRaw"]),
            req_cpus: find(&["ReqCPUS"]),
            req_mem: find(&["ReqMem"]),
            nnodes: find(&["NNodes", "AllocNodes"]),
            req_nodes: find(&["ReqNodes"]),
            req_tres: find(&["ReqTRES"]),
            alloc_tres: find(&["AllocTRES"]),
            req_gres: find(&["ReqGRES"]),
            alloc_gres: find(&["AllocGRES"]),
            total_cpu: find(&["TotalCPU"]),
            partition: find(&["Partition"]),
            account: find(&["Account"]),
            qos: find(&["QOS"]),
            name: find(&["JobName"]),
            node_list: find(&["NodeList"]),
            flags: find(&["Flags"]),
            eligible: find(&["Eligible"]),
            ..Columns::default()
        };
        if c.elapsed.is_none() && c.end.is_none() {
            need(&["Elapsed", "End"])?;
        }
        if [c.cpus, c.alloc_tres, c.req_cpus, c.req_tres]
            .iter()
            .all(Option::is_none)
        {
            need(&["AllocCPUS", "NCPUS", "AllocTRES", "ReqCPUS", "ReqTRES"])?;
        }
        c.names = names;
        Ok(c)
    }

    pub fn label(&self, idx: usize) -> String {
        format!(
            "column {} ({})",
            idx + 1,
            self.names.get(idx).map(String::as_str).unwrap_or("?")
        )
    }
}

/// Is `line` the header of sacct's own table (no `--parsable2`: names padded with spaces to
/// their columns' widths, `JobID` among them)? Its values are cut to those widths
/// (`OUT_OF_ME+`), so it cannot be read back whole.
pub fn is_table_header(line: &str) -> bool {
    let line = line.trim_start_matches('\u{feff}');
    let mut words = line.split_whitespace();
    !line.trim_start().starts_with(';')
        && words.clone().nth(1).is_some()
        && words.any(|w| w.eq_ignore_ascii_case("JobID") || w.eq_ignore_ascii_case("JobIDRaw"))
}
