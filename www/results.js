// The facts of the loaded trace and the results table (rows = metrics, columns = policies).
import { el, fmtDuration, fmtNumber } from './ui.js';

// [dotted path into the report, label, better ('min' | 'max' | null), digits, unit]. A path is
// read from report.metrics unless its first key names another top-level object of the report
// (ROOTS): 'eet.veet.median' is report.eet.veet.median, 'fairness.strict.delayed' is
// report.fairness.strict.delayed.
export const METRICS = [
  ['wait.mean', 'mean wait', 'min', 1, 's'],
  ['wait.median', 'median wait', 'min', 1, 's'],
  ['wait.p95', 'p95 wait', 'min', 1, 's'],
  ['wait.max', 'max wait', 'min', 1, 's'],
  ['mbs', 'mean bounded slowdown (MBS)', 'min', 2],
  ['mwbs', 'weighted bounded slowdown (MWBS)', 'min', 2],
  ['bsld.p95', 'p95 bounded slowdown', 'min', 2],
  ['wsld.mean', 'mean width-normalized slowdown (Zotkin eq. 2)', 'min', 3],
  ['response.mean', 'mean response', 'min', 1, 's'],
  ['utilization', 'utilization', 'max', 4],
  ['makespan', 'makespan', 'min', 0, 's'],
  ['counts.jobs', 'jobs simulated', null, 0],
  ['counts.skipped', 'jobs skipped', null, 0],
  ['counts.killed', 'killed at requested time', null, 0],
  ['counts.backfilled', 'backfilled', null, 0],
  ['counts.blocked', 'blocked at queue head', null, 0], // = fairness.strict.blocked
  ['eet.violated_percent', 'violated EETs (% of jobs)', 'min', 2, '%'],
  ['eet.veet.median', 'VEET_u median (% of a user\'s jobs)', 'min', 1, '%'],
  ['eet.veet.q3', 'VEET_u upper quartile', 'min', 1, '%'],
  ['eet.wt.median', 'WT_u median (weighted tardiness)', 'min', 0, 'processor-s'],
  ['fairness.strict.delayed', 'jobs delayed by later jobs', 'min', 0],
  ['fairness.strict.mean_delay', 'mean delay by later jobs', 'min', 1, 's'],
  ['fairness.violations.count', 'reservation violations', 'min', 0],
  ['fairness.violations.mean_delay', 'mean reservation delay', 'min', 1, 's'],
  ['fairness.preemption.preempted', 'preempted jobs', 'min', 0],
  ['fairness.preemption.wasted_load_pct', 'wasted load (preemption)', 'min', 3, '%'],
  ['fairness.blocked.big_mbs', 'MBS of blocked big jobs (> 1/4 machine)', 'min', 2],
  ['fairness.blocked.small_mbs', 'MBS of blocked small jobs', 'min', 2],
  // The node model's family (rows shown only when a run has it).
  ['penalty.penalized_pct.mean', 'mean penalized runtime (node model)', 'min', 2, '%'],
  ['penalty.penalized_pct.p95', 'p95 penalized runtime (node model)', 'min', 2, '%'],
  ['penalty.killed_by_penalty', 'killed for overrunning by penalty', 'min', 0],
  ['penalty.bsld.mean', 'mean bounded slowdown (node model)', 'min', 2],
  ['penalty.bsld.p95', 'p95 bounded slowdown (node model)', 'min', 2],
  ['penalty.wait.p95', 'p95 wait (node model)', 'min', 1, 's'],
];

const ROOTS = new Set(['eet', 'fairness', 'penalty']);

export function metric(report, path) {
  const keys = path.split('.');
  const from = ROOTS.has(keys[0]) ? report : report.metrics;
  return keys.reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), from);
}

export function renderTable(table, reports) {
  const head = el('tr', {}, el('th', { scope: 'col' }, 'metric'),
    reports.map((r) => el('th', { scope: 'col', 'data-policy': r.policy }, el('code', {}, r.policy))));
  const shown = METRICS.filter(([path]) => !path.startsWith('penalty.') || reports.some((r) => r.penalty));
  const rows = shown.map(([path, label, better, digits, unit]) => {
    const values = reports.map((r) => metric(r, path));
    const finite = values.filter(Number.isFinite);
    const best = better && finite.length > 1 && new Set(finite).size > 1
      ? (better === 'min' ? Math.min(...finite) : Math.max(...finite)) : null;
    return el('tr', {}, el('th', { scope: 'row' }, label + (unit ? ` (${unit})` : '')),
      reports.map((r, i) => {
        const v = values[i];
        const isBest = best !== null && v === best;
        return el('td', {
          'data-policy': r.policy, 'data-metric': path, 'data-value': String(v), class: isBest ? 'best' : null,
          title: unit === 's' && Number.isFinite(v) ? fmtDuration(v) : null,
        }, fmtNumber(v, digits) + (isBest ? ' ★' : ''));
      }));
  });
  table.replaceChildren(el('caption', {}, 'Metrics per policy; ★ best of the row'), el('thead', {}, head), el('tbody', {}, rows));
}

export function renderFacts(root, facts, traceLabel) {
  const row = (k, v) => [el('dt', {}, k), el('dd', {}, v)];
  const items = [
    row('trace', traceLabel),
    row('jobs', fmtNumber(facts.jobs, 0)),
    row('users', fmtNumber(facts.users, 0)),
    row('processors', `${fmtNumber(facts.procs, 0)} (${facts.procs_source})`),
    row('span', `${fmtDuration(facts.span)} of submits`),
    row('skipped', fmtNumber(facts.skipped, 0)),
  ];
  const reasons = facts.skipped_reasons?.length
    ? el('details', {}, el('summary', {}, `first skipped lines (${facts.skipped_reasons.length})`),
      el('ul', {}, facts.skipped_reasons.map((r) => el('li', {}, r)))) : null;
  const warnings = facts.warnings?.length ? el('ul', { class: 'warnings' }, facts.warnings.map((w) => el('li', {}, w))) : null;
  root.replaceChildren(el('dl', {}, items), reasons ?? '', warnings ?? '');
}
