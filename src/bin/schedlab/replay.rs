//! `schedlab replay`: decisions one step ahead (`schedlab::replay`). At each instant where an
//! sacct log starts jobs, the engine holds the recorded state just before it and each policy
//! says which jobs it starts then; printed per policy: recall and precision.

use crate::{CliResult, InputArgs};
use clap::Args;
use schedlab::replay::{prio_phase, recorded, Figures, Replay};
use schedlab::run;
use schedlab::slurm::phases_from_log::LogClocks;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReplayArgs {
    /// The log: Slurm `sacct --parsable2` or `--json` output (with NodeList, the jobs run on their
    /// recorded nodes), or any trace with recorded waits.
    trace: PathBuf,
    /// Policy spec (slurm, easy, conservative, ...); repeat to compare. With a Slurm site
    /// (--slurm-conf, --sshare, --qos, --assoc) and no -p, `slurm`.
    #[arg(long = "policy", short = 'p')]
    policies: Vec<String>,
    #[command(flatten)]
    site: crate::site_args::SiteArgs,
    /// Write `time,job_id,recorded,model` (one row per job waiting at each instant) to this
    /// CSV; one file per policy.
    #[arg(long)]
    decisions_csv: Option<PathBuf>,
    /// Also simulate each policy over the whole log and print how far its waits are from the
    /// recorded run's: mean wait, per-account mean waits, the largest wait CDF gap.
    #[arg(long)]
    whole_run: bool,
    /// Another recorded run of the same workload (sacct output): printed with --whole-run,
    /// its distance to this log is the noise floor (a real Slurm against itself).
    #[arg(long, requires = "whole_run")]
    noise: Option<PathBuf>,
    /// The controller's debug log of the same run (`slurmctld.log`, gzipped or not, with
    /// `DebugFlags=Backfill`): each decision's pass runs a backfill cycle of the `slurm`
    /// policy exactly when Slurm's thread began one within the instant (its
    /// `_attempt_backfill: beginning` lines), rather than when the policy's own clock says,
    /// on the state as of the cycle's millisecond (an end or submission the log stamps after
    /// it comes after it, with a main scheduler's pass after those events); and a job that
    /// ended in the second of a priority period ran in it exactly when the log stamps its end
    /// after the decay thread's fraction of the second. The decisions only: a whole run keeps
    /// the policy's clock and its own ends.
    #[arg(long)]
    debug_log: Option<PathBuf>,
    /// The `slurm` policy's replay reads the log's `Priority` column (the priority Slurm gave
    /// each job at its submission, with the fairshare factors of the period before): the
    /// priority periods' second (`calc_phase`, when the spec does not give it: the half minute
    /// the limit checks leave open) and, without the debug log's, the side of each end in a
    /// period's second (docs/slurm.md, "sacct's Priority: the periods' second and the ends'
    /// sides"). This flag turns both off.
    #[arg(long)]
    no_priorities: bool,
    /// Seed of the simulation's random number generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: &ReplayArgs) -> CliResult {
    let policies = policies_of(args)?;
    let site = args.site.read(args.input.slurm_conf.as_deref())?;
    let build = |spec: &str| match &site {
        Some(site) => schedlab::policy::slurm::build_with_site(spec, site),
        None => schedlab::policy::build(spec),
    };
    // Every spec is checked before any work; files are named by the specs as given (a
    // site's canonical spec is long).
    for spec in &policies {
        build(spec)?;
    }
    let files = crate::outputs::plan(
        &[("--decisions-csv", args.decisions_csv.as_deref())],
        &policies,
        &args.trace,
    )?;
    let (read, input) = args.input.options()?;
    let (workload, set) = run::read_path(&args.trace, &read, &input)?;
    crate::report_input(&workload, &set);
    let mut logged = crate::fidelity::logged(&args.trace, &set)?;
    if let Some(path) = &args.debug_log {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let clock = schedlab::slurm::clock_of(&workload.header, set.origin);
        let text =
            recorded::debug_log_text(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let cycles = recorded::backfill_cycles(&text, clock);
        let ends = recorded::recorded_ends(&set.jobs);
        // A log with no cycle within the run (another run's, one written without
        // DebugFlags=Backfill, not slurmctld's at all) had every instant run none: `slurm`'s
        // recall on smallbf-2/run4 fell from 78% to 33%, said only as "0 backfill cycles".
        let first = set.jobs.iter().map(|j| j.submit).min().unwrap_or(0);
        let last = ends.iter().copied().max().unwrap_or(0);
        if !cycles.iter().any(|t| (first..=last).contains(t)) {
            return Err(format!(
                "{}: no backfill cycle within the run {} records ({} `_attempt_backfill: \
                 beginning` lines in all): give slurmctld's log of that run, written with \
                 DebugFlags=Backfill",
                path.display(),
                args.trace.display(),
                cycles.len()
            )
            .into());
        }
        let sides = recorded::end_sides(&text, clock, &set.log_id_list(), &ends);
        eprintln!(
            "schedlab: {}: {} backfill cycles time the decisions' cycles; {} job ends timed \
             against the priority periods",
            path.display(),
            cycles.len(),
            sides.as_ref().map_or(0, |s| s.1.iter().flatten().count())
        );
        let order = schedlab::replay::log_order::log_order(&text, clock);
        logged = (logged.with_cycles(cycles))
            .with_order(order)
            .with_end_sides(sides);
    }
    let replay = Replay::new(&set, logged).map_err(|e| format!("{}: {e}", args.trace.display()))?;
    let site = site.map(|s| {
        s.with_user_names(workload.header.lines.iter().map(String::as_str))
            .with_accounts(set.accounts.clone())
            .with_job_qos(set.qos_names.clone(), set.qos.clone())
            .with_clock(schedlab::slurm::clock_of(&workload.header, set.origin))
            .with_log_clocks(LogClocks::of(&set))
    });
    crate::print_site_notes(site.as_ref());
    // Without a site the `slurm` policy still reads its loops' phases from the log, as
    // `schedlab run` does (`run::named_site`).
    let bare = schedlab::slurm::Site::default().with_log_clocks(LogClocks::of(&set));
    // The periods' phase from the recorded priorities, for the first spec asking for it.
    let first = (policies.iter()).find(|s| s.to_ascii_lowercase().contains("calc_phase=read"));
    let (site, bare) = match (first, args.no_priorities) {
        (Some(spec), false) => {
            let read = |s| prio_phase::site_with_read_phase(&replay, spec, s);
            (site.map(read).transpose()?.map(|r| r.0), read(bare)?.0)
        }
        (Some(_), true) => {
            let unread = |s: schedlab::slurm::Site| {
                let clocks =
                    (s.log_clocks.clone()).map(|c| c.with_calc_unread("--no-priorities".into()));
                s.with_log_clocks(clocks)
            };
            (site.map(unread), unread(bare))
        }
        _ => (site, bare),
    };
    crate::print_phases_note(site.as_ref().unwrap_or(&bare), &policies);
    let recorded = replay.recorded_waits();
    if let Some(other) = &args.noise {
        let (_, set2) = run::read_path(other, &read, &input)?;
        let logged = crate::fidelity::logged(other, &set2)?;
        let second = Replay::new(&set2, logged).map_err(|e| format!("{}: {e}", other.display()))?;
        let d = recorded.distance(&second.recorded_waits());
        println!("noise floor (this log / {}): {d}", other.display());
        // The floor is two runs of one workload apart; another workload's log gave a figure
        // as readily (smallbf-2 against gpu-3: 68.5% apart), and nothing said so.
        let unmatched = unmatched(&set.jobs, &set2.jobs);
        if unmatched > 0 || set.jobs.len() != set2.jobs.len() {
            eprintln!(
                "schedlab: --noise {}: not a run of this log's workload ({} jobs here, {} there; \
                 {unmatched} of its jobs ask processors and a time limit no job here does): \
                 the noise floor compares two workloads",
                other.display(),
                set.jobs.len(),
                set2.jobs.len()
            );
        }
    }
    for (spec, files) in policies.iter().zip(&files) {
        let fresh = || -> Result<Box<dyn schedlab::policy::Policy>, run::Error> {
            Ok(match &site {
                Some(site) => schedlab::policy::slurm::build_with_site(spec, site)?,
                None => schedlab::policy::slurm::build_with_site(spec, &bare)?,
            })
        };
        let told = match args.no_priorities || replay.logged.end_sides.is_some() {
            true => None,
            false => priority_sides(&replay, spec, site.as_ref().unwrap_or(&bare))?,
        };
        let with_sides;
        let replay = match told {
            Some(sides) => {
                let logged = replay.logged.clone().with_end_sides(Some(sides));
                with_sides = Replay::new(&set, logged)
                    .map_err(|e| format!("{}: {e}", args.trace.display()))?;
                &with_sides
            }
            None => &replay,
        };
        // A policy that replays the log (`historic`) has no decision of its own: asked fresh
        // at an instant it knows none of the jobs submitted before (its starts come from their
        // submissions), and its whole schedule is the log's. Its whole run still prints (0 apart).
        if fresh()?.replays_trace() {
            println!("{spec}: the log's own schedule: its decisions are the recorded ones");
            if args.whole_run {
                let waits = replay.simulated_waits(fresh()?.as_mut(), args.seed)?;
                let d = recorded.distance(&waits);
                println!("  whole run (recorded / {spec}): {d}");
            }
            if files[0].is_some() {
                eprintln!("schedlab: {spec}: no decisions to write (--decisions-csv)");
            }
            continue;
        }
        let (ds, reselected) = replay.decisions(fresh, args.seed)?;
        let f = Figures::of(&ds);
        println!("{spec}: {f}");
        if spec != &fresh()?.spec() {
            println!("  ({})", fresh()?.spec());
        }
        if reselected > 0 {
            eprintln!(
                "schedlab: {spec}: up to {reselected} recorded starts did not fit their recorded \
                 nodes and were placed by the engine's node selection"
            );
        }
        if args.whole_run {
            let waits = replay.simulated_waits(fresh()?.as_mut(), args.seed)?;
            println!(
                "  whole run (recorded / {spec}): {}",
                recorded.distance(&waits)
            );
        }
        if let Some(path) = &files[0] {
            let file =
                std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
            replay.write_csv(std::io::BufWriter::new(file), &ds)?;
            eprintln!("wrote {}", path.display());
        }
    }
    Ok(())
}

/// The ends' sides of the priority periods: the periods' second and each job's side.
type EndSides = (schedlab::Time, Vec<Option<bool>>);

/// The ends' sides the log's `Priority` column tells under the `slurm` spec `spec` (another
/// policy's: none), said on stderr when it tells one.
fn priority_sides(
    replay: &Replay,
    spec: &str,
    site: &schedlab::slurm::Site,
) -> Result<Option<EndSides>, run::Error> {
    if !schedlab::policy::slurm::is_slurm(spec) {
        return Ok(None);
    }
    let build = || schedlab::policy::slurm::build_sharing(spec, site).map_err(run::Error::from);
    let Some(told) = schedlab::replay::prio_sides::read_sides(replay, build)? else {
        return Ok(None);
    };
    let (ends, n) = told.counts();
    if n == 0 {
        return Ok(None);
    }
    eprintln!(
        "schedlab: {spec}: the log's Priority column tells the side of {n} of the {ends} job \
         ends in a priority period's second (the others: the side the periods' phases give)"
    );
    Ok(Some((told.decay, told.sides)))
}

/// How many of `other`'s jobs are left when each is matched to a job of `jobs` asking the same
/// processors and time limit: none for two runs of one workload, whatever their times.
fn unmatched(jobs: &[schedlab::job::Job], other: &[schedlab::job::Job]) -> usize {
    let asked = |js: &[schedlab::job::Job]| {
        let mut v: Vec<(u32, i64)> = js.iter().map(|j| (j.procs, j.estimate)).collect();
        v.sort_unstable();
        v
    };
    let (a, b) = (asked(jobs), asked(other));
    let (mut i, mut matched) = (0, 0);
    for x in &b {
        while i < a.len() && a[i] < *x {
            i += 1;
        }
        if i < a.len() && a[i] == *x {
            matched += 1;
            i += 1;
        }
    }
    b.len() - matched
}

/// The specs to compare: those given with -p; without any, `slurm` when a Slurm site is given
/// (the site is only read by it), else an error naming what to give.
fn policies_of(args: &ReplayArgs) -> Result<Vec<String>, String> {
    if !args.policies.is_empty() {
        return Ok(args.policies.clone());
    }
    let site = args.input.slurm_conf.is_some() || args.site.any();
    if site {
        eprintln!("schedlab: no -p given: comparing slurm");
        return Ok(vec!["slurm".to_string()]);
    }
    Err(
        "no policy given: give one or more with -p (e.g. -p slurm -p easy), or a Slurm site \
         (--slurm-conf, --sshare, --qos, --assoc) to compare slurm"
            .to_string(),
    )
}
