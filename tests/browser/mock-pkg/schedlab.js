// A hand-written stand-in for pkg/schedlab.js (the wasm-bindgen output), used only to develop the
// page before the real package exists. It mimics the API's shapes, not the engine: it parses
// plain-text SWF, replaces gzip input by a synthetic trace, schedules FCFS-like ("easy" lets
// small jobs jump ahead) and draws with the 2D canvas API. Never served as the real thing.

let panicked = false;
export default async function init() {}
export function version() { return '0.0.0-mock'; }
export function has_panicked() { return panicked; }
export function random_seed() { return Math.floor(Math.random() * 2 ** 32); }

const CATALOGUE = [
  { name: 'fcfs', summary: 'First come, first served (mock).', description: 'mock', source: 'classic', keys: [] },
  { name: 'easy', summary: 'EASY backfilling (mock).', description: 'mock', source: 'Lifka 1995',
    keys: [{ name: 'order', default: 'fcfs', values: 'fcfs|sjf', help: 'backfill order' },
           { name: 'depth', default: '1', values: 'an integer >= 1', help: 'mock free-text key' }] },
  { name: 'conservative', summary: 'Conservative backfilling (mock).', description: 'mock', source: 'Mu\'alem & Feitelson', keys: [] },
];
export function policies() { return structuredClone(CATALOGUE); }

export function canonical_spec(spec) {
  const m = /^\s*([a-z0-9_-]+)\s*(?:\[(.*)\])?\s*$/.exec(spec);
  if (!m) throw new Error(`policy "${spec}": parameters must be written [key=value,...]`);
  const info = CATALOGUE.find((p) => p.name === m[1]);
  if (!info) throw new Error(`policy "${spec}": unknown policy "${m[1]}"; valid: ${CATALOGUE.map((p) => p.name).join(', ')}`);
  const vals = {};
  for (const part of (m[2] || '').split(',').filter((s) => s.trim())) {
    const [k, v] = part.split('=').map((s) => s && s.trim());
    const key = info.keys.find((x) => x.name === k);
    if (!key) throw new Error(`policy "${spec}": unknown key "${k}"; valid: ${info.keys.map((x) => x.name).join(', ') || 'none'}`);
    if (!v) throw new Error(`policy "${spec}": ${k}: empty value`);
    if (key.values.includes('|') && !key.values.split('|').includes(v)) throw new Error(`policy "${spec}": ${k}: "${v}" is not one of ${key.values}`);
    if (k === 'depth' && !/^[1-9][0-9]*$/.test(v)) throw new Error(`policy "${spec}": depth: "${v}" is not an integer >= 1`);
    vals[k] = v;
  }
  const kept = info.keys.filter((k) => vals[k.name] !== undefined && vals[k.name] !== k.default);
  return kept.length ? `${info.name}[${kept.map((k) => `${k.name}=${vals[k.name]}`).join(',')}]` : info.name;
}

