//! The page's cluster panel and cluster outputs: a cluster read from pasted slurm.conf lines or
//! from its compact form (what the `cluster=` link key carries), the presets, and per run the
//! alloc CSV and the nodes' rows for the Gantt chart (docs/cluster-model.md).

use super::{to_js, Session};
use crate::cluster::table::{CellError, Table};
use crate::cluster::{alea, conf, Cluster, Layout};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What the panel shows of a cluster.
#[derive(Serialize)]
struct Described {
    /// Its compact form (the option's value, the link's `cluster=`).
    compact: String,
    /// `Cluster::summary()`: totals, node groups, partitions.
    summary: String,
    nodes: u64,
    cores: u64,
    gpus: u64,
    /// What was read and left aside (other slurm.conf keys, ignored records).
    notes: Vec<String>,
    /// Read from an Alea `.machines` file (node groups only: no scheduler parameters for the
    /// slurm policy's site).
    alea: bool,
    /// The bad values of the keys the `slurm` policy reads, each naming the file, the line and
    /// the key (`site.conf:32: SchedulerParameters, bf_window: "abc" is not ...`), as the CLI
    /// says them: said when the file is read, not at the run (the cluster itself is good, and
    /// a policy that does not read the key runs).
    conf_errors: Vec<String>,
}

fn described_of(c: &Cluster, notes: Vec<String>) -> Described {
    Described {
        compact: c.to_compact(),
        summary: c.summary(),
        nodes: c.total_nodes(),
        cores: c.total_cores(),
        gpus: c.total_gpus(),
        notes,
        alea: false,
        conf_errors: Vec::new(),
    }
}

fn described(c: &Cluster, notes: Vec<String>) -> Result<JsValue, JsError> {
    // The layout the engine will make: a cluster the panel accepts is one a run accepts.
    Layout::new(c).map_err(|e| JsError::new(&format!("cluster: {e}")))?;
    to_js(&described_of(c, notes))
}

/// Most other keys a note names one by one.
const NAMED_KEYS: usize = 8;

/// A cluster from slurm.conf text (`NodeName=` and `PartitionName=` lines; the other keys the
/// slurm policy does not model named in a note): `{compact, summary, nodes, cores, gpus, notes,
/// alea}`. Errors name the line and field (`slurm.conf:3: RealMemory: ...`). An Alea
/// `.machines` file (`name` ends so, or its lines look like one: `cluster::alea`) is read as
/// one, `alea` true; `name` names the file in errors (`slurm.conf`, `machines` when none).
#[wasm_bindgen]
pub fn cluster_from_conf(text: &str, name: Option<String>) -> Result<JsValue, JsError> {
    if name.as_deref().is_some_and(|n| n.ends_with(".machines")) || alea::looks_like(text) {
        let file = name.unwrap_or_else(|| "machines".into());
        let c = alea::parse_str(text, &file).map_err(|e| JsError::new(&e.to_string()))?;
        Layout::new(&c).map_err(|e| JsError::new(&format!("cluster: {e}")))?;
        return to_js(&Described {
            alea: true,
            ..described_of(&c, Vec::new())
        });
    }
    let file = name.as_deref().unwrap_or("slurm.conf");
    let read = conf::parse_str(text, file).map_err(|e| JsError::new(&e.to_string()))?;
    let mut notes = Vec::new();
    // Its other keys the slurm policy does not model (what it reads, the site note says).
    let keys = crate::slurm::params::conf_keys(read.params.iter().map(|(k, v, _)| (k, v)));
    notes.extend(keys.unread_note(NAMED_KEYS));
    notes.extend(read.ignored_partition_note());
    for (line, what) in read.ignored_records.iter().take(NAMED_KEYS) {
        notes.push(format!("line {line}: {what}: ignored"));
    }
    // The layout the engine will make: a cluster the panel accepts is one a run accepts.
    Layout::new(&read.cluster).map_err(|e| JsError::new(&format!("cluster: {e}")))?;
    let entries: Vec<_> = read.params.iter_placed().collect();
    let conf_errors = crate::slurm::params::check_conf_values(&entries, file);
    to_js(&Described {
        conf_errors: conf_errors.into_iter().map(|(_, e)| e).collect(),
        ..described_of(&read.cluster, notes)
    })
}

