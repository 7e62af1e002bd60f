//! The options schema: every option a user sets for a comparison (input semantics, the node
//! model, the metrics options, the seed), once, with its default, its kind and range, and its
//! name on every surface: the CLI flag, the page's form control, the share-link key and the
//! field of the options the page's worker hands the engine ([`SessionOptions`]).
//!
//! The engine's defaults live in the option structs (`InputOptions`, `NodeModel`,
//! `MetricOptions`); tests check that this schema states them, that every CLI flag named here
//! exists with this default (`src/bin/schedlab`), that every form control of `index.html` is
//! here with this default, and that `www/options.js` (the page's copy, from which `share.js`
//! reads and writes link keys, `app.js` reads the form and `session.js` the gallery's CLI flags)
//! is [`page_module`]'s output.

use crate::input::InputOptions;
use crate::metrics::MetricOptions;
use serde::{Deserialize, Serialize};

/// Everything the page's worker hands `Session::new` besides the trace: the input options
/// (flattened: `procs`, `wide`, ..., `nodes: {cores, bandwidth, ...}`), strict reading and the
/// metrics options (`metrics: {bsld_bound, window: {warmup, measured}, eet}`).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionOptions {
    #[serde(flatten)]
    pub input: InputOptions,
    /// Stop at the first bad line instead of skipping it.
    pub strict: bool,
    pub metrics: MetricOptions,
    /// The text of a slurm.conf whose scheduler parameters the `slurm` policy reads (the
    /// page's cluster panel, pasted or uploaded; never in a link, as for trace files).
    pub slurm_conf: Option<String>,
    /// The text of `sshare -a -l -P` output: the account tree and shares the `slurm` policy
    /// reads (an upload of the cluster panel).
    pub sshare: Option<String>,
    /// The text of `sacctmgr show qos format=Name,Priority -P` output: the QOS priorities the
    /// `slurm` policy's QOS factor reads (an upload of the cluster panel).
    pub qos: Option<String>,
    /// The text of `sacctmgr show assoc format=Cluster,Account,User,Partition,ParentName,Share,
    /// GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall -P` output: the association limits the `slurm`
    /// policy holds jobs by (an upload of the cluster panel).
    pub assoc: Option<String>,
    /// The names of the files `slurm_conf`, `sshare`, `qos` and `assoc` came from, which the engine's
    /// errors name (`site.conf:32: ...`); `slurm.conf`, `sshare`, `qos` and `assoc` when not given.
    pub slurm_conf_name: Option<String>,
    pub sshare_name: Option<String>,
    pub qos_name: Option<String>,
    pub assoc_name: Option<String>,
}

/// What values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Kind {
    /// On or off (`1` / `0` in a link).
    Bool,
    /// One of these words.
    Choice { values: &'static [&'static str] },
    /// A whole number from `min` to `max`.
    Whole { min: u64, max: u64 },
    /// A number >= `min` (> `min` when `open`).
    Number { min: f64, open: bool },
    /// Whole numbers >= 0 separated by commas (`0,5`).
    List,
    /// Users separated by commas: numbers (whole, negative allowed: `3,17`) or the names the
    /// trace gives (`alice,bob`; [`crate::workload::names::UserRef`]).
    Ids,
    /// A time: seconds of the trace's clock, or a date (`2024-03-01T10:00:00`, UTC unless it says
    /// otherwise) for traces whose header gives `UnixStartTime`.
    Time,
    /// `equal` or a number of processors > 0 (the EET model's capacity of each user).
    Capacity,
    /// `USER=PROCESSORS` pairs separated by commas (`12=64,3=32`).
    Pairs,
    /// Text the CLI parses (no page control).
    Text,
    /// A cluster in its compact form (`1/n[1-4]:c32:m0/p=all:ALL:default`, docs/cluster-model.md):
    /// letters, digits and `- _ . , : = / [ ]`; the CLI also takes a slurm.conf or a preset.
    Cluster,
    /// `COUNT:WEIGHT` pairs separated by commas (`1:4,2:2`): the generator's GPU counts.
    Counts,
}

