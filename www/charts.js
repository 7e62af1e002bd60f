// The overview charts (busy processors, queue length, mean wait and MBS bars), drawn by the
// engine's plotters functions in the main thread.
import { call } from './engine.js';
import { sizeCanvas, figure, timings, describe } from './figure.js';
import { metricReader } from './metrics.js';
import { fmtDuration, fmtNumber } from './ui.js';

const BINS = { minute: 60, hour: 3600, day: 86400, week: 604800 };

/** The bin of the overview's "auto" setting for a span of `span` seconds: at most a few hundred
 * bins, and never one bin for the whole trace (a trace of minutes gets minutes, not one flat hour). */
export function autoBin(span) {
  if (span <= 6 * 3600) return 'minute';
  return span <= 14 * 86400 ? 'hour' : span <= 200 * 86400 ? 'day' : 'week';
}

/** Above this many policies (none highlighted) the lines over time become small multiples: a
 * panel per policy, its line over the others' in grey, so that close lines never merge. */
export const OVERLAID_MOST = 4;

/** Columns of small multiples on a chart `width` CSS pixels wide. */
export const multipleColumns = (width) => (width >= 900 ? 3 : width >= 560 ? 2 : 1);

/** The overview charts: busy processors and queue length (means per minute / hour / day / week, or the
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

  /** results: the policies shown; slots: each one's palette slot (its colour). */
  show(results, slots = null) {
    this.results = results;
    this.slots = slots ?? Uint8Array.from(results, (_, i) => i);
    this.means = new Map();
    this.draw();
  }

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
    // Many policies and none highlighted: small multiples, across the whole row.
    const multiples = r.length > OVERLAID_MOST && this.highlight < 0;
    for (const [fig, column, title] of [[this.util, 1, 'Busy processors'], [this.queue, 2, 'Queued jobs']]) {
      fig.node.classList.toggle('wide', multiples);
      const columns = multiples ? multipleColumns(fig.node.parentElement?.clientWidth ?? 0) : 0;
      const height = multiples ? 40 + Math.ceil(r.length / columns) * 130 : fig.height;
      sizeCanvas(fig.canvas, height);
      fig.canvas.dataset.bin = name;
      fig.canvas.dataset.columns = String(columns);
      if (name === 'raw' && !multiples && this.highlight < 0) call('draw_series', fig.canvas, series, labels, column, title, this.slots);
      else if (name === 'raw') call('draw_series_binned', fig.canvas, series, labels, column, 0, this.highlight, title, columns, this.slots);
      else call('draw_bin_means', fig.canvas, this.binMeans(column, bin), labels, bin, this.span[0], this.span[1], this.highlight, title + per, columns, this.slots);
      describe(fig.canvas, `${title}${per}${multiples ? ', a panel per policy' : ''}: ${this.seriesSummary(column, bin)}.`);
    }
    timings.seriesDraw = performance.now() - began;
  }

  /** Per policy the time-weighted mean and the peak of column `column` (bins of `bin` s, or the raw steps). */
  seriesSummary(column, bin) {
    const all = this.binMeans(column, bin || 3600);
    return this.results.map((x, k) => {
      const means = all[k];
      let sum = 0, n = 0, peak = 0;
      for (let i = 1; i < means.length; i += 2) { sum += means[i]; n += 1; peak = Math.max(peak, means[i]); }
      return `${x.spec} mean ${fmtNumber(n ? sum / n : 0, 0)}, peak ${fmtNumber(peak, 0)}`;
    }).join('; ');
  }

  draw() {
    const r = this.results;
    if (!r.length) return;
    const began = performance.now();
    this.drawSeries();
    const labels = r.map((x) => x.spec);
    sizeCanvas(this.wait.canvas, this.wait.height);
    const read = metricReader(call('metrics'));
    const waits = Float64Array.from(r, (x) => read(x.report, 'wait.mean'));
    call('draw_bars', this.wait.canvas, labels, waits, 'Mean wait (s)', this.slots);
    describe(this.wait.canvas, `Bar chart, mean wait per policy: ${labels.map((l, i) => `${l} ${fmtDuration(waits[i])}`).join('; ')}.`);
    sizeCanvas(this.mbs.canvas, this.mbs.height);
    const mbs = Float64Array.from(r, (x) => read(x.report, 'mbs'));
    call('draw_bars', this.mbs.canvas, labels, mbs, 'Mean bounded slowdown', this.slots);
    describe(this.mbs.canvas, `Bar chart, mean bounded slowdown per policy: ${labels.map((l, i) => `${l} ${fmtNumber(mbs[i], 2)}`).join('; ')}.`);
    timings.overviewDraw = performance.now() - began;
  }
}
