// The Gantt charts, one per policy, drawn by the engine (draw_gantt). They share one time window: wheel = zoom around the pointer, drag = pan, double-click =
// reset; a tooltip shows the job under the pointer (found from the rects and jobs arrays) and
// why it started then; a click on a job marks its first reservation and outlines the job it
// waited for (and the one it overtook).
import { call } from './engine.js';
import { el, fmtDuration, fmtNumber, count } from './ui.js';
import { RECT as RECT_LAYOUT, JOB as JOB_LAYOUT } from './layouts.js';
import { whySentence, selection } from './why.js';
import { canvasPoint, timings, describe } from './figure.js';
import { LazyFigures } from './lazy.js';
import { userName, userNames } from './users.js';

const RECT = RECT_LAYOUT.stride; // [start, end, lo, hi, user, job, kind]: kind 1 = a preempted (killed) attempt, + 2 = GPU lanes
const JOB = JOB_LAYOUT.stride;   // www/layouts.js
const MIN_SPAN = 60; // seconds: the narrowest window zoom allows

/** One Gantt chart per policy, sharing a time window. onWindow(window|null) after each change.
 * Charts are drawn lazily, one per animation frame and only when on screen (a whole LANL-CM5
 * schedule takes a few hundred ms to draw), so the page never stalls for long. */
export class Gantts extends LazyFigures {
  constructor(root, onWindow) {
    super((item) => `the Gantt chart of ${item.result.spec}`);
    this.root = root;
    this.onWindow = onWindow;
    this.full = [0, 1];
    this.window = null;
    this.tip = el('div', { class: 'tooltip', role: 'tooltip', 'data-testid': 'gantt-tooltip', hidden: true });
  }

  show(results, procs, window) {
    this.procs = procs;
    // The node model's cores per node: the chart draws a line between nodes.
    this.cores = results[0]?.report?.input?.nodes?.cores ?? 0;
    // A cluster's nodes ({first, names}): a line between nodes, their names on the axis. On a
    // cluster with GPUs each node also has a lane per GPU: the rects count rows (nodeRows.rows),
    // not processors.
    this.nodes = results[0]?.nodeRows ?? null;
    this.rows = this.nodes?.rows ?? procs;
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
    this.hideTip();
    const items = results.map((r) => {
      const item = this.item('chart-gantt', `Gantt: ${r.spec}`, 340, { 'data-policy': r.spec }, { result: r });
      item.caption = el('p', { class: 'gantt-selection', 'data-testid': 'gantt-selection', hidden: true });
      item.node.append(item.caption);
      this.attach(item);
      return item;
    });
    this.root.replaceChildren(...items.map((i) => i.node));
    this.track(items);
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

  paint(item) {
    const began = performance.now();
    const [t0, t1] = this.current();
    // The engine returns where it put the plotting area: [x0, y0, x1, y1] in canvas pixels.
    const [x0, y0, x1, y1] = call('draw_gantt', item.canvas, item.result.rects, this.rows, t0, t1, `${item.result.spec}: ${fmtDuration(t0)} – ${fmtDuration(t1)}`, this.cores,
      this.byPenalty && item.result.factors ? item.result.factors : new Float64Array(0), this.nodes ?? undefined, userNames());
    item.area = { x0, y0, x1, y1 };
    item.drawn = [t0, t1];
    describe(item.canvas, ganttSummary(item.result, this.procs, t0, t1, this.byPenalty));
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
    const p = ((a.y1 - y) / (a.y1 - a.y0)) * this.rows;
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
    if (hit.lane) killed.push(el('br'), el('em', {}, 'GPU lanes'), ': the GPUs it holds on this node');
    this.tip.replaceChildren(
      el('strong', {}, `job ${id}`), ` user ${userName(user)}`, ...killed, el('br'),
      `submit ${fmtDuration(submit)}, start ${start < 0 ? '–' : fmtDuration(start)}, end ${end < 0 ? '–' : fmtDuration(end)}`, el('br'),
      `${procs} processors, wait ${fmtDuration(wait)}, bsld ${fmtNumber(bsld, 2)}`, el('br'),
      el('span', { class: 'why', 'data-testid': 'gantt-why' }, whySentence(item.result, hit.job)),
      el('br'), el('small', { 'data-testid': 'gantt-click' }, clickHint(selection(item.result, hit.job))));
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
    const y = (p) => a.y1 - (p / this.rows) * (a.y1 - a.y0);
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

/** A Gantt chart's text alternative: its window, how many jobs run in it and how busy the
 * machine is there on average. */
export function ganttSummary(result, procs, t0, t1, byPenalty) {
  const r = result.rects, jobs = new Set();
  let area = 0;
  for (let i = 0; i < r.length; i += RECT) {
    const a = Math.max(r[i], t0), b = Math.min(r[i + 1], t1);
    if (b <= a || r[i + 6] >= 2) continue; // GPU lanes: not processors
    jobs.add(r[i + 5]);
    area += (b - a) * (r[i + 3] - r[i + 2]);
  }
  const busy = t1 > t0 && procs > 0 ? (100 * area) / ((t1 - t0) * procs) : 0;
  return `Gantt chart of ${result.spec} from ${fmtDuration(t0)} to ${fmtDuration(t1)}: ${count(jobs.size, 'job')} on ${count(procs, 'processor')}, `
    + `${fmtNumber(busy, 1)} % busy on average; jobs coloured by ${byPenalty ? 'penalty factor' : 'user'}.`;
}

/** The attempt whose rectangle covers (t, p): {job (index), preempted, lane (a rectangle of
 * GPU lanes), start, end}, or null. */
export function findJob(result, t, p) {
  const r = result.rects;
  for (let i = 0; i < r.length; i += RECT) {
    if (r[i] <= t && t < r[i + 1] && r[i + 2] <= p && p < r[i + 3]) {
      return { job: r[i + 5], preempted: r[i + 6] % 2 === 1, lane: r[i + 6] >= 2, start: r[i], end: r[i + 1] };
    }
  }
  return null;
}

/** What a click on a job shows, from its `selection`: a job with no reservation, no job it
 * waited for and none it overtook is only outlined. */
function clickHint(s) {
  const parts = [
    s.reservation >= 0 ? 'its first reservation' : '',
    s.waitedFor >= 0 ? 'the job it waited for' : '',
    s.overtook >= 0 ? 'the job it started ahead of' : '',
  ].filter(Boolean);
  return parts.length ? `Click: ${parts.join(', ')}` : 'Click: outline it (no reservation; it waited for and overtook no job)';
}
