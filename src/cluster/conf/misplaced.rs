//! What a line that is not `Key=Value` looks like, when it is another file's: a workload trace or
//! the output of `sshare` / `sacctmgr`, pasted or read where a slurm.conf goes (the page's
//! Cluster panel takes all of them a few lines apart). The error said only `expected Key=Value,
//! got ";"` for an SWF trace's first line.

/// A hint naming what `line` looks like (with a leading space), or "" when it looks like none.
pub fn hint(line: &str) -> &'static str {
    let t = line.trim();
    let low = t.to_ascii_lowercase();
    let fields: Vec<&str> = t.split_whitespace().collect();
    let swf_job = fields.len() >= 18 && fields.iter().all(|f| f.parse::<f64>().is_ok());
    if t.starts_with(';') || swf_job {
        " (this looks like an SWF workload trace: load it as the trace, not as a slurm.conf)"
    } else if low.contains('|') && (low.starts_with("jobid") || low.contains("|jobid")) {
        " (this looks like an sacct log: load it as the trace, not as a slurm.conf)"
    } else if low.starts_with("account|") || low.starts_with("cluster|") {
        " (this looks like sshare or sacctmgr show assoc output: read it with its own file input)"
    } else if low.starts_with("name|") {
        " (this looks like sacctmgr show qos output: read it with its own file input)"
    } else if t.starts_with('{') {
        " (this looks like JSON: a Batsim workload is loaded as the trace)"
    } else {
        ""
    }
}
