// The sweep panel: one metric of one or more policies over the values of one key (set on the
// policy, or else inside its predictor: `err=0,0.1,...,1` for `predictor=virtual`), for seeds
// 1..N each, on the shown trace with the current input options. The simulations run in their own
// worker (progress, Cancel); the engine draws the mean over the seeds per policy in a min-max
// band (draw_sweep), and a table gives the numbers. The numbers equal `schedlab sweep` with the
// same policies, key and seeds. The editor's JavaScript policy (`js:NAME`) takes part like any
// policy: it has no keys, so it runs once per seed and shows the same figures at every value (a
// reference line); its code goes to the workers, never into the link.
import { call } from './engine.js';
import { Runner } from './runner.js';
import { figure, sizeCanvas } from './figure.js';
import { $, el, showError, clearErrors, asSource, download, count, setBusy } from './ui.js';

const MAX_RUNS = 20_000;
/** The metric a sweep shows unless the link or the user picks another (a link without
 * `sweepmetric` means this one). */
export const DEFAULT_METRIC = 'mbs';

export class SweepPanel {
  /** trace(): the shown trace ({name, bytes, label}) or null; options(): the Session options of
   * the form, or null when it is invalid; compared(): the compared policies' specs;
   * custom: the code editor (check(spec) and policy(spec) of its `js:NAME` policies). */
  constructor({ trace, options, compared, custom }) {
    this.trace = trace;
    this.options = options;
    this.compared = compared;
    this.custom = custom;
    this.runner = new Runner();
    this.result = null;
    this.chart = figure('chart-sweep', 'Sweep', 380, {}, () => this.draw());
    $('sweep-chart').replaceChildren(this.chart.node);
    this.chart.node.hidden = true;
    // Any metric of the catalogue (the CLI's `sweep --metric NAME`), node-model ones last.
    const title = (m) => (m.unit ? `${m.label} (${m.unit})` : m.label);
    const metrics = call('metrics');
    $('sweep-metric').replaceChildren(...metrics.map((m) => el('option', { value: m.name, selected: m.name === DEFAULT_METRIC }, title(m))));
    this.labels = Object.fromEntries(metrics.map((m) => [m.name, title(m)]));
    $('sweep-run').addEventListener('click', () => this.start());
    $('sweep-cancel').addEventListener('click', () => this.cancel());
    this.refresh();
  }

  /** The panel's settings, as the share link carries them (metric '' = DEFAULT_METRIC); the
   * JavaScript policies stay out (code never travels in links). */
  settings() {
    const metric = $('sweep-metric').value;
    const builtIn = (s) => !s.startsWith('js:');
    return {
      vary: $('sweep-vary').value.trim(),
      seeds: Number($('sweep-seeds').value) || 10,
      metric: metric === DEFAULT_METRIC ? '' : metric,
      more: $('sweep-more').value.split('\n').map((t) => t.trim()).filter(Boolean).filter(builtIn),
      pick: [...$('sweep-policies').querySelectorAll('input:checked')].map((i) => i.value).filter(builtIn),
    };
  }

  /** Shows `settings` (from a link); the compared policies in `pick` are ticked once listed. */
  apply(settings) {
    $('sweep-vary').value = settings.vary;
    $('sweep-seeds').value = String(settings.seeds);
    const metric = $('sweep-metric');
    const named = settings.metric && [...metric.options].some((o) => o.value === settings.metric);
    metric.value = named ? settings.metric : DEFAULT_METRIC;
    $('sweep-more').value = settings.more.join('\n');
    this.pendingPick = new Set(settings.pick);
    this.refresh();
  }

  /** Shows `settings` when the panel still holds `untouched` (the page's defaults, nothing
   * ticked): a demo's suggestion never replaces what the user set. */
  suggest(settings, untouched) {
    const now = this.settings();
    const same = now.vary === untouched.vary && now.seeds === untouched.seeds && now.metric === ''
      && now.more.join('\n') === untouched.more.join('\n') && now.pick.length === 0
      && $('sweep-more').value.trim() === untouched.more.join('\n');
    if (same) this.apply(settings);
  }

