// The facts of the loaded trace and the results table (rows = policies, columns = metrics in families).
import { el, fmtDuration, fmtNumber } from './ui.js';
import { metricReader } from './metrics.js';

// The rows come from the engine's metrics catalogue (`metrics()`: name, label, unit, digits,
// better, family, path), the same list as the CLI's table and the sweeps; a figure is read from
// a report by the catalogue's rule (metrics.js).

// The table shows one tab of columns at a time (all of them stay in the document, so every
// figure can be read and exported), policies as rows: a tab per family of the catalogue, the
// classic family's figures in three (its wait and slowdown figures by name, the rest: the
// machine and the counts), the guarantee figures (part of the fairness report) with fairness.
export const FAMILIES = [
  ['wait', 'Wait & response'],
  ['slowdown', 'Slowdown'],
  ['machine', 'Machine & counts'],
  ['eet', 'User-aware (EET)'],
  ['fairness', 'Fairness & preemption'],
  ['penalty', 'Node model'],
];
export const CLASSIC_TABS = {
  wait: ['wait', 'wait-median', 'wait-p95', 'wait-max', 'response'],
  slowdown: ['mbs', 'mwbs', 'bsld-median', 'bsld-p95', 'bsld-max', 'wsld', 'stretch'],
};

/** The tab (a FAMILIES id) of catalogue metric `m`, from its `family`. */
export function tabOf(m) {
  if (m.family === 'classic') return Object.keys(CLASSIC_TABS).find((tab) => CLASSIC_TABS[tab].includes(m.name)) ?? 'machine';
  return m.family === 'guarantee' ? 'fairness' : m.family;
}

/** A cell's colour: t in [-1, 1], -1 best (green) .. 1 worst (red), 0 neutral. */
function shade(t) {
  if (!Number.isFinite(t) || t === 0) return null;
  const a = Math.min(1, Math.abs(t));
  return t < 0 ? `rgba(40, 160, 80, ${0.08 + 0.32 * a})` : `rgba(215, 60, 50, ${0.08 + 0.32 * a})`;
}

/** The results table: policies as rows, one metric family's columns at a time, sortable by any
 * column (click its heading), values absolute or relative to a baseline policy (ratio or %
 * change), coloured from best (green) to worst (red). Cells carry data-policy, data-metric and
 * data-value (the absolute value). */
export class ResultsTable {
  /** controls: {family, baseline, mode} select elements; catalogue: the engine's metrics
   * catalogue (`metrics()`: name, label, short, unit, digits, better, family, path). */
  constructor(table, controls, catalogue) {
    this.table = table;
    this.c = controls;
    this.catalogue = catalogue ?? [];
    this.read = metricReader(this.catalogue);
    this.reports = [];
    this.family = 'wait';
    this.sort = null; // {path, dir: 1 | -1}
    controls.family.replaceChildren(...FAMILIES.map(([id, label]) => el('option', { value: id }, label)));
    controls.family.addEventListener('change', () => { this.family = controls.family.value; this.render(); });
    controls.baseline.addEventListener('change', () => this.render());
    controls.mode.addEventListener('change', () => this.render());
  }

  show(reports) {
    this.reports = reports;
    const keep = this.c.baseline.value;
    this.c.baseline.replaceChildren(el('option', { value: '' }, 'none: absolute values'),
      ...reports.map((r, i) => el('option', { value: String(i) }, r.policy)));
    this.c.baseline.value = keep !== '' && Number(keep) < reports.length ? keep : '';
    for (const o of this.c.family.options) o.hidden = o.value === 'penalty' && !reports.some((r) => r.penalty);
    if (this.family === 'penalty' && !reports.some((r) => r.penalty)) this.family = 'wait';
    this.c.family.value = this.family;
    this.render();
  }

