// The papers gallery (papers.html): one entry per reproduced table or figure, read from
// entries.json (the one definition; scripts/gallery.py and the tests read it too). Run runs an
// entry's simulations in the worker (as the main page does: progress, Cancel), then fills "this
// run" next to the paper's and the recorded numbers. A link `papers.html#ID` opens entry ID.
import { Runner } from '../runner.js';
import { loadEngine, call } from '../engine.js';
import { DEMOS, loadRemote } from '../trace.js';
import { el } from '../ui.js';
import { pixelRatio } from '../figure.js';
import { metricReader } from '../metrics.js';
import { fromFlags, sessionOptions } from '../session.js';

const PAPERS = {
  'pv-easy': { title: 'PV-EASY: strict fairness and prediction', ref: 'Yuan, Yang, Wu & Zheng, HPDC 2010', doc: 'docs/experiments/pv-easy.md' },
  rua: { title: 'Resource usage aware backfilling', ref: 'Guim, Rodero & Corbalan, JSSPP 2009', doc: 'docs/experiments/resource-sharing.md' },
  orders: {
    title: 'Attacking the bottlenecks of backfilling schedulers', ref: 'Zotkin, Keleher & Perkovic, Cluster Computing 2000', doc: 'docs/experiments/backfilling-orders.md',
    // Section 7 characterizes a trace, not a schedule: the main page's trace view shows it.
    see: [['Section 7, Figures 11-15 (how users request runtimes: the commonest requested times, the share of round ones, runtime / requested, the median overestimation per requested time): the trace view of KTH-SP2',
      'index.html#v=1&trace=demo:kth&policy=conservative']],
  },
  eet: { title: 'User-aware metrics (expected end times)', ref: 'Tóth & Klusáček, JSSPP 2014', doc: 'docs/experiments/user-aware.md' },
};

const runner = new Runner();
let engine = null; // the main thread's engine (the metrics catalogue, the charts), loaded by the first Run
let active = null; // the entry being run: {entry, ui}

/** The Session options of an entry's CLI flags (the same meaning as the CLI's: session.js). */
export function entryOptions(args) {
  // An entry's rows say how many seeds they run (seeds 1..N, as its command lines).
  if (args.includes('--seed')) throw new Error('--seed: the gallery runs seeds 1.. by the rows\' "seeds"');
  return sessionOptions(fromFlags(args));
}

const field = (row, entry, key, fallback) => row[key] ?? entry[key] ?? fallback;

/** [{seed, specs}] the entry needs: seed 1 for every spec, seeds 2.. for the random rows. */
export function batches(entry) {
  const top = Math.max(...entry.rows.map((r) => field(r, entry, 'seeds', 1)));
  const out = [];
  for (let seed = 1; seed <= top; seed++) {
    const specs = [];
    for (const r of entry.rows) if (field(r, entry, 'seeds', 1) >= seed && !specs.includes(r.spec)) specs.push(r.spec);
    out.push({ seed, specs });
  }
  return out;
}

/** The rows' values from reports keyed `${spec}\n${seed}`, as scripts/gallery.py computes them,
 * each figure read by the rule of the engine's metrics `catalogue` (metrics.js). */
export function values(entry, reports, catalogue) {
  const read = metricReader(catalogue);
  return entry.rows.map((r) => {
    const n = field(r, entry, 'seeds', 1);
    const scale = field(r, entry, 'scale', 1);
    let sum = 0, min = Infinity, max = -Infinity;
    for (let s = 1; s <= n; s++) {
      const path = field(r, entry, 'metric', null);
      const v = read(reports.get(`${r.spec}\n${s}`), path);
      if (typeof v !== 'number') throw new Error(`the report has no number at ${path}`);
      sum += v;
      min = Math.min(min, v / scale);
      max = Math.max(max, v / scale);
    }
    const digits = field(r, entry, 'digits', 2);
    const x = sum / n / scale;
    return { exact: x, shown: Number(x.toFixed(digits)), min, max };
  });
}

const fileOf = (trace) => DEMOS.find((d) => d.id === trace)?.file ?? trace;
const quote = (a) => (/[[\]\s,=]/.test(a) ? `'${a}'` : a);

/** The CLI command lines of an entry (run from the repository root). */
export function commandLines(entry) {
  return batches(entry).map(({ seed, specs }) => ['schedlab run', `www/demo/${fileOf(entry.trace)}`, ...entry.args.map(quote),
    ...(seed > 1 ? ['--seed', String(seed)] : []), ...specs.flatMap((s) => ['-p', quote(s)]), '--json'].join(' '));
}

