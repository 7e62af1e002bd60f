//! The pipeline, one for the CLI and the page: read a trace, prepare the jobs, compute what
//! depends on the trace only (the expected end times), then run policies on it and measure
//! their schedules ([`Trace::run`]). The CLI (`src/bin/schedlab/`) and the facade (`src/web/`)
//! are thin adapters over [`Trace`].
#![warn(missing_docs)]

use crate::input::{self, InputError, InputOptions, JobSet, RawJobs};
use crate::metrics::eet::{self, EetError, Expected, UserAware};
use crate::metrics::{self, Classic, Figures, Metric, MetricOptions};
use crate::policy::{self, SpecError};
use crate::sim::{Progress, Schedule, SimError};
use crate::swf::{ReadOptions, SwfError, Workload};
use serde::Serialize;

mod simulate;
pub(crate) use simulate::show_recorded;
pub use simulate::{limit_checks, simulate, simulate_set, simulate_with};

/// Reads a trace from bytes (plain or gzip, any format) straight into jobs and applies the
/// input semantics: the workload (header, issues and counts, without records) and its jobs.
pub fn read_bytes(
    name: &str,
    bytes: &[u8],
    read: &ReadOptions,
    input: &InputOptions,
) -> Result<(Workload, JobSet), Error> {
    let mut raw = RawJobs::new(input);
    let workload = crate::workload::read_bytes_into(name, bytes, read, &mut raw)?;
    let jobs = input::prepare_raw(&workload, raw, input)?;
    Ok((workload, jobs))
}

/// [`read_bytes`] of a file, read front to back (a gzip trace inflated on a second thread).
#[cfg(not(target_arch = "wasm32"))]
pub fn read_path(
    path: &std::path::Path,
    read: &ReadOptions,
    input: &InputOptions,
) -> Result<(Workload, JobSet), Error> {
    let mut raw = RawJobs::new(input);
    let workload = crate::workload::read_path_into(path, read, &mut raw)?;
    let mut jobs = input::prepare_raw(&workload, raw, input)?;
    if workload.alea_lines > 0 && input.cluster.is_none() {
        jobs.warnings.extend(machines_beside(path));
    }
    Ok((workload, jobs))
}

/// A note when Alea's machines file of a trace in its MetaCentrum form lies beside it
/// (`wagap-2013.swf.machines` beside `wagap-2013.swf`, also for `wagap-2013.swf.gz`) and no
/// cluster is given: the jobs then ran on one machine as wide as the widest job (256 processors
/// for wagap-2013, whose 68 nodes have 2176 cores), and nothing said the nodes were at hand.
#[cfg(not(target_arch = "wasm32"))]
fn machines_beside(path: &std::path::Path) -> Option<String> {
    let name = path.to_str()?;
    let stem = name.strip_suffix(".gz").unwrap_or(name);
    let machines = format!("{stem}.machines");
    std::path::Path::new(&machines).is_file().then(|| {
        format!(
            "{machines} beside it is Alea's machines file of this trace: give it with \
             --cluster {machines} {MACHINES_GIVE}"
        )
    })
}

/// Why to give Alea's machines file of a trace in its MetaCentrum form, as the CLI and the
/// page say it.
pub(crate) const MACHINES_GIVE: &str =
    "to run the jobs on its nodes (without it, one machine of the trace's processors)";

/// The page's note for a trace in Alea's MetaCentrum form read without a cluster (the CLI's
/// is `machines_beside`: the page cannot look beside the file): where its nodes are and how
/// to give them.
pub fn machines_hint(workload: &Workload, input: &InputOptions) -> Option<String> {
    (workload.alea_lines > 0 && input.cluster.is_none()).then(|| {
        let name = workload.source.rsplit(['/', '\\']).next().unwrap_or("");
        let stem = name.strip_suffix(".gz").unwrap_or(name);
        format!(
            "this trace's nodes are in Alea's machines file ({stem}.machines where the trace \
             comes from): drop it on the page with the trace, or choose it in the Cluster \
             panel, {MACHINES_GIVE}"
        )
    })
}

