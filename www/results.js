// The facts of the loaded trace and the results table (rows = policies, columns = metrics in families).
import { clip, commonDecimals, el, fmtDuration, fmtNumber } from './ui.js';
import { metricReader, COUNTS_DISCARDED } from './metrics.js';
import { columnUnit, shown, withUnit } from './units.js';
import { leftOutRow } from './leftout.js';

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
  ['cluster', 'Cluster resources'],
];
/** Families whose figures only some runs have (the node model's, a cluster's): each is read
 * from the report's object of its name and shown only when some report carries it. */
const OPTIONAL = ['penalty', 'cluster'];

/** A canonical spec longer than this is labelled by the spec as written (its title keeps the
 * whole), as `schedlab run`'s table labels it: `slurm` with its site's keys merged in runs to
 * hundreds of characters, and `slurm`, `slurm[bf_window=1]` would all read `slurm[PriorityWeightAge=…`. */
const LONGEST_LABEL = 40;

/** The label of a policy whose canonical spec is `canonical`, written as `typed`. */
export function policyLabel(canonical, typed) {
  if (canonical.length <= LONGEST_LABEL || !typed) return canonical;
  return clip(typed);
}
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

  /** reports: the finished policies' reports; failed: [{spec, message, stage}] of policies left
   * out before the run or that failed alone in it (a row each, saying why: leftout.js); typed: each report's spec as written (its label when the
   * canonical spec is long: `policyLabel`). */
  show(reports, failed = [], typed = []) {
    this.reports = reports;
    this.failed = failed;
    this.labels = reports.map((r, i) => policyLabel(r.policy, typed[i]));
    const keep = this.c.baseline.value;
    this.c.baseline.replaceChildren(el('option', { value: '' }, 'none: absolute values'),
      ...reports.map((r, i) => el('option', { value: String(i), title: r.policy }, clip(this.labels[i]))));
    this.c.baseline.value = keep !== '' && Number(keep) < reports.length ? keep : '';
    const absent = (fam) => OPTIONAL.includes(fam) && !reports.some((r) => r[fam]);
    for (const o of this.c.family.options) o.hidden = absent(o.value);
    if (absent(this.family)) this.family = 'wait';
    this.c.family.value = this.family;
    this.render();
  }

  /** The columns: each metric's values, its unit, and what the colours and the star go by (the
   * values as shown, so that differences below the shown precision colour nothing). */
  columns(reports) {
    // Node-model figures with the node model, cluster figures on a cluster; guarantee accuracy
    // when a run promised every job a start (its report carries fairness.guarantee:
    // conservative backfilling).
    const shownMetrics = this.catalogue.filter((m) => (!OPTIONAL.includes(m.family) || reports.some((r) => r[m.family]))
      && (m.family !== 'guarantee' || reports.some((r) => r.fairness?.guarantee)));
    return shownMetrics.map((m) => {
      const { name, path, label, short, better: dir, digits, unit } = m;
      const better = dir === 'lower' ? 'min' : dir === 'higher' ? 'max' : null;
      const values = reports.map((r) => this.read(r, path));
      const u = columnUnit(unit, digits, values);
      const display = values.map((v) => shown(v, u));
      // Every cell of the column with the same decimals (27.64 beside 27.70, not 27.7).
      const places = commonDecimals(display, u.digits);
      // A figure that counts discarded work as useful takes no star and no rank.
      const discarded = reports.map((r) => (COUNTS_DISCARDED[path] ? this.read(r, COUNTS_DISCARDED[path]) ?? 0 : 0));
      const ranked = display.filter((v, i) => Number.isFinite(v) && !(discarded[i] > 0));
      const lo = Math.min(...ranked), hi = Math.max(...ranked);
      const best = better && ranked.length > 1 && lo !== hi ? (better === 'min' ? lo : hi) : null;
      // Colour by rank (robust to one far-off policy): the share of the others this one beats.
      const rank = display.map((v, i) => (Number.isFinite(v) && ranked.length > 1 && !(discarded[i] > 0)
        ? (ranked.filter((x) => x < v).length + ranked.filter((x) => x === v).length / 2 - 0.5) / (ranked.length - 1) : NaN));
      return { name, path, label, short: withUnit(short || label, u), better, digits, unit, u, values, display, places, discarded, lo, hi, best, rank, fam: tabOf(m) };
    });
  }

  /** A cell's text, colour (t in [-1, 1]) and note: absolute, or relative to the baseline's value. */
  cell(c, i, base, ratio) {
    const v = c.values[i];
    const absolute = fmtNumber(c.display[i], c.u.digits, c.places);
    if (base === null || base === i) {
      let t = NaN;
      if (base === null && c.better && c.hi > c.lo && Number.isFinite(c.rank[i])) t = (c.rank[i] * 2 - 1) * (c.better === 'max' ? -1 : 1);
      return { text: absolute, t };
    }
    const b = c.values[base];
    if (!Number.isFinite(v) || !Number.isFinite(b)) return { text: 'n/a', note: 'cannot be computed: a value is missing' };
    if (v === b) return { text: ratio ? '×1' : '±0 %', t: NaN };
    if (b === 0) return { text: 'n/a', note: `cannot be computed: the baseline's value is 0 (this one: ${absolute}${c.u.unit ? ` ${c.u.unit}` : ''})` };
    const rel = v / b;
    const text = ratio ? `×${fmtNumber(rel, 2)}` : `${rel >= 1 ? '+' : '−'}${fmtNumber(Math.abs(rel - 1) * 100, 1)} %`;
    // No colour for a change the cell does not show (below its precision).
    const visible = ratio ? fmtNumber(rel, 2) !== '1' : fmtNumber(Math.abs(rel - 1) * 100, 1) !== '0';
    const t = c.better && visible && c.display[i] !== c.display[base] ? Math.tanh(Math.log(rel) * 2) * (c.better === 'min' ? 1 : -1) : NaN;
    return { text, t };
  }

  render() {
    const reports = this.reports;
    const failed = this.failed ?? [];
    const base = this.c.baseline.value === '' ? null : Number(this.c.baseline.value);
    const ratio = this.c.mode.value === 'ratio';
    const cols = this.columns(reports);
    let order = reports.map((_, i) => i);
    if (this.sort) {
      const col = cols.find((c) => c.path === this.sort.path);
      if (col) {
        const key = (i) => (Number.isFinite(col.values[i]) ? col.values[i] : Infinity);
        order.sort((a, b) => (key(a) - key(b)) * this.sort.dir || a - b);
      }
    }
    const hiddenFam = (c) => (c.fam === this.family ? null : 'off');
    // Headings are buttons: sorting by keyboard as by mouse; aria-sort says the order.
    const head = el('tr', {}, el('th', { scope: 'col', class: 'policy-col' }, 'policy'),
      cols.map((c) => {
        const on = this.sort?.path === c.path;
        const sorted = on ? (this.sort.dir > 0 ? ' ▲' : ' ▼') : '';
        return el('th', { scope: 'col', 'data-metric': c.path, class: hiddenFam(c), 'aria-sort': on ? (this.sort.dir > 0 ? 'ascending' : 'descending') : null },
          el('button', {
            type: 'button', class: 'sort',
            title: `${c.label}${c.unit ? ` (${c.u.unit})` : ''}${c.better ? `; ${c.better === 'min' ? 'lower' : 'higher'} is better` : ''}. Sort by this column.`,
            onclick: () => { this.sort = { path: c.path, dir: this.sort?.path === c.path ? -this.sort.dir : 1 }; this.render(); this.focusSort(c.path); },
          }, c.short + sorted));
      }));
    const rows = order.map((i) => {
      const r = reports[i];
      return el('tr', { 'data-policy': r.policy, class: base === i ? 'baseline' : null },
        el('th', { scope: 'row', class: 'policy-col', title: r.policy }, el('code', {}, this.labels[i])),
        cols.map((c) => {
          const v = c.values[i];
          const inflated = c.discarded[i] > 0;
          const isBest = c.best !== null && c.display[i] === c.best && !inflated && (base === null || Number.isFinite(c.values[base]));
          const { text, t, note } = this.cell(c, i, base, ratio);
          const bg = shade(t);
          const raw = `${fmtNumber(v, c.digits)}${c.unit === 's' && Number.isFinite(v) ? ` s (${fmtDuration(v)})` : c.unit ? ` ${c.unit}` : ''}`;
          const why = inflated ? `; counts ${fmtNumber(c.discarded[i], 0)} processor-s of discarded work (preempted runs) as useful: no ★` : '';
          return el('td', {
            'data-policy': r.policy, 'data-metric': c.path, 'data-name': c.name, 'data-value': String(v),
            class: [isBest ? 'best' : '', note ? 'na' : '', hiddenFam(c) ?? ''].join(' ').trim() || null,
            style: bg ? `background:${bg}` : null,
            title: `${c.label}: ${raw}${note ? `; ${note}` : ''}${why}`,
          }, text + (isBest ? ' ★' : '') + (inflated ? ' †' : ''));
        }));
    });
    // Policies left out (before the run, or failed alone in it): their row says why.
    const failedRows = failed.map((f) => el('tr', { class: 'failed', 'data-failed': f.spec },
      el('th', { scope: 'row', class: 'policy-col' }, el('code', {}, f.spec)),
      el('td', { class: 'failure', colspan: String(Math.max(1, cols.filter((c) => !hiddenFam(c)).length)) }, leftOutRow(f))));
    const dagger = cols.some((c) => !hiddenFam(c) && c.discarded.some((d) => d > 0)) ? '; † counts discarded work as useful (no ★)' : '';
    const caption = base === null
      ? `Policies as rows; sort with the column headings; ★ best of the column; colour: best green, worst red (only differences the cells show)${dagger}`
      : `Relative to ${this.labels[base]} (${ratio ? 'ratio' : '% change'}); green better, red worse; n/a: cannot be computed${dagger}`;
    this.table.replaceChildren(el('caption', {}, caption), el('thead', {}, head), el('tbody', {}, rows, failedRows));
  }

  /** Keeps the keyboard on the heading just sorted (the table is redrawn). */
  focusSort(path) {
    this.table.querySelector(`thead th[data-metric="${CSS.escape(path)}"] button`)?.focus();
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
    // The jobs every run simulates; the users and the span are theirs (a job the cluster can
    // never run is counted under skipped only), as the CLI's trace line "N jobs simulated".
    row('jobs simulated', fmtNumber(facts.jobs, 0)),
    row('users', fmtNumber(facts.users, 0)),
    row('processors', `${fmtNumber(facts.procs, 0)} (${facts.procs_source})`),
    row('span', `${fmtDuration(facts.span)} of submits`),
    // As the CLI's trace line: "4 (2 can never run on the cluster)" (the engine's words).
    row('skipped', fmtNumber(facts.skipped, 0) + (facts.skipped_never ? ` (${facts.skipped_never})` : '')),
  ];
  const reasons = facts.skipped_reasons?.length
    ? el('details', {}, el('summary', {}, `first skipped jobs (${facts.skipped_reasons.length})`),
      el('ul', {}, facts.skipped_reasons.map((r) => el('li', {}, r)))) : null;
  const warnings = facts.warnings?.length ? el('ul', { class: 'warnings' }, facts.warnings.map((w) => el('li', {}, w))) : null;
  root.replaceChildren(el('dl', {}, items), reasons ?? '', warnings ?? '');
}
