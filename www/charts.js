// Charts on canvases, drawn by the engine's plotters functions in the main thread. The Gantt
// charts share one time window: wheel = zoom around the pointer, drag = pan, double-click =
// reset; a tooltip shows the job under the pointer (found from the rects and jobs arrays) and
// why it started then; a click on a job marks its first reservation and outlines the job it
// waited for (and the one it overtook).
import { call } from './engine.js';
import { el, download, fmtDuration, fmtNumber, scheduleDraws } from './ui.js';
import { RECT as RECT_LAYOUT, JOB as JOB_LAYOUT } from './layouts.js';
import { whySentence, selection } from './why.js';

const RECT = RECT_LAYOUT.stride; // [start, end, lo, hi, user, job, kind]: kind 1 = a preempted (killed) attempt
const JOB = JOB_LAYOUT.stride;   // www/layouts.js
const MIN_SPAN = 60; // seconds: the narrowest window zoom allows

export const timings = { ganttDraws: [], heatDraws: [] }; // ms per Gantt / EET heatmap draw (for the bench)

/** The device pixel ratio canvases are drawn at (1 to 4, in quarters). */
export function pixelRatio() {
  const r = Math.round((window.devicePixelRatio || 1) * 4) / 4;
  return Math.min(4, Math.max(1, r));
}

/** Sizes a canvas to its container's width and `height` CSS pixels, at the device pixel ratio:
 * the engine draws in CSS pixels through a context scaled by data-dpr (see src/web/scaled.rs). */
export function sizeCanvas(canvas, height) {
  const width = Math.max(320, Math.floor(canvas.parentElement.clientWidth));
  const r = pixelRatio();
  const [w, h] = [Math.round(width * r), Math.round(height * r)];
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  if (canvas.dataset.dpr !== String(r)) canvas.dataset.dpr = String(r);
  canvas.style.height = `${height}px`;
}

/** The pointer's position on a canvas in the CSS pixels the engine draws in. */
export function canvasPoint(canvas, event) {
  const box = canvas.getBoundingClientRect();
  const r = Number(canvas.dataset.dpr) || 1;
  return {
    x: (event.clientX - box.left) * (canvas.width / r / box.width),
    y: (event.clientY - box.top) * (canvas.height / r / box.height),
  };
}

function slug(text) { return text.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'chart'; }

/** A figure with a caption, a PNG button and a canvas. */
export function figure(testid, caption, height, extra = {}, prepare = () => {}) {
  const canvas = el('canvas', { 'data-testid': testid, height, ...extra });
  const png = el('button', { type: 'button', class: 'small', title: 'Download this chart as PNG', 'data-testid': 'export-png',
    onclick: () => { prepare(); canvas.toBlob((b) => b && download(`schedlab-${slug(caption)}.png`, b), 'image/png'); } }, 'PNG');
  const node = el('figure', { class: 'chart' },
    el('figcaption', {}, el('span', {}, caption), png), el('div', { class: 'canvas-wrap' }, canvas));
  return { node, canvas, height };
}

const BINS = { hour: 3600, day: 86400, week: 604800 };

/** The bin of the overview's "auto" setting for a span of `span` seconds. */
export function autoBin(span) {
  return span <= 14 * 86400 ? 'hour' : span <= 200 * 86400 ? 'day' : 'week';
}

/** The overview charts: busy processors and queue length (means per hour / day / week, or the
 * raw steps), mean wait and MBS bars; one policy may be highlighted. */
export class Overview {
  /** controls: {bin, highlight} select elements (optional). */
  constructor(root, controls = {}) {
    this.util = figure('chart-utilization', 'Busy processors over time', 300);
    this.queue = figure('chart-queue', 'Queued jobs over time', 300);
    this.wait = figure('chart-bars-wait', 'Mean wait per policy', 260);
    this.mbs = figure('chart-bars-mbs', 'Mean bounded slowdown (MBS) per policy', 260);
    root.replaceChildren(this.util.node, this.queue.node, this.wait.node, this.mbs.node);
    this.results = [];
    this.c = controls;
    this.highlight = -1;
    controls.bin?.addEventListener('change', () => this.draw());
  }

  show(results) { this.results = results; this.means = new Map(); this.draw(); }

  /** The bin means of column `column` per policy at bins of `bin` s (computed once, cached). */
  binMeans(column, bin) {
    const key = `${column}:${bin}`;
    if (!this.means.has(key)) this.means.set(key, this.results.map((r) => call('series_bin_means', r.series, column, bin)));
    return this.means.get(key);
  }

  setHighlight(index) {
    if (index === this.highlight) return;
    this.highlight = index;
    this.drawSeries();
  }