/// A cluster from its compact form (a link's `cluster=`, a preset): as [`cluster_from_conf`].
#[wasm_bindgen]
pub fn cluster_from_compact(text: &str) -> Result<JsValue, JsError> {
    let c =
        Cluster::from_compact(text.trim()).map_err(|e| JsError::new(&format!("cluster: {e}")))?;
    described(&c, Vec::new())
}

/// The panel's tables of a cluster in its compact form (`cluster::table::Table`: `{groups,
/// partitions}`, each row its cells' text).
#[wasm_bindgen]
pub fn cluster_table(compact: &str) -> Result<JsValue, JsError> {
    let c = Cluster::from_compact(compact.trim())
        .map_err(|e| JsError::new(&format!("cluster: {e}")))?;
    to_js(&Table::of(&c))
}

/// What the tables make.
#[derive(Serialize)]
struct FromTable {
    /// As [`cluster_from_conf`] gives, or null.
    cluster: Option<Described>,
    /// `{table, row, column, message}` for each cell in error (`table` empty: the whole cluster).
    errors: Vec<CellError>,
}

/// The cluster the panel's tables describe (`{groups, partitions}` as [`cluster_table`] gives):
/// `{cluster: {compact, summary, ...}, errors: []}`, or `{cluster: null, errors}` naming each
/// cell in error.
#[wasm_bindgen]
pub fn cluster_from_table(table: JsValue) -> Result<JsValue, JsError> {
    let t: Table = serde_wasm_bindgen::from_value(table)
        .map_err(|e| JsError::new(&format!("cluster table: {e}")))?;
    let out = match t.build() {
        Ok(c) => match Layout::new(&c) {
            Ok(_) => FromTable {
                cluster: Some(described_of(&c, Vec::new())),
                errors: Vec::new(),
            },
            Err(e) => FromTable {
                cluster: None,
                errors: vec![CellError {
                    table: "",
                    row: 0,
                    column: "",
                    message: format!("cluster: {e}"),
                }],
            },
        },
        Err(errors) => FromTable {
            cluster: None,
            errors,
        },
    };
    to_js(&out)
}

/// The presets: `[[name, compact form]]` (`Cluster::PRESETS`).
#[wasm_bindgen]
pub fn cluster_presets() -> Result<JsValue, JsError> {
    to_js(&Cluster::PRESETS)
}

/// The nodes' rows of the Gantt chart: per node its first processor (its first row with GPU
/// lanes), name and GPUs; the jobs that ask for GPUs; with GPU lanes, each node's first lane row
/// and rows per lane, and the chart's rows.
#[derive(Serialize)]
struct NodeRows<'a> {
    first: Vec<u32>,
    names: Vec<&'a str>,
    gpus: Vec<u32>,
    gpu_jobs: Vec<u32>,
    lane_first: Vec<u32>,
    lane_rows: Vec<u32>,
    rows: u32,
}

#[wasm_bindgen]
impl Session {
    /// The alloc CSV of run `index`: one row per job and node (`job_id,node,cpus,mem_mb,gpus`,
    /// as `schedlab run --alloc-csv`); only the header without a cluster.
    pub fn alloc_csv(&self, index: u32) -> Result<String, JsError> {
        let mut out = Vec::new();
        crate::output::alloc_csv(&mut out, &self.trace.jobs, &self.nth(index)?.schedule)
            .map_err(|e| JsError::new(&e.to_string()))?;
        String::from_utf8(out).map_err(|e| JsError::new(&e.to_string()))
    }

