// Per-job columns of a run and what the distribution charts need from them, prepared once: in
// the worker right after each run (while the next policy runs), or in the page as a fallback.
// No DOM here: the worker imports this module too.

import { JOB as LAYOUT } from './layouts.js';

export const JOB = LAYOUT.stride; // Session::jobs, fields in www/layouts.js
export const FIGS = ['wait', 'bsld'];
export const BYS = ['size', 'runtime'];
const COL = { wait: LAYOUT.wait, bsld: LAYOUT.bsld };

/** Column `col` of a jobs array; jobs that never ran (start < 0) are NaN. */
export function column(jobs, col) {
  const n = jobs.length / JOB;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = jobs[i * JOB + 3] >= 0 ? jobs[i * JOB + col] : NaN;
  return out;
}

/** The finite values of `values`, ascending. */
export function sortedFinite(values) {
  return values.filter(Number.isFinite).sort();
}

/** {sorted: {wait, bsld}, boxes: {'wait-size': ..., ...}} of one run's jobs array on a machine
 * of `procs`; `engine` provides job_classes and class_boxes (the wasm module's exports). */
export function prepareDistributions(engine, jobs, procs) {
  const classes = Object.fromEntries(BYS.map((by) => [by, engine.job_classes(jobs, procs, by)]));
  const sorted = {}, boxes = {};
  for (const fig of FIGS) {
    const values = column(jobs, COL[fig]);
    sorted[fig] = sortedFinite(values);
    for (const by of BYS) boxes[`${fig}-${by}`] = engine.class_boxes(values, classes[by], by);
  }
  return { sorted, boxes };
}

/** The typed arrays of a prepareDistributions result (to transfer them). */
export function buffersOf(prepared) {
  return [...Object.values(prepared.sorted), ...Object.values(prepared.boxes)].map((a) => a.buffer);
}
