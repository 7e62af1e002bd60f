//! The facts of a loaded trace, as the page shows them (its name, jobs, users, span, skipped
//! lines, the notes on its Slurm site files).

use super::{to_js, Session};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// The facts of a loaded trace, as the page shows them.
#[derive(Serialize)]
struct Facts<'a> {
    name: &'a str,
    /// The jobs every run simulates, and their distinct users and span of submits (not the
    /// jobs the cluster can never run: [`crate::input::JobSet::simulated_users_and_span`]).
    jobs: usize,
    users: usize,
    procs: u32,
    procs_source: &'a str,
    span: i64,
    /// With `skipped_never`: [`crate::input::JobSet::skipped_split`], the CLI's trace line.
    skipped: u64,
    skipped_never: Option<String>,
    skipped_reasons: Vec<String>,
    warnings: Vec<String>,
    /// The users' names by id ([`Session::user_names`]).
    user_names: &'a [String],
    /// The note on an sshare file whose associations miss the trace's users or accounts
    /// ([`crate::slurm::site_note::sshare_note`], what `schedlab run --sshare` prints); `None`
    /// without one, or when every user and account is in it.
    sshare_note: Option<String>,
    /// Each job's Slurm `JobID` in job order, one a line (an sacct log's: [`Session::job_ids`]);
    /// `None` for a trace that numbers its jobs alone. One string, not one per job: the page
    /// reads the few it shows.
    job_ids: Option<String>,
    /// The note on a qos file that lacks QOS the trace's jobs run in
    /// ([`crate::slurm::site_note::qos_note`], what `schedlab run --qos` prints); `None` without
    /// one, or when it lists every QOS of the log.
    qos_note: Option<String>,
    /// The note on an assoc file that lacks accounts of the trace
    /// ([`crate::slurm::site_note::assoc_note`], what `schedlab run --assoc` prints); `None`
    /// without one, or when it has every account of the log.
    assoc_note: Option<String>,
    /// What the `slurm` policy reads of the loops' phases from the log
    /// ([`crate::policy::slurm::phases_note`] of `slurm` under the site's slurm.conf, what
    /// `schedlab run -p slurm` prints); `None` for a log that shows none (not a Slurm log).
    /// The page shows it when a `slurm` policy runs.
    phases_note: Option<String>,
}

#[wasm_bindgen]
impl Session {
    pub fn facts(&self) -> Result<JsValue, JsError> {
        let w = &self.trace.workload;
        let j = &self.trace.jobs;
        // An issue of the whole file (a truncated gzip stream: the jobs after it are lost) is a
        // warning shown as such, as the CLI's "1 warning" says, not one of the skipped lines
        // folded away under a count of 0 skipped.
        // (A Batsim job the reader skipped has line 0 too, as a skipped line: kept below.)
        let whole =
            |i: &&crate::swf::LineIssue| i.line == 0 && i.severity == crate::swf::Severity::Warning;
        let mut warnings: Vec<String> = w
            .issues
            .iter()
            .filter(whole)
            .map(|i| format!("{}: {i}", w.source))
            .collect();
        warnings.extend(j.warnings.iter().cloned());
        let mut reasons: Vec<String> = w
            .issues
            .iter()
            .filter(|i| !whole(i))
            .take(5)
            .map(|i| format!("{}: {i}", w.source))
            .collect();
        // The file and the job, as the CLI names them (a Batsim workload's by its place in `jobs`).
        reasons.extend(
            j.skipped
                .iter()
                .take(5)
                .map(|s| format!("{}: {}: {}", w.source, j.words.job(s.line, s.id), s.reason)),
        );
        let (skipped, skipped_never) = j.skipped_split();
        // The jobs simulated, as the `jobs` row counts them: a job the cluster can never run
        // is counted under `skipped`, not among the users or in the span of submits.
        let (users, span) = j.simulated_users_and_span();
        to_js(&Facts {
            name: &j.name,
            jobs: j.simulated_count(),
            users,
            procs: j.procs,
            procs_source: &j.procs_source,
            span,
            skipped,
            skipped_never,
            skipped_reasons: reasons,
            warnings,
            user_names: &j.names.users,
            sshare_note: self
                .site
                .as_ref()
                .and_then(crate::slurm::site_note::sshare_note),
            job_ids: self.job_ids(),
            qos_note: self
                .site
                .as_ref()
                .and_then(crate::slurm::site_note::qos_note),
            assoc_note: self
                .site
                .as_ref()
                .and_then(crate::slurm::site_note::assoc_note),
            phases_note: self.phases_note_of("slurm"),
        })
    }

    /// What `slurm[...]` spec `spec` reads of the loops' phases from the trace's log, as
    /// `schedlab run -p SPEC` prints it (`calc_phase=read` included: only a replay reads that
    /// one, and the note says so); `undefined` for another policy's spec or a log that shows
    /// none. The worker sends the first compared `slurm` spec's note with the trace's facts.
    pub fn phases_note(&self, spec: &str) -> Option<String> {
        self.phases_note_of(spec)
    }

    /// The jobs' Slurm `JobID`s in job order, one a line, as `schedlab run --fidelity` names
    /// them (the log's `JobID` of each job's line); `None` when the trace records none (not an
    /// sacct log).
    fn phases_note_of(&self, spec: &str) -> Option<String> {
        match &self.site {
            Some(site) => crate::policy::slurm::phases_note(spec, site),
            None => crate::policy::slurm::phases_note(
                spec,
                &self.trace.named_site(crate::slurm::Site::default()),
            ),
        }
    }

    fn job_ids(&self) -> Option<String> {
        let set = &self.trace.jobs;
        if set.log_ids.is_empty() {
            return None;
        }
        Some(set.log_id_list().join("\n"))
    }
}
