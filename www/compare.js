// Distributions (CDFs of wait and bounded slowdown per policy, box plots by job class) and two
// schedules compared job by job (A-vs-B scatter, diff-Gantt, the users who gained and lost most).
// The engine draws every chart; this module prepares the per-job columns once per comparison.
import { call } from './engine.js';
import { el, fmtDuration, fmtNumber, count } from './ui.js';
import { LazyFigures } from './lazy.js';
import { canvasPoint, describe } from './figure.js';
import { JOB, column, sortedFinite, prepareDistributions } from './jobcols.js';
import { renderFurthest } from './furthest.js';
import { userName } from './users.js';

const FIGURES = { wait: { col: 6, name: 'wait', unit: 's' }, bsld: { col: 7, name: 'bounded slowdown', unit: '' } };
export { column, sortedFinite };

export class Distributions extends LazyFigures {
  constructor(root) {
    super((item) => `the chart ${item.canvas.dataset.testid}`);
    this.root = root;
    this.highlight = -1;
  }

  /** results: the policies the CDFs show; few: {results, slots} the box plots show (a box per
   * policy and class: the first few policies); slots: each CDF's palette slot. */
  show(results, procs, slots = null, few = null) {
    this.results = results;
    this.labels = results.map((r) => r.spec);
    this.slots = slots ?? Uint8Array.from(results, (_, i) => i);
    this.few = few ?? { results, slots: this.slots };
    // Sorted values and class boxes: prepared by the worker after each run (jobcols.js), else here.
    const engine = { job_classes: (...a) => call('job_classes', ...a), class_boxes: (...a) => call('class_boxes', ...a) };
    const prepare = (r) => r.dist ?? (r.dist = prepareDistributions(engine, r.jobs, procs));
    const dist = results.map(prepare);
    this.sorted = { wait: dist.map((d) => d.sorted.wait), bsld: dist.map((d) => d.sorted.bsld) };
    this.boxes = {};
    const fewDist = this.few.results.map(prepare);
    for (const key of ['wait-size', 'bsld-size', 'wait-runtime', 'bsld-runtime']) this.boxes[key] = fewDist.map((d) => d.boxes[key]);
    const cdf = (fig) => this.item(`chart-cdf-${fig}`, `CDF of ${FIGURES[fig].name} per policy (log x)`, 320, {}, { kind: 'cdf', fig });
    const cap = (t) => t[0].toUpperCase() + t.slice(1);
    const box = (fig, by) => this.item(`chart-box-${fig}-${by}`, `${cap(FIGURES[fig].name)} by job ${by === 'size' ? 'size' : 'runtime'} (box: quartiles, whiskers: 5th-95th percentile)`,
      300, {}, { kind: 'box', fig, by });
    const items = [cdf('wait'), cdf('bsld'), box('wait', 'size'), box('bsld', 'size'), box('wait', 'runtime'), box('bsld', 'runtime')];
    this.root.replaceChildren(el('div', { class: 'charts' }, items.map((i) => i.node)));
    this.track(items);
  }

  setHighlight(index) {
    this.highlight = index;
    for (const item of this.items) if (item.kind === 'cdf') item.dirty = true;
    this.schedule();
  }

  paint(item) {
    const f = FIGURES[item.fig];
    const fmt = (v) => (f.unit === 's' ? fmtDuration(v) : fmtNumber(v, 2));
    if (item.kind === 'cdf') {
      const title = `Share of jobs with ${f.name} at most x`;
      call('draw_cdf', item.canvas, this.sorted[item.fig], this.labels, item.fig, this.highlight, title, this.slots);
      const at = (v, q) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
      describe(item.canvas, `${title}, one line per policy: ${this.labels.map((l, i) => {
        const v = this.sorted[item.fig][i];
        return v.length ? `${l} median ${fmt(at(v, 0.5))}, 90th percentile ${fmt(at(v, 0.9))}` : `${l} no jobs`;
      }).join('; ')}.`);
    } else {
      const title = `${f.name[0].toUpperCase()}${f.name.slice(1)} by job ${item.by}`;
      const labels = this.few.results.map((r) => r.spec);
      const boxes = this.boxes[`${item.fig}-${item.by}`];
      call('draw_class_box', item.canvas, boxes, labels, item.fig, item.by, title, this.few.slots);
      const classes = call('class_names', item.by);
      // class_boxes layout: [n, p5, q1, median, q3, p95] per class.
      describe(item.canvas, `${title}, box plots of ${labels.length} policies: ${labels.map((l, i) => `${l}: ${classes.map((c, k) => {
        const b = boxes[i].subarray(k * 6, k * 6 + 6);
        return `${c} median ${b[0] >= 1 ? fmt(b[3]) : 'none'}`;
      }).join(', ')}`).join('; ')}.`);
    }
  }
}

