// The policies the charts show: a strip of toggle buttons above the charts, one per policy in
// its chart colour. A policy switched off leaves every chart (it keeps its colour when it comes
// back, and so do the others); the views that draw a chart or a box per policy (Gantt charts,
// EET heatmaps, the box plots by job class) show the first few policies switched on, the rest
// one click away ("Show all").
import { el } from './ui.js';

/** How many policies the per-policy views show until "Show all". */
export const FEW = 4;

export class PolicyStrip {
  /** colours: the charts' palette (`#rrggbb`, slot i = entry i); onChange(): after any change. */
  constructor(root, colours, onChange) {
    this.root = root;
    this.colours = colours;
    this.onChange = onChange;
    this.results = [];
    this.hidden = new Set(); // specs switched off (kept across comparisons of the same specs)
    this.all = false; // the per-policy views show every policy switched on
  }

  show(results) {
    const specs = new Set(results.map((r) => r.spec));
    for (const s of this.hidden) if (!specs.has(s)) this.hidden.delete(s);
    if (this.hidden.size >= specs.size) this.hidden.clear();
    this.results = results;
    this.render();
  }

  /** The palette slot of result `i`: its place in the comparison. */
  slot(i) { return i % 256; }

  colour(i) { return this.colours[this.slot(i) % this.colours.length] ?? '#888'; }

  /** Indices (into the comparison) of the policies switched on. */
  on() { return this.results.map((_, i) => i).filter((i) => !this.hidden.has(this.results[i].spec)); }

  /** The indices the per-policy views show: the first FEW switched on, or all of them. */
  few() { const on = this.on(); return this.all ? on : on.slice(0, FEW); }

  /** {results, slots, index} of indices `which`: what a view draws (`index`: into the comparison). */
  pick(which) {
    return { results: which.map((i) => this.results[i]), slots: Uint8Array.from(which, (i) => this.slot(i)), index: which };
  }

  /** Every policy switched on, and the per-policy views' subset. */
  views() { return { all: this.pick(this.on()), few: this.pick(this.few()) }; }

  toggle(i) {
    const spec = this.results[i]?.spec;
    if (spec === undefined) return;
    if (this.hidden.has(spec)) this.hidden.delete(spec);
    else if (this.on().length > 1) this.hidden.add(spec); // the last one stays
    this.render();
    this.onChange();
  }

  setAll(all) {
    this.all = all;
    this.render();
    this.onChange();
  }

  render() {
    const n = this.results.length;
    if (n < 2) { this.root.replaceChildren(); this.root.hidden = true; return; }
    this.root.hidden = false;
    const buttons = this.results.map((r, i) => {
      const on = !this.hidden.has(r.spec);
      return el('button', {
        type: 'button', class: 'policy-toggle', 'aria-pressed': String(on), 'data-policy': r.spec,
        title: on ? `Hide ${r.spec} in every chart` : `Show ${r.spec} in the charts`,
        onclick: () => this.toggle(i),
      }, el('span', { class: 'swatch', style: `background:${this.colour(i)}`, 'aria-hidden': 'true' }), r.spec);
    });
    const on = this.on().length;
    const parts = [el('span', { class: 'strip-label', id: 'policy-strip-label' }, 'Charts show'), ...buttons];
    if (on > FEW) {
      const few = this.few().length;
      parts.push(el('span', { class: 'strip-subset muted', 'data-testid': 'policy-subset' },
        this.all ? `Schedules and box plots: all ${on}` : `Schedules and box plots: the first ${few} of ${on}`,
        el('button', { type: 'button', class: 'small', 'data-testid': 'policy-subset-toggle', onclick: () => this.setAll(!this.all) },
          this.all ? `Show the first ${FEW}` : `Show all ${on}`)));
    }
    const group = el('div', { class: 'policy-buttons', role: 'group', 'aria-labelledby': 'policy-strip-label' }, ...parts);
    this.root.replaceChildren(group);
  }
}
