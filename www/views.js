// The views of the shown comparison's results: the results table, the overview, the policy strip,
// the Gantt charts, the EET charts, the distributions and the two-schedules view (A vs B). They
// are built together, show the policies the strip switches on, highlight one policy together and
// redraw together (the trace view, which shows the trace before any result, is app.js's own).
import { ResultsTable } from './results.js';
import { Overview } from './charts.js';
import { Gantts } from './gantt.js';
import { EetCharts } from './eet.js';
import { Distributions, Compare } from './compare.js';
import { PolicyStrip } from './policies.js';
import { $, el, showError } from './ui.js';

export class Views {
  /** `S`: the page's state (its `results`, `shown`, `partial`); `metrics`: the metrics catalogue;
   * `colours`: the chart colours; `windowChanged(w)`: the Gantt charts' window moved. */
  constructor(S, { metrics, colours, windowChanged }) {
    this.S = S;
    this.resultsTable = new ResultsTable($('results'), { family: $('metric-family'), baseline: $('baseline'), mode: $('baseline-mode') }, metrics);
    this.overview = new Overview($('overview'), { bin: $('overview-bin') });
    this.strip = new PolicyStrip($('policy-strip'), colours, () => this.policiesChanged());
    $('highlight').addEventListener('change', () => this.highlight(Number($('highlight').value)));
    // Hovering a policy's row in the results table highlights it in the charts; leaving the table
    // goes back to the policy picked in the select.
    $('results').addEventListener('mouseover', (e) => {
      const row = e.target.closest?.('tr[data-policy]');
      if (row) this.highlight(S.results.findIndex((r) => r.report.policy === row.dataset.policy), false);
    });
    $('results').addEventListener('mouseleave', () => this.highlight(Number($('highlight').value), false));
    this.gantts = new Gantts($('gantts'), (w) => {
      if (S.shown) { S.shown.window = w; windowChanged(); this.eet.redrawHeat(); this.compare.redrawWindow(); }
    });
    this.dists = new Distributions($('distributions'));
    this.compare = new Compare($('compare'), { a: $('diff-a'), b: $('diff-b'), figure: $('diff-figure'), colour: $('diff-colour'), users: $('diff-users'), furthest: $('diff-furthest') },
      () => this.gantts.current());
    this.eet = new EetCharts($('eet'), () => this.gantts.current());
    $('gantt-zoom-in').addEventListener('click', () => this.gantts.zoom(0.5));
    $('gantt-zoom-out').addEventListener('click', () => this.gantts.zoom(2));
    $('gantt-reset').addEventListener('click', () => this.gantts.setWindow(null));
    $('gantt-by-penalty').addEventListener('change', () => this.gantts.setByPenalty($('gantt-by-penalty').checked));
  }

  /** The results table of `results` (each {spec, report}: labelled by the spec as written when the
   * canonical one is long) and the policies that failed alone. */
  showTable(results, failed) {
    this.resultsTable.show(results.map((r) => r.report), failed, results.map((r) => r.spec));
  }

  /** Highlights policy `index` (-1: none) in the overview and the CDFs (which show the policies
   * switched on in the strip: there it is the index among those). */
  highlight(index, pick = true) {
    if (pick) $('highlight').value = String(index);
    const at = this.strip.on().indexOf(index);
    this.overview.setHighlight(at);
    this.dists.setHighlight(at);
  }

  /** The charts of the policies the strip shows: every one switched on in the overview, the CDFs
   * and the EET box plots; the first few in the Gantt charts, heatmaps and box plots by class. */
  showPolicies(results, window) {
    const { all, few } = this.strip.views();
    const procs = results[0].report.machine_procs;
    this.gantts.show(few.results, procs, window);
    this.eet.show(all.results, procs, this.S.shown.heat, all.slots, few);
    try {
      this.dists.show(all.results, procs, all.slots, few);
    } catch (err) { showError(`Could not show the distributions: ${err.message}`); }
    this.overview.highlight = this.strip.on().indexOf(Number($('highlight').value));
    this.dists.highlight = this.overview.highlight;
    return all;
  }

  /** The strip changed: the charts follow (the Gantt charts keep their window). */
  policiesChanged() {
    const S = this.S;
    if (!S.results || S.partial) return;
    const all = this.showPolicies(S.results, this.gantts.window);
    if ($('gantt-by-penalty').checked) this.gantts.setByPenalty(true);
    this.drawOverview(all);
  }

  /** A new comparison's `results` in every view but the overview (drawOverview, a frame later);
   * `window`: the Gantt charts' time window. Returns the policies the overview shows. */
  show(results, window) {
    $('highlight').replaceChildren(el('option', { value: '-1' }, 'no policy'), ...results.map((r, i) => el('option', { value: String(i) }, r.spec)));
    this.strip.show(results);
    const shown = this.showPolicies(results, window);
    // Colouring by penalty needs the node model; a new comparison starts coloured by user.
    $('gantt-by-penalty').checked = false;
    $('gantt-by-penalty').disabled = !results.some((r) => r.report.penalty);
    try {
      this.compare.show(results, results[0].report.machine_procs);
    } catch (err) { showError(`Could not show the distributions: ${err.message}`); }
    return shown;
  }

  /** The overview of the policies `shown` ({results, slots}). */
  drawOverview(shown) {
    try { this.overview.show(shown.results, shown.slots); } catch (err) { showError(`Could not draw the charts: ${err.message}`); }
  }

  /** Every view drawn again (the window's width changed). */
  redraw() {
    this.overview.draw(); this.gantts.redraw(); this.eet.redraw(); this.dists.redraw(); this.compare.redraw();
  }
}