/** Per user: {user, jobs, a, b} mean figure under A and B over the jobs that ran in both. */
export function userChanges(colA, colB, jobs) {
  const by = new Map();
  for (let i = 0; i < colA.length; i++) {
    if (!Number.isFinite(colA[i]) || !Number.isFinite(colB[i])) continue;
    const u = jobs[i * JOB + 1];
    const s = by.get(u) ?? { user: u, jobs: 0, a: 0, b: 0 };
    s.jobs += 1; s.a += colA[i]; s.b += colB[i];
    by.set(u, s);
  }
  return [...by.values()].map((s) => ({ ...s, a: s.a / s.jobs, b: s.b / s.jobs, change: (s.b - s.a) / s.jobs }));
}

const TOP = 5;

export class Compare extends LazyFigures {
  /** root: the panel's chart area; controls: {a, b, figure, colour, users} elements; window(): the
   * Gantt charts' [t0, t1]. */
  constructor(root, controls, window) {
    super((item) => `the chart ${item.canvas.dataset.testid}`);
    this.root = root;
    this.c = controls;
    this.window = window;
    this.tip = el('div', { class: 'tooltip', role: 'tooltip', 'data-testid': 'scatter-tooltip', hidden: true });
    for (const k of ['a', 'b', 'figure', 'colour']) this.c[k].addEventListener('change', () => this.changed());
    // A or B chosen by hand: kept across comparisons (by spec) while the comparison has it.
    this.chose = false;
    for (const k of ['a', 'b']) this.c[k].addEventListener('change', () => { this.chose = true; });
  }

  show(results, procs) {
    this.results = results;
    this.procs = procs;
    const options = () => results.map((r, i) => el('option', { value: String(i) }, r.spec));
    // A and B chosen by hand stay on their policies when the new comparison has them (by spec: a
    // policy added or removed moves the others' places); else A is the trace's own schedule
    // (`historic`) when compared, the replay fidelity view, with B the last other policy (the
    // one added last: the Slurm demo's slurm); without historic A and B are the first two.
    const chosen = (sel) => (this.chose ? sel.options[sel.selectedIndex]?.textContent : undefined);
    const at = (spec) => results.findIndex((r) => r.spec === spec);
    const historic = at('historic');
    let a = at(chosen(this.c.a));
    if (a < 0) a = historic >= 0 ? historic : 0;
    let b = at(chosen(this.c.b));
    const others = results.map((_, i) => i).filter((i) => i !== a);
    if (b < 0) b = others.length ? (results[a].spec === 'historic' ? others[others.length - 1] : others[0]) : a;
    this.c.a.replaceChildren(...options());
    this.c.b.replaceChildren(...options());
    this.c.a.value = String(a);
    this.c.b.value = String(b);
    const jobs = results[0].jobs;
    // Colour slots: the 8 heaviest users (processor-seconds), or the size class.
    const work = new Map();
    for (let i = 0; i < jobs.length; i += JOB) {
      if (jobs[i + 3] < 0) continue;
      work.set(jobs[i + 1], (work.get(jobs[i + 1]) ?? 0) + jobs[i + 5] * (jobs[i + 4] - jobs[i + 3]));
    }
    const heavy = [...work.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 8).map((e) => e[0]);
    const slotOf = new Map(heavy.map((u, i) => [u, i]));
    const n = jobs.length / JOB;
    this.slots = {
      user: Uint8Array.from({ length: n }, (_, i) => slotOf.get(jobs[i * JOB + 1]) ?? 255),
      size: call('job_classes', jobs, procs, 'size'),
    };
    this.legends = { user: [...heavy.map((u) => `user ${userName(u)}`)], size: call('class_names', 'size') };
    this.cols = { wait: results.map((r) => column(r.jobs, 6)), bsld: results.map((r) => column(r.jobs, 7)) };
    this.scatter = this.item('chart-scatter', 'Job by job: A (x) against B (y), log-log; below the diagonal B did better', 480, {}, { kind: 'scatter' });
    this.diff = this.item('chart-diff-gantt', 'Diff-Gantt: A and B overlaid (the Gantt charts\' time window)', 340, {}, { kind: 'diff' });
    this.attachHover(this.scatter);
    this.root.replaceChildren(el('div', { class: 'compare-charts' }, this.scatter.node, this.diff.node));
    this.track([this.scatter, this.diff]);
    this.renderUsers();
  }