  /** The compared policies as checkboxes (kept ticked across refreshes). */
  refresh() {
    const box = $('sweep-policies');
    const ticked = new Set([...box.querySelectorAll('input:checked')].map((i) => i.value));
    const specs = this.compared();
    // A pending pick is ticked once its policy is listed (a demo's suggestion comes before the
    // run that compares its policy: the list then still shows the last comparison's).
    for (const p of this.pendingPick ?? []) {
      if (specs.includes(p)) { ticked.add(p); this.pendingPick.delete(p); }
    }
    box.replaceChildren(...specs.map((spec) => el('label', { class: 'check' },
      el('input', { type: 'checkbox', value: spec, checked: ticked.has(spec) }), ' ', el('code', {}, spec))));
    if (!specs.length) box.append(el('span', { class: 'muted' }, 'no compared policy yet'));
    this.table(); // its caption says whether the shown trace is still the sweep's
  }

  policies() {
    const ticked = [...$('sweep-policies').querySelectorAll('input:checked')].map((i) => i.value);
    const more = $('sweep-more').value.split('\n').map((s) => s.trim()).filter(Boolean);
    return [...new Set([...ticked, ...more])];
  }

  status(text) { $('sweep-status').textContent = text; }

  /** A sweep refused before it runs: the message goes to the Messages panel, and beside the
   * button too, where the eye is (the Messages panel is a page above; before, the status stayed
   * empty or told of the last sweep, whose table and chart still showed). */
  refuse(message) {
    showError(`Sweep: ${message}`);
    this.status(`Not run: ${message}`);
  }

  running(on) {
    setBusy(on, $('sweep-run'), $('sweep-cancel')); // the keyboard's focus follows them
  }

  /** A new attempt: the messages of the earlier ones go, and those of this one (the input
   * options' too) are the sweep's, for the next attempt to clear. */
  start() {
    clearErrors('sweep');
    asSource('sweep', () => this.attempt());
  }

  attempt() {
    const trace = this.trace();
    if (!trace) { this.refuse('no trace is loaded.'); return; }
    const options = this.options();
    if (!options) { this.status('Not run: an input option above is not valid (see Messages).'); return; }
    const policies = this.policies();
    if (!policies.length) { this.refuse('tick a compared policy or write one under “more policies”.'); return; }
    const seedsText = $('sweep-seeds').value.trim();
    const seeds = Number(seedsText);
    if (!/^\d+$/.test(seedsText) || seeds < 1 || seeds > 1000) { this.refuse(`seeds “${seedsText}” is not a whole number from 1 to 1000.`); return; }
    const metric = $('sweep-metric').value;
    const vary = $('sweep-vary').value.trim();
    let plans;
    const custom = {};
    try {
      for (const p of policies.filter((s) => s.startsWith('js:'))) {
        if (!this.custom) throw new Error(`${p}: no custom policy editor`);
        this.custom.check(p);
        custom[p] = this.custom.policy(p);
      }
      plans = policies.map((p) => this.plan(p, vary));
    } catch (err) {
      this.refuse(err.message);
      return;
    }
    const { key, values } = plans[0];
    const total = Runner.sweepRuns(plans.map((p) => p.specs), seeds);
    if (total > MAX_RUNS) { this.refuse(`${total.toLocaleString('en-US')} simulations; at most ${MAX_RUNS.toLocaleString('en-US')} (fewer values or seeds).`); return; }
    const labels = policies.map((p) => (p.startsWith('js:') ? p : call('canonical_spec', p)));
    this.running(true);
    $('sweep-progress').value = 0;
    this.status(`${count(total, 'simulation')}…`);
    const began = performance.now();
    let stats = null;
    this.runner.sweep({ bytes: trace.bytes, name: trace.name, options, specs: plans.map((p) => p.specs), seeds, metric, custom }, {
      progress: (m) => {
        $('sweep-progress').value = m.total ? m.done / m.total : 0;
        this.status(`${m.done} of ${count(m.total, 'simulation')}…`);
      },
      result: (m) => { stats = m.stats; },
      done: () => {
        this.running(false);
        $('sweep-progress').value = 1;
        this.result = { values: key ? values : ['–'], key: key || '(none)', labels, stats, metric, seeds, trace: trace.label ?? trace.name };
        this.status(`${count(total, 'simulation')} in ${((performance.now() - began) / 1000).toFixed(2)} s.`);
        this.table();
        try { this.draw(); } catch (err) { showError(`Sweep: could not draw the chart: ${err.message}`, 'error', 'sweep'); }
      },
      error: (m) => {
        this.running(false);
        $('sweep-progress').value = 0;
        showError(m.panicked ? `Sweep: the engine panicked (a bug in schedlab): ${m.message}` : `Sweep, ${m.stage}: ${m.message}`, 'error', 'sweep');
        if (m.panicked) this.runner.cancel();
        this.status(`The sweep failed: ${m.message}`);
      },
    });
  }