function parse(name, bytes, options) {
  if (bytes.length === 0) throw new Error(`${name}: empty input`);
  let jobs = [], procs = 0, source = 'widest job', skipped = [], header = 0;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b && bytes.length < 1000) throw new Error(`${name}: corrupt gzip data (mock)`);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) { // synthetic stand-in for gzip input
    let s = bytes.length;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
    const n = Math.min(4000, 200 + (bytes.length % 3000));
    header = 128; source = 'MaxProcs header';
    for (let i = 0, t = 0; i < n; i++) {
      t += Math.floor(rnd() * 600);
      const run = 10 + Math.floor(rnd() * 20000);
      jobs.push({ id: i + 1, submit: t, run, req: run * 2, procs: 1 + Math.floor(rnd() ** 3 * 127), user: Math.floor(rnd() * 30) });
    }
  } else {
    if (bytes.slice(0, 4096).includes(0)) throw new Error(`${name}: line 1: binary data, not an SWF text file`);
    const lines = new TextDecoder().decode(bytes).split('\n');
    lines.forEach((line, i) => {
      const t = line.trim();
      if (!t) return;
      if (t.startsWith(';')) {
        const m = /MaxProcs:\s*(\d+)/.exec(t);
        if (m) header = +m[1];
        return;
      }
      const f = t.split(/\s+/).map(Number);
      if (f.length < 18 || f.some(Number.isNaN)) {
        if (options.strict) throw new Error(`${name}: line ${i + 1}, field ${Math.min(f.length, 18)}: not a number`);
        skipped.push(`line ${i + 1}: not 18 numeric fields`);
        return;
      }
      if (f[3] < 0) { skipped.push(`line ${i + 1} (job ${f[0]}): field 4 (run_time): ${f[3] === -1 ? 'unknown' : 'negative'} runtime (${f[3]})`); return; }
      jobs.push({ id: f[0], submit: f[1], run: f[3], req: f[8] > 0 ? f[8] : f[3], procs: f[4] > 0 ? f[4] : f[7], user: f[11] });
    });
    if (header) source = 'MaxProcs header';
  }
  if (!jobs.length) throw new Error(`${name}: no usable job`);
  procs = options.procs || header || Math.max(...jobs.map((j) => j.procs));
  if (options.procs) source = 'option';
  jobs = jobs.filter((j) => j.procs <= procs);
  const t0 = jobs[0].submit;
  for (const j of jobs) j.submit -= t0;
  return { jobs, procs, source, skipped };
}