const fmt = (x, digits) => (typeof x === 'number'
  ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
  : String(x));

/** Seconds as the page shows a run's time: "0.4 s", "12 s", "3 min". */
export const fmtSeconds = (s) => (s < 10 ? `${s.toFixed(1)} s` : s < 90 ? `${Math.round(s)} s` : `${Math.round(s / 60)} min`);

const TOOK = 'schedlab.gallery.took.'; // + entry id: the seconds its last run took in this browser

/** What the page says of an entry's time before it starts: only what this browser measured
 * (its last run here, from Run to Done), else nothing; an entry whose own guess passes a minute
 * is called long. */
export function duration(entry, stored = globalThis.localStorage) {
  let took = NaN;
  try { took = Number(stored?.getItem(TOOK + entry.id) ?? NaN); } catch { /* storage off */ }
  const long = entry.seconds >= 60 ? ' (a long entry)' : '';
  return Number.isFinite(took) && took >= 0
    ? { note: `; took ${fmtSeconds(took)} in this browser last time${long}`, button: `Run (${fmtSeconds(took)} last time)` }
    : { note: long, button: 'Run' };
}

function renderEntry(entry) {
  const runs = batches(entry).reduce((n, b) => n + b.specs.length, 0);
  const took = duration(entry);
  const trace = DEMOS.find((d) => d.id === entry.trace);
  const cells = entry.rows.map((r) => {
    const digits = field(r, entry, 'digits', 2);
    return {
      // The paper's numbers as printed (their own decimals).
      paper: el('td', { 'data-testid': 'gallery-paper' }, typeof r.paper === 'number' ? r.paper.toLocaleString('en-US', { maximumFractionDigits: 4 }) : String(r.paper)),
      recorded: el('td', { class: 'recorded' }, r.ours === undefined ? '–' : fmt(r.ours, digits)),
      ours: el('td', { class: 'ours', 'data-testid': 'gallery-ours' }),
      digits,
    };
  });
  const table = el('table', {},
    el('thead', {}, el('tr', {}, el('th', {}, el('span', { class: 'sr-only' }, 'row')), el('th', {}, 'policy'), el('th', {}, 'paper'), el('th', {}, 'recorded'), el('th', {}, 'this run'))),
    el('tbody', {}, entry.rows.map((r, i) => el('tr', {}, el('td', {}, r.label), el('td', { class: 'spec' }, r.spec),
      cells[i].paper, cells[i].recorded, cells[i].ours))));
  const progress = el('progress', { max: 1, value: 0, hidden: true });
  const status = el('p', { class: 'status', 'aria-live': 'polite' },
    `${runs} simulation${runs > 1 ? 's' : ''}${took.note}.`);
  const cancel = el('button', { type: 'button', hidden: true, 'data-testid': 'gallery-cancel', onclick: () => stop('cancelled') });
  cancel.textContent = 'Cancel';
  const charts = entry.chart ? el('div', { class: 'charts', 'data-testid': 'gallery-charts' }) : null;
  const ui = { cells, progress, status, cancel, run: null, entry, charts };
  ui.run = el('button', { type: 'button', class: 'primary', 'data-testid': 'gallery-run', onclick: () => start(ui) },
    took.button);
  const link = el('a', { href: `#${entry.id}`, 'data-testid': 'gallery-link' }, 'link to this entry');
  return el('article', { class: 'gallery-item', id: entry.id, 'data-testid': 'gallery-item', dataset: { paper: entry.paper, entry: entry.id } },
    el('h3', {}, entry.title),
    el('p', { class: 'muted paper-ref' }, entry.source),
    el('dl', { class: 'meta' },
      el('dt', {}, "paper's trace"), el('dd', {}, entry.paperTrace),
      el('dt', {}, 'our trace'), el('dd', {}, trace ? trace.label : entry.trace),
      el('dt', {}, 'document'), el('dd', {}, el('a', { href: entry.doc }, entry.doc))),
    el('details', {}, el('summary', {}, 'command line'), el('pre', {}, commandLines(entry).join('\n'))),
    el('div', { class: 'table-wrap' }, table),
    charts,
    el('p', { class: 'verdict', 'data-testid': 'gallery-verdict' }, entry.verdict),
    el('div', { class: 'actions' }, ui.run, cancel, progress, link),
    status);
}

function stop(why) {
  if (!active) return;
  runner.cancel();
  finish(active.ui, why === 'cancelled' ? 'Cancelled.' : why);
}

function finish(ui, text) {
  ui.progress.hidden = true;
  ui.cancel.hidden = true;
  ui.run.disabled = false;
  ui.status.textContent = text;
  if (active?.ui === ui) active = null;
}