  render() {
    const reports = this.reports;
    // Node-model figures with the node model; guarantee accuracy when a run promised every job
    // a start (its report carries fairness.guarantee: conservative backfilling).
    const shown = this.catalogue.filter((m) => (m.family !== 'penalty' || reports.some((r) => r.penalty))
      && (m.family !== 'guarantee' || reports.some((r) => r.fairness?.guarantee)));
    const base = this.c.baseline.value === '' ? null : Number(this.c.baseline.value);
    const ratio = this.c.mode.value === 'ratio';
    const cols = shown.map((m) => {
      const { name, path, label, short, better: dir, digits, unit } = m;
      const better = dir === 'lower' ? 'min' : dir === 'higher' ? 'max' : null;
      const values = reports.map((r) => this.read(r, path));
      const finite = values.filter(Number.isFinite);
      const lo = Math.min(...finite), hi = Math.max(...finite);
      const best = better && finite.length > 1 && lo !== hi ? (better === 'min' ? lo : hi) : null;
      // Colour by rank (robust to one far-off policy): the share of the others this one beats.
      const rank = values.map((v) => (Number.isFinite(v) && finite.length > 1
        ? (finite.filter((x) => x < v).length + finite.filter((x) => x === v).length / 2 - 0.5) / (finite.length - 1) : NaN));
      return { name, path, label, short, better, digits, unit, values, lo, hi, best, rank, fam: tabOf(m) };
    });
    let order = reports.map((_, i) => i);
    if (this.sort) {
      const col = cols.find((c) => c.path === this.sort.path);
      if (col) {
        const key = (i) => (Number.isFinite(col.values[i]) ? col.values[i] : Infinity);
        order.sort((a, b) => (key(a) - key(b)) * this.sort.dir || a - b);
      }
    }
    const hiddenFam = (c) => (c.fam === this.family ? null : 'off');
    const head = el('tr', {}, el('th', { scope: 'col', class: 'policy-col' }, 'policy'),
      cols.map((c) => {
        const sorted = this.sort?.path === c.path ? (this.sort.dir > 0 ? ' ▲' : ' ▼') : '';
        return el('th', { scope: 'col', 'data-metric': c.path, class: hiddenFam(c), title: `${c.label}${c.unit ? ` (${c.unit})` : ''}${c.better ? `; ${c.better === 'min' ? 'lower' : 'higher'} is better` : ''}. Click to sort.`,
          onclick: () => { this.sort = { path: c.path, dir: this.sort?.path === c.path ? -this.sort.dir : 1 }; this.render(); } },
        (c.short || c.label) + sorted);
      }));
    const rows = order.map((i) => {
      const r = reports[i];
      return el('tr', { 'data-policy': r.policy, class: base === i ? 'baseline' : null },
        el('th', { scope: 'row', class: 'policy-col' }, el('code', {}, r.policy)),
        cols.map((c) => {
          const v = c.values[i];
          const isBest = c.best !== null && v === c.best;
          let text = fmtNumber(v, c.digits), t = NaN;
          if (base !== null && base !== i) {
            const b = c.values[base];
            if (Number.isFinite(v) && Number.isFinite(b) && b !== 0) {
              const rel = v / b;
              text = ratio ? `×${fmtNumber(rel, 2)}` : `${rel >= 1 ? '+' : '−'}${fmtNumber(Math.abs(rel - 1) * 100, 1)} %`;
              if (c.better) t = Math.tanh(Math.log(rel) * 2) * (c.better === 'min' ? 1 : -1);
            } else if (Number.isFinite(v) && v === b) text = ratio ? '×1' : '±0 %';
          } else if (base === i) {
            text = fmtNumber(v, c.digits);
          } else if (c.better && c.hi > c.lo && Number.isFinite(v)) {
            t = c.rank[i] * 2 - 1;
            if (c.better === 'max') t = -t;
          }
          const bg = shade(t);
          return el('td', {
            'data-policy': r.policy, 'data-metric': c.path, 'data-name': c.name, 'data-value': String(v),
            class: [isBest ? 'best' : '', hiddenFam(c) ?? ''].join(' ').trim() || null,
            style: bg ? `background:${bg}` : null,
            title: `${c.label}: ${fmtNumber(v, c.digits)}${c.unit === 's' && Number.isFinite(v) ? ` (${fmtDuration(v)})` : c.unit ? ` ${c.unit}` : ''}`,
          }, text + (isBest ? ' ★' : ''));
        }));
    });
    const caption = base === null
      ? 'Policies as rows; click a heading to sort; ★ best of the column; colour: best green, worst red'
      : `Relative to ${reports[base].policy} (${ratio ? 'ratio' : '% change'}); green better, red worse`;
    this.table.replaceChildren(el('caption', {}, caption), el('thead', {}, head), el('tbody', {}, rows));
  }
}

/** The results table drawn once (for callers without controls). */
export function renderTable(table, reports, catalogue) {
  const sel = () => el('select');
  const t = new ResultsTable(table, { family: sel(), baseline: sel(), mode: sel() }, catalogue);
  t.show(reports);
  return t;
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