    /// On a cluster, `{first, names, gpus, gpu_jobs, lane_first, lane_rows, rows}`: each node's
    /// first processor id (node `k`'s cores are `first[k]..first[k + 1]`), name and GPUs, in the
    /// cluster's order, the jobs (indices) that ask for GPUs, and the chart's `rows` (its
    /// processors); `null` without a cluster. On a cluster with GPUs the Gantt has a lane per
    /// GPU ([`crate::charts::gpu_lanes`], the rows of [`Session::rects`]): `first` counts rows,
    /// node `k`'s lanes start at row `lane_first[k]`, `lane_rows[k]` rows each.
    pub fn node_rows(&self) -> Result<JsValue, JsError> {
        use crate::charts::{gantt, gpu_lanes};
        match self.trace.jobs.placement.as_deref() {
            Some(p) => {
                let (rows, total) = if gpu_lanes::has_lanes(p) {
                    gpu_lanes::node_rows(p)
                } else {
                    (gantt::NodeRows::of_placement(p), p.layout.procs)
                };
                to_js(&NodeRows {
                    first: rows.first,
                    names: p.layout.nodes.iter().map(|n| n.name.as_str()).collect(),
                    gpus: rows.gpus,
                    gpu_jobs: rows.gpu_jobs,
                    lane_first: rows.lane_first,
                    lane_rows: rows.lane_rows,
                    rows: total,
                })
            }
            None => Ok(JsValue::NULL),
        }
    }
}

/// What the `slurm` policy will read of a site (slurm.conf text, `sshare -a -l -P` text and
/// `sacctmgr show qos format=Name,Priority -P` text, with the limits' columns or without, and
/// `sacctmgr show assoc ... -P` text, each optional): one sentence, or the error naming the file
/// (`names`: `[conf, sshare, qos, assoc]`, each the name of the file its text came from;
/// `slurm.conf`, `sshare`, `qos`, `assoc` when not given), line and field.
#[wasm_bindgen]
pub fn slurm_site_note(
    conf: Option<String>,
    sshare: Option<String>,
    qos: Option<String>,
    assoc: Option<String>,
    names: Option<Vec<String>>,
) -> Result<String, JsError> {
    let names = names.unwrap_or_default();
    let name = |k: usize, default: &'static str| {
        names
            .get(k)
            .map(String::as_str)
            .filter(|n| !n.is_empty())
            .unwrap_or(default)
    };
    let site = crate::slurm::Site::of_texts(
        conf.as_deref().map(|t| (t, name(0, "slurm.conf"))),
        sshare.as_deref().map(|t| (t, name(1, "sshare"))),
        qos.as_deref().map(|t| (t, name(2, "qos"))),
        assoc.as_deref().map(|t| (t, name(3, "assoc"))),
    )
    .map_err(|e| JsError::new(&e))?;
    let Some(site) = site else {
        return Ok(String::new());
    };
    let mut parts = Vec::new();
    if conf.is_some() {
        let named: Vec<String> = site
            .conf
            .iter()
            .take(NAMED_KEYS)
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let more = site.conf.len().saturating_sub(NAMED_KEYS);
        // Each file by its own name (the file input itself is cleared once read, so that the
        // same file can be read again: this sentence is where the admin sees what was taken).
        parts.push(format!(
            "{} of {}{}{}",
            crate::plural::count(site.conf.len(), "scheduler parameter"),
            name(0, "slurm.conf"),
            if named.is_empty() {
                String::new()
            } else {
                format!(" ({})", named.join(", "))
            },
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    if let Some((rows, _)) = &site.sshare {
        parts.push(format!(
            "the account tree and shares of {} ({} rows)",
            name(1, "sshare"),
            rows.len()
        ));
    }
    if let Some((table, _)) = &site.qos {
        let named: Vec<String> = (table.rows.iter().take(NAMED_KEYS))
            .map(|(n, p)| format!("{n} {p}"))
            .collect();
        parts.push(format!(
            "the priorities of {} QOS ({})",
            table.rows.len(),
            named.join(", ")
        ));
        if !table.limits.is_empty() {
            let limits: Vec<String> = (table.limits.iter().take(NAMED_KEYS))
                .map(|(n, l)| format!("{n} {}", l.text()))
                .collect();
            parts.push(format!(
                "the limits of {} QOS ({}; held when slurm.conf's AccountingStorageEnforce \
                 names limits)",
                table.limits.len(),
                limits.join("; ")
            ));
        }
    }
    if let Some((table, _)) = &site.assoc {
        parts.push(crate::slurm::assoc::summary(table));
    }
    Ok(format!("The slurm policy reads {}.", parts.join(" and ")))
}
