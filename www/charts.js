// The overview charts (busy processors, queue length, mean wait and MBS bars), drawn by the
// engine's plotters functions in the main thread.
import { call } from './engine.js';
import { sizeCanvas, figure, timings } from './figure.js';
import { metricReader } from './metrics.js';

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
    const read = metricReader(call('metrics'));
    call('draw_bars', this.wait.canvas, labels, Float64Array.from(r, (x) => read(x.report, 'wait.mean')), 'Mean wait (s)');
    sizeCanvas(this.mbs.canvas, this.mbs.height);
    call('draw_bars', this.mbs.canvas, labels, Float64Array.from(r, (x) => read(x.report, 'mbs')), 'Mean bounded slowdown');
    timings.overviewDraw = performance.now() - began;
  }
}
