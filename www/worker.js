// The simulation worker (a module worker). It owns its own copy of the engine, so a long run never
// blocks the page; the page runs several (www/runner.js: a pool) and hands each a task at a time.
// A pool worker runs built-in policies only: a JavaScript policy (`js:NAME`) runs in a sealed
// worker of its own (sealed.js), made for that run; `custom` is refused here.
// Protocol (every message carries the run's `id`; the first task of an id reads the trace, later
// tasks of the same id reuse it and may leave `bytes` out):
//   page -> worker  {type: 'run', id, bytes, name, options, specs, indices, seed, custom}
//                   (indices: each spec's index in the comparison; default 0, 1, ...;
//                   custom: {name, code} of the page's JavaScript policy, run for the spec
//                   `js:NAME` (see custom.js); only the sealed worker, sealed.js, takes it)
//   worker -> page  {type: 'facts', facts, traceStats}               when it read the trace
//                   (traceStats: Session::trace_stats)
//                   {type: 'progress', index, done, total}          at most every 100 ms
//                   {type: 'result', index, spec, report, rects, jobs, series, eetUsers, violations, memory, factors,
//                    dist: {sorted: {wait, bsld}, boxes: {'wait-size', ...}},   (jobcols.js)
//                    nodeRows: {first, names, gpus, gpu_jobs, lane_first, lane_rows, rows} on a cluster, else null}
//                                                                   arrays transferred
//                   {type: 'done'} | {type: 'error', stage, message, panicked}
//   page -> worker  {type: 'export', req, index, kind: 'jobs' | 'runs' | 'alloc'}   (index: the comparison's)
//   worker -> page  {type: 'export', req, csv} | {type: 'export', req, error}
// Sweeps (one metric over the values of a key and seeds 1..N, as `schedlab sweep`):
//   page -> worker  {type: 'sweep', id, bytes, name, options, specs: [[spec per value] per policy],
//                    seeds, metric, custom}   (custom: as for 'run', for a `js:NAME` spec)
//   worker -> page  {type: 'progress', index: 0, done, total}        after runs, at most every 100 ms
//                   {type: 'result', stats}    Float64Array [mean, min, max] per value per policy
//                   {type: 'done'} | {type: 'error', stage, message, panicked}
// The session of the last run stays alive until the next run id, to answer exports.
import init from '../pkg/schedlab.js';
import { simulator } from './simulate.js';

const ready = init();
const post = (message, transfer = []) => self.postMessage(message, transfer);
const sim = simulator(post);

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg && msg.type === 'export') {
    sim.exportCsv(msg);
    return;
  }
  if (!msg || (msg.type !== 'run' && msg.type !== 'sweep')) return;
  // User code never runs in a pool worker (it would stay in it for the next runs).
  msg.custom = null;
  try {
    await ready;
  } catch (err) {
    post({ type: 'error', id: msg.id, stage: 'load', message: `the engine could not start in the worker: ${err.message}` });
    return;
  }
  if (msg.type === 'sweep') sim.sweep(msg); else sim.run(msg);
};