  /** The bin chosen: [name, seconds] ('raw' = 0). */
  bin() {
    const choice = this.c.bin?.value ?? 'auto';
    if (choice === 'raw') return ['raw', 0];
    let lo = Infinity, hi = -Infinity;
    for (const r of this.results) {
      if (r.series.length) { lo = Math.min(lo, r.series[0]); hi = Math.max(hi, r.series[r.series.length - 3]); }
    }
    this.span = [lo, hi];
    const name = choice === 'auto' ? autoBin(hi - lo) : choice;
    return [name, BINS[name] ?? 0];
  }

  drawSeries() {
    const r = this.results;
    if (!r.length) return;
    const began = performance.now();
    const labels = r.map((x) => x.spec);
    const series = r.map((x) => x.series);
    const [name, bin] = this.bin();
    const per = name === 'raw' ? '' : ` (mean per ${name})`;
    for (const [fig, column, title] of [[this.util, 1, 'Busy processors'], [this.queue, 2, 'Queued jobs']]) {
      sizeCanvas(fig.canvas, fig.height);
      fig.canvas.dataset.bin = name;
      if (name === 'raw' && this.highlight < 0) call('draw_series', fig.canvas, series, labels, column, title);
      else if (name === 'raw') call('draw_series_binned', fig.canvas, series, labels, column, 0, this.highlight, title);
      else call('draw_bin_means', fig.canvas, this.binMeans(column, bin), labels, bin, this.span[0], this.span[1], this.highlight, title + per);
    }
    timings.seriesDraw = performance.now() - began;
  }

  draw() {
    const r = this.results;
    if (!r.length) return;
    const began = performance.now();
    this.drawSeries();
    const labels = r.map((x) => x.spec);
    sizeCanvas(this.wait.canvas, this.wait.height);
    call('draw_bars', this.wait.canvas, labels, Float64Array.from(r, (x) => x.report.metrics.wait.mean), 'Mean wait (s)');
    sizeCanvas(this.mbs.canvas, this.mbs.height);
    call('draw_bars', this.mbs.canvas, labels, Float64Array.from(r, (x) => x.report.metrics.mbs), 'Mean bounded slowdown');
    timings.overviewDraw = performance.now() - began;
  }
}

/** One Gantt chart per policy, sharing a time window. onWindow(window|null) after each change.
 * Charts are drawn lazily, one per animation frame and only when on screen (a whole LANL-CM5
 * schedule takes a few hundred ms to draw), so the page never stalls for long. */