/// Any error of the pipeline; every message names what it concerns (file, policy, time).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The trace could not be read.
    #[error(transparent)]
    Swf(#[from] SwfError),
    /// The input options could not be applied.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A policy spec is not valid.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The simulation failed (a policy's invalid decision).
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The expected end times could not be computed.
    #[error(transparent)]
    Eet(#[from] EetError),
    /// A metric could not be computed.
    #[error("{0}")]
    Metrics(String),
}

/// A trace read and prepared for simulation, with its metrics options and the expected end
/// times of its jobs (computed once: they depend on the jobs and the EET options, not on the
/// policy). [`Trace::run`] runs one policy on it; the CLI and the page's worker both go through
/// here.
pub struct Trace {
    /// The workload the jobs came from, without its records (header, issues and counts only:
    /// the records are dropped once the jobs are prepared, see [`Trace::of_jobs`]).
    pub workload: Workload,
    /// The jobs to simulate, with the machine and the input options.
    pub jobs: JobSet,
    /// The options of the metrics.
    pub metrics: MetricOptions,
    expected: Expected,
}

impl Trace {
    /// The trace of `workload` under the input options, measured with `metrics`.
    pub fn new(
        workload: Workload,
        input: &InputOptions,
        metrics: MetricOptions,
    ) -> Result<Trace, Error> {
        let jobs = input::prepare(&workload, input)?;
        Trace::of_jobs(workload, jobs, metrics)
    }

    /// The trace of jobs prepared beforehand (`workload` is the workload they came from). Its
    /// records are dropped: the jobs hold what the engine, metrics and outputs read, and a
    /// trace of millions of jobs should not hold each twice.
    pub fn of_jobs(
        mut workload: Workload,
        jobs: JobSet,
        metrics: MetricOptions,
    ) -> Result<Trace, Error> {
        workload.streamed += workload.records.len() as u64;
        workload.records = Vec::new();
        workload.job_ids = Vec::new();
        metrics
            .check()
            .map_err(|e| Error::Metrics(format!("metrics: {e}")))?;
        let expected = eet::expected_end_times(&jobs, &metrics.eet)?;
        Ok(Trace {
            workload,
            jobs,
            metrics,
            expected,
        })
    }

    /// The jobs of a workload prepared beforehand ([`read_bytes`], [`read_path`]), then
    /// [`simulate`] of `spec`: natively the expected end times are computed on a second thread
    /// while the policy runs (they do not depend on it). The trace's errors come first, as
    /// with `Trace::of_jobs` then [`Trace::run`]; the schedule's error, if any, is returned
    /// with the trace.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn new_simulating(
        (mut workload, jobs): (Workload, JobSet),
        metrics: MetricOptions,
        spec: &str,
        seed: u64,
        progress: Option<Progress<'_>>,
    ) -> Result<(Trace, Result<Schedule, Error>), Error> {
        metrics
            .check()
            .map_err(|e| Error::Metrics(format!("metrics: {e}")))?;
        let (expected, schedule) = std::thread::scope(|s| {
            let expected = s.spawn(|| eet::expected_end_times(&jobs, &metrics.eet));
            let schedule = simulate_spec(&workload, &jobs, spec, seed, progress);
            let expected = expected
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            (expected, schedule)
        });
        // The jobs hold the log's job ids (`JobSet::log_ids`): their one home.
        workload.job_ids = Vec::new();
        let trace = Trace {
            workload,
            jobs,
            metrics,
            expected: expected?,
        };
        Ok((trace, schedule))
    }

    /// Reads a trace from bytes (plain or gzip) and applies the input semantics.
    pub fn load_bytes(
        name: &str,
        bytes: &[u8],
        read: &ReadOptions,
        input: &InputOptions,
        metrics: MetricOptions,
    ) -> Result<Trace, Error> {
        let (workload, jobs) = read_bytes(name, bytes, read, input)?;
        Trace::of_jobs(workload, jobs, metrics)
    }

    /// Reads a trace file (plain or gzip) and applies the input semantics.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn load_path(
        path: &std::path::Path,
        read: &ReadOptions,
        input: &InputOptions,
        metrics: MetricOptions,
    ) -> Result<Trace, Error> {
        let (workload, jobs) = read_path(path, read, input)?;
        Trace::of_jobs(workload, jobs, metrics)
    }

    /// The expected end time of every job (indexed like `jobs.jobs`).
    pub fn expected(&self) -> &Expected {
        &self.expected
    }

    /// Runs the policy named by `spec` with `seed` and measures its schedule;
    /// `progress(done, total)` is called now and then and may return `false` to cancel.
    pub fn run(
        &self,
        spec: &str,
        seed: u64,
        progress: Option<Progress<'_>>,
    ) -> Result<RunResult, Error> {
        self.run_at(spec, None, seed, progress)
    }

    /// Runs `spec` as [`Trace::run`] does, and the `slurm` policy with a site's parameters and
    /// shares when `site` is given (the CLI's `run` and `sweep` and the page alike); without one,
    /// `slurm` with what the trace itself tells (its clock and accounts: `simulate_spec`).
    pub fn run_at(
        &self,
        spec: &str,
        site: Option<&crate::slurm::Site>,
        seed: u64,
        progress: Option<Progress<'_>>,
    ) -> Result<RunResult, Error> {
        let schedule = simulate_at(&self.workload, &self.jobs, spec, site, seed, progress)?;
        Ok(measure(&self.jobs, &self.metrics, &self.expected, schedule))
    }

    /// `site` with this trace's user names (an sacct log's header names its users; the
    /// sshare's associations are matched by name), its clock at time 0 and, for an sacct log,
    /// each job's account.
    pub fn named_site(&self, site: crate::slurm::Site) -> crate::slurm::Site {
        named_site(&self.workload, &self.jobs, site)
    }

    /// Runs a policy built beforehand (a built-in from [`policy::build`], one of the user's own
    /// on the public API, or a [`policy::External`] one) and measures its schedule.
    pub fn run_with(
        &self,
        policy: &mut dyn policy::Policy,
        seed: u64,
        progress: Option<Progress<'_>>,
    ) -> Result<RunResult, Error> {
        let schedule = simulate_with(&self.jobs, policy, seed, progress)?;
        Ok(measure(&self.jobs, &self.metrics, &self.expected, schedule))
    }

    /// The JSON report of run `r` (GUIDE section 4), as `schedlab run --json` prints it.
    pub fn report<'a>(&'a self, r: &'a RunResult) -> Report<'a> {
        r.report(&self.jobs)
    }
}

