// The trace view: what the loaded trace looks like before any policy runs (arrivals by hour, day
// and week, sizes, runtimes, requested-time accuracy, offered load, heaviest users). The worker
// sends the statistics with the trace's facts; the engine draws one chart per name of
// trace_charts().
import { call } from './engine.js';
import { el, fmtNumber, count } from './ui.js';
import { LazyFigures } from './lazy.js';
import { describe } from './figure.js';

export class TraceView extends LazyFigures {
  constructor(root) {
    super((item) => `the trace chart ${item.name}`);
    this.root = root;
    this.stats = null;
  }

  show(stats) {
    this.stats = stats;
    if (!stats) {
      this.root.replaceChildren(el('p', { class: 'muted' }, 'Load a trace to see it.'));
      this.track([]);
      return;
    }
    const charts = call('trace_charts');
    const items = charts.map((c) => this.item(`chart-trace-${c.name}`, c.title, 240, { 'data-chart': c.name }, { name: c.name, title: c.title }));
    const pct = (a, b) => (b > 0 ? `${fmtNumber((a * 100) / b, 1)} %` : '–');
    const summary = el('p', { class: 'muted intro', 'data-testid': 'trace-summary' },
      `${count(stats.jobs, 'job')} of ${count(stats.users, 'user')} on ${count(stats.procs, 'processor')}; `,
      `offered load ${fmtNumber(stats.load_overall * 100, 1)} % of the machine; `,
      `${pct(stats.reached_request, stats.with_request)} of the jobs with a requested time ran until it; `,
      `${pct(stats.round_requested ?? 0, stats.with_request)} of the requests are round (5-minute multiples under an hour, whole hours: Zotkin et al. section 7). `,
      stats.clock === 'local' ? 'Hours and days in the trace\'s local standard time.' : 'The trace gives no start time: hours and days count from its time 0.');
    const grid = el('div', { class: 'charts trace-charts' }, items.map((i) => i.node));
    this.root.replaceChildren(summary, grid);
    this.track(items);
  }

  paint(item) {
    call('draw_trace', item.canvas, this.stats, item.name);
    describe(item.canvas, `${item.title}: ${call('trace_chart_summary', this.stats, item.name)}.`);
  }
}