async function start(ui) {
  if (active) stop('cancelled');
  const { entry } = ui;
  active = { ui };
  ui.run.disabled = true;
  ui.cancel.hidden = false;
  ui.progress.hidden = false;
  ui.progress.value = 0;
  for (const c of ui.cells) { c.ours.textContent = ''; c.ours.className = 'ours'; delete c.ours.dataset.value; }
  ui.charts?.replaceChildren();
  const t0 = performance.now();
  let bytes, name, options;
  try {
    ui.status.textContent = 'Loading the trace…';
    engine ??= loadEngine(); // its metrics catalogue reads the reports
    const [trace] = await Promise.all([loadRemote('demo', entry.trace), engine]);
    ({ bytes, name } = trace);
    options = entryOptions(entry.args);
  } catch (err) {
    finish(ui, `Could not start: ${err.message}`);
    return;
  }
  if (active?.ui !== ui) return; // cancelled while loading
  const plan = batches(entry);
  const total = plan.reduce((n, b) => n + b.specs.length, 0);
  const reports = new Map();
  let doneRuns = 0;
  for (const { seed, specs } of plan) {
    const ok = await new Promise((resolve) => {
      // The worker takes the bytes (transfer would detach them): send a copy per batch.
      runner.run({ bytes: bytes.slice(), name, options, specs, seed }, {
        progress: (m) => {
          ui.progress.value = (doneRuns + m.index + (m.total ? m.done / m.total : 0)) / total;
          ui.status.textContent = `Simulating ${specs[m.index]} (seed ${seed}); ${doneRuns + m.index} of ${total} done, ${fmtSeconds((performance.now() - t0) / 1000)} so far…`;
        },
        result: (m) => { reports.set(`${m.spec}\n${seed}`, m.report); },
        done: () => { doneRuns += specs.length; resolve(true); },
        error: (m) => { finish(ui, `Failed on ${m.stage}: ${m.message}`); resolve(false); },
      });
    });
    if (!ok || active?.ui !== ui) return;
  }
  let got;
  try {
    got = values(entry, reports, call('metrics'));
  } catch (err) {
    finish(ui, `Could not read the results: ${err.message}`);
    return;
  }
  let same = 0;
  got.forEach((v, i) => {
    const c = ui.cells[i];
    c.ours.textContent = fmt(v.shown, c.digits);
    c.ours.dataset.value = String(v.exact);
    const match = entry.rows[i].ours === v.shown;
    if (match) same += 1;
    c.ours.classList.add(match ? 'same' : 'differs');
  });
  ui.progress.value = 1;
  if (ui.charts) await drawCharts(ui, got);
  const seconds = (performance.now() - t0) / 1000;
  try { localStorage.setItem(TOOK + entry.id, seconds.toFixed(2)); } catch { /* storage off */ }
  ui.run.textContent = duration(entry).button;
  finish(ui, `Done: ${total} simulations in ${fmtSeconds(seconds)}; ${same} of ${got.length} values equal the recorded ones.`);
  const article = ui.run.closest('article');
  article.dataset.seconds = seconds.toFixed(2);
  article.dataset.ran = String(Number(article.dataset.ran ?? 0) + 1);
}

/** Bar labels: "FIFO: median ..." and "LSBF: median ..." become "FIFO" and "LSBF" when every
 * label of the chart says the same after its first colon, and "big blocked MBS EASY" becomes
 * "EASY" when every label starts with the same words (the chart's title names them). */
export function barLabels(labels) {
  const parts = labels.map((l) => l.split(/:\s+(.*)/s));
  const same = parts.every((p) => p.length > 1 && p[1] === parts[0][1]);
  if (same) return parts.map((p) => p[0]);
  // "big blocked MBS EASY", "big blocked MBS PV-EASY": the words every label starts with go too.
  const words = labels.map((l) => l.split(' '));
  let k = 0;
  while (labels.length > 1 && words.every((w) => w.length > k + 1 && w[k] === words[0][k])) k += 1;
  return words.map((w) => w.slice(k).join(' '));
}

/** A metric's title from the catalogue (its page label, and its unit): the JSON path when the
 * catalogue has no metric there. */
export function metricTitle(catalogue) {
  const byPath = new Map(catalogue.map((m) => [m.path, m]));
  return (path) => {
    const m = byPath.get(path);
    return m ? `${m.label}${m.unit ? ` (${m.unit})` : ''}` : path;
  };
}

/** A chart's canvas of `width` x `height` CSS pixels drawn at the device pixel ratio, with its
 * text alternative. */