export class Session {
  constructor(name, bytes, options = {}) {
    this.name = name;
    this.options = options;
    const parsed = parse(name, bytes, options);
    this.list = parsed.jobs; this.procs = parsed.procs; this.source = parsed.source; this.skipped = parsed.skipped;
    this.last = null;
  }
  facts() {
    const j = this.list;
    return { name: this.name, jobs: j.length, users: new Set(j.map((x) => x.user)).size, procs: this.procs,
      procs_source: this.source, span: j[j.length - 1].submit - j[0].submit, skipped: this.skipped.length,
      skipped_reasons: this.skipped.slice(0, 5), warnings: [] };
  }
  run(spec, seed, progress) {
    const canon = canonical_spec(spec);
    const easy = canon.startsWith('easy') || canon.startsWith('conservative');
    const n = this.list.length, P = this.procs;
    const free = new Uint8Array(P).fill(1);
    const running = []; // {end, intervals, idx}
    const queue = [];
    const out = this.list.map(() => ({ start: -1, end: -1 }));
    const rects = [], series = [];
    let next = 0, now = 0, nfree = P, events = 0;
    const alloc = (k) => {
      const iv = [];
      for (let p = 0; p < P && k > 0; p++) if (free[p]) {
        free[p] = 0; k--;
        if (iv.length && iv[iv.length - 1][1] === p) iv[iv.length - 1][1] = p + 1; else iv.push([p, p + 1]);
      }
      return iv;
    };
    while (next < n || queue.length || running.length) {
      const tSub = next < n ? this.list[next].submit : Infinity;
      const tEnd = running.length ? Math.min(...running.map((r) => r.end)) : Infinity;
      now = Math.min(tSub, tEnd);
      for (let i = running.length - 1; i >= 0; i--) if (running[i].end <= now) {
        for (const [a, b] of running[i].iv) for (let p = a; p < b; p++) free[p] = 1;
        nfree += this.list[running[i].idx].procs;
        running.splice(i, 1);
      }
      while (next < n && this.list[next].submit <= now) queue.push(next++);
      for (let q = 0; q < queue.length;) {
        const j = this.list[queue[q]];
        if (j.procs <= nfree) {
          const run = this.options.kill === false ? j.run : Math.min(j.run, j.req);
          const iv = alloc(j.procs);
          nfree -= j.procs;
          out[queue[q]] = { start: now, end: now + run };
          for (const [a, b] of iv) rects.push(now, now + run, a, b, j.user, queue[q], 0);
          running.push({ end: now + run, iv, idx: queue[q] });
          queue.splice(q, 1);
        } else if (easy && q === 0) q++;
        else if (easy && j.procs <= nfree) q++;
        else if (easy) q++;
        else break;
      }
      series.push(now, P - nfree, queue.length);
      if (++events % 1000 === 0 && progress && progress(next, n) === false) throw new Error('cancelled');
    }
    const waits = out.map((o, i) => o.start - this.list[i].submit);
    const bslds = out.map((o, i) => (waits[i] + Math.max(o.end - o.start, 10)) / Math.max(o.end - o.start, 10));
    const sorted = (a) => [...a].sort((x, y) => x - y);
    const summ = (a) => { const s = sorted(a); return { mean: a.reduce((x, y) => x + y, 0) / a.length, median: s[Math.floor((s.length - 1) / 2)], p95: s[Math.ceil(0.95 * s.length) - 1], max: s[s.length - 1] }; };
    const makespan = Math.max(...out.map((o) => o.end));
    const busy = this.list.reduce((acc, j, i) => acc + j.procs * (out[i].end - out[i].start), 0);
    const counts = { jobs: n, skipped: this.skipped.length, killed: 0, backfilled: 0, blocked: 0, preempted: 0, preemptions: 0 };
    this.last = { rects, out, series };
    return {
      trace: this.name, policy: canon, seed, machine_procs: P, machine_procs_source: this.source,
      input: { procs: this.options.procs ?? null, wide: 'skip', skip_status: [], skip_zero_runtime: false, estimate: 'requested', kill: this.options.kill !== false, origin: 'first' },
      counts, metrics: { counts, wait: summ(waits), response: summ(out.map((o, i) => o.end - this.list[i].submit)), bsld: summ(bslds), stretch: summ(bslds),
        mbs: summ(bslds).mean, mwbs: summ(bslds).mean, utilization: busy / (P * makespan), load: 0.5, makespan, cpu_seconds: busy, wasted_cpu_seconds: 0, bsld_bound: 10 },
      warnings: [],
    };
  }
  rects() { return new Float64Array(this.last.rects); }
  jobs() {
    const a = [];
    this.list.forEach((j, i) => { const o = this.last.out[i]; a.push(j.id, j.user, j.submit, o.start, o.end, j.procs, o.start - j.submit, 1, o.start >= 0 ? 1 : 0, -1, -1); });
    return new Float64Array(a);
  }
  series() { return new Float64Array(this.last.series); }
  eet_users() { return new Float64Array(0); } // no EET figures in the mock
  violations() { return new Float64Array(0); }
  memory() { return new Float64Array(0); }
  measure(spec, seed) { return this.run(spec, seed).metrics.mbs; }
  free() {}
}

