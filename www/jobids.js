// How the page names a job to a person: as `schedlab run --fidelity` does, by Slurm's JobID
// for an sacct log (the engine's Session facts `job_ids`: the JobIDs in job order, one a line),
// else by its number in the trace. One string per trace, no string per job: the line starts
// are found once, when a job is first named. Ids stay numbers elsewhere (data-job attributes,
// the CSVs' job_id).
let jobIds = null;
let starts = null;

/** Takes the loaded trace's JobIDs (the facts' `job_ids`; null or missing: jobs by number). */
export function setJobIds(text) {
  jobIds = typeof text === 'string' ? text : null;
  starts = null;
}

/** Job `i` (its index; `number`: its number in the trace) as the log names it. */
export function jobName(i, number) {
  if (jobIds === null) return String(number);
  if (!starts) {
    const at = [0];
    for (let k = jobIds.indexOf('\n'); k >= 0; k = jobIds.indexOf('\n', k + 1)) at.push(k + 1);
    starts = Uint32Array.from(at);
  }
  if (i >= starts.length) return String(number);
  const end = i + 1 < starts.length ? starts[i + 1] - 1 : jobIds.length;
  return jobIds.slice(starts[i], end);
}