  changed() {
    if (!this.results) return;
    this.redraw();
    this.renderUsers();
  }

  /** The Gantt window changed: only the diff-Gantt follows it. */
  redrawWindow() {
    if (!this.diff) return;
    this.diff.dirty = true;
    this.schedule();
  }

  pick() {
    const a = Math.min(Number(this.c.a.value) || 0, this.results.length - 1);
    const b = Math.min(Number(this.c.b.value) || 0, this.results.length - 1);
    const fig = this.c.figure.value === 'bsld' ? 'bsld' : 'wait';
    const colour = this.c.colour.value === 'size' ? 'size' : 'user';
    return { a, b, fig, colour };
  }

  paint(item) {
    const { a, b, fig, colour } = this.pick();
    const [A, B] = [this.results[a], this.results[b]];
    if (item.kind === 'scatter') {
      const f = FIGURES[fig];
      const unit = f.unit ? ` (${f.unit}, log)` : ' (log)';
      const out = call('draw_scatter', item.canvas, this.cols[fig][a], this.cols[fig][b], this.slots[colour], this.legends[colour],
        `${f.name} under A: ${A.spec}${unit}`, `under B: ${B.spec}`, `Each job's ${f.name}: ${A.spec} vs ${B.spec}`);
      item.area = { x0: out[0], y0: out[1], x1: out[2], y1: out[3], lo: Math.log(out[4]), hi: Math.log(out[5]) };
      item.drawn = { a, b, fig };
      const xs = this.cols[fig][a], ys = this.cols[fig][b];
      let better = 0, worse = 0, same = 0;
      for (let i = 0; i < xs.length; i++) {
        if (!Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) continue;
        if (ys[i] < xs[i]) better += 1; else if (ys[i] > xs[i]) worse += 1; else same += 1;
      }
      describe(item.canvas, `Scatter plot of each job's ${f.name}, ${A.spec} (x) against ${B.spec} (y), log-log: `
        + `${count(better, 'job')} did better under ${B.spec}, ${fmtNumber(worse, 0)} worse, ${fmtNumber(same, 0)} the same.`);
    } else {
      const [t0, t1] = this.window();
      call('draw_diff_gantt', item.canvas, A.rects, B.rects, A.nodeRows?.rows ?? this.procs, t0, t1, `A: ${A.spec}`, `B: ${B.spec}`,
        `${A.spec} vs ${B.spec}: ${fmtDuration(t0)} – ${fmtDuration(t1)}`, A.nodeRows ?? undefined);
      describe(item.canvas, `Difference Gantt chart of ${A.spec} and ${B.spec} from ${fmtDuration(t0)} to ${fmtDuration(t1)}: `
        + `${A.nodeRows ? 'node rows' : 'processors'} busy under only A, only B, or both, over time.`);
    }
  }