/// [`Trace::named_site`] of the trace read as `workload` with jobs `jobs`.
pub fn named_site(
    workload: &Workload,
    jobs: &JobSet,
    site: crate::slurm::Site,
) -> crate::slurm::Site {
    let site = site
        .with_user_names(workload.header.lines.iter().map(String::as_str))
        .with_clock(crate::slurm::clock_of(&workload.header, jobs.origin))
        .with_log_clocks(crate::slurm::phases_from_log::LogClocks::of(jobs));
    let site = match jobs.qos.is_empty() {
        true => site,
        false => site.with_job_qos(jobs.qos_names.clone(), jobs.qos.clone()),
    };
    if jobs.accounts.is_empty() {
        return site;
    }
    site.with_accounts(jobs.accounts.clone())
}

/// The schedule of the policy named by `spec` on `jobs` (read as `workload`), with no site of
/// the user's: `slurm` reads what the trace itself tells ([`named_site`]: its clock, on which
/// Slurm's backfill rounds, and its jobs' accounts), so that a spec carrying a slurm.conf's
/// keys gives the schedule that slurm.conf gives (a share link's); any other as
/// [`simulate`].
fn simulate_spec(
    workload: &Workload,
    jobs: &JobSet,
    spec: &str,
    seed: u64,
    progress: Option<Progress<'_>>,
) -> Result<Schedule, Error> {
    if !policy::slurm::is_slurm(spec) {
        return simulate(jobs, spec, seed, progress);
    }
    let site = named_site(workload, jobs, crate::slurm::Site::default());
    let mut policy = policy::slurm::build_with_site(spec, &site)?;
    simulate_with(jobs, policy.as_mut(), seed, progress)
}

/// The schedule [`Trace::run_at`] measures, of the trace read as `workload` with jobs `jobs`:
/// the `slurm` policy with `site` (named by [`named_site`]) when given, else `simulate_spec`
/// (`schedlab run`, `sweep`, `plot`, `bench` and the page alike).
pub fn simulate_at(
    workload: &Workload,
    jobs: &JobSet,
    spec: &str,
    site: Option<&crate::slurm::Site>,
    seed: u64,
    progress: Option<Progress<'_>>,
) -> Result<Schedule, Error> {
    match site {
        None => simulate_spec(workload, jobs, spec, seed, progress),
        Some(site) => {
            let mut policy = policy::slurm::build_with_site(spec, site)?;
            simulate_with(jobs, policy.as_mut(), seed, progress)
        }
    }
}

/// Every metric family of `schedule`, a schedule of `jobs`, against their expected end times.
pub fn measure(
    jobs: &JobSet,
    opts: &MetricOptions,
    expected: &Expected,
    schedule: Schedule,
) -> RunResult {
    // Natively the fairness family (the largest) is computed on a second thread; each
    // family is computed exactly as it is alone, so the figures are the same to the bit.
    #[cfg(not(target_arch = "wasm32"))]
    let (fairness, (classic, eet, penalty)) = std::thread::scope(|s| {
        let fairness = s.spawn(|| metrics::fairness(jobs, &schedule, opts));
        let rest = (
            metrics::classic(jobs, &schedule, opts),
            eet::user_aware(jobs, &schedule, expected),
            metrics::penalty::penalty(jobs, &schedule, opts),
        );
        let fairness = fairness
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (fairness, rest)
    });
    #[cfg(target_arch = "wasm32")]
    let (fairness, (classic, eet, penalty)) = (
        metrics::fairness(jobs, &schedule, opts),
        (
            metrics::classic(jobs, &schedule, opts),
            eet::user_aware(jobs, &schedule, expected),
            metrics::penalty::penalty(jobs, &schedule, opts),
        ),
    );
    let cluster = metrics::cluster::of_set(jobs, &schedule);
    RunResult {
        spec: schedule.policy.clone(),
        classic,
        eet,
        fairness,
        penalty,
        cluster,
        schedule,
    }
}