/// Which part of the engine an option sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    /// How the trace is read and which jobs are simulated (`InputOptions`, strict reading).
    Input,
    /// The node model (`NodeModel`): these apply only when `nodes` is on.
    Nodes,
    /// How the schedules are measured (`MetricOptions`).
    Metrics,
    /// The run itself (the seed).
    Run,
    /// The page's workload generator (`schedlab generate`'s flags): these apply to a generated
    /// trace (`trace=gen:...`) only.
    Generate,
}

/// One option.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct OptionInfo {
    /// The share-link key (empty: not in links).
    pub key: &'static str,
    /// The CLI flag (empty: not on the CLI). A `Bool` whose flag starts with `--no-` turns the
    /// option off.
    pub flag: &'static str,
    /// The `data-testid` of the page's form control (empty: not on the page).
    pub form: &'static str,
    /// The dotted field in [`SessionOptions`] (empty: not an engine option, e.g. the seed).
    pub field: &'static str,
    pub group: Group,
    pub kind: Kind,
    /// The default as the CLI and the link write it; empty: unset (the engine decides, e.g. the
    /// machine size from the trace).
    pub default: &'static str,
    /// What it does, in a few words (the form's label and messages).
    pub label: &'static str,
}

const BIG: u64 = (1 << 53) - 1;

macro_rules! options {
    ($($key:literal, $flag:literal, $form:literal, $field:literal, $group:ident, $kind:expr,
       $default:literal, $label:literal;)*) => {
        &[$(OptionInfo {
            key: $key,
            flag: $flag,
            form: $form,
            field: $field,
            group: Group::$group,
            kind: $kind,
            default: $default,
            label: $label,
        }),*]
    };
}

use Kind::*;

