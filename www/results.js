// The facts of the loaded trace and the results table (rows = metrics, columns = policies).
import { el, fmtDuration, fmtNumber } from './ui.js';

// The rows come from the engine's metrics catalogue (`metrics()`: name, label, unit, digits,
// better, family, path), the same list as the CLI's table and the sweeps. A path is read from
// report.metrics unless its first key names another top-level object of the report (ROOTS):
// 'eet.veet.median' is report.eet.veet.median, 'wait.mean' is report.metrics.wait.mean.
const ROOTS = new Set(['eet', 'fairness', 'penalty']);

export function metric(report, path) {
  const keys = path.split('.');
  const from = ROOTS.has(keys[0]) ? report : report.metrics;
  return keys.reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), from);
}

/** The results table of `reports` with the rows of `catalogue` (the engine's `metrics()`); the
 * node-model rows only when a run has the node model. */
export function renderTable(table, reports, catalogue) {
  const head = el('tr', {}, el('th', { scope: 'col' }, 'metric'),
    reports.map((r) => el('th', { scope: 'col', 'data-policy': r.policy }, el('code', {}, r.policy))));
  const shown = catalogue.filter((m) => m.family !== 'penalty' || reports.some((r) => r.penalty));
  const rows = shown.map(({ name, path, label, better, digits, unit }) => {
    const values = reports.map((r) => metric(r, path));
    const finite = values.filter(Number.isFinite);
    const best = better !== 'none' && finite.length > 1 && new Set(finite).size > 1
      ? (better === 'lower' ? Math.min(...finite) : Math.max(...finite)) : null;
    return el('tr', {}, el('th', { scope: 'row' }, label + (unit ? ` (${unit})` : '')),
      reports.map((r, i) => {
        const v = values[i];
        const isBest = best !== null && v === best;
        return el('td', {
          'data-policy': r.policy, 'data-metric': path, 'data-name': name, 'data-value': String(v), class: isBest ? 'best' : null,
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