/// One policy run: its schedule and metrics.
pub struct RunResult {
    /// The policy's canonical spec.
    pub spec: String,
    /// Its schedule.
    pub schedule: Schedule,
    /// The classic metrics (wait, slowdown, utilization, counts).
    pub classic: Classic,
    /// The user-aware (EET) metrics.
    pub eet: UserAware,
    /// Strict fairness, reservation violations, preemption (the PV-EASY paper's tables).
    pub fairness: metrics::Fairness,
    /// The resource-sharing metrics, when the node model is on.
    pub penalty: Option<metrics::penalty::Penalty>,
    /// Utilization per resource, GPU-hours waited and GPU fragmentation, on a cluster.
    pub cluster: Option<metrics::cluster::ClusterMetrics>,
}

impl RunResult {
    /// How many of the jobs that ran started for each reason.
    pub fn start_reasons(&self) -> std::collections::BTreeMap<&str, u64> {
        let s = &self.schedule;
        let mut out = std::collections::BTreeMap::new();
        for (j, rec) in s.jobs.iter().enumerate() {
            if rec.ran() {
                *out.entry(s.reason_word(j)).or_insert(0) += 1;
            }
        }
        out
    }

    /// The figures the metrics catalogue reads.
    pub fn figures(&self) -> Figures<'_> {
        Figures {
            classic: &self.classic,
            eet: &self.eet,
            fairness: &self.fairness,
            penalty: self.penalty.as_ref(),
            cluster: self.cluster.as_ref(),
        }
    }

    /// Metric `m` of this run (`None`: a node-model metric of a run without the node model).
    pub fn metric(&self, m: &Metric) -> Option<f64> {
        m.read(&self.figures())
    }
}

/// The metrics JSON of one run (GUIDE section 4).
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    /// The trace's name.
    pub trace: &'a str,
    /// The policy's canonical spec.
    pub policy: &'a str,
    /// The seed of the run.
    pub seed: u64,
    /// The machine's processors.
    pub machine_procs: u32,
    /// Where the machine size came from (header, largest job, option).
    pub machine_procs_source: &'a str,
    /// The input options.
    pub input: &'a InputOptions,
    /// Jobs, skipped, killed, backfilled ...
    pub counts: &'a metrics::Counts,
    /// The classic metrics.
    pub metrics: &'a Classic,
    /// User-aware metrics: EET options, VEET_u / WT_u quartiles and per-user figures.
    pub eet: &'a UserAware,
    /// Strict-fairness delay, reservation violations, preemption and blocked jobs' slowdowns.
    pub fairness: &'a metrics::Fairness,
    /// Penalized runtime, killed jobs, bounded slowdown and wait over the measured window
    /// (node model only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalty: Option<&'a metrics::penalty::Penalty>,
    /// Utilization of cores, memory and GPUs, GPU-hours waited and GPU fragmentation (on a
    /// cluster only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<&'a metrics::cluster::ClusterMetrics>,
    /// Jobs that ran, by start reason (`head`, `backfilled`, ..., a policy's own words).
    pub start_reasons: std::collections::BTreeMap<&'a str, u64>,
    /// The policy's own start-reason words (code 16 + i of the jobs' typed array is word i).
    pub start_reason_words: &'a [String],
    /// What the input left out or changed, said once per trace.
    pub warnings: &'a [String],
    /// The jobs the policy left out before the run, as never runnable (a job its QOS limits
    /// hold for ever under `slurm`): how many, the first few with their reasons
    /// ([`crate::sim::Schedule::rejected_note`]); absent when it left none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<String>,
}

impl RunResult {
    /// The JSON report of this run on `jobs` ([`Trace::report`]).
    pub fn report<'a>(&'a self, jobs: &'a JobSet) -> Report<'a> {
        Report {
            trace: &jobs.name,
            policy: &self.spec,
            seed: self.schedule.seed,
            machine_procs: jobs.procs,
            machine_procs_source: &jobs.procs_source,
            input: &jobs.options,
            counts: &self.classic.counts,
            metrics: &self.classic,
            eet: &self.eet,
            fairness: &self.fairness,
            penalty: self.penalty.as_ref(),
            cluster: self.cluster.as_ref(),
            start_reasons: self.start_reasons(),
            start_reason_words: &self.schedule.reason_words,
            warnings: &jobs.warnings,
            left_out: self.schedule.rejected_note(
                |j| jobs.log_id(j).into_owned(),
                jobs.placement.as_ref().map_or(&[][..], |p| &p.never[..]),
            ),
        }
    }
}