export class Gantts {
  constructor(root, onWindow) {
    this.root = root;
    this.onWindow = onWindow;
    this.items = [];
    this.full = [0, 1];
    this.window = null;
    this.pending = false;
    this.tip = el('div', { class: 'tooltip', role: 'tooltip', 'data-testid': 'gantt-tooltip', hidden: true });
    this.observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const item = this.items.find((i) => i.canvas === e.target);
        if (item) item.visible = e.isIntersecting;
      }
      this.schedule();
    }, { rootMargin: '200px 0px' });
  }

  show(results, procs, window) {
    this.procs = procs;
    // The node model's cores per node: the chart draws a line between nodes.
    this.cores = results[0]?.report?.input?.nodes?.cores ?? 0;
    this.byPenalty = false;
    let lo = Infinity, hi = -Infinity;
    for (const r of results) {
      for (let i = 0; i < r.rects.length; i += RECT) {
        if (r.rects[i] < lo) lo = r.rects[i];
        if (r.rects[i + 1] > hi) hi = r.rects[i + 1];
      }
    }
    this.full = Number.isFinite(lo) && hi > lo ? [lo, hi] : [0, 1];
    this.window = window ? this.clamp(window) : null;
    this.observer.disconnect();
    this.hideTip();
    this.items = results.map((r) => {
      const item = { result: r, dirty: true, visible: false };
      // An export draws a chart that is not on screen yet.
      Object.assign(item, figure('chart-gantt', `Gantt: ${r.spec}`, 340, { 'data-policy': r.spec }, () => item.dirty && this.draw(item)));
      item.caption = el('p', { class: 'gantt-selection', 'data-testid': 'gantt-selection', hidden: true });
      item.node.append(item.caption);
      this.attach(item);
      return item;
    });
    this.root.replaceChildren(...this.items.map((i) => i.node));
    for (const item of this.items) {
      sizeCanvas(item.canvas, item.height);
      this.observer.observe(item.canvas);
    }
  }

  current() { return this.window ?? this.full; }

  clamp([t0, t1]) {
    const [f0, f1] = this.full;
    let span = Math.min(Math.max(t1 - t0, MIN_SPAN), f1 - f0);
    let a = Math.max(f0, Math.min(t0, f1 - span));
    return [a, a + span];
  }

  setWindow(w) {
    const next = w ? this.clamp(w) : null;
    const full = next && next[0] <= this.full[0] && next[1] >= this.full[1];
    this.window = full ? null : next;
    this.redraw();
    this.onWindow(this.window);
  }

  zoom(factor, anchor) {
    const [t0, t1] = this.current();
    const at = anchor ?? (t0 + t1) / 2;
    this.setWindow([at - (at - t0) * factor, at + (t1 - at) * factor]);
  }

  /** Colours jobs by penalty factor (node model) instead of by user. */
  setByPenalty(on) {
    this.byPenalty = on;
    this.redraw();
  }

  /** Marks every chart out of date; the visible ones are drawn in the next frames. */
  redraw() {
    for (const item of this.items) item.dirty = true;
    this.schedule();
  }

  schedule() {
    scheduleDraws(this, (item) => `the Gantt chart of ${item.result.spec}`);
  }

  draw(item) {
    const began = performance.now();
    const [t0, t1] = this.current();
    sizeCanvas(item.canvas, item.height);
    item.dirty = false;
    // The engine returns where it put the plotting area: [x0, y0, x1, y1] in canvas pixels.
    const [x0, y0, x1, y1] = call('draw_gantt', item.canvas, item.result.rects, this.procs, t0, t1, `${item.result.spec}: ${fmtDuration(t0)} – ${fmtDuration(t1)}`, this.cores,
      this.byPenalty && item.result.factors ? item.result.factors : new Float64Array(0));
    item.area = { x0, y0, x1, y1 };
    item.drawn = [t0, t1];
    if (item.selected) this.drawSelection(item);
    timings.ganttDraws.push(performance.now() - began);
    if (timings.ganttDraws.length > 200) timings.ganttDraws.shift();
  }

  /** Pointer position -> [time, processor] in the chart, or null outside the plotting area. */
  locate(item, event) {
    const a = item.area;
    if (!a) return { inside: false };
    const { x, y } = canvasPoint(item.canvas, event);
    const [t0, t1] = item.drawn; // what is on the canvas, which may lag the window by a frame
    const t = t0 + ((x - a.x0) / (a.x1 - a.x0)) * (t1 - t0);
    const p = ((a.y1 - y) / (a.y1 - a.y0)) * this.procs;
    const inside = x >= a.x0 && x <= a.x1 && y >= a.y0 && y <= a.y1;
    return { t, p, inside, x, y };
  }

  attach(item) {
    const { canvas } = item;
    let drag = null;
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      const at = this.locate(item, e);
      const factor = Math.pow(1.0015, Math.max(-400, Math.min(400, e.deltaY)));
      this.zoom(factor, at.inside ? at.t : undefined);
    }, { passive: false });
    canvas.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      canvas.setPointerCapture(e.pointerId);
      drag = { x: e.clientX, window: this.current(), moved: false };
      this.hideTip();
    });
    canvas.addEventListener('pointermove', (e) => {
      if (drag) {
        const [t0, t1] = drag.window;
        const box = canvas.getBoundingClientRect();
        if (!item.area) return;
        const perPx = (t1 - t0) / ((item.area.x1 - item.area.x0) * (box.width / (canvas.width / (Number(canvas.dataset.dpr) || 1))));
        const dt = (e.clientX - drag.x) * perPx;
        if (Math.abs(e.clientX - drag.x) > 2) drag.moved = true;
        if (drag.moved) this.setWindow([t0 - dt, t1 - dt]);
        return;
      }
      this.hover(item, e);
    });
    const end = () => { drag = null; };
    canvas.addEventListener('pointerup', (e) => {
      if (drag && !drag.moved) this.select(item, e);
      end();
    });
    canvas.addEventListener('pointercancel', end);
    canvas.addEventListener('pointerleave', () => this.hideTip());
    canvas.addEventListener('dblclick', () => this.setWindow(null));
  }

  hover(item, e) {
    const at = this.locate(item, e);
    const hit = at.inside ? findJob(item.result, at.t, at.p) : null;
    if (!hit) { this.hideTip(); return; }
    const j = item.result.jobs.subarray(hit.job * JOB, hit.job * JOB + JOB);
    const [id, user, submit, start, end, procs, wait, bsld] = j;
    const killed = hit.preempted
      ? [el('br'), el('em', {}, 'preempted run'), `: ran ${fmtDuration(hit.start)} – ${fmtDuration(hit.end)}, killed; work lost`]
      : [];
    this.tip.replaceChildren(
      el('strong', {}, `job ${id}`), ` user ${user}`, ...killed, el('br'),
      `submit ${fmtDuration(submit)}, start ${start < 0 ? '–' : fmtDuration(start)}, end ${end < 0 ? '–' : fmtDuration(end)}`, el('br'),
      `${procs} processors, wait ${fmtDuration(wait)}, bsld ${fmtNumber(bsld, 2)}`, el('br'),
      el('span', { class: 'why', 'data-testid': 'gantt-why' }, whySentence(item.result, hit.job)),
      el('br'), el('small', {}, 'Click: show its reservation'));
    const wrap = item.canvas.parentElement;
    if (this.tip.parentElement !== wrap) wrap.append(this.tip);
    this.tip.hidden = false;
    const box = item.canvas.getBoundingClientRect();
    const left = Math.min(e.clientX - box.left + 14, box.width - this.tip.offsetWidth - 4);
    this.tip.style.left = `${Math.max(0, left)}px`;
    this.tip.style.top = `${e.clientY - box.top + 14}px`;
  }

  hideTip() { this.tip.hidden = true; }

  /** A click on a job: mark its first reservation and outline the jobs it waited for and
   * overtook (a click on the same job or on no job clears it). */
  select(item, e) {
    const at = this.locate(item, e);
    const hit = at.inside ? findJob(item.result, at.t, at.p) : null;
    const same = hit && item.selected?.job === hit.job;
    item.selected = hit && !same ? selection(item.result, hit.job) : null;
    const jobs = item.result.jobs, id = (k) => jobs[k * JOB + JOB_LAYOUT.id];
    const s = item.selected;
    item.caption.textContent = !s ? ''
      : `Job ${id(s.job)} (outlined in black): ` +
        (s.reservation >= 0 ? `first reservation ${fmtDuration(s.reservation)} (red line)` : 'no reservation') +
        (s.waitedFor >= 0 ? `, waited for job ${id(s.waitedFor)} (red outline)` : '') +
        (s.overtook >= 0 ? `, started ahead of job ${id(s.overtook)} (blue outline)` : '') + '.';
    item.caption.hidden = !s;
    item.dirty = true;
    this.schedule();
  }

  /** Draws the selection over the chart, in the CSS pixels the engine draws in. */
  drawSelection(item) {
    const s = item.selected, a = item.area, r = item.result.rects;
    const [t0, t1] = item.drawn;
    const ctx = item.canvas.getContext('2d');
    const dpr = Number(item.canvas.dataset.dpr) || 1;
    const x = (t) => a.x0 + ((t - t0) / (t1 - t0)) * (a.x1 - a.x0);
    const y = (p) => a.y1 - (p / this.procs) * (a.y1 - a.y0);
    ctx.save();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.beginPath();
    ctx.rect(a.x0, a.y0, a.x1 - a.x0, a.y1 - a.y0);
    ctx.clip();
    const outline = (k, colour) => {
      if (k < 0) return;
      ctx.strokeStyle = colour;
      ctx.lineWidth = 2.5;
      for (let i = 0; i < r.length; i += RECT) {
        if (r[i + 5] !== k || r[i + 1] < t0 || r[i] > t1) continue;
        const [xa, xb, ya, yb] = [x(r[i]), x(r[i + 1]), y(r[i + 3]), y(r[i + 2])];
        ctx.strokeRect(xa, ya, Math.max(2, xb - xa), Math.max(2, yb - ya));
      }
    };
    outline(s.overtook, '#1f4fd1');
    outline(s.waitedFor, '#d11f1f');
    outline(s.job, '#000');
    if (s.reservation >= t0 && s.reservation <= t1) {
      const xr = x(s.reservation);
      ctx.strokeStyle = '#d11f1f';
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 4]);
      ctx.beginPath();
      ctx.moveTo(xr, a.y0);
      ctx.lineTo(xr, a.y1);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#d11f1f';
      ctx.font = '12px sans-serif';
      ctx.fillText(`reservation of job ${item.result.jobs[s.job * JOB + JOB_LAYOUT.id]}`, Math.min(xr + 4, a.x1 - 150), a.y0 + 14);
    }
    ctx.restore();
  }
}

/** The attempt whose rectangle covers (t, p): {job (index), preempted, start, end}, or null. */
export function findJob(result, t, p) {
  const r = result.rects;
  for (let i = 0; i < r.length; i += RECT) {
    if (r[i] <= t && t < r[i + 1] && r[i + 2] <= p && p < r[i + 3]) {
      return { job: r[i + 5], preempted: r[i + 6] === 1, start: r[i], end: r[i + 1] };
    }
  }
  return null;
}