  /** The job nearest the pointer (within 6 canvas pixels) on the scatter, or null. */
  nearest(item, event) {
    const ar = item.area, d = item.drawn;
    if (!ar || !d) return null;
    const { x: px, y: py } = canvasPoint(item.canvas, event);
    const xs = this.cols[d.fig][d.a], ys = this.cols[d.fig][d.b];
    const w = ar.x1 - ar.x0, h = ar.y1 - ar.y0, span = ar.hi - ar.lo, floor = Math.exp(ar.lo);
    let best = -1, bestD = 36;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i], y = ys[i];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      const cx = ar.x0 + ((Math.log(Math.max(x, floor)) - ar.lo) / span) * w;
      const cy = ar.y1 - ((Math.log(Math.max(y, floor)) - ar.lo) / span) * h;
      const dd = (cx - px) ** 2 + (cy - py) ** 2;
      if (dd < bestD) { bestD = dd; best = i; }
    }
    return best < 0 ? null : best;
  }

  attachHover(item) {
    item.canvas.addEventListener('pointermove', (e) => {
      const i = this.nearest(item, e);
      if (i === null) { this.tip.hidden = true; return; }
      const d = item.drawn, jobs = this.results[d.a].jobs;
      const f = FIGURES[d.fig];
      const fmt = (v) => (f.unit === 's' ? fmtDuration(v) : fmtNumber(v, 2));
      this.tip.replaceChildren(el('strong', {}, `job ${jobs[i * JOB]}`), ` user ${userName(jobs[i * JOB + 1])}, ${jobs[i * JOB + 5]} ${this.results[d.a].nodeRows ? 'cores' : 'processors'}`, el('br'),
        `${f.name}: A ${fmt(this.cols[d.fig][d.a][i])}, B ${fmt(this.cols[d.fig][d.b][i])}`);
      const wrap = item.canvas.parentElement;
      if (this.tip.parentElement !== wrap) wrap.append(this.tip);
      this.tip.hidden = false;
      const box = item.canvas.getBoundingClientRect();
      this.tip.style.left = `${Math.max(0, Math.min(e.clientX - box.left + 14, box.width - this.tip.offsetWidth - 4))}px`;
      this.tip.style.top = `${e.clientY - box.top + 14}px`;
    });
    item.canvas.addEventListener('pointerleave', () => { this.tip.hidden = true; });
  }

  renderUsers() {
    const { a, b, fig } = this.pick();
    const f = FIGURES[fig];
    const fmt = (v) => (f.unit === 's' ? fmtDuration(v) : fmtNumber(v, 2));
    const changes = userChanges(this.cols[fig][a], this.cols[fig][b], this.results[0].jobs);
    const gained = changes.filter((c) => c.change < 0).sort((x, y) => x.change - y.change).slice(0, TOP);
    const lost = changes.filter((c) => c.change > 0).sort((x, y) => y.change - x.change).slice(0, TOP);
    const rows = (list, kind) => list.map((c) => el('tr', { 'data-user': String(c.user), 'data-kind': kind, 'data-change': String(c.change) },
      el('td', {}, kind === 'gained' ? 'gained' : 'lost'), el('td', {}, userName(c.user)), el('td', {}, fmtNumber(c.jobs, 0)),
      el('td', {}, fmt(c.a)), el('td', {}, fmt(c.b)), el('td', { class: kind }, (c.change > 0 ? '+' : '−') + fmt(Math.abs(c.change)))));
    const head = el('tr', {}, ['gained or lost', 'user', 'jobs', `mean ${f.name} A`, `mean ${f.name} B`, 'B − A'].map((h) => el('th', { scope: 'col' }, h)));
    const body = [...rows(gained, 'gained'), ...rows(lost, 'lost')];
    this.c.users.replaceChildren(
      el('caption', {}, `Users who gained and lost most from A (${this.results[a].spec}) to B (${this.results[b].spec}): mean ${f.name} change over their jobs`),
      el('thead', {}, head), el('tbody', {}, body.length ? body : el('tr', {}, el('td', { colspan: 6 }, 'No user\'s mean changed.'))));
    if (this.c.furthest) renderFurthest(this.c.furthest, this.results, a, b, this.cols[fig][a], this.cols[fig][b], f);
  }
}