function chartCanvas(width, height, dataset, description) {
  const r = pixelRatio();
  const canvas = el('canvas', { width: Math.round(width * r), height: Math.round(height * r), role: 'img', 'aria-label': description, dataset: { ...dataset, dpr: String(r) } });
  canvas.style.width = `${width}px`;
  return canvas;
}

/** One bar chart per metric of the entry's rows (the figure entries), this run's values. */
async function drawCharts(ui, got) {
  const { entry } = ui;
  try {
    engine ??= loadEngine();
    await engine;
    const groups = new Map();
    entry.rows.forEach((r, i) => {
      const path = field(r, entry, 'metric', null);
      if (!groups.has(path)) groups.set(path, []);
      groups.get(path).push(i);
    });
    const canvases = [];
    const title = metricTitle(call('metrics'));
    if (entry.lines) {
      // A figure over a parameter (PV-EASY's Figure 4): a line per series through the means
      // over the seeds, in a min-max band, as `schedlab sweep --out` draws it.
      const { key, values: xs, series } = entry.lines;
      const names = Object.keys(series);
      const stats = new Float64Array(names.length * xs.length * 3);
      names.forEach((name, p) => series[name].forEach((row, v) => stats.set([got[row].exact, got[row].min, got[row].max], (p * xs.length + v) * 3)));
      const path = field(entry.rows[0], entry, 'metric', null);
      const name = title(path);
      const canvas = chartCanvas(560, 300, { metric: path, lines: 'true', title: name },
        `${name}: mean over the seeds, min-max band, over ${key} = ${xs.join(', ')}, for ${names.join(', ')}.`);
      call('draw_sweep', canvas, xs, names, stats, key, name, `${name}: mean over the seeds, min-max band`);
      canvases.push(canvas);
    }
    for (const [path, rows] of groups) {
      const labels = barLabels(rows.map((i) => entry.rows[i].label));
      const name = title(path);
      const shown = rows.map((i, k) => `${labels[k]} ${fmt(got[i].shown, field(entry.rows[i], entry, 'digits', 2))}`);
      const canvas = chartCanvas(420, 240, { metric: path, title: name }, `Bar chart, ${name}: ${shown.join('; ')}.`);
      call('draw_bars', canvas, labels, Float64Array.from(rows, (i) => got[i].exact), name);
      canvases.push(canvas);
    }
    ui.charts.replaceChildren(...canvases);
  } catch (err) {
    ui.charts.replaceChildren(el('p', { class: 'muted' }, `The charts could not be drawn: ${err.message}`));
  }
}

function showTarget() {
  let id = location.hash.slice(1);
  try { id = decodeURIComponent(id); } catch { /* a malformed escape (#%E0%A4%A) is kept as written: it threw "URI malformed" */ }
  for (const a of document.querySelectorAll('.gallery-item.target')) a.classList.remove('target');
  if (!id || id.startsWith('paper-')) return;
  const target = document.getElementById(id);
  if (target?.classList.contains('gallery-item')) {
    target.classList.add('target');
    target.scrollIntoView({ block: 'start' });
  } else {
    document.querySelector('[data-testid="gallery-errors"]').textContent = `The link names no gallery entry "${id.slice(0, 60)}"; showing them all.`;
  }
}

async function main() {
  const root = document.querySelector('[data-testid="gallery"]');
  let entries;
  try {
    const response = await fetch(new URL('./entries.json', import.meta.url));
    if (!response.ok) throw new Error(`entries.json: the server answered ${response.status}`);
    ({ entries } = await response.json());
  } catch (err) {
    root.replaceChildren(el('p', { class: 'errors-inline' }, `The gallery could not load: ${err.message}`));
    return;
  }
  const nav = document.querySelector('[data-testid="gallery-nav"]');
  const parts = [];
  for (const [key, paper] of Object.entries(PAPERS)) {
    const mine = entries.filter((e) => e.paper === key);
    if (!mine.length) continue;
    nav.append(el('a', { href: `#paper-${key}` }, `${paper.title} (${mine.length})`));
    parts.push(el('h2', { class: 'paper', id: `paper-${key}` }, paper.title),
      el('p', { class: 'muted paper-ref' }, `${paper.ref}; our reading: `, el('a', { href: paper.doc }, paper.doc)),
      ...(paper.see ?? []).map(([text, href]) => el('p', { class: 'see' }, el('a', { href, 'data-testid': 'gallery-see' }, text), '.')),
      ...mine.map(renderEntry));
  }
  root.replaceChildren(...parts);
  document.body.dataset.gallery = String(entries.length);
  showTarget();
  window.addEventListener('hashchange', showTarget);
}

main();
