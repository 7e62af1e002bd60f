// The user-aware (EET) charts: box plots of VEET_u and WT_u (one box per policy) and one EET
// heatmap per policy (users x time, colour = violated EETs, busy processors below). The engine
// draws them (draw_eet_box, draw_eet_heatmap); every heatmap gets all the policies' violations so
// that rows and colours agree across policies. The heatmaps follow the Gantt charts' time window.
// Charts are drawn lazily, one per animation frame and only when on screen.
import { call } from './engine.js';
import { sizeCanvas, timings, describe } from './figure.js';
import { fmtDuration, fmtNumber, count } from './ui.js';
import { LazyFigures } from './lazy.js';
import { userNames, parseUserList, userIds } from './users.js';

export const USER = 5; // [user, jobs, violated, veet, wt] (Session::eet_users)

export const DEFAULT_HEAT = { log: false, sort: 'total', exclude: [], only: [] };

// The heatmap's height follows the rows shown: room for a label on every row when there are
// few users, at least a few pixels per row when there are many (up to HEAT_MAX).
const HEAT_FIXED = 150;  // caption, time axis and busy strip
const HEAT_MIN = 260, HEAT_MAX = 900;
const rowPx = (rows) => (rows <= 30 ? 15 : rows <= 80 ? 8 : 5);
const heatHeight = (rows) => Math.max(HEAT_MIN, Math.min(HEAT_MAX, HEAT_FIXED + rows * rowPx(rows)));

/** "3, alice 42" -> {users: [3, 'alice', 42], bad: names the loaded trace does not give}. */
export function parseUsers(text) {
  const users = parseUserList(text);
  return { users, bad: userIds(users).unknown };
}

/** The heatmap's `only` list by number; a list of names none of which the trace gives keeps
 * one id no user has, so that it shows no row rather than every row. */
function onlyIds(only) {
  const { ids } = userIds(only);
  return only.length && !ids.length ? [Number.MIN_SAFE_INTEGER] : ids;
}

export class EetCharts extends LazyFigures {
  /** root: where the charts go; window(): the Gantt charts' current [t0, t1]. */
  constructor(root, window) {
    super((item) => (item.kind === 'heat'
      ? `the EET heatmap of ${item.result.spec}`
      : `the ${item.kind.toUpperCase()} box plot`));
    this.root = root;
    this.window = window;
    this.heat = { ...DEFAULT_HEAT };
    this.results = [];
  }

  /** results: the policies the box plots show (slots: their palette slots); few: the
   * {results} that get a heatmap each (the first few policies). */
  show(results, procs, heat, slots = null, few = null) {
    this.results = results;
    this.slots = slots ?? Uint8Array.from(results, (_, i) => i);
    this.few = few?.results ?? results;
    this.procs = procs;
    this.heat = { ...DEFAULT_HEAT, ...heat };
    const veet = this.item('chart-veet', 'VEET_u per user (% of the user\'s jobs late)', 320, {}, { kind: 'veet' });
    const wt = this.item('chart-wt', 'WT_u per user (weighted tardiness, log)', 320, {}, { kind: 'wt' });
    const height = heatHeight(this.estimateRows());
    const heats = this.few.map((r, index) => this.item('chart-heatmap', `EET heatmap: ${r.spec}`, height,
      { 'data-policy': r.spec }, { kind: 'heat', index, result: r }));
    const boxes = document.createElement('div');
    boxes.className = 'charts';
    boxes.append(veet.node, wt.node);
    const maps = document.createElement('div');
    maps.className = 'heatmaps';
    maps.append(...heats.map((i) => i.node));
    this.root.replaceChildren(boxes, maps);
    this.track([veet, wt, ...heats]);
  }

  /** Users with a violated EET in some policy, after exclude / only: a first guess of the rows. */
  estimateRows() {
    const users = new Set();
    for (const r of this.results) {
      const u = r.eetUsers;
      for (let i = 0; i < u.length; i += USER) if (u[i + 2] > 0) users.add(u[i]);
    }
    for (const x of userIds(this.heat.exclude).ids) users.delete(x);
    const only = userIds(this.heat.only).ids;
    if (this.heat.only.length) return only.filter((x) => users.has(x)).length;
    return users.size;
  }

  setHeat(heat) {
    this.heat = { ...DEFAULT_HEAT, ...heat };
    this.redrawHeat();
  }

  /** The time window changed (or the options): the heatmaps are out of date. */
  redrawHeat() {
    for (const item of this.items) if (item.kind === 'heat') item.dirty = true;
    this.schedule();
  }

  paint(item) {
    if (item.kind !== 'heat') {
      const r = this.results;
      const title = item.kind === 'veet' ? 'Violated EETs per user (VEET_u)' : 'Weighted tardiness per user (WT_u)';
      call('draw_eet_box', item.canvas, r.map((x) => x.eetUsers), r.map((x) => x.spec), item.kind, title, this.slots);
      const column = item.kind === 'veet' ? 3 : 4;
      describe(item.canvas, `${title}, a box per policy over its users: ${r.map((x) => {
        const v = [];
        for (let i = column; i < x.eetUsers.length; i += USER) v.push(x.eetUsers[i]);
        v.sort((a, b) => a - b);
        return `${x.spec} median ${v.length ? fmtNumber(v[Math.floor(v.length / 2)], 1) : '–'}${item.kind === 'veet' ? ' %' : ''} over ${count(v.length, 'user')}`;
      }).join('; ')}.`);
      return;
    }
    const r = this.few;
    const began = performance.now();
    const [t0, t1] = this.window();
    // Memory in use (when the trace has memory figures), on one scale for every policy: the peak.
    const memPeak = Math.max(0, ...r.map((x) => peakOfPairs(x.memory)));
    const shown = call('draw_eet_heatmap', item.canvas, r.map((x) => x.violations), item.index, item.result.series,
      item.result.memory ?? new Float64Array(0), memPeak, this.procs, t0, t1, `${item.result.spec}: ${fmtDuration(t0)} – ${fmtDuration(t1)}`,
      { log: this.heat.log, sort: this.heat.sort, exclude: userIds(this.heat.exclude).ids, only: onlyIds(this.heat.only), names: userNames() });
    item.canvas.dataset.users = Array.from(shown).join(',');
    describe(item.canvas, `EET heatmap of ${item.result.spec} from ${fmtDuration(t0)} to ${fmtDuration(t1)}: ${count(shown.length, 'user')} with violated expected end times (rows) over time, with the busy processors below.`);
    timings.heatDraws.push(performance.now() - began);
    if (timings.heatDraws.length > 200) timings.heatDraws.shift();
    // Every heatmap shows the same rows: give them all the height those rows need.
    const height = heatHeight(shown.length);
    if (height !== item.height) {
      for (const i of this.items) if (i.kind === 'heat') { i.height = height; i.dirty = true; sizeCanvas(i.canvas, height); }
      this.schedule();
    }
  }
}

/** The largest value of flat [time, value] pairs (0 when empty). */
function peakOfPairs(flat) {
  let peak = 0;
  for (let i = 1; i < (flat?.length ?? 0); i += 2) if (flat[i] > peak) peak = flat[i];
  return peak;
}