  /** The sweep's specs of policy `p`; a policy without the varied key is refused saying where
   * it comes from and which unticked compared policy has the key: the panel opens with
   * pv-easy[predictor=virtual] under “More policies”, and a Slurm admin who varied bf_window
   * read only “pv-easy has no key bf_window”, of a policy they never chose. */
  plan(p, vary) {
    try {
      return call('sweep_specs', p, vary);
    } catch (err) {
      const ticked = [...$('sweep-policies').querySelectorAll('input:checked')].map((i) => i.value);
      const more = $('sweep-more').value.split('\n').map((s) => s.trim());
      const fits = this.compared().filter((s) => !ticked.includes(s) && !s.startsWith('js:')).filter((s) => {
        try { call('sweep_specs', s, vary); return true; } catch { return false; }
      });
      const where = more.includes(p) && !ticked.includes(p) ? ' (remove it from “More policies”)' : '';
      const tick = fits.length ? `; ${fits.join(', ')}, compared above, ${fits.length > 1 ? 'have' : 'has'} the key: tick ${fits.length > 1 ? 'them' : 'it'}` : '';
      throw new Error(`${err.message}${where}${tick}`);
    }
  }

  cancel() {
    this.runner.cancel();
    this.running(false);
    $('sweep-progress').value = 0;
    this.status('Sweep cancelled.');
  }

  /** The numbers of the last sweep: a row per (policy, value), as `schedlab sweep` prints. */
  table() {
    const r = this.result;
    const box = $('sweep-table');
    if (!r || !box) return;
    const label = this.labels[r.metric] ?? r.metric;
    const fmt = (x) => (Number.isFinite(x) ? x.toFixed(4) : '–');
    const rows = [];
    r.labels.forEach((policy, p) => r.values.forEach((value, v) => {
      const at = (p * r.values.length + v) * 3;
      rows.push(el('tr', {}, el('td', {}, el('code', {}, policy)), el('td', { class: 'num' }, value),
        ...[0, 1, 2].map((k) => el('td', { class: 'num' }, fmt(r.stats[at + k])))));
    }));
    const csv = el('button', { type: 'button', class: 'small', 'data-testid': 'sweep-csv', onclick: () => this.exportCsv() }, 'CSV');
    // The trace it ran on, and whether another is shown now (another trace loaded since: before,
    // the last trace's numbers stayed under the new trace's comparison, unnamed).
    const shown = this.trace();
    const other = shown && (shown.label ?? shown.name) !== r.trace ? ': not the trace shown now, run the sweep again for it' : '';
    box.replaceChildren(el('table', { class: 'sweep-numbers' },
      el('caption', { 'data-testid': 'sweep-caption' }, `${label} over ${r.seeds === 1 ? 'seed 1' : `seeds 1 to ${r.seeds}`} on ${r.trace}${other} `, csv),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'policy'), ...[r.key, 'mean', 'min', 'max'].map((h) => el('th', { scope: 'col', class: 'num' }, h)))),
      el('tbody', {}, ...rows)));
  }

  /** The sweep's numbers as CSV: policy, the key's value, metric, seeds, mean, min, max (full
   * precision). */
  csv() {
    const r = this.result;
    if (!r) return '';
    const quote = (x) => (/[",\n]/.test(x) ? `"${x.replace(/"/g, '""')}"` : x);
    const lines = [['policy', r.key, 'metric', 'seeds', 'mean', 'min', 'max'].map(quote).join(',')];
    r.labels.forEach((policy, p) => r.values.forEach((value, v) => {
      const at = (p * r.values.length + v) * 3;
      lines.push([policy, String(value), r.metric, String(r.seeds), ...[0, 1, 2].map((k) => String(r.stats[at + k]))].map(quote).join(','));
    }));
    return lines.join('\n') + '\n';
  }

  exportCsv() {
    if (!this.result) return;
    download(`sweep.${this.result.metric}.csv`, new Blob([this.csv()], { type: 'text/csv' }));
  }

  draw() {
    const r = this.result;
    if (!r) return;
    const { canvas, height, node } = this.chart;
    node.hidden = false;
    sizeCanvas(canvas, height);
    const label = this.labels[r.metric] ?? r.metric;
    call('draw_sweep', canvas, r.values, r.labels, r.stats, r.key, label,
      `${label}: mean over ${r.seeds} seed${r.seeds === 1 ? '' : 's'}, min-max band`);
    canvas.dataset.stats = JSON.stringify(Array.from(r.stats));
    canvas.dataset.values = JSON.stringify(r.values);
    canvas.dataset.policies = JSON.stringify(r.labels);
  }
}
