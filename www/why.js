// Why a job started when it did, in a sentence (the Gantt tooltip), from a run's per-job array
// (Session::jobs, fields in www/layouts.js) and its report (start_reason_words). No DOM here.
import { JOB, START_REASONS } from './layouts.js';
import { fmtDuration } from './ui.js';
import { jobName } from './jobids.js';

/** Field `f` of job index `j`. */
const at = (jobs, j, f) => jobs[j * JOB.stride + f];

/** The reason word of job index `j` ('' when it did not start). */
export function reasonOf(result, j) {
  const code = at(result.jobs, j, JOB.reason);
  if (code >= 16) return result.report?.start_reason_words?.[code - 16] ?? 'policy';
  return START_REASONS[code] ?? '';
}

/** The earliest-arrived job (index) that was still waiting when job `j` started: submitted by
 * then and started after it (or never). -1 when none. Jobs are in arrival order. */
export function earlierWaiting(jobs, j) {
  const t = at(jobs, j, JOB.start);
  for (let k = 0; k < j; k++) {
    if (at(jobs, k, JOB.submit) > t) break;
    const s = at(jobs, k, JOB.start);
    if (s > t || s < 0) return k;
  }
  return -1;
}

/** What a click on job `j` shows: its first reservation (or -1), the job it waited for (index
 * or -1) and the job it overtook (index or -1). */
export function selection(result, j) {
  const jobs = result.jobs;
  const reason = reasonOf(result, j);
  const overtook = ['backfilled', 'extra', 'venture', 'ahead'].includes(reason) ? earlierWaiting(jobs, j) : -1;
  return { job: j, reservation: at(jobs, j, JOB.reservation), waitedFor: at(jobs, j, JOB.waitedFor), overtook };
}

/** One or two sentences saying why job `j` started when it did. */
export function whySentence(result, j) {
  const jobs = result.jobs;
  const id = (k) => jobName(k, at(jobs, k, JOB.id));
  const start = at(jobs, j, JOB.start), submit = at(jobs, j, JOB.submit);
  if (start < 0) return 'Never started.';
  const when = fmtDuration(start);
  const waited = start > submit ? `after waiting ${fmtDuration(start - submit)}` : 'on arrival';
  const reason = reasonOf(result, j);
  const res = at(jobs, j, JOB.reservation), behind = at(jobs, j, JOB.waitedFor);
  const promise = res >= 0
    ? ` First reserved for ${fmtDuration(res)}${behind >= 0 ? `, the planned end of job ${id(behind)}` : ''}` +
      (start < res ? `; it started ${fmtDuration(res - start)} earlier.` : start > res ? `; it started ${fmtDuration(start - res)} later.` : '; it started then.')
    : '';
  const k = ['backfilled', 'extra', 'venture', 'ahead'].includes(reason) ? earlierWaiting(jobs, j) : -1;
  const other = k >= 0 ? `job ${id(k)}` : 'an earlier job';
  const otherRes = k >= 0 && at(jobs, k, JOB.reservation) >= 0 ? ` (first reserved for ${fmtDuration(at(jobs, k, JOB.reservation))})` : '';
  const end = at(jobs, j, JOB.end);
  switch (reason) {
    case 'head':
      // Blocked at the head: reserved for later than its arrival (a job started on arrival
      // by conservative backfilling holds a reservation at its arrival).
      return res > submit
        ? `Blocked at the head of the queue, started at ${when} when enough processors were free (${waited}).${promise}`
        : `Started at ${when} in queue order: it fit when every job ahead of it had started (${waited}).`;
    case 'backfilled':
      return `Backfilled at ${when} ahead of ${other}, inside the reservation made for it: planned to end by ${k >= 0 ? `${id(k)}'s` : 'its'} shadow time${otherRes}; it ended at ${fmtDuration(end)}.`;
    case 'extra':
      return `Backfilled at ${when} ahead of ${other} on the extra processors: ${k >= 0 ? `${id(k)}` : 'it'} leaves them free at its shadow time${otherRes}, so this job could run past it; it ended at ${fmtDuration(end)}.`;
    case 'reserved':
      return `Started at ${when} at its conservative reservation (${waited}).${promise}`;
    case 'restarted':
      return `Restarted at ${when} after a preemption: an earlier run was killed (its work lost) so that a job ahead of it could start.${promise}`;
    case 'replay':
      return `Started at ${when} as the trace recorded (or as soon as it fit after that).`;
    case 'venture':
      return `Started at ${when} ahead of ${other} on idle processors, past its reservation${otherRes}: the head is protected by shadow-load preemption, not by the reservation.`;
    case 'ahead':
      return `Started at ${when} by the policy while ${other} (arrived earlier) was still waiting; the policy gave no reason.`;
    case 'replay-late':
      return `Started at ${when}, later than the trace recorded: its recorded nodes (or enough room) were not free then (${waited}).`;
    default:
      // The slurm policy's two loops (docs/slurm.md), said in Slurm's words rather than as a
      // word of "the policy's own rule".
      if (/^slurm($|\[)/.test(result.spec ?? '') && reason === 'main') {
        return `Started at ${when} by Slurm's main scheduler, which starts jobs in priority order and stops at the first that cannot start (${waited}).${promise}`;
      }
      if (/^slurm($|\[)/.test(result.spec ?? '') && reason === 'backfill') {
        return `Started at ${when} by Slurm's backfill cycle, which starts a job where it delays no reservation it planned for a job of higher priority (${waited}).${promise}`;
      }
      return `Started at ${when} by the policy's own rule: "${reason}" (${waited}).${promise}`;
  }
}