/// Every option, in the order of the page's form.
pub const OPTIONS: &[OptionInfo] = options![
    "procs", "--procs", "opt-procs", "procs", Input, Whole { min: 1, max: 1_000_000_000 }, "", "machine size (processors)";
    "estimate", "--estimate", "opt-estimate", "estimate", Input, Choice { values: &["requested", "runtime", "ignore"] }, "requested", "planning estimate";
    "kill", "--no-kill", "opt-kill", "kill", Input, Bool, "1", "kill jobs at their requested time";
    "seed", "--seed", "opt-seed", "", Run, Whole { min: 0, max: BIG }, "1", "seed";
    "wide", "--wide", "opt-wide", "wide", Input, Choice { values: &["skip", "clamp"] }, "skip", "jobs wider than the machine";
    "origin", "--origin", "opt-origin", "origin", Input, Choice { values: &["first", "trace"] }, "first", "time origin";
    "status", "--skip-status", "opt-status", "skip_status", Input, List, "", "skip jobs with these statuses";
    "zero", "--skip-zero-runtime", "opt-zero", "skip_zero_runtime", Input, Bool, "0", "skip jobs with zero runtime";
    "strict", "--strict", "opt-strict", "strict", Input, Bool, "0", "strict reading";
    "offline", "--offline", "opt-offline", "offline", Input, Bool, "0", "offline (every job submitted at 0)";
    "load", "--load-scale", "load-scale", "transform.load_scale", Input, Number { min: 0.0, open: true }, "", "load scale";
    "from", "--from", "opt-from", "transform.from", Input, Time, "", "only jobs submitted from";
    "to", "--to", "opt-to", "transform.to", Input, Time, "", "only jobs submitted before";
    "users", "--users", "opt-users", "transform.users", Input, Ids, "", "only these users";
    "xusers", "--exclude-users", "opt-xusers", "transform.exclude_users", Input, Ids, "", "not these users";
    "", "--max-jobs", "", "max_jobs", Input, Whole { min: 0, max: BIG }, "", "the first N jobs only";
    "bound", "--bsld-bound", "opt-bound", "metrics.bsld_bound", Metrics, Number { min: 0.0, open: false }, "10", "bounded slowdown bound (s)";
    "nodes", "--nodes", "opt-nodes", "nodes", Nodes, Bool, "0", "node model";
    "cores", "--cores", "opt-cores", "nodes.cores", Nodes, Whole { min: 1, max: 1_048_576 }, "4", "cores per node";
    "bw", "--bandwidth", "opt-bw", "nodes.bandwidth", Nodes, Number { min: 0.0, open: true }, "6000", "bandwidth per node (MB/s)";
    "mix", "--mix", "opt-mix", "nodes.mix", Nodes, Choice { values: &["high", "med", "low"] }, "high", "memory-pressure mix";
    "high", "", "opt-high", "nodes.high", Nodes, Number { min: 0.0, open: false }, "2000", "high demand per process (MB/s)";
    "low", "", "opt-low", "nodes.low", Nodes, Number { min: 0.0, open: false }, "500", "low demand per process (MB/s)";
    "medium", "", "opt-medium", "nodes.medium", Nodes, Number { min: 0.0, open: false }, "1000", "medium demand per process (MB/s)";
    "", "--demands", "", "", Nodes, Text, "500,1000,2000", "low, medium, high demand per process (MB/s)";
    "bwfield", "--bandwidth-field", "opt-bwfield", "nodes.field", Nodes, Whole { min: 1, max: 1000 }, "", "SWF field with MB/s per process";
    "warmup", "--warmup", "opt-warmup", "metrics.window.warmup", Metrics, Whole { min: 0, max: BIG }, "0", "node-model figures: warm-up jobs";
    "measured", "--measured", "opt-measured", "metrics.window.measured", Metrics, Whole { min: 1, max: BIG }, "", "node-model figures: measured jobs";
    "eetcap", "--eet-capacity", "opt-eet-capacity", "metrics.eet.capacity", Metrics, Capacity, "equal", "capacity each user expects (EET)";
    "eetuser", "--eet-user-capacity", "opt-eet-users", "metrics.eet.user_capacity", Metrics, Pairs, "", "capacities of single users (EET)";
    "cluster", "--cluster", "opt-cluster", "cluster", Input, Cluster, "", "the cluster: a slurm.conf, a preset or a compact form";
    "", "--slurm-conf", "", "", Input, Text, "", "a slurm.conf: the cluster, and the slurm policy's parameters";
    "gpushare", "--gpu-share", "generate-gpu-share", "", Generate, Number { min: 0.0, open: false }, "0", "share of GPU jobs (0 to 1)";
    "gpucounts", "--gpu-counts", "generate-gpu-counts", "", Generate, Counts, "", "GPU counts of a GPU job, COUNT:WEIGHT";
    "memory", "--machine-memory", "opt-memory", "metrics.eet.machine_memory", Metrics, Whole { min: 1, max: BIG }, "", "machine memory, KB (EET)";
];

/// The option with share-link key `key`.
pub fn by_key(key: &str) -> Option<&'static OptionInfo> {
    OPTIONS.iter().find(|o| !o.key.is_empty() && o.key == key)
}

/// The option with CLI flag `flag` (`--bsld-bound`).
pub fn by_flag(flag: &str) -> Option<&'static OptionInfo> {
    OPTIONS
        .iter()
        .find(|o| !o.flag.is_empty() && o.flag == flag)
}

/// `www/options.js`: the whole schema as an ES module (`export const OPTIONS = [...]`), so that
/// the page has it before the engine loads: its form and links read the options with a key, the
/// papers gallery reads its entries' CLI flags by it (`www/session.js`).
pub fn page_module() -> String {
    let mut out = String::from(
        "// Generated from src/options.rs (the options schema) by `schedlab options --js`; a test\n\
         // checks that it is up to date. Do not edit: change the schema and regenerate.\n\
         export const OPTIONS = [\n",
    );
    for o in OPTIONS {
        out.push_str("  ");
        out.push_str(&serde_json::to_string(o).unwrap_or_default());
        out.push_str(",\n");
    }
    out.push_str("];\n");
    out
}