// ---- drawing (2D canvas; margins chosen like a plotters chart) ----
const M = { left: 54, right: 116, top: 33, bottom: 34 }; // like src/charts/gantt.rs
function frame(canvas, title) {
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#000'; ctx.font = '14px sans-serif'; ctx.fillText(title, M.left, 18);
  ctx.strokeStyle = '#000'; ctx.strokeRect(M.left, M.top, canvas.width - M.left - M.right, canvas.height - M.top - M.bottom);
  return { ctx, w: canvas.width - M.left - M.right, h: canvas.height - M.top - M.bottom };
}
const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
export function draw_gantt(canvas, rects, procs, t0, t1, title) {
  const { ctx, w, h } = frame(canvas, title);
  const sx = w / (t1 - t0), sy = h / procs;
  for (let i = 0; i < rects.length; i += 7) {
    const [s, e, lo, hi, user] = rects.subarray(i, i + 5);
    if (e < t0 || s > t1) continue;
    ctx.fillStyle = COLORS[user % COLORS.length];
    const x0 = M.left + Math.max(0, (s - t0) * sx), x1 = M.left + Math.min(w, (e - t0) * sx);
    ctx.fillRect(x0, M.top + h - hi * sy, Math.max(1, x1 - x0), (hi - lo) * sy);
  }
  ctx.fillStyle = '#000'; ctx.font = '11px sans-serif';
  ctx.fillText(String(Math.round(t0)), M.left, canvas.height - 20);
  ctx.fillText(String(Math.round(t1)), M.left + w - 50, canvas.height - 20);
  return new Int32Array([M.left, M.top, M.left + w, M.top + h]); // the plotting area, as the engine's
}
export function chart_colours() { return [...COLORS]; }
export function draw_series(canvas, series, labels, column, title) {
  const { ctx, w, h } = frame(canvas, title);
  let tmax = 1, ymax = 1;
  for (const s of series) for (let i = 0; i < s.length; i += 3) { tmax = Math.max(tmax, s[i]); ymax = Math.max(ymax, s[i + column]); }
  series.forEach((s, k) => {
    ctx.strokeStyle = COLORS[k % COLORS.length]; ctx.beginPath();
    for (let i = 0; i < s.length; i += 3) ctx.lineTo(M.left + s[i] / tmax * w, M.top + h - s[i + column] / ymax * h);
    ctx.stroke(); ctx.fillStyle = COLORS[k % COLORS.length]; ctx.fillText(labels[k], M.left + w - 120, M.top + 14 + 14 * k);
  });
}
export function draw_bars(canvas, labels, values, title) {
  const { ctx, w, h } = frame(canvas, title);
  const vmax = Math.max(1e-9, ...values), bw = w / Math.max(1, labels.length);
  labels.forEach((l, k) => {
    ctx.fillStyle = COLORS[k % COLORS.length];
    const bh = values[k] / vmax * h;
    ctx.fillRect(M.left + k * bw + bw * 0.15, M.top + h - bh, bw * 0.7, bh);
    ctx.fillStyle = '#000'; ctx.fillText(l, M.left + k * bw + bw * 0.2, canvas.height - 20);
  });
}
export function draw_eet_box(canvas, users, labels, figure, title) { frame(canvas, title); }
export function draw_eet_heatmap(canvas, violations, panel, busy, memory, memoryCapacity, procs, t0, t1, title) { frame(canvas, title); return new Float64Array(0); }
// A few rows of the engine's metrics catalogue (`metrics()`), in its shape.
const METRIC_ROWS = [
  ['jobs', 'jobs simulated', '', 0, 'none', 'classic', 'counts.jobs'],
  ['wait', 'mean wait', 's', 1, 'lower', 'classic', 'wait.mean'],
  ['mbs', 'mean bounded slowdown (MBS)', '', 2, 'lower', 'classic', 'mbs'],
  ['utilization', 'utilization', '', 4, 'higher', 'classic', 'utilization'],
];
export function metrics() {
  return METRIC_ROWS.map(([name, label, unit, digits, better, family, path]) => ({ name, label, short: label, unit, digits, better, family, path }));
}
export function sweep_specs(policy, vary) {
  const c = canonical_spec(policy);
  if (!vary.trim()) return { key: '', values: [''], specs: [c] };
  const [key, list] = vary.split('=');
  const values = list.split(',');
  return { key, values, specs: values.map(() => c) };
}
export function draw_sweep(canvas, values, labels, stats, key, metric, title) { frame(canvas, title); }
// The cluster panel: the presets only (the mock reads no cluster).
export function cluster_presets() { return [['gpu', '1/gpu[01-16]:c64:m512000:ga100=4:fa100,ib/p=gpu:ALL:default:t2880/p=debug:gpu[01-02]:t60:r2']]; }
export function cluster_from_compact() { throw new Error('the mock engine reads no cluster'); }
export function cluster_from_conf() { throw new Error('the mock engine reads no cluster'); }
