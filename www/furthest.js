// The jobs furthest apart between two schedules (A and B of the compare panel), with why B
// started each when it did; with A the trace's own schedule (the `historic` policy) it is the
// replay fidelity view: how far a simulation is from what the log recorded, and why.
import { call } from './engine.js';
import { el, fmtDuration, fmtNumber, count } from './ui.js';
import { JOB } from './layouts.js';
import { whySentence } from './why.js';
import { userName } from './users.js';
import { jobName } from './jobids.js';

const ROWS = 10;

/** The indices of the `n` jobs with the largest |b − a| (both finite), largest first, ties by job order. */
export function furthestJobs(colA, colB, n = ROWS) {
  const idx = [];
  for (let i = 0; i < colA.length; i++) if (Number.isFinite(colA[i]) && Number.isFinite(colB[i])) idx.push(i);
  idx.sort((x, y) => Math.abs(colB[y] - colA[y]) - Math.abs(colB[x] - colA[x]) || x - y);
  return idx.slice(0, n);
}

/** Fills `table` with the furthest jobs of A (results[a]) against B (results[b]) in figure `fig`
 * ({name, unit}); the wait figure also gets the summary of `compare_waits` in the caption. */
export function renderFurthest(table, results, a, b, colA, colB, fig) {
  const [A, B] = [results[a], results[b]];
  const fmt = (v) => (fig.unit === 's' ? fmtDuration(v) : fmtNumber(v, 2));
  // "from A (historic (the trace's own schedule))" read as nested brackets.
  const nameA = A.spec === 'historic' ? ', historic (the trace\'s own schedule),' : ` (${A.spec})`;
  let summary = '';
  if (fig.unit === 's') {
    const f = call('compare_waits', colA, colB);
    if (f) {
      summary = `: over ${count(f.compared, 'job')}, mean |B − A| ${fmtDuration(f.mean_abs)}, median ${fmtDuration(f.median_abs)}, `
        + `90th percentile ${fmtDuration(f.p90_abs)}, ${fmtNumber(100 * f.close, 1)}% within a minute; `
        + `mean wait A ${fmtDuration(f.mean_recorded)}, B ${fmtDuration(f.mean_simulated)}; largest gap between the CDFs ${fmtNumber(f.cdf_gap, 3)}`;
    }
  }
  const rows = furthestJobs(colA, colB).map((i) => {
    const d = colB[i] - colA[i];
    const number = B.jobs[i * JOB.stride + JOB.id];
    return el('tr', { 'data-job': String(number) },
      el('td', {}, jobName(i, number)), el('td', {}, userName(B.jobs[i * JOB.stride + JOB.user])),
      // A job as far in both is neither gained nor lost (it read "−0s", in the gained colour).
      el('td', {}, fmt(colA[i])), el('td', {}, fmt(colB[i])), el('td', { class: d > 0 ? 'lost' : d < 0 ? 'gained' : null }, (d > 0 ? '+' : d < 0 ? '−' : '') + fmt(Math.abs(d))),
      el('td', { class: 'why' }, whySentence(B, i)));
  });
  const head = el('tr', {}, ['job', 'user', `${fig.name} A`, `${fig.name} B`, 'B − A', 'why B started it then'].map((h) => el('th', { scope: 'col' }, h)));
  table.replaceChildren(
    el('caption', {}, `Jobs furthest apart from A${nameA} to B (${B.spec})${summary}`),
    el('thead', {}, head), el('tbody', {}, rows.length ? rows : el('tr', {}, el('td', { colspan: 6 }, 'No job ran under both.'))));
}
